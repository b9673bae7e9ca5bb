// FreshPagePool.
#include "uvm/host_pool.h"

#include <sys/mman.h>

#include <cstring>

#include "platform/vm.h"
#include "uvm/page_mask.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace simnpu::uvm {

bool FreshPagePool::Init(size_t slots) {
  void* p = platform::ReserveVa(slots * kBlockSize, kBlockSize);
  if (!p) return false;
  if (platform::CommitRw(p, slots * kBlockSize, /*huge=*/true) != 0) return false;
  base_ = static_cast<char*>(p);
  slots_ = slots;
  state_.assign(slots, 0);
  return true;
}

char* FreshPagePool::Take() {
  size_t pick = slots_;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (size_t i = 0; i < slots_; ++i)
      if (state_[i] == 1) { pick = i; break; }
    if (pick == slots_)
      for (size_t i = 0; i < slots_; ++i)
        if (state_[i] == 0) { pick = i; break; }
    if (pick == slots_) return nullptr;
    bool populated = state_[pick] == 1;
    state_[pick] = 2;
    if (populated) return base_ + pick * kBlockSize;
  }
  char* slot = base_ + pick * kBlockSize;
  if (madvise(slot, kBlockSize, MADV_POPULATE_WRITE) != 0) std::memset(slot, 0, kBlockSize);
  return slot;
}

void FreshPagePool::Give(char* slot, bool hole) {
  size_t i = static_cast<size_t>(slot - base_) / kBlockSize;
  std::lock_guard<std::mutex> g(mu_);
  if (i < slots_) state_[i] = hole ? 0 : 1;
}

}  // namespace simnpu::uvm
