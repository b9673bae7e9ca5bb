// Shared helpers of the runtime core API tests (tests/api).
//
//  - ACL_OK / EXPECT_ACL: assertions on aclError values that print the call.
//  - ClearErrorState(): drains aclGetRecentErrMsg and the thread's last error.
//  - Gate: a host function that blocks its stream until the test opens the
//    gate (the "manually triggered task" idea), so ordering tests do not
//    depend on timing: while a gate is closed, nothing queued behind it on
//    its stream can run.
//  - Seq: a thread-safe log of integers appended by host functions.
//  - DeviceTest: fixture that sets device 0 and force-resets every device
//    afterwards, so the tests also pass when a whole binary runs in one
//    process (ctest runs each test case in its own process).
#ifndef SIMNPU_TESTS_API_API_TEST_UTIL_H_
#define SIMNPU_TESTS_API_API_TEST_UTIL_H_

#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"

#define ACL_OK(expr) ASSERT_EQ(ACL_SUCCESS, (expr)) << #expr
#define EXPECT_ACL_OK(expr) EXPECT_EQ(ACL_SUCCESS, (expr)) << #expr
#define EXPECT_ACL(code, expr) EXPECT_EQ((code), (expr)) << #expr

namespace apitest {

inline void ClearErrorState() {
  while (aclGetRecentErrMsg() != nullptr) {
  }
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
}

// Text of aclGetRecentErrMsg (empty when NULL). Consumes the messages.
inline std::string TakeErrMsg() {
  const char* m = aclGetRecentErrMsg();
  return m ? std::string(m) : std::string();
}

// Polls pred every millisecond for up to ms milliseconds.
inline bool WaitUntil(const std::function<bool()>& pred, int ms = 5000) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

inline void SleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// A host function that blocks its stream until Open(). The shared state
// outlives the Gate object, so a queued host function never sees freed
// memory; the destructor opens the gate so a failing test cannot hang in
// device teardown.
class Gate {
 public:
  Gate() : st_(std::make_shared<State>()) { Keep(st_); }
  ~Gate() { Open(); }
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

  // Queues the blocking host function on stream (NULL = default stream).
  aclError Enqueue(aclrtStream stream) { return aclrtLaunchHostFunc(stream, &Gate::Fn, st_.get()); }
  void Open() {
    std::lock_guard<std::mutex> g(st_->mu);
    st_->open = true;
    st_->cv.notify_all();
  }
  // Waits until n host functions of this gate have started (are blocking).
  bool WaitEntered(int n = 1, int ms = 5000) {
    std::unique_lock<std::mutex> lk(st_->mu);
    return st_->cv.wait_for(lk, std::chrono::milliseconds(ms), [&] { return st_->entered >= n; });
  }
  int entered() const {
    std::lock_guard<std::mutex> g(st_->mu);
    return st_->entered;
  }
  int left() const {
    std::lock_guard<std::mutex> g(st_->mu);
    return st_->left;
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    int entered = 0;
    int left = 0;
  };
  // Gate states live until process exit: a host function that was queued
  // (or discarded by an abort) never refers to freed memory, and nothing
  // leaks from the sanitizers' point of view.
  static void Keep(const std::shared_ptr<State>& st) {
    static std::mutex mu;
    static std::vector<std::shared_ptr<State>>* all = new std::vector<std::shared_ptr<State>>();
    std::lock_guard<std::mutex> g(mu);
    all->push_back(st);
  }
  static void Fn(void* p) {
    auto* st = static_cast<State*>(p);
    std::unique_lock<std::mutex> lk(st->mu);
    ++st->entered;
    st->cv.notify_all();
    st->cv.wait(lk, [&] { return st->open; });
    ++st->left;
    st->cv.notify_all();
  }
  std::shared_ptr<State> st_;
};

// A log of integers appended by host functions (and by the test).
class Seq {
 public:
  void Push(int v) {
    std::lock_guard<std::mutex> g(mu_);
    v_.push_back(v);
  }
  std::vector<int> Get() const {
    std::lock_guard<std::mutex> g(mu_);
    return v_;
  }
  size_t size() const {
    std::lock_guard<std::mutex> g(mu_);
    return v_.size();
  }
  // Queues a host function that appends v when the stream reaches it.
  // The argument block is owned by the Seq, so a host function that a stream
  // discards (abort, stop-on-failure) leaks nothing.
  aclError Append(aclrtStream stream, int v) {
    std::pair<Seq*, int>* arg;
    {
      std::lock_guard<std::mutex> g(mu_);
      args_.emplace_back(this, v);
      arg = &args_.back();
    }
    return aclrtLaunchHostFunc(stream, &Seq::Fn, arg);
  }

 private:
  static void Fn(void* p) {
    auto* arg = static_cast<std::pair<Seq*, int>*>(p);
    arg->first->Push(arg->second);
  }
  mutable std::mutex mu_;
  std::vector<int> v_;
  std::deque<std::pair<Seq*, int>> args_;  // stable addresses
};

// Runs fn on a new thread and waits for it (for per-thread state checks).
inline void OnOtherThread(const std::function<void()>& fn) {
  std::thread t(fn);
  t.join();
}

// Device 0 is set (and current) for every test; all devices are force-reset
// afterwards.
class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ClearErrorState();
    ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  }
  void TearDown() override {
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) != ACL_SUCCESS) n = 0;
    for (uint32_t d = 0; d < n; ++d) EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(static_cast<int32_t>(d)));
    ClearErrorState();
  }
};

}  // namespace apitest

#endif  // SIMNPU_TESTS_API_API_TEST_UTIL_H_
