// FreshPagePool.
#include "uvm/host_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "platform/vm.h"
#include "uvm/page_mask.h"


namespace simnpu::uvm {
namespace {
enum : char { kHole = 0, kPopulated = 1, kTaken = 2, kRefilling = 3 };
}

bool FreshPagePool::Init(size_t slots, size_t warm) {
  if (base_) return true;
  void* p = platform::ReserveVa(slots * kBlockSize, kBlockSize);
  if (!p) return false;
  if (platform::CommitRw(p, slots * kBlockSize, /*huge=*/true) != 0) {
    platform::ReleaseVa(p, slots * kBlockSize);
    return false;
  }
  base_ = static_cast<char*>(p);
  slots_ = slots;
  warm_ = std::min(warm, slots);
  state_.assign(slots, kHole);
  if (warm_ > 0) std::thread([this] { RefillLoop(); }).detach();
  return true;
}

// Populates by touching one byte per page rather than MADV_POPULATE_WRITE:
// page faults on this kernel take only the pool VMA's own lock, whereas the
// madvise holds mmap_lock while it allocates and zeroes the huge page, which
// stalls every mprotect/mmap/userfaultfd registration of the program (the
// first managed allocation paid ~0.5 ms for the background refill).
void FreshPagePool::Populate(char* slot) {
  for (size_t off = 0; off < kBlockSize; off += kPageSize) {
    volatile char* p = slot + off;
    *p = 0;
  }
}

void FreshPagePool::RefillLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    size_t warm = 0, hole = slots_;
    for (size_t i = 0; i < slots_; ++i) {
      if (state_[i] == kPopulated) ++warm;
      else if (state_[i] == kHole && hole == slots_) hole = i;
    }
    if (warm >= warm_ || hole == slots_) {
      cv_.wait(lk);
      continue;
    }
    state_[hole] = kRefilling;
    lk.unlock();
    Populate(base_ + hole * kBlockSize);
    lk.lock();
    state_[hole] = kPopulated;
  }
}

char* FreshPagePool::Take() {
  size_t pick = slots_;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (size_t i = 0; i < slots_; ++i)
      if (state_[i] == kPopulated) { pick = i; break; }
    if (pick == slots_)
      for (size_t i = 0; i < slots_; ++i)
        if (state_[i] == kHole) { pick = i; break; }
    if (pick == slots_) return nullptr;
    bool populated = state_[pick] == kPopulated;
    state_[pick] = kTaken;
    cv_.notify_one();  // one warm slot fewer
    if (populated) return base_ + pick * kBlockSize;
  }
  char* slot = base_ + pick * kBlockSize;
  Populate(slot);  // nothing warm: populate here (also fills a partial hole)
  return slot;
}

void FreshPagePool::Discard(char* slot) {
  platform::DropPages(slot, kBlockSize);  // not under mu_: the slot is still ours
  Give(slot, /*hole=*/true);
}

void FreshPagePool::Give(char* slot, bool hole) {
  size_t i = static_cast<size_t>(slot - base_) / kBlockSize;
  std::lock_guard<std::mutex> g(mu_);
  if (i < slots_) state_[i] = hole ? kHole : kPopulated;
  cv_.notify_one();
}

}  // namespace simnpu::uvm
