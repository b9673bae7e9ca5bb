// Host memory the runtime knows about: page-locked allocations
// (aclrtMallocHost) and registered ranges (aclrtHostRegisterV2).
//
// Lock: mu_ (leaf).
#ifndef SIMNPU_CORE_HOST_MEMORY_H_
#define SIMNPU_CORE_HOST_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "platform/status.h"

namespace simnpu::core {

class HostMemory {
 public:
  static HostMemory& Get();

  StatusOr<void*> AllocPinned(size_t size);
  Status FreePinned(void* p);
  bool IsPinned(const void* p, size_t* alloc_size = nullptr) const;

  // Registration of existing host memory. Overlap -> 507910, unknown -> 507911.
  Status Register(void* p, uint64_t size, uint32_t flags);
  Status Unregister(void* p);
  // The registered range containing p (start address), or nullptr.
  void* FindRegistered(const void* p) const;

 private:
  mutable std::mutex mu_;
  std::map<uintptr_t, size_t> pinned_;                       // start -> mapped size. GUARDED_BY(mu_)
  struct Reg {
    uint64_t size;
    uint32_t flags;
  };
  std::map<uintptr_t, Reg> registered_;                      // start -> range. GUARDED_BY(mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_HOST_MEMORY_H_
