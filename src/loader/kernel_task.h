// KernelTask: a kernel launch queued on a stream. Holds the function (and so
// keeps its image loaded) and the argument snapshot; runs the blocks through
// the BlockScheduler; prints the blocks' device printf output in block order
// when the kernel finishes.
#ifndef SIMNPU_LOADER_KERNEL_TASK_H_
#define SIMNPU_LOADER_KERNEL_TASK_H_

#include <memory>

#include "core/exception_info.h"
#include "core/task.h"
#include "loader/binary.h"
#include "loader/kernel_args.h"

namespace simnpu::loader {

struct LaunchConfig {
  uint32_t num_blocks = 1;
  uint32_t block_offset = 0;
  int engine_type = -1;  // -1: from the kernel; else SIMNPU_KERNEL_AIV/AIC
};

class KernelTask : public core::Task, public core::KernelFailureSource {
 public:
  KernelTask(std::shared_ptr<Function> fn, std::shared_ptr<ArgSnapshot> args, LaunchConfig cfg, void* handle)
      : fn_(std::move(fn)), args_(std::move(args)), cfg_(cfg), handle_(handle) {}
  int Run(core::ExecContext& ctx) override;
  const char* name() const override { return fn_->desc->name; }
  bool is_kernel() const override { return true; }
  // What the task was launched with (aclmdlRITaskGetParams).
  const std::shared_ptr<Function>& function() const { return fn_; }
  const std::shared_ptr<ArgSnapshot>& args() const { return args_; }
  const LaunchConfig& config() const { return cfg_; }
  void* handle() const { return handle_; }
  core::KernelFailureDetail failure_detail() const override {
    return {args_->data(), static_cast<uint32_t>(args_->size), handle_};
  }

 private:
  std::shared_ptr<Function> fn_;
  std::shared_ptr<ArgSnapshot> args_;
  LaunchConfig cfg_;
  void* handle_;  // the aclrtFuncHandle the user launched
};

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_KERNEL_TASK_H_
