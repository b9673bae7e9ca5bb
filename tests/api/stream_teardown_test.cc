// Stream teardown and device-wide synchronize (acl-api.md §4.2, §4.4):
//  - aclrtDestroyStreamForce "does not wait": a stream blocked on an event,
//    notify or value wait that will never be satisfied is destroyed at once,
//    the tasks behind the wait are discarded, and work queued before the wait
//    still runs (S16/S20 rely on that); aclrtResetDeviceForce likewise.
//  - aclrtDestroyStream (not forced) still waits for the stream's work.
//  - aclrtSynchronizeDeviceWithTimeout bounds the whole call, not each stream,
//    and the failures of streams other than the one it reports stay pending.
// SIMNPU_DRAIN_TIMEOUT_MS is left at its default (30 s), so a prompt return
// shows that the wait was cancelled, not that the drain timed out.
#include <atomic>
#include <chrono>
#include <vector>

#include "api_test_util.h"

namespace {

using apitest::Gate;
using apitest::Seq;
using Clock = std::chrono::steady_clock;

class ApiStreamTeardownTest : public apitest::DeviceTest {};

int64_t MsSince(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

// A stream blocked forever: it waits for a notify that nobody records.
TEST_F(ApiStreamTeardownTest, DestroyForceReturnsPromptlyFromANotifyWait) {
  aclrtStream s = nullptr;
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));  // before the wait: runs
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, s, 0));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));  // behind the wait: discarded
  ASSERT_TRUE(apitest::WaitUntil([&] { return seq.size() == 1; }));
  const auto t0 = Clock::now();
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_LT(MsSince(t0), 5000);
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(std::vector<int>{1}, seq.Get());
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

// A stream waiting for an event whose record is queued behind a notify wait
// on another stream: neither ever proceeds. Forced destruction of the waiting
// stream returns at once; that of the recording stream discards the record,
// which completes the event for everyone else.
TEST_F(ApiStreamTeardownTest, DestroyForceReturnsPromptlyFromAnEventWait) {
  aclrtStream waiter = nullptr, recorder = nullptr;
  aclrtEvent e = nullptr;
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&waiter));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&recorder));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, recorder, 0));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, recorder));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(waiter, e));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(waiter, 1));
  aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(waiter, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);

  auto t0 = Clock::now();
  EXPECT_ACL_OK(aclrtDestroyStreamForce(waiter));
  EXPECT_LT(MsSince(t0), 5000);
  t0 = Clock::now();
  EXPECT_ACL_OK(aclrtDestroyStreamForce(recorder));
  EXPECT_LT(MsSince(t0), 5000);
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 5000));  // the discarded record released it
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(0u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(ApiStreamTeardownTest, DestroyForceReturnsPromptlyFromAValueWait) {
  aclrtStream s = nullptr;
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(dev, 64, 0, 64));
  ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(dev, 1, ACL_STREAM_WAIT_VALUE_GEQ, s));  // nobody writes 1
  const auto t0 = Clock::now();
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_LT(MsSince(t0), 5000);
  EXPECT_ACL_OK(aclrtFree(dev));
}

// Queued work that can run still runs (and the call waits for it); only the
// wait and what follows it are dropped.
TEST_F(ApiStreamTeardownTest, DestroyForceRunsWorkQueuedBeforeTheBlockedWait) {
  aclrtStream s = nullptr;
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  for (int i = 0; i < 3; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, s, 0));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 9));
  ASSERT_TRUE(gate.WaitEntered());
  std::atomic<bool> returned{false};
  std::thread opener([&] {
    apitest::SleepMs(50);
    EXPECT_FALSE(returned.load());  // still draining the work before the wait
    gate.Open();
  });
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  returned = true;
  opener.join();
  EXPECT_EQ((std::vector<int>{0, 1, 2}), seq.Get());
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

// The waits of every stream of the device give up, whichever order the
// streams are torn down in.
TEST_F(ApiStreamTeardownTest, ResetDeviceForceReturnsPromptlyFromBlockedWaits) {
  aclrtStream a = nullptr, b = nullptr;
  aclrtNotify n = nullptr;
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, b, 0));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, b));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(a, e));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, nullptr, 0));  // the default stream too
  const auto t0 = Clock::now();
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_LT(MsSince(t0), 5000);
  // The device can be set again and works.
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 7));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(std::vector<int>{7}, seq.Get());
}

// Not forced: the destroy waits until the blocked wait is satisfied.
TEST_F(ApiStreamTeardownTest, DestroyWaitsForTheStreamsWork) {
  aclrtStream s = nullptr, other = nullptr;
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&other));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, s, 0));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  std::thread recorder([&] {
    apitest::SleepMs(50);
    EXPECT_EQ(ACL_SUCCESS, aclrtRecordNotify(n, other));
  });
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_EQ(std::vector<int>{1}, seq.Get());
  recorder.join();
  EXPECT_ACL_OK(aclrtDestroyStream(other));
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

// One deadline for the whole call: five blocked streams time out together.
TEST_F(ApiStreamTeardownTest, SynchronizeDeviceTimeoutBoundsTheWholeCall) {
  constexpr int kStreams = 5;
  constexpr int kTimeoutMs = 200;
  Gate gate;
  std::vector<aclrtStream> streams(kStreams);
  for (auto& s : streams) {
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
    ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  }
  ASSERT_TRUE(gate.WaitEntered(kStreams));
  const auto t0 = Clock::now();
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(kTimeoutMs));
  const int64_t ms = MsSince(t0);
  EXPECT_GE(ms, kTimeoutMs - 5);
  EXPECT_LT(ms, 2 * kTimeoutMs);  // per stream it would take kStreams * kTimeoutMs
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  for (auto s : streams) EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// Two streams fail; a device synchronize reports one failure and leaves the
// other pending, so no failure is lost.
TEST_F(ApiStreamTeardownTest, SynchronizeDeviceKeepsTheOtherStreamsFailures) {
  aclrtStream a = nullptr, b = nullptr, recorder = nullptr;
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&recorder));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(recorder));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, recorder));
  // Both waits expire (the record is held back by the gate): both streams fail.
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(a, e, 10));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(b, e, 10));
  auto idle = [](aclrtStream s) {
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    return aclrtStreamQuery(s, &st) == ACL_SUCCESS && st == ACL_STREAM_STATUS_COMPLETE;
  };
  ASSERT_TRUE(apitest::WaitUntil([&] { return idle(a) && idle(b); }));
  gate.Open();
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  apitest::ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  for (auto s : {a, b, recorder}) EXPECT_ACL_OK(aclrtDestroyStream(s));
}

}  // namespace
