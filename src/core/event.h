// Event: a marker recorded into a stream.
//
// Recording (aclrtRecordEvent) bumps the event's record generation at
// submission time and queues a record task; when the task runs it marks that
// generation done with a timestamp. Waiting (aclrtSynchronizeEvent, and
// aclrtStreamWaitEvent tasks) waits for the generation current at the time
// of the call. An event never recorded counts as complete.
//
// IPC events (ACL_EVENT_IPC, once exported or opened): generations, the
// completed mark and all waiting move to the shared words of an IpcSignal
// (core/ipc_signal.h), so records and waits of every process that holds the
// event order against each other; timestamps stay local.
#ifndef SIMNPU_CORE_EVENT_H_
#define SIMNPU_CORE_EVENT_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "core/ipc_signal.h"

namespace simnpu::core {

class Event {
 public:
  Event(int device_id, uint32_t flags);

  int device_id() const { return device_id_; }
  uint32_t flags() const { return flags_; }
  uint32_t id() const { return id_; }

  // Created through aclrtCreateEventExWithFlag (set once, before the event
  // is published; that kind of event has no wait status).
  void set_created_ex() { created_ex_ = true; }
  bool created_ex() const { return created_ex_; }

  // Stream waits on this event that are queued or running.
  void AddPendingWait() { pending_waits_.fetch_add(1, std::memory_order_acq_rel); }
  void EndPendingWait() { pending_waits_.fetch_sub(1, std::memory_order_acq_rel); }
  uint32_t pending_waits() const { return pending_waits_.load(std::memory_order_acquire); }

  // At submission of a record: returns the new generation.
  uint64_t BeginRecord();
  // When the record task runs.
  void MarkDone(uint64_t gen, uint64_t timestamp_ns);
  // When a record task is discarded: wake waiters without a timestamp.
  void MarkDiscarded(uint64_t gen);
  // Reset task: forget the records up to generation gen (those submitted
  // before the reset), not records submitted after it.
  void Reset(uint64_t gen);

  // Model replay (core/model.h) treats an event as a flag: "armed" once a
  // record completed after the last reset. WaitArmed blocks until then and
  // until generation min_gen is done (false on timeout or cancel);
  // ResetCompleted forgets the completed records (a pending one arms the
  // event when it completes).
  bool WaitArmed(uint64_t min_gen, int32_t timeout_ms, const std::atomic<bool>* cancel = nullptr);
  void ResetCompleted();

  uint64_t recorded_gen() const;
  bool IsComplete() const;           // latest record done (or never recorded)
  bool HasCompletedRecord() const;   // at least one record executed and latest done
  // Waits for generation gen (timeout -1 = forever); false on timeout, or
  // once *cancel is set (checked every few milliseconds; stream teardown).
  bool WaitGen(uint64_t gen, int32_t timeout_ms, const std::atomic<bool>* cancel = nullptr);
  // Timestamp of the latest completed record (ns, monotonic).
  uint64_t timestamp_ns() const;

  // Moves the event onto shared words (IPC); the first record state carries
  // over (records so far count as done once done locally).
  void AttachIpc(std::shared_ptr<IpcSignal> sig);
  std::shared_ptr<IpcSignal> ipc() const;
  // Writes this event's generations into a fresh export's words.
  void InitIpcWords(IpcSignal& sig) const;

 private:
  const int device_id_;
  const uint32_t flags_;
  const uint32_t id_;
  bool created_ex_ = false;
  std::atomic<uint32_t> pending_waits_{0};
  mutable std::mutex mu_;          // leaf
  std::condition_variable cv_;
  uint64_t record_gen_ = 0;        // generations handed out. GUARDED_BY(mu_)
  uint64_t done_gen_ = 0;          // highest generation executed. GUARDED_BY(mu_)
  uint64_t timestamp_ns_ = 0;      // of done_gen_. GUARDED_BY(mu_)
  bool timestamp_valid_ = false;   // GUARDED_BY(mu_)
  uint64_t reset_gen_ = 0;         // records up to this one were reset. GUARDED_BY(mu_)
  std::shared_ptr<IpcSignal> ipc_; // set once. GUARDED_BY(mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_EVENT_H_
