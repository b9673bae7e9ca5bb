// BlockScheduler: runs the logical blocks of kernel launches on AI-core
// worker threads.
//
// A launch of numBlocks blocks becomes a Job. The thread that runs the
// kernel task (the stream's worker) executes blocks itself and is helped by
// a pool of (cores - 1) worker threads, so at most `cores` blocks of one
// launch run at once (fewer when the device's core limit, aclrtSetDeviceResLimit,
// is lower) and larger launches run in waves, as on the hardware. A launch
// marked solo (its kernel's blocks were short last time, see KernelTask)
// runs on the calling thread only.
// Each block gets a thread-local unified buffer of the SOC's size. A block
// that traps, fails a check, or makes a wild memory access fails the job
// with the device's code (vector core 507035, AI core 507015); blocks not
// yet started are skipped, running blocks finish. Device printf output is
// collected per block and printed in block order when the job completes.
#ifndef SIMNPU_LOADER_SCHEDULER_H_
#define SIMNPU_LOADER_SCHEDULER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "simnpu/kernel_abi.h"

namespace simnpu::loader {

class LaunchCheck;

struct Job {
  const simnpu_kernel_desc* desc = nullptr;
  void* const* argv = nullptr;
  uint32_t num_blocks = 0;
  uint32_t block_offset = 0;      // ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET
  uint32_t max_parallel = 0;      // resource limit (cores usable by this launch)
  int device_id = 0;              // logical, reported to the kernel
  int phys_id = 0;                // simulated device doing the memory accesses
  uint32_t core_type = SIMNPU_KERNEL_AIV;
  uint32_t npu_arch = 0;
  size_t ub_size = 0;
  uint32_t env_flags = 0;
  bool solo = false;              // run every block on the calling thread (a short launch)
  LaunchCheck* check = nullptr;   // the launch's memory check (launch_check.h); null: unchecked

  // results
  std::atomic<uint32_t> next{0};      // next block to start
  std::atomic<uint32_t> done{0};      // blocks finished or skipped
  std::atomic<int> running_helpers{0};  // decremented under mu (see BlockScheduler::Run)
  std::atomic<uint64_t> block_ns{0};  // summed wall time of the blocks run
  uint32_t helper_slots = 0;          // helpers that may still join (max_parallel - 1 at most). GUARDED_BY(BlockScheduler::mu_)
  std::atomic<bool> failed{false};
  // A block raised the host FPU's overflow or invalid-operation flag: a float
  // result left the finite range (core/overflow.h turns it into the status).
  std::atomic<bool> fp_overflow{false};
  int fail_code = 0;                  // guarded by mu
  std::string fail_msg;               // guarded by mu
  int64_t fail_block = -1;            // logical index of the failing block. guarded by mu
  // Per-block device printf output, allocated on the first print of the job
  // (most kernels never print); each entry written only by its block's thread.
  std::unique_ptr<std::string[]> printf_out;
  std::once_flag printf_once;
  std::mutex mu;
  std::condition_variable cv;

  // Multi-core synchronisation (services->block_sync: SyncAll, IBWait). The
  // first call makes the launch co-resident: every block not yet started
  // gets a thread of its own (counted in running_helpers). Lock order:
  // sync_mu is a leaf (never held while taking mu or BlockScheduler::mu_).
  std::atomic<bool> coresident{false};
  std::mutex sync_mu;
  std::condition_variable sync_cv;
  uint32_t sync_waiting = 0;  // blocks waiting at the current barrier. GUARDED_BY(sync_mu)
  uint32_t sync_want = 0;     // blocks the current barrier waits for. GUARDED_BY(sync_mu)
  uint64_t sync_gen = 0;      // barriers completed. GUARDED_BY(sync_mu)
  std::atomic<uint32_t> sync_ended{0};  // blocks that returned from run_block (every launch)
  bool sync_stuck = false;    // the current barrier can never complete. GUARDED_BY(sync_mu)
};

class BlockScheduler {
 public:
  static BlockScheduler& Get();
  // Runs every block of the job; returns 0 or the failure code (message in
  // job.fail_msg). Called on the kernel task's thread.
  int Run(Job& job);
  // Percentage of the last second device `phys` spent running kernels.
  int BusyPercent(int phys);
  // Ends the idle helpers (an exit handler of sanitizer builds; waits up to 2 s).
  void StopHelpersAtExit();
  unsigned helper_threads() const { return static_cast<unsigned>(helpers_.size()); }
  // Gives each block of the job not yet started a thread of its own (the
  // block_sync service's co-residency); the threads end with the job.
  void SpawnBlockThreads(Job& job);

 private:
  BlockScheduler();
  void HelperMain();
  // The first queued job that may take one more helper (taking it), or null. REQUIRES(mu_)
  Job* TakeJobLocked();
  void RunBlocks(Job& job, bool is_helper);
  int RunOneBlock(Job& job, uint32_t logical, std::string* msg);
  void NoteBusy(int phys, uint64_t start_ns, uint64_t end_ns);

  std::vector<std::thread> helpers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job*> jobs_;                 // jobs that want helpers. GUARDED_BY(mu_)
  std::atomic<int> sleeping_{0};  // helpers blocked on cv_ (changed under mu_)
  bool quit_ = false;             // helpers return once idle (exit, sanitizer builds). GUARDED_BY(mu_)
  std::atomic<int> live_helpers_{0};  // helper threads running HelperMain
  std::atomic<int> queued_{0};  // jobs_.size(), readable without mu_ (helpers spin on it)

  std::mutex busy_mu_;
  struct Interval {
    int phys;
    uint64_t start, end;
  };
  std::deque<Interval> busy_;             // recent kernel run intervals. GUARDED_BY(busy_mu_)
};

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_SCHEDULER_H_
