// Task: one unit of work on a stream (kernel, copy, memset, event record or
// wait, host function, callback, prefetch...). A stream runs its tasks in
// submission order on its worker thread.
#ifndef SIMNPU_CORE_TASK_H_
#define SIMNPU_CORE_TASK_H_

#include <cstdint>
#include <string>

namespace simnpu::core {

class Stream;

struct ExecContext {
  Stream* stream;
  int device_id;  // user-visible (logical) device id
  int phys_id;    // simulated device id
};

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
