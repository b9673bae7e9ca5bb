// Non-kernel stream tasks.
#include "core/basic_tasks.h"

#include <atomic>
#include <chrono>

#include "dfx/trace/trace.h"
#include "core/allocation_map.h"
#include "dfx/log.h"
#include "platform/clock.h"
#include "sim/memory_path.h"

namespace simnpu::core {
namespace {
constexpr int kEventSyncTimeout = 507047;   // ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
constexpr int kNotifyTimeout = 107019;      // ACL_ERROR_RT_WAIT_TIMEOUT
std::mutex g_value_mu;
std::condition_variable g_value_cv;
std::atomic<uint64_t> g_value_epoch{0};
}  // namespace

int EventRecordTask::Run(ExecContext&) {
  event_->MarkDone(gen_, platform::NowNs());
  return 0;
}

int EventWaitTask::Run(ExecContext& ctx) {
  const bool done = event_->WaitGen(gen_, timeout_ms_, ctx.cancel);
  Finish();
  if (done) return 0;
  return ctx.cancelled() ? kTaskCancelled : kEventSyncTimeout;
}

void Notify::AttachIpc(std::shared_ptr<IpcSignal> sig) {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) return;
  ipc_ = std::move(sig);
  consumed_ = ipc_->signalled();
  if (signaled_) {  // a local signal not consumed yet carries over
    ipc_->Bump();
    signaled_ = false;
  }
}

std::shared_ptr<IpcSignal> Notify::ipc() {
  std::lock_guard<std::mutex> g(mu_);
  return ipc_;
}

void Notify::Signal() {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) {
    ipc_->Bump();
    return;
  }
  signaled_ = true;
  cv_.notify_all();
}

bool Notify::WaitAndReset(uint32_t timeout_ms, const std::atomic<bool>* cancel) {
  if (std::shared_ptr<IpcSignal> sig = ipc()) {
    uint32_t want;
    {
      std::lock_guard<std::mutex> g(mu_);
      want = consumed_ + 1;
    }
    if (!sig->WaitFor(want, timeout_ms == 0 ? -1 : static_cast<int32_t>(timeout_ms), cancel)) return false;
    std::lock_guard<std::mutex> g(mu_);
    consumed_ = sig->signalled();  // reset: every signal so far is consumed
    return true;
  }
  std::unique_lock<std::mutex> lk(mu_);
  auto ready = [&] { return signaled_; };
  if (cancel) {
    if (!WaitCancellable(cv_, lk, ready, timeout_ms == 0 ? -1 : int64_t{timeout_ms}, *cancel)) return false;
  } else if (timeout_ms == 0) {
    cv_.wait(lk, ready);
  } else if (!cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), ready)) {
    return false;
  }
  signaled_ = false;
  return true;
}

int NotifyWaitTask::Run(ExecContext& ctx) {
  if (n_->WaitAndReset(timeout_, ctx.cancel)) return 0;
  return ctx.cancelled() ? kTaskCancelled : kNotifyTimeout;
}

void NotifyValueChanged() {
  g_value_epoch.fetch_add(1);
  std::lock_guard<std::mutex> g(g_value_mu);
  g_value_cv.notify_all();
}

int ValueWriteTask::Run(ExecContext&) {
  __atomic_store_n(addr_, value_, __ATOMIC_SEQ_CST);
  AllocationMap::Get().MarkWritten(addr_, sizeof *addr_);  // initcheck
  NotifyValueChanged();
  return 0;
}

bool ValueWaitTask::Satisfied(uint64_t cur, uint64_t value, uint32_t flag) {
  switch (flag) {
    case 0: return cur >= value;             // GEQ
    case 1: return cur == value;             // EQ
    case 2: return (cur & value) != 0;       // AND
    case 3: return ~(cur | value) != 0;      // NOR
    default: return true;
  }
}

int ValueWaitTask::Run(ExecContext& ctx) {
  // Woken by every ValueWriteTask; re-checks every millisecond for stores made
  // by other means (host code, kernels) and for a forced teardown.
  for (;;) {
    uint64_t epoch = g_value_epoch.load();
    if (Satisfied(__atomic_load_n(addr_, __ATOMIC_SEQ_CST), value_, flag_)) return 0;
    if (ctx.cancelled()) return kTaskCancelled;
    std::unique_lock<std::mutex> lk(g_value_mu);
    g_value_cv.wait_for(lk, std::chrono::milliseconds(1), [&] { return g_value_epoch.load() != epoch; });
  }
}

int HostFuncTask::Run(ExecContext& ctx) {
  int rc = fn_(ctx);
  if (rc != 0 && !errors_fail_) {
    SIMNPU_LOGE(kRuntime, "host task %s reported %d (logged only)", name_, rc);
    return 0;
  }
  return rc;
}

int CopyTask::Run(ExecContext& ctx) {
  SIMNPU_TRACE_COPY(dfx::trace::Kind::kCopy, n_, 3);
  Status st = sim::DeviceCopy(ctx.phys_id, dst_, src_, n_);
  if (!st.ok()) SIMNPU_LOGE(kRuntime, "async copy failed: %s", st.message().c_str());
  return st.code();
}

int FillTask::Run(ExecContext& ctx) {
  SIMNPU_TRACE_COPY(dfx::trace::Kind::kMemset, n_, v_);
  Status st = sim::DeviceFill(ctx.phys_id, dst_, v_, n_);
  if (!st.ok()) SIMNPU_LOGE(kRuntime, "async memset failed: %s", st.message().c_str());
  return st.code();
}

}  // namespace simnpu::core
