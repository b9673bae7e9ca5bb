// Stream: an in-order queue of tasks run by one worker thread.
//
// Tasks on different streams run concurrently (one thread per stream, started
// on the first submission). Completion is a monotonic sequence number: task k
// (1-based submission order) is done when completed() >= k. Waiting spins
// briefly (SIMNPU_SPIN_US, default 50 us: a blocked thread costs 20-90 us to
// wake on this machine kind) and then blocks on a condition variable that
// the worker signals; every wait has a real wake-up.
//
// Failure: the first failing task's code is kept and returned (once) by the
// next synchronize. In ACL_STOP_ON_FAILURE mode a failure also discards every
// task queued behind it. Stop/Abort discard queued tasks and make the next
// synchronize report the code the caller gives (aclrtStreamStop: 507000,
// aclrtStreamAbort: 107023), unless the task running at the time then fails:
// its own code (e.g. 507035 from a trapping kernel) wins.
//
// Finished tasks are not destroyed by the worker: it links them into a
// retired list that the next Submit, Synchronize or Shutdown destroys on the
// calling thread. Tasks are allocated by the submitting thread, so freeing
// them there keeps malloc's per-thread caches hot and avoids the arena lock
// ping-pong a producer/consumer pair otherwise pays on every launch. A
// Synchronize destroys the finished tasks it finds in the list; when another
// thread's Submit took the list first, that thread may still be destroying
// some of them when Synchronize returns.
//
// Teardown: Shutdown waits for the queue to drain and stops the worker. A
// forced shutdown (aclrtDestroyStreamForce, aclrtResetDeviceForce) still runs
// the queued kernels, copies and host functions (programs destroy a stream
// right after a launch and expect the kernel to run), but a wait for
// something outside the stream (event, notify, value) gives up and every
// task behind it is discarded; and it waits at most DrainTimeoutMs() in all,
// then discards what is still queued and leaves the worker to finish its
// current task on its own. A task submitted after the worker has stopped is
// discarded at once (Task::Discard) and counts as completed.
//
// Lock order: Stream::mu_ is a leaf with respect to other runtime locks; no
// task runs, and no task is discarded, with it held.
#ifndef SIMNPU_CORE_STREAM_H_
#define SIMNPU_CORE_STREAM_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "core/task.h"

namespace simnpu::core {

class Context;
class Device;

// Takes the tasks submitted to a stream that records them instead of running
// them: a stream being captured or bound to a model runtime instance, or a
// stream between aclmdlRICaptureTaskUpdateBegin/End (core/model.h).
class TaskSink {
 public:
  virtual ~TaskSink() = default;
  virtual void Take(Stream* s, std::unique_ptr<Task> t) = 0;
};

class Stream : public std::enable_shared_from_this<Stream> {
 public:
  Stream(Context* ctx, int device_id, int phys_id, uint32_t priority, uint32_t flags, bool is_default);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Queues a task; returns its sequence number (>= 1). With a sink set the
  // task goes to the sink instead and the number returned is that of the
  // last task really queued (so waiting for it does not wait). Never fails: a stream
  // being destroyed still accepts tasks until its queue drains; after that
  // the task is discarded and completed at once.
  uint64_t Submit(std::unique_ptr<Task> task);

  // Blocks until every task submitted before the call has completed, or
  // timeout_ms (-1 = forever) elapses. Returns 0, the first asynchronous
  // failure since the last synchronize (consuming it), or 507046 on timeout.
  int Synchronize(int32_t timeout_ms = -1);
  // The first asynchronous failure since the last synchronize, consumed (0 if
  // none); also destroys the finished tasks. Synchronize without the wait.
  int TakePendingError();
  // Waits until completed() >= seq (timeout -1 = forever). false on timeout.
  bool WaitFor(uint64_t seq, int32_t timeout_ms = -1);

  uint64_t submitted() const { return submitted_.load(std::memory_order_acquire); }
  uint64_t completed() const { return completed_.load(std::memory_order_acquire); }
  bool idle() const { return completed() >= submitted(); }

  void set_failure_mode(uint64_t mode) { failure_mode_.store(mode & 1); }
  uint64_t failure_mode() const { return failure_mode_.load(); }
  // Discards the tasks queued at the time of the call (not later ones); the
  // next synchronize returns `code`.
  void DiscardQueued(int code);
  // Peek at the pending error without consuming it.
  int pending_error() const;
  // The message of the failure the last Synchronize returned (consumed).
  std::string TakeFailureMessage();

  // Drains the queue and stops the worker thread (destroy / device reset).
  void Shutdown() { ShutdownImpl(false, -1); }
  // aclrtDestroyStreamForce / aclrtResetDeviceForce (see the header comment):
  // waits give up, and the drain lasts at most drain_ms.
  void ShutdownForced(int32_t drain_ms) { ShutdownImpl(true, drain_ms); }
  // Makes the stream's waits give up now (the first step of ShutdownForced;
  // a device reset cancels every stream's waits before draining any).
  void CancelWaits() { cancel_.store(true); }

  Context* context() const { return ctx_; }
  int device_id() const { return device_id_; }
  int phys_id() const { return phys_id_; }
  uint32_t priority() const { return priority_; }
  uint32_t flags() const { return flags_; }
  int32_t id() const { return id_; }
  bool is_default() const { return is_default_; }
  // The id of the last task submitted (aclrtGetThreadLastTaskId uses the
  // calling thread's last submission, kept by the caller).
  uint32_t last_task_id() const { return last_task_id_.load(); }

  // The recording sink (null: tasks run). Set and cleared by core/model.cc
  // under its registry lock; the sink outlives its registration.
  void set_sink(TaskSink* k) { sink_.store(k, std::memory_order_release); }
  TaskSink* sink() const { return sink_.load(std::memory_order_acquire); }

  // True while the calling thread is this stream's worker.
  bool OnWorkerThread() const;

 private:
  void WorkerMain();
  void ShutdownImpl(bool force, int32_t drain_ms);
  // Starts the worker thread; false when the system refuses one.
  bool StartWorkerLocked();
  void Complete(uint64_t seq);
  // Destroys the retired tasks (a lock-free list: pushed by the worker,
  // taken whole by anyone else).
  void DestroyRetired();

  // The fields fall in cache lines by who writes them, so a launch's reads
  // of the constant fields and the submitter's writes do not wait for lines
  // the worker keeps writing (completions), and the other way round.
  //
  // Read-mostly: fixed at creation, or changed by rare calls (a line apart
  // from the shared_ptr control block, whose counts each launch's handle
  // lookup changes).
  alignas(64) Context* const ctx_;
  Device* const device_;  // ctx_'s device, kept for the worker (devices are never destroyed)
  const int device_id_;
  const int phys_id_;
  const uint32_t priority_;
  const uint32_t flags_;
  const bool is_default_;
  const int32_t id_;
  std::atomic<uint64_t> failure_mode_{0};
  std::atomic<std::thread::id> worker_id_{};
  std::atomic<TaskSink*> sink_{nullptr};     // recording instead of running (see set_sink)
  std::atomic<bool> cancel_{false};          // forced shutdown: waits give up (ExecContext::cancel)

  // Both sides, under the lock (each task takes it twice: push and pop).
  alignas(64) mutable std::mutex mu_;
  std::condition_variable work_cv_;  // worker waits for tasks
  std::condition_variable done_cv_;  // synchronizers wait for completion
  std::deque<std::unique_ptr<Task>> queue_;  // GUARDED_BY(mu_)
  std::atomic<bool> worker_sleeping_{false};  // set and cleared by the worker under mu_
  int pending_error_ = 0;                    // first failure since last sync. GUARDED_BY(mu_)
  std::string pending_message_;              // its message. GUARDED_BY(mu_)
  // pending_error_ came from DiscardQueued (stop/abort): a task failing later
  // (the one running at the time) replaces it with its own code. GUARDED_BY(mu_)
  bool pending_from_discard_ = false;
  std::string reported_message_;             // message of the failure last returned. GUARDED_BY(mu_)
  uint64_t discard_upto_ = 0;                // DiscardQueued: drop tasks with seq <= this. GUARDED_BY(mu_)
  bool shutdown_ = false;                    // GUARDED_BY(mu_)
  bool worker_running_ = false;              // in WorkerMain; cleared by the worker as it exits. GUARDED_BY(mu_)
  std::thread worker_;                       // GUARDED_BY(mu_)

  // Written by submitters.
  alignas(64) std::atomic<uint64_t> submitted_{0};
  std::atomic<uint32_t> last_task_id_{0};

  // Written by the worker (and by waiters announcing themselves).
  alignas(64) std::atomic<uint64_t> completed_{0};
  std::atomic<Task*> retired_{nullptr};      // finished tasks to destroy (linked by retired_next)
  std::atomic<bool> has_pending_{false};     // pending_error_ != 0 (a lock-free peek for Synchronize)
  std::atomic<int> waiters_{0};              // threads blocked on done_cv_
};

// Id of the last task the calling thread submitted to any stream (0 if none).
uint32_t ThreadLastTaskId();

// Spin budget before blocking, in microseconds (SIMNPU_SPIN_US).
uint64_t SpinBudgetNs();

// How long a forced teardown (and process exit) waits for submitted work
// before giving up on it: SIMNPU_DRAIN_TIMEOUT_MS, default 30000.
int32_t DrainTimeoutMs();

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_STREAM_H_
