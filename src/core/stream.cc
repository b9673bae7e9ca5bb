// Stream: task queue and worker thread.
#include "core/stream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <system_error>

#include "core/device_printf.h"
#include "core/exception_info.h"
#include "core/overflow.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "dfx/log.h"
#include "platform/clock.h"
#include "platform/env.h"
#include "platform/fault_inject.h"

namespace simnpu::core {
namespace {
std::atomic<int32_t> g_next_stream_id{0};
constexpr int kStreamSyncTimeout = 507046;  // ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
constexpr int kResourceAllocFail = 207005;  // ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
thread_local uint32_t tls_last_task_id = 0;
}  // namespace

uint32_t ThreadLastTaskId() { return tls_last_task_id; }

uint64_t SpinBudgetNs() {
  static const uint64_t ns = static_cast<uint64_t>(platform::GetEnvInt("SIMNPU_SPIN_US", 50)) * 1000;
  return ns;
}

int32_t DrainTimeoutMs() {
  static const int32_t ms = static_cast<int32_t>(platform::GetEnvInt("SIMNPU_DRAIN_TIMEOUT_MS", 30000));
  return ms;
}

Stream::Stream(Context* ctx, int device_id, int phys_id, uint32_t priority, uint32_t flags,
               bool is_default)
    : ctx_(ctx),
      device_(ctx ? ctx->device() : nullptr),
      device_id_(device_id),
      phys_id_(phys_id),
      priority_(priority),
      flags_(flags),
      is_default_(is_default),
      id_(g_next_stream_id.fetch_add(1)) {
  overflow::StreamCreated(id_, phys_id_);  // takes the device's overflow mode now
}

Stream::~Stream() {
  Shutdown();
  overflow::StreamDestroyed(id_);
}

bool Stream::OnWorkerThread() const { return worker_id_.load() == std::this_thread::get_id(); }

bool Stream::StartWorkerLocked() {
  if (worker_.joinable() || shutdown_) return true;
  // The worker holds a reference, so a stream destroyed from one of its own
  // tasks (a host function calling aclrtDestroyStream) outlives its loop.
  std::shared_ptr<Stream> self;
  try {
    self = shared_from_this();
  } catch (const std::bad_weak_ptr&) {
  }
  if (platform::InjectFault(platform::FaultSite::kThread)) return false;
  try {
    worker_ = std::thread([this, self] { WorkerMain(); });
  } catch (const std::system_error&) {
    return false;  // the system refused a thread: the caller discards the task
  }
  worker_running_ = true;
  return true;
}

uint64_t Stream::Submit(std::unique_ptr<Task> task) {
  if (TaskSink* k = sink_.load(std::memory_order_acquire)) {
    k->Take(this, std::move(task));
    return submitted_.load(std::memory_order_acquire);
  }
  platform::LockSpinning(mu_);
  std::unique_lock<std::mutex> lk(mu_, std::adopt_lock);
  uint64_t seq = submitted_.load(std::memory_order_relaxed) + 1;
  task->task_id = static_cast<uint32_t>(seq);
  last_task_id_.store(task->task_id);
  tls_last_task_id = task->task_id;
  if (shutdown_ && !worker_running_) {
    // Nothing will ever run it (a submission racing with the destruction).
    submitted_.store(seq, std::memory_order_seq_cst);
    lk.unlock();
    task->Discard();  // releases whatever waits on it
    task.reset();
    lk.lock();
    // Concurrent late submitters complete out of order: completed_ only grows.
    if (completed_.load(std::memory_order_relaxed) < seq) completed_.store(seq, std::memory_order_seq_cst);
    done_cv_.notify_all();
    return seq;
  }
  queue_.push_back(std::move(task));
  submitted_.store(seq, std::memory_order_seq_cst);
  if (!worker_.joinable() && !StartWorkerLocked()) {
    // No thread to run it (the system refused one): the task is discarded
    // and the next synchronize reports it; a later submission tries again.
    std::unique_ptr<Task> t = std::move(queue_.back());
    queue_.pop_back();
    if (pending_error_ == 0) {
      pending_error_ = kResourceAllocFail;
      has_pending_.store(true);
      pending_message_ = std::string("the stream's worker thread could not be started; task ") + t->name() +
                         " was discarded";
    }
    lk.unlock();
    t->Discard();
    t.reset();
    lk.lock();
    if (completed_.load(std::memory_order_relaxed) < seq) completed_.store(seq, std::memory_order_seq_cst);
    done_cv_.notify_all();
    return seq;
  }
  if (worker_sleeping_.load()) work_cv_.notify_one();
  lk.unlock();
  DestroyRetired();
  return seq;
}

void Stream::DestroyRetired() {
  if (retired_.load(std::memory_order_relaxed) == nullptr) return;
  Task* list = retired_.exchange(nullptr, std::memory_order_acquire);
  while (list) {
    Task* next = list->retired_next;
    delete list;
    list = next;
  }
}

void Stream::Complete(uint64_t seq) {
  completed_.store(seq, std::memory_order_seq_cst);
  if (waiters_.load(std::memory_order_seq_cst) > 0) {
    std::lock_guard<std::mutex> g(mu_);
    done_cv_.notify_all();
  }
}

void Stream::WorkerMain() {
  worker_id_.store(std::this_thread::get_id());
  ExecContext ctx{this, device_id_, phys_id_, device_, &cancel_};
  // Tasks before the first one this worker pops were completed without it
  // (discarded when no worker could be started): count on from there.
  uint64_t seq = completed_.load(std::memory_order_acquire);
  uint64_t discard_until = 0;
  for (;;) {
    // Spin briefly for the next task: waking a blocked thread costs 20-90 us here.
    platform::SpinUntil([&] { return submitted_.load(std::memory_order_acquire) != seq; }, SpinBudgetNs());
    std::unique_ptr<Task> t;
    bool stopped = false;
    {
      platform::LockSpinning(mu_);  // the submitter that woke us may still hold it
      std::unique_lock<std::mutex> lk(mu_, std::adopt_lock);
      while (queue_.empty() && !shutdown_) {
        worker_sleeping_.store(true);
        work_cv_.wait(lk);
        worker_sleeping_.store(false);
      }
      if (queue_.empty()) {  // shutdown with nothing left
        worker_running_ = false;
        return;
      }
      t = std::move(queue_.front());
      queue_.pop_front();
      if (discard_upto_ > discard_until) discard_until = discard_upto_;  // DiscardQueued
      // Stop-on-failure: after a failure every task is discarded until a
      // synchronize has reported the error (it clears pending_error_).
      stopped = failure_mode_.load() == 1 && pending_error_ != 0;
    }
    ++seq;
    if (seq <= discard_until || stopped) {
      t->Discard();
    } else {
      SIMNPU_TRACE_TASK(phys_id_, id_, t->name());
      int rc = t->Run(ctx);
      if (rc == kTaskCancelled) {
        // A wait given up by a forced shutdown: what follows depended on it.
        discard_until = UINT64_MAX;
      } else if (rc != 0) {
        SIMNPU_LOGE(kRuntime, "stream %d: task %u (%s) failed with %d", id_, t->task_id, t->name(), rc);
        {
          std::lock_guard<std::mutex> g(mu_);
          // A task that fails after a stop/abort was issued (the kernel that
          // was running at the time) reports its own code, not the abort's.
          if (pending_error_ == 0 || pending_from_discard_) {
            pending_from_discard_ = false;
            pending_error_ = rc;
            has_pending_.store(true);
            pending_message_ = t->failure_message.empty() ? std::string("task ") + t->name() + " failed"
                                                           : t->failure_message;
          }
          if (failure_mode_.load() == 1) discard_until = submitted_.load();
        }
        if (t->is_kernel()) ReportTaskException(this, t.get(), rc);
      }
    }
    Task* done = t.release();
    done->retired_next = retired_.load(std::memory_order_relaxed);
    while (!retired_.compare_exchange_weak(done->retired_next, done, std::memory_order_release,
                                           std::memory_order_relaxed)) {
    }
    Complete(seq);
  }
}

bool Stream::WaitFor(uint64_t seq, int32_t timeout_ms) {
  if (completed_.load(std::memory_order_acquire) >= seq) return true;
  if (OnWorkerThread()) return false;  // a task cannot wait for its own stream
  if (platform::SpinUntil([&] { return completed_.load(std::memory_order_acquire) >= seq; }, SpinBudgetNs()))
    return true;
  waiters_.fetch_add(1, std::memory_order_seq_cst);
  bool ok;
  {
    std::unique_lock<std::mutex> lk(mu_);
    auto done = [&] { return completed_.load(std::memory_order_seq_cst) >= seq; };
    if (timeout_ms < 0) {
      done_cv_.wait(lk, done);
      ok = true;
    } else {
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
      ok = done_cv_.wait_until(lk, deadline, done);
    }
  }
  waiters_.fetch_sub(1);
  return ok;
}

int Stream::Synchronize(int32_t timeout_ms) {
  uint64_t target = submitted_.load(std::memory_order_acquire);
  if (!WaitFor(target, timeout_ms)) {
    if (OnWorkerThread()) return pending_error();
    FlushDevicePrintf();
    return kStreamSyncTimeout;
  }
  if (!OnWorkerThread()) FlushDevicePrintf();
  return TakePendingError();
}

int Stream::TakePendingError() {
  int e = 0;
  if (has_pending_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> g(mu_);
    e = pending_error_;
    pending_error_ = 0;
    pending_from_discard_ = false;
    has_pending_.store(false);
    reported_message_ = std::move(pending_message_);
    pending_message_.clear();
  }
  DestroyRetired();
  return e;
}

std::string Stream::TakeFailureMessage() {
  std::lock_guard<std::mutex> g(mu_);
  std::string m = std::move(reported_message_);
  reported_message_.clear();
  return m;
}

int Stream::pending_error() const {
  std::lock_guard<std::mutex> g(mu_);
  return pending_error_;
}

void Stream::DiscardQueued(int code) {
  std::lock_guard<std::mutex> g(mu_);
  const uint64_t queued = submitted_.load();
  if (queued > discard_upto_) discard_upto_ = queued;
  if (pending_error_ == 0) {
    pending_error_ = code;
    pending_from_discard_ = true;
    has_pending_.store(true);
    pending_message_ = code == 107023 ? "the stream was aborted (aclrtStreamAbort)"
                                      : "the stream was stopped (aclrtStreamStop)";
  }
}

void Stream::ShutdownImpl(bool force, int32_t drain_ms) {
  bool drained = true;
  if (force) CancelWaits();
  if (!OnWorkerThread()) drained = WaitFor(submitted_.load(), force ? std::max(drain_ms, 0) : -1);
  FlushDevicePrintf();
  std::thread t;
  {
    std::lock_guard<std::mutex> g(mu_);
    shutdown_ = true;
    if (!drained) {
      // A task that does not end (a kernel or host function): drop the rest.
      const uint64_t queued = submitted_.load();
      if (queued > discard_upto_) discard_upto_ = queued;
      SIMNPU_LOGW(kRuntime, "stream %d: destroyed with work still running after %d ms; its queued tasks are discarded",
                  id_, drain_ms);
      std::fprintf(stderr, "[simnpu] WARNING: stream %d destroyed with force while a task was still running after "
                           "%d ms (SIMNPU_DRAIN_TIMEOUT_MS); its queued tasks are discarded\n", id_, drain_ms);
    }
    work_cv_.notify_all();
    t = std::move(worker_);
  }
  if (t.joinable()) {
    // Not joined from the worker itself, nor while it is stuck in a task: it
    // exits once its queue is empty (its own reference keeps the stream).
    if (t.get_id() == std::this_thread::get_id() || !drained)
      t.detach();
    else
      t.join();
  }
  std::deque<std::unique_ptr<Task>> left;
  uint64_t last = 0;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!worker_running_) {
      // Normally empty: the worker leaves only with an empty queue.
      left.swap(queue_);
      last = submitted_.load();
    }
  }
  for (auto& task : left) task->Discard();
  if (!left.empty()) {
    left.clear();
    std::lock_guard<std::mutex> g(mu_);
    if (completed_.load(std::memory_order_relaxed) < last) completed_.store(last, std::memory_order_seq_cst);
    done_cv_.notify_all();
  }
  DestroyRetired();
}

}  // namespace simnpu::core
