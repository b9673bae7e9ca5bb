// Page-locked and registered host memory.
#include "core/host_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "platform/vm.h"

namespace simnpu::core {

HostMemory& HostMemory::Get() {
  static HostMemory* h = new HostMemory();
  return *h;
}

StatusOr<void*> HostMemory::AllocPinned(size_t size) {
  size_t n = platform::AlignUp(size, platform::kPageSize);
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return Status(207001, std::string("cannot allocate ") + std::to_string(size) +
                              " bytes of host memory: " + std::strerror(errno));
  if (n >= platform::kHugePageSize) madvise(p, n, MADV_HUGEPAGE);
  std::lock_guard<std::mutex> g(mu_);
  pinned_[reinterpret_cast<uintptr_t>(p)] = n;
  return p;
}

Status HostMemory::FreePinned(void* p) {
  size_t n;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = pinned_.find(reinterpret_cast<uintptr_t>(p));
    if (it == pinned_.end())
      return Status(107000, "address was not returned by aclrtMallocHost");
    n = it->second;
    pinned_.erase(it);
  }
  munmap(p, n);
  return Status::Ok();
}

bool HostMemory::IsPinned(const void* p, size_t* alloc_size) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> g(mu_);
  auto it = pinned_.upper_bound(a);
  if (it == pinned_.begin()) return false;
  --it;
  if (a >= it->first + it->second) return false;
  if (alloc_size) *alloc_size = it->second;
  return true;
}

Status HostMemory::Register(void* p, uint64_t size, uint32_t flags) {
  auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> g(mu_);
  auto it = registered_.upper_bound(a);
  if (it != registered_.begin()) {
    auto prev = std::prev(it);
    if (a < prev->first + prev->second.size)
      return Status(507910, "the range overlaps memory that is already registered");
  }
  if (it != registered_.end() && it->first < a + size)
    return Status(507910, "the range overlaps memory that is already registered");
  registered_[a] = {size, flags};
  return Status::Ok();
}

Status HostMemory::Unregister(void* p) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = registered_.find(reinterpret_cast<uintptr_t>(p));
  if (it == registered_.end()) return Status(507911, "the address is not registered host memory");
  registered_.erase(it);
  return Status::Ok();
}

void* HostMemory::FindRegistered(const void* p) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> g(mu_);
  auto it = registered_.upper_bound(a);
  if (it == registered_.begin()) return nullptr;
  --it;
  if (a >= it->first + it->second.size) return nullptr;
  return reinterpret_cast<void*>(it->first);
}

}  // namespace simnpu::core
