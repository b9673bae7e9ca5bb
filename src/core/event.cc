// Event generations and waiting.
#include "core/event.h"

#include <atomic>
#include <chrono>

#include "core/task.h"

namespace simnpu::core {
namespace {
std::atomic<uint32_t> g_next_event_id{0};
}  // namespace

Event::Event(int device_id, uint32_t flags)
    : device_id_(device_id), flags_(flags), id_(g_next_event_id.fetch_add(1, std::memory_order_relaxed)) {}

uint64_t Event::BeginRecord() {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) return record_gen_ = ipc_->BeginRecord();
  return ++record_gen_;
}

void Event::AttachIpc(std::shared_ptr<IpcSignal> sig) {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) return;
  ipc_ = std::move(sig);
}

void Event::InitIpcWords(IpcSignal& sig) const {
  std::lock_guard<std::mutex> g(mu_);
  sig.Init(static_cast<uint32_t>(record_gen_), static_cast<uint32_t>(done_gen_));
}

std::shared_ptr<IpcSignal> Event::ipc() const {
  std::lock_guard<std::mutex> g(mu_);
  return ipc_;
}

void Event::MarkDone(uint64_t gen, uint64_t timestamp_ns) {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) ipc_->Complete(static_cast<uint32_t>(gen));
  if (gen > done_gen_) {
    done_gen_ = gen;
    timestamp_ns_ = timestamp_ns;
    timestamp_valid_ = true;
  }
  cv_.notify_all();
}

void Event::MarkDiscarded(uint64_t gen) {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) ipc_->Complete(static_cast<uint32_t>(gen));
  if (gen > done_gen_) {
    done_gen_ = gen;
    timestamp_valid_ = false;
  }
  cv_.notify_all();
}

void Event::Reset(uint64_t gen) {
  std::lock_guard<std::mutex> g(mu_);
  if (gen >= done_gen_) {  // a later record that already ran keeps its timestamp
    done_gen_ = gen;
    timestamp_valid_ = false;
  }
  if (gen > reset_gen_) reset_gen_ = gen;
  cv_.notify_all();
}

void Event::ResetCompleted() {
  std::lock_guard<std::mutex> g(mu_);
  if (done_gen_ > reset_gen_) reset_gen_ = done_gen_;
  timestamp_valid_ = false;
  cv_.notify_all();
}

bool Event::WaitArmed(uint64_t min_gen, int32_t timeout_ms, const std::atomic<bool>* cancel) {
  std::unique_lock<std::mutex> lk(mu_);
  auto armed = [&] { return done_gen_ > reset_gen_ && done_gen_ >= min_gen; };
  if (cancel) return WaitCancellable(cv_, lk, armed, timeout_ms, *cancel);
  if (timeout_ms < 0) {
    cv_.wait(lk, armed);
    return true;
  }
  return cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), armed);
}

uint64_t Event::recorded_gen() const {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) return ipc_->recorded();
  return record_gen_;
}

bool Event::IsComplete() const {
  std::lock_guard<std::mutex> g(mu_);
  if (ipc_) return static_cast<int32_t>(ipc_->signalled() - ipc_->recorded()) >= 0;
  return done_gen_ >= record_gen_;
}

bool Event::HasCompletedRecord() const {
  std::lock_guard<std::mutex> g(mu_);
  return record_gen_ > 0 && done_gen_ >= record_gen_ && timestamp_valid_;
}

bool Event::WaitGen(uint64_t gen, int32_t timeout_ms, const std::atomic<bool>* cancel) {
  if (std::shared_ptr<IpcSignal> sig = ipc()) return sig->WaitFor(static_cast<uint32_t>(gen), timeout_ms, cancel);
  std::unique_lock<std::mutex> lk(mu_);
  auto done = [&] { return done_gen_ >= gen; };
  if (!cancel) {
    if (timeout_ms < 0) {
      cv_.wait(lk, done);
      return true;
    }
    return cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), done);
  }
  return WaitCancellable(cv_, lk, done, timeout_ms, *cancel);
}

uint64_t Event::timestamp_ns() const {
  std::lock_guard<std::mutex> g(mu_);
  return timestamp_ns_;
}

}  // namespace simnpu::core
