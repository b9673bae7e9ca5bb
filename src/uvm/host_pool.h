// FreshPagePool: a few 2 MiB slots of anonymous memory, not registered with
// the userfaultfd, whose job is to hold populated (transparent huge) pages
// until the engine moves them where a whole block needs fresh memory (first
// touch on the host or a device) or where a block is assembled before being
// moved in whole. Every slot Take() hands out holds only zeroes. After a
// move a slot is a hole; a background thread repopulates holes so the fault
// path rarely pays for it (populating costs ~130 us per 2 MiB on this machine
// kind; a 2 MiB move ~20 us).
//
// Lock: mu_ (leaf).
#ifndef SIMNPU_UVM_HOST_POOL_H_
#define SIMNPU_UVM_HOST_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace simnpu::uvm {

class FreshPagePool {
 public:
  // Reserves `slots` slots and starts the refill thread, which keeps up to
  // `warm` of them populated. Does nothing once it has succeeded; a failure
  // reserves nothing, so it may be retried.
  bool Init(size_t slots, size_t warm);
  // A populated 2 MiB slot, exclusively the caller's until Give() returns it.
  char* Take();
  // Returns a slot; `hole` says its pages were moved out. Pages still in the
  // slot must be the fresh zero pages Take() gave: a populated slot is handed
  // out as new memory.
  void Give(char* slot, bool hole);
  // Returns a slot whose pages hold data (a block assembled in it that could
  // not be moved out): its pages are dropped first, so it comes back a hole.
  void Discard(char* slot);

 private:
  void RefillLoop();
  static void Populate(char* slot);

  char* base_ = nullptr;
  size_t slots_ = 0;
  size_t warm_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<char> state_;  // 0 hole, 1 populated, 2 taken, 3 being refilled. GUARDED_BY(mu_)
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_HOST_POOL_H_
