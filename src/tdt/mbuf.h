// Shared buffers (acltdtBuf, "mbufs"): what TDT queues hold.
//
// An Mbuf is a header over a data area: the area (shared by reference copies,
// acltdtCopyBufRef), the effective data length, a 96-byte private (user)
// data area, and, on a chain head, the buffers appended to it (at most 128
// in a chain, head included).
//
// Ownership: a buffer handle is live while the program owns it (allocated,
// reference-copied or dequeued, and not freed or enqueued). Enqueueing hands
// the buffer (and its chain) to the queue; dequeueing hands it back. The
// MbufTable holds the live handles so stale ones are reported, never
// dereferenced. Lock: MbufTable::mu_ (leaf); an Mbuf's fields are only
// touched by the one owner of its handle.
#ifndef SIMNPU_TDT_MBUF_H_
#define SIMNPU_TDT_MBUF_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simnpu::tdt {

constexpr size_t kUserDataBytes = 96;
constexpr uint32_t kMaxChainBuffers = 128;

struct Mbuf {
  std::shared_ptr<std::vector<uint8_t>> area;  // data area; never null
  size_t data_len = 0;                         // effective length <= area->size()
  uint8_t user[kUserDataBytes] = {};
  Mbuf* head = nullptr;                        // chain head this buffer was appended to (null: none)
  std::vector<std::shared_ptr<Mbuf>> chain;    // appended buffers (head only), in order

  size_t capacity() const { return area->size(); }
  uint8_t* data() { return area->data(); }
};

std::shared_ptr<Mbuf> MakeMbuf(size_t size);

class MbufTable {
 public:
  static MbufTable& Get();

  // Registers b (and its chain) as owned by the program; returns the handle.
  void* Adopt(const std::shared_ptr<Mbuf>& b);
  // The live buffer behind handle h, or null.
  std::shared_ptr<Mbuf> Find(const void* h) const;
  // Unregisters h and its chain (free or enqueue); the caller keeps the
  // returned reference. Null if h is not live.
  std::shared_ptr<Mbuf> Release(const void* h);
  size_t live() const;

 private:
  mutable std::mutex mu_;  // leaf
  std::unordered_map<const void*, std::shared_ptr<Mbuf>> live_;
};

}  // namespace simnpu::tdt

#endif  // SIMNPU_TDT_MBUF_H_
