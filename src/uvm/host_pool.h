// FreshPagePool: a few 2 MiB slots of anonymous memory, not registered with
// the userfaultfd, whose only job is to hold freshly populated (transparent
// huge) pages until the engine moves them where a whole block is populated
// for the first time (host or device frame). After a move a slot is a hole
// and is repopulated on the next Take(). Populating costs ~130 us per 2 MiB
// on this machine kind; a 2 MiB move ~20 us.
//
// Lock: mu_ (leaf).
#ifndef SIMNPU_UVM_HOST_POOL_H_
#define SIMNPU_UVM_HOST_POOL_H_

#include <cstddef>
#include <mutex>
#include <vector>

namespace simnpu::uvm {

class FreshPagePool {
 public:
  bool Init(size_t slots);
  // A populated 2 MiB slot, exclusively the caller's until Give() returns it.
  char* Take();
  // Returns a slot; `hole` says its pages were moved out.
  void Give(char* slot, bool hole);

 private:
  char* base_ = nullptr;
  size_t slots_ = 0;
  std::mutex mu_;
  std::vector<char> state_;  // 0 hole, 1 populated, 2 taken. GUARDED_BY(mu_)
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_HOST_POOL_H_
