// Task: one unit of work on a stream (kernel, copy, memset, event record or
// wait, host function, callback, prefetch...). A stream runs its tasks in
// submission order on its worker thread.
#ifndef SIMNPU_CORE_TASK_H_
#define SIMNPU_CORE_TASK_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

namespace simnpu::core {

class Device;
class Stream;

// What a task learns about the stream running it; filled once per worker.
struct ExecContext {
  Stream* stream;
  int device_id;  // user-visible (logical) device id
  int phys_id;    // simulated device id
  Device* device = nullptr;  // the logical device (never destroyed); null for a stream without one
  // Set while the stream is destroyed with force: a task blocked waiting for
  // something outside the stream (event, notify, value) gives up and returns
  // kTaskCancelled.
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// Returned by Run() of a wait that gave up because the stream is being
// destroyed with force: the stream discards every task behind it.
constexpr int kTaskCancelled = -1;

// Waits on cv (lk held) until pred() holds, timeout_ms passes (< 0: never) or
// `cancel` is set. Nothing signals cv when cancel is set, so it is polled
// every 10 ms: cancellation is rare (forced teardown) and the poll cheap.
// Returns pred().
template <typename Pred>
bool WaitCancellable(std::condition_variable& cv, std::unique_lock<std::mutex>& lk, Pred pred,
                     int64_t timeout_ms, const std::atomic<bool>& cancel) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = timeout_ms < 0 ? Clock::time_point::max() : Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!pred()) {
    if (cancel.load(std::memory_order_relaxed)) return false;
    const auto now = Clock::now();
    if (now >= deadline) return false;
    cv.wait_until(lk, std::min(deadline, now + std::chrono::milliseconds(10)));
  }
  return true;
}

class Task {
 public:
  virtual ~Task() = default;
  // Runs the task; returns 0 or the aclError that fails the task (the stream
  // then follows its failure mode).
  virtual int Run(ExecContext& ctx) = 0;
  // Called instead of Run when the stream discards the task (stop-on-failure,
  // aclrtStreamAbort/Stop). Must release anything waiting on the task.
  virtual void Discard() {}
  virtual const char* name() const = 0;
  // Kernel tasks report failures through the exception-info callback.
  virtual bool is_kernel() const { return false; }

  uint32_t task_id = 0;  // per-stream id, set at submission
  // Set by Run() when it fails: why (shown by aclGetRecentErrMsg after the
  // synchronize that reports the failure).
  std::string failure_message;
  // Link in the stream's list of finished tasks waiting to be destroyed.
  Task* retired_next = nullptr;
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_TASK_H_
