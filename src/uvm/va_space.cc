// VaSpace: window reservation and first-fit placement of allocations.
#include "uvm/va_space.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "dfx/log.h"
#include "platform/vm.h"
#include "sim/npu_system.h"

namespace simnpu::uvm {

Status VaSpace::Init() {
  bool at_hint = false;
  size_t size = kWindowSize;
  void* p = platform::ReserveVa(size, kBlockSize, kWindowBase, &at_hint);
  while (!p && size > (size_t{64} << 30)) {
    size /= 4;
    p = platform::ReserveVa(size, kBlockSize, 0, nullptr);
  }
  if (!p)
    return Status(207001, std::string("cannot reserve the managed address window: ") + std::strerror(errno));
  size_ = size;
  size_t slots = size >> kBlockShift;
  void* t = mmap(nullptr, slots * sizeof(std::atomic<VaBlock*>), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (t == MAP_FAILED) {
    platform::ReleaseVa(p, size);
    return Status(207001, "cannot allocate the managed block table");
  }
  table_ = static_cast<std::atomic<VaBlock*>*>(t);  // zero pages read as nullptr
  base_ = reinterpret_cast<uintptr_t>(p);
  at_doc_ = at_hint;
  free_[base_] = size_;
  if (size_ != kWindowSize)
    SIMNPU_LOGW(kDrv, "managed window is %zu GiB (no 3 TiB hole in the address space)", size_ >> 30);
  if (!at_hint)
    SIMNPU_LOGW(kDrv, "managed window placed at %#lx instead of %#lx (that range is in use)",
                static_cast<unsigned long>(base_), static_cast<unsigned long>(kWindowBase));
  return Status::Ok();
}

StatusOr<Allocation*> VaSpace::Allocate(size_t size) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    uintptr_t start = it->first;
    size_t len = it->second;
    free_.erase(it);
    if (len > size) free_[start + size] = len - size;
    auto a = std::make_unique<Allocation>();
    a->base = start;
    a->size = size;
    for (size_t off = 0; off < size; off += kBlockSize)
      a->blocks.push_back(std::make_unique<VaBlock>(start + off, a.get(), sim::NpuSystem::Get().physical_count()));
    for (size_t i = 0; i < a->blocks.size(); ++i)
      table_[((start - base_) >> kBlockShift) + i].store(a->blocks[i].get(), std::memory_order_release);
    Allocation* raw = a.get();
    allocs_[start] = std::move(a);
    return raw;
  }
  return Status(207001, "the managed address window has no free range of " +
                            std::to_string(size >> 20) + " MiB");
}

std::unique_ptr<Allocation> VaSpace::Remove(uintptr_t base) {
  auto it = allocs_.find(base);
  if (it == allocs_.end()) return nullptr;
  std::unique_ptr<Allocation> a = std::move(it->second);
  allocs_.erase(it);
  for (size_t i = 0; i < a->blocks.size(); ++i)
    table_[((base - base_) >> kBlockShift) + i].store(nullptr, std::memory_order_release);
  // give the VA back, merging with neighbours
  uintptr_t start = a->base;
  size_t len = a->size;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + len == next->first) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += len;
      return a;
    }
  }
  free_[start] = len;
  return a;
}

Allocation* VaSpace::AllocationOf(uintptr_t a) const {
  VaBlock* b = BlockOf(a);
  return b ? b->alloc : nullptr;
}

}  // namespace simnpu::uvm
