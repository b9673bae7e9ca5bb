// VaSpace: the managed address window and the allocations in it.
//
// The window (3 TiB, starting at 0x90000000000 as the ACL documentation
// gives it; anywhere else if that range is taken, e.g. by a sanitizer's
// shadow memory) is reserved PROT_NONE at start-up. Where no 3 TiB hole
// exists at all (ThreadSanitizer restricts the address space) a smaller
// window is used. aclrtMemAllocManaged
// carves 2 MiB-aligned ranges out of it (first fit); each allocation is a
// run of VaBlocks. Block lookup is lock-free through a flat table indexed
// by (address - window base) >> 21.
//
// Lock: mu_ (shared_mutex). Block operations hold it shared for their whole
// duration, so a block cannot be freed under them; Allocate/Free hold it
// exclusively. Order: VaSpace::mu_ -> VaBlock::mu.
#ifndef SIMNPU_UVM_VA_SPACE_H_
#define SIMNPU_UVM_VA_SPACE_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

#include "platform/status.h"
#include "uvm/va_block.h"

namespace simnpu::uvm {

constexpr uintptr_t kWindowBase = 0x90000000000ull;          // 9 TiB
constexpr size_t kWindowSize = size_t{3} << 40;              // 3 TiB

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;  // multiple of kBlockSize
  std::vector<std::unique_ptr<VaBlock>> blocks;
};

class VaSpace {
 public:
  Status Init();
  bool initialized() const { return base_ != 0; }
  uintptr_t base() const { return base_; }
  size_t size() const { return size_; }
  bool at_documented_address() const { return at_doc_; }
  bool InWindow(uintptr_t a) const { return a - base_ < size_; }

  std::shared_mutex& mu() { return mu_; }

  // REQUIRES: mu() held exclusively.
  StatusOr<Allocation*> Allocate(size_t size);
  // REQUIRES: mu() held exclusively. The allocation must start at `base`.
  std::unique_ptr<Allocation> Remove(uintptr_t base);

  // Lock-free; valid while mu() is held (shared or exclusive).
  VaBlock* BlockOf(uintptr_t a) const {
    if (!InWindow(a)) return nullptr;
    return table_[(a - base_) >> kBlockShift].load(std::memory_order_acquire);
  }
  // REQUIRES: mu() held.
  Allocation* AllocationOf(uintptr_t a) const;
  // Every live block (REQUIRES: mu() held).
  template <typename Fn>
  void ForEachBlock(Fn fn) const {
    for (auto& [b, a] : allocs_)
      for (auto& blk : a->blocks) fn(*blk);
  }

 private:
  uintptr_t base_ = 0;
  size_t size_ = 0;  // kWindowSize, or smaller where the address space is restricted (sanitizers)
  bool at_doc_ = false;
  std::shared_mutex mu_;
  std::atomic<VaBlock*>* table_ = nullptr;                   // one slot per 2 MiB of the window
  std::map<uintptr_t, std::unique_ptr<Allocation>> allocs_;  // GUARDED_BY(mu_)
  std::map<uintptr_t, size_t> free_;                         // free VA extents. GUARDED_BY(mu_)
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_VA_SPACE_H_
