// The set of aclnn objects that are alive (created and not yet destroyed),
// kept by libnnopbase.so and consulted by libopapi.so too. A handle is
// trusted only if it is in the set and carries the magic word of its kind,
// so a destroyed handle, a double destroy or a pointer that was never an
// aclnn object is refused with a code instead of being read after free.
//
// The set holds addresses only; it never reads the objects. An object is
// added by its creator once it is complete and removed before it is deleted.
// Thread safety: the set has its own mutex (a leaf lock: nothing else is
// taken while it is held). As with the real library, an object must not be
// destroyed while another thread is using it.
#ifndef SIMNPU_ACLNN_COMMON_LIVE_OBJECTS_H_
#define SIMNPU_ACLNN_COMMON_LIVE_OBJECTS_H_

#include <cstdint>

extern "C" {
// Internal entry points of libnnopbase.so (not in any public header).
__attribute__((visibility("default"))) void simnpu_aclnn_live_add(const void* obj);
// 1 if obj was alive (and is now forgotten), 0 if it was not.
__attribute__((visibility("default"))) int simnpu_aclnn_live_remove(const void* obj);
__attribute__((visibility("default"))) int simnpu_aclnn_live_contains(const void* obj);
}

namespace simnpu {
namespace aclnn {

// Publishes a complete object (no-op for NULL).
template <typename T>
inline void LiveAdd(const T* p) {
  if (p != nullptr) simnpu_aclnn_live_add(p);
}

// True if p is a live object whose magic word is `magic`.
template <typename T>
inline bool IsLive(const T* p, uint32_t magic) {
  return p != nullptr && simnpu_aclnn_live_contains(p) != 0 && p->magic == magic;
}

// Forgets and deletes an object (live or not yet published).
template <typename T>
inline void Drop(T* p) {
  if (p == nullptr) return;
  simnpu_aclnn_live_remove(p);
  delete p;
}

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_COMMON_LIVE_OBJECTS_H_
