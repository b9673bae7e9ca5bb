// KernelDumper: the loader's part of data, argument and exception dump
// (dfx/dump decides what is wanted and writes files). It reads the buffers
// behind a launch's pointer arguments through the device's memory path, so
// managed pages move to the device as the kernel itself would move them;
// each buffer is dumped from the argument's address to the end of its
// allocation (device memory or managed memory), capped by
// SIMNPU_DUMP_MAX_TENSOR_BYTES (default 64 MiB). Pointers outside both are
// recorded in the argument block only.
//
// Used on the stream's worker around one KernelTask::Run; no locking.
#ifndef SIMNPU_LOADER_KERNEL_DUMP_H_
#define SIMNPU_LOADER_KERNEL_DUMP_H_

#include <cstdint>
#include <memory>
#include <string>

#include "dfx/dump/dump.h"
#include "simnpu/kernel_abi.h"

namespace simnpu::loader {

struct ArgSnapshot;

class KernelDumper {
 public:
  KernelDumper(const simnpu_kernel_desc& desc, const ArgSnapshot& args, uint32_t blocks, int phys, int stream,
               uint32_t task) {
    if (dfx::dump::Wanted()) Before(desc, args, blocks, phys, stream, task);
  }
  // After the kernel ran: outputs, or the exception dump when rc != 0.
  void After(int rc, const std::string& reason, int64_t failed_block) {
    if (active_) AfterImpl(rc, reason, failed_block);
  }

 private:
  void Before(const simnpu_kernel_desc& desc, const ArgSnapshot& args, uint32_t blocks, int phys, int stream,
              uint32_t task);
  void AfterImpl(int rc, const std::string& reason, int64_t failed_block);
  void ReadBuffers(uint32_t kind);

  bool active_ = false;
  bool want_inputs_ = false, want_outputs_ = false;
  const simnpu_kernel_desc* desc_ = nullptr;
  const ArgSnapshot* args_ = nullptr;
  std::unique_ptr<dfx::dump::KernelDump> d_;
};

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_KERNEL_DUMP_H_
