// KernelTask.
#include "loader/kernel_task.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/device_printf.h"
#include "core/overflow.h"
#include "core/runtime.h"
#include "dfx/errors.h"
#include "dfx/trace/trace.h"
#include "dfx/log.h"
#include "loader/kernel_dump.h"
#include "loader/launch_check.h"
#include "loader/scheduler.h"
#include "platform/env.h"
#include "sim/npu_system.h"

namespace simnpu::loader {

int KernelTask::Run(core::ExecContext& ctx) {
  // The stream's device, resolved once per stream (no runtime lock per launch).
  core::Device* dev = ctx.device;
  const sim::SocInfo* soc = dev ? &dev->npu()->soc() : nullptr;
  Job job;
  job.desc = fn_->desc;
  job.argv = args_->argv();
  job.num_blocks = cfg_.num_blocks;
  job.block_offset = cfg_.block_offset;
  job.device_id = ctx.device_id;
  job.phys_id = ctx.phys_id;
  job.core_type = cfg_.engine_type >= 0 ? static_cast<uint32_t>(cfg_.engine_type) : fn_->desc->kernel_type;
  job.npu_arch = soc ? soc->npu_arch : 2201;
  job.ub_size = soc ? soc->ub_bytes : 196608;
  static const bool strict = platform::GetEnvBool("SIMNPU_STRICT_DATACOPY", false);
  job.env_flags = strict ? SIMNPU_ENV_FLAG_STRICT_DATACOPY : 0;
  if (dev) job.max_parallel = dev->res_limit(job.core_type == SIMNPU_KERNEL_AIC ? 0 : 1);
  // A launch whose blocks took, last time, less in all than waking a helper
  // core costs runs on this thread alone (SIMNPU_KERNEL_SOLO_US, default 30).
  static const uint64_t solo_ns = static_cast<uint64_t>(platform::GetEnvInt("SIMNPU_KERNEL_SOLO_US", 30)) * 1000;
  const uint64_t est = fn_->block_ns_estimate.load(std::memory_order_relaxed);
  job.solo = est != 0 && est * job.num_blocks < solo_ns;
  KernelDumper dumper(*fn_->desc, *args_, job.num_blocks, ctx.phys_id, ctx.stream ? ctx.stream->id() : -1, task_id);
  // The memory check (SIMNPU_MEMCHECK): the allocations the pointer
  // arguments point into, resolved now, when the kernel runs.
  std::optional<LaunchCheck> check;
  if (const uint32_t mode = MemcheckMode()) {
    check.emplace(mode, *fn_->desc, job.argv, job.num_blocks, args_->data(), args_->size);
    job.check = &*check;
  }
  int rc = BlockScheduler::Get().Run(job);
  if (job.fp_overflow.load(std::memory_order_relaxed) && ctx.stream)
    core::overflow::Raise(ctx.stream->id(), ctx.phys_id);
  if (rc == 0 && check) {
    std::string race = check->Finish();
    if (!race.empty()) {
      rc = job.core_type == SIMNPU_KERNEL_AIV ? 507035 : 507015;  // as a failing block would
      job.fail_msg = race;
    }
  }
  dumper.After(rc, job.fail_msg, job.fail_block);
  SIMNPU_TRACE_IF(dfx::trace::kCatTask,
                  dfx::trace::AnnotateTaskNamed(dfx::trace::Kind::kKernel,
                                                dfx::trace::InternSlot(&fn_->trace_name, fn_->desc->name),
                                                job.num_blocks, job.block_ns.load()));
  if (job.num_blocks > 0)
    fn_->block_ns_estimate.store(std::max<uint64_t>(1, job.block_ns.load() / job.num_blocks),
                                 std::memory_order_relaxed);
  // Device printf output, in block order, queued until the host synchronises.
  if (job.printf_out) {
    std::string text;
    for (uint32_t i = 0; i < job.num_blocks; ++i) text += job.printf_out[i];
    core::PostDevicePrintf(std::move(text));
  }
  if (rc != 0) {
    SIMNPU_LOGE(kRuntime, "kernel %s failed on device %d: %s", fn_->desc->name, ctx.device_id,
                job.fail_msg.c_str());
    failure_message = std::string("kernel ") + fn_->desc->name + " failed on device " +
                      std::to_string(ctx.device_id) + ": " + job.fail_msg;
    std::fprintf(stderr, "[simnpu] kernel %s failed on device %d (error %d): %s\n", fn_->desc->name,
                 ctx.device_id, rc, job.fail_msg.c_str());
  }
  return rc;
}

}  // namespace simnpu::loader
