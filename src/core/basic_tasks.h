// The non-kernel stream tasks: event record/reset/wait, notify record/wait,
// value write/wait, host functions, copies and fills.
#ifndef SIMNPU_CORE_BASIC_TASKS_H_
#define SIMNPU_CORE_BASIC_TASKS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "core/event.h"
#include "core/ipc_signal.h"
#include "core/task.h"

namespace simnpu::core {

class EventRecordTask : public Task {
 public:
  EventRecordTask(std::shared_ptr<Event> e, uint64_t gen) : event_(std::move(e)), gen_(gen) {}
  int Run(ExecContext&) override;
  void Discard() override { event_->MarkDiscarded(gen_); }
  const char* name() const override { return "event_record"; }

 private:
  std::shared_ptr<Event> event_;
  uint64_t gen_;
};

// Forgets the records submitted up to generation `gen` (the event's record
// generation when the reset was submitted); later records stay pending.
class EventResetTask : public Task {
 public:
  EventResetTask(std::shared_ptr<Event> e, uint64_t gen) : event_(std::move(e)), gen_(gen) {}
  int Run(ExecContext&) override {
    event_->Reset(gen_);
    return 0;
  }
  const char* name() const override { return "event_reset"; }

 private:
  std::shared_ptr<Event> event_;
  uint64_t gen_;
};

// Waits for generation `gen` of the event; timeout_ms < 0 waits forever,
// expiry fails the task with ACL_ERROR_RT_EVENT_SYNC_TIMEOUT. Like the other
// waits (notify, value) it gives up when its stream is destroyed with force
// (kTaskCancelled).
// The task counts as a pending wait of the event from its construction
// until it has run (either way), been discarded or been destroyed.
class EventWaitTask : public Task {
 public:
  EventWaitTask(std::shared_ptr<Event> e, uint64_t gen, int32_t timeout_ms)
      : event_(std::move(e)), gen_(gen), timeout_ms_(timeout_ms) {
    event_->AddPendingWait();
  }
  ~EventWaitTask() override { Finish(); }
  int Run(ExecContext&) override;
  void Discard() override { Finish(); }
  const char* name() const override { return "event_wait"; }

 private:
  void Finish() {
    if (!finished_) {
      finished_ = true;
      event_->EndPendingWait();
    }
  }
  std::shared_ptr<Event> event_;
  uint64_t gen_;
  int32_t timeout_ms_;
  bool finished_ = false;  // the pending wait was counted out
};

// Binary semaphore between streams (aclrtCreateNotify).
class Notify {
 public:
  Notify(int device_id, uint64_t flags) : device_id_(device_id), flags_(flags) {}
  void Signal();
  // Waits for a signal and consumes it; timeout_ms 0 = forever. false on
  // timeout, or once *cancel is set (stream teardown).
  bool WaitAndReset(uint32_t timeout_ms, const std::atomic<bool>* cancel = nullptr);
  int device_id() const { return device_id_; }
  // IPC notifies (exported or imported): signals become bumps of a shared
  // word (core/ipc_signal.h); a wait consumes every bump seen so far.
  void AttachIpc(std::shared_ptr<IpcSignal> sig);
  std::shared_ptr<IpcSignal> ipc();

 private:
  const int device_id_;
  const uint64_t flags_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool signaled_ = false;  // GUARDED_BY(mu_)
  std::shared_ptr<IpcSignal> ipc_;  // set once. GUARDED_BY(mu_)
  uint32_t consumed_ = 0;           // shared bumps consumed by waits. GUARDED_BY(mu_)
};

class NotifyRecordTask : public Task {
 public:
  explicit NotifyRecordTask(std::shared_ptr<Notify> n) : n_(std::move(n)) {}
  int Run(ExecContext&) override {
    n_->Signal();
    return 0;
  }
  void Discard() override { n_->Signal(); }
  const char* name() const override { return "notify_record"; }

 private:
  std::shared_ptr<Notify> n_;
};

class NotifyWaitTask : public Task {
 public:
  NotifyWaitTask(std::shared_ptr<Notify> n, uint32_t timeout_ms) : n_(std::move(n)), timeout_(timeout_ms) {}
  int Run(ExecContext&) override;
  const char* name() const override { return "notify_wait"; }

 private:
  std::shared_ptr<Notify> n_;
  uint32_t timeout_;
};

// 64-bit store to device memory; wakes value waiters.
class ValueWriteTask : public Task {
 public:
  ValueWriteTask(uint64_t* addr, uint64_t value) : addr_(addr), value_(value) {}
  int Run(ExecContext&) override;
  const char* name() const override { return "value_write"; }
  uint64_t* addr() const { return addr_; }
  uint64_t value() const { return value_; }

 private:
  uint64_t* addr_;
  uint64_t value_;
};

// Blocks the stream until *addr satisfies the condition (ACL_STREAM_WAIT_VALUE_*).
class ValueWaitTask : public Task {
 public:
  ValueWaitTask(const uint64_t* addr, uint64_t value, uint32_t flag) : addr_(addr), value_(value), flag_(flag) {}
  int Run(ExecContext&) override;
  const char* name() const override { return "value_wait"; }
  const uint64_t* addr() const { return addr_; }
  uint64_t value() const { return value_; }
  uint32_t flag() const { return flag_; }
  static bool Satisfied(uint64_t cur, uint64_t value, uint32_t flag);

 private:
  const uint64_t* addr_;
  uint64_t value_;
  uint32_t flag_;
};

// Runs a host function on the stream's worker thread (aclrtLaunchHostFunc,
// managed-memory prefetch and copies). The function returns an error code
// that is logged, not propagated, when `errors_fail_task` is false.
class HostFuncTask : public Task {
 public:
  HostFuncTask(std::function<int(ExecContext&)> fn, const char* name, bool errors_fail_task)
      : fn_(std::move(fn)), name_(name), errors_fail_(errors_fail_task) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return name_; }

 private:
  std::function<int(ExecContext&)> fn_;
  const char* name_;
  bool errors_fail_;
};

// Device-side copy or fill through the simulated device's memory path.
class CopyTask : public Task {
 public:
  CopyTask(void* dst, const void* src, size_t n) : dst_(dst), src_(src), n_(n) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return "memcpy"; }

 private:
  void* dst_;
  const void* src_;
  size_t n_;
};

class FillTask : public Task {
 public:
  FillTask(void* dst, uint8_t v, size_t n) : dst_(dst), v_(v), n_(n) {}
  int Run(ExecContext& ctx) override;
  const char* name() const override { return "memset"; }

 private:
  void* dst_;
  uint8_t v_;
  size_t n_;
};

// Wakes all value waiters (a host or device store may have changed a value).
void NotifyValueChanged();

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_BASIC_TASKS_H_
