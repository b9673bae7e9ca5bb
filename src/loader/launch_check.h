// LaunchCheck: the runtime side of the kernel memory check of one launch
// (kernel_abi.h "Memory check", ascendc/.../memcheck.h for the kernel side).
//
//   bounds      (SIMNPU_MEMCHECK unset, 1, on, memcheck): the allocations the
//               pointer arguments point into are resolved once per launch and
//               handed to every block; any other address a block reaches is
//               resolved through the allocation map (Resolve).
//   racecheck   every access of every block is logged (adjacent accesses of
//               one block from one call site coalesce); when the launch ends,
//               two blocks touching the same bytes where one writes, neither
//               atomically and with no barrier (SyncAll) between them, is a
//               race: the launch fails and the report names both accesses.
//   initcheck   a read of device memory (aclrtMalloc, VMM, IPC) that no
//               copy, fill, value write or kernel store ever wrote fails.
// SIMNPU_MEMCHECK=0 (off, false, no) turns everything off; modes combine
// with ',' or '+' ("racecheck,initcheck") and each implies bounds.
//
// Threads: Resolve and Trace are called by the blocks of the launch on the
// AI-core threads at once. Resolve only reads the allocation map; Trace
// appends to the calling block's own log (one per block, so no lock) and
// reads the map's shadow. Finish runs on the kernel task's thread after
// every block ended.
#ifndef SIMNPU_LOADER_LAUNCH_CHECK_H_
#define SIMNPU_LOADER_LAUNCH_CHECK_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "simnpu/kernel_abi.h"

namespace simnpu::loader {

// SIMNPU_MEMCHECK as SIMNPU_MEMCHECK_* bits (read once).
uint32_t MemcheckMode();

class LaunchCheck {
 public:
  // argv / desc: the launch's arguments; blocks: numBlocks; [args, args +
  // args_size): the launch's argument block, which holds the placeholder data
  // (tiling structures) that pointer arguments may point into.
  LaunchCheck(uint32_t mode, const simnpu_kernel_desc& desc, void* const* argv, uint32_t blocks, const void* args,
              size_t args_size);

  uint32_t mode() const { return mode_; }
  const std::vector<simnpu_mem_range>& ranges() const { return ranges_; }

  int Resolve(uintptr_t addr, size_t n, uint32_t access, simnpu_mem_range* out, char* why, size_t cap) const;
  int Trace(uint32_t block, uintptr_t addr, size_t n, uint32_t access, const char* file, uint32_t line, char* why,
            size_t cap);
  // After the launch: the first race found (racecheck), or "".
  std::string Finish();

 private:
  struct Span {
    uintptr_t lo, hi;
    uint32_t access;
    uint32_t epoch;  // barriers passed by the block before the access
    const char* file;
    uint32_t line;
  };
  static constexpr size_t kMaxSpans = 1u << 20;  // per launch; tracing stops beyond (noted in the report)

  uint32_t mode_;
  const char* kernel_;
  std::vector<simnpu_mem_range> ranges_;
  std::vector<std::vector<Span>> spans_;  // per block (each written only by its block's thread)
  std::vector<uint32_t> epochs_;          // per block
  std::atomic<size_t> total_spans_{0};
  std::atomic<bool> truncated_{false};
};

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_LAUNCH_CHECK_H_
