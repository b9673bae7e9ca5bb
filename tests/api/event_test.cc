// Events, notifies, value write/wait (acl-api.md §4.5).
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;
using apitest::OnOtherThread;
using apitest::Seq;
using apitest::SleepMs;
using apitest::TakeErrMsg;

constexpr int kGraceMs = 30;

class ApiEventTest : public apitest::DeviceTest {};

TEST_F(ApiEventTest, CreateVariants) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  EXPECT_NE(nullptr, e);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  for (uint32_t flag : {0u, ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
                        ACL_EVENT_CAPTURE_STREAM_PROGRESS, ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_EXTERNAL}) {
    aclrtEvent a = nullptr, b = nullptr;
    EXPECT_ACL_OK(aclrtCreateEventWithFlag(&a, flag)) << flag;
    EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&b, flag)) << flag;
    EXPECT_NE(a, b);
    EXPECT_ACL_OK(aclrtDestroyEvent(a));
    EXPECT_ACL_OK(aclrtDestroyEvent(b));
  }
}

TEST_F(ApiEventTest, CreateErrors) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC));
  aclrtEvent e = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&e, 0x80));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&e, 0x100 | ACL_EVENT_SYNC));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  OnOtherThread([] {
    aclrtEvent x = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&x));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEventWithFlag(&x, ACL_EVENT_SYNC));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEventExWithFlag(&x, ACL_EVENT_SYNC));
  });
}

TEST_F(ApiEventTest, NullEventArguments) {
  aclrtEventRecordedStatus rs;
  float ms;
  uint64_t ts;
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyEvent(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtRecordEvent(nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtResetEvent(nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(nullptr, &rs));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(e, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEvent(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEventWithTimeout(nullptr, 10));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(nullptr, e, e));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, nullptr, e));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(&ms, e, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(nullptr, &ts));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(e, nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(ApiEventTest, RecordQuerySynchronize) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, st);
  std::atomic<bool> synced{false};
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
    synced.store(true);
  });
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_FALSE(synced.load());
  gate.Open();
  t.join();
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, RecordOnDefaultStream) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  EXPECT_ACL_OK(aclrtRecordEvent(e, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  aclrtEventRecordedStatus st;
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(ApiEventTest, SynchronizeWithTimeout) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeEventWithTimeout(e, -2));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 20));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 0));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, -1));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 0));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, ElapsedTimeCoversHostSleep) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&b));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(a, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(a));
  auto t0 = std::chrono::steady_clock::now();
  SleepMs(25);
  double slept = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(b, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(b));
  float ms = -1;
  EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
  EXPECT_GE(ms, slept - 0.01);
  EXPECT_LT(ms, 5000.0f);
  // Reverse order: negative.
  float back = 0;
  EXPECT_ACL_OK(aclrtEventElapsedTime(&back, b, a));
  EXPECT_LE(back, -slept + 0.01);
  // Timestamps (device system-counter ticks) increase.
  uint64_t ta = 0, tb = 0;
  EXPECT_ACL_OK(aclrtEventGetTimestamp(a, &ta));
  EXPECT_ACL_OK(aclrtEventGetTimestamp(b, &tb));
  EXPECT_GT(ta, 0u);
  EXPECT_GT(tb, ta);
  EXPECT_ACL_OK(aclrtDestroyEvent(a));
  EXPECT_ACL_OK(aclrtDestroyEvent(b));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, ElapsedTimeOfIncompleteEvents) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&b));
  float ms;
  // Never recorded.
  EXPECT_ACL(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventElapsedTime(&ms, a, b));
  EXPECT_FALSE(TakeErrMsg().empty());
  uint64_t ts;
  EXPECT_ACL(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventGetTimestamp(a, &ts));
  // Recorded but held back.
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(a, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeEvent(a));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(b, s));
  EXPECT_ACL(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventElapsedTime(&ms, a, b));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeEvent(b));
  EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
  EXPECT_GE(ms, 0.0f);
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyEvent(a));
  EXPECT_ACL_OK(aclrtDestroyEvent(b));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, ResetEvent) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  EXPECT_ACL_OK(aclrtResetEvent(e, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtResetEvent(e, nullptr));  // default stream
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  // Re-recording after a reset works as before.
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  aclrtEventRecordedStatus st;
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, ResetDoesNotCompleteALaterRecord) {
  // A reset queued on stream a must not mark complete a record that was
  // submitted (on stream b) after it and has not executed yet.
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate ga, gb;
  ASSERT_EQ(ACL_SUCCESS, ga.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, aclrtResetEvent(e, a));
  ASSERT_EQ(ACL_SUCCESS, gb.Enqueue(b));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, b));
  ga.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));  // the reset has run
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, st);
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, kGraceMs));
  gb.Open();
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
  uint64_t ts = 0;
  EXPECT_ACL_OK(aclrtEventGetTimestamp(e, &ts));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiEventTest, DestroyWhileRecordIsPending) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiEventTest, DestroyedEventIsRejected) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e));
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyEvent(e));
  EXPECT_NE(ACL_SUCCESS, aclrtRecordEvent(e, nullptr));
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeEvent(e));
}

// ------------------------------------------------------- wait status, ids

TEST_F(ApiEventTest, WaitStatusArguments) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(e, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(nullptr, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_RESERVED, ws);  // untouched on failure
  aclrtEvent dead = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&dead));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(dead));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtQueryEventWaitStatus(dead, &ws));
  EXPECT_NE(std::string::npos, TakeErrMsg().find("aclrtQueryEventWaitStatus"));
  // events made by aclrtCreateEventExWithFlag have no wait status (reference constraint)
  aclrtEvent ex = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtQueryEventWaitStatus(ex, &ws));
  EXPECT_NE(std::string::npos, TakeErrMsg().find("aclrtCreateEventExWithFlag"));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_RESERVED, ws);
  // ... but aclrtCreateEventWithFlag events do
  aclrtEvent wf = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEventWithFlag(&wf, ACL_EVENT_SYNC));
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(wf, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
  EXPECT_ACL_OK(aclrtDestroyEvent(wf));
  EXPECT_ACL_OK(aclrtDestroyEvent(ex));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

// A wait queued on a stream is pending until the record it waits for has
// executed; before any wait (and once every wait ran) the status is COMPLETE.
TEST_F(ApiEventTest, WaitStatusBeforeAndAfterTheRecord) {
  aclrtStream rec = nullptr, waiter = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&rec));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&waiter));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);  // no wait yet
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(rec));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, rec));  // held back by the gate
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(waiter, e));
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, ws);  // the record has not executed
  aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtStreamQuery(waiter, &ss));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, ss);
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(waiter));
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
  // two waits, one record: pending until that record ran, then complete
  Gate gate2;
  ASSERT_EQ(ACL_SUCCESS, gate2.Enqueue(rec));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, rec));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(waiter, e));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(waiter, e));
  ASSERT_TRUE(gate2.WaitEntered());
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, ws);
  gate2.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(waiter));
  EXPECT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(waiter));
  EXPECT_ACL_OK(aclrtDestroyStream(rec));
}

TEST_F(ApiEventTest, EventIdArguments) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  uint32_t id = 0xdeadbeefu;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(e, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(nullptr, &id));
  EXPECT_EQ(0xdeadbeefu, id);
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyEvent(e));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtGetEventId(e, &id));
  EXPECT_NE(std::string::npos, TakeErrMsg().find("aclrtGetEventId"));
  EXPECT_EQ(0xdeadbeefu, id);
}

TEST_F(ApiEventTest, EventIdsAreDistinctAndStable) {
  constexpr int kN = 8;
  aclrtEvent ev[kN] = {};
  uint32_t ids[kN] = {};
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(ACL_SUCCESS, i % 2 ? aclrtCreateEventExWithFlag(&ev[i], ACL_EVENT_SYNC) : aclrtCreateEvent(&ev[i]));
    ASSERT_EQ(ACL_SUCCESS, aclrtGetEventId(ev[i], &ids[i]));
  }
  for (int i = 0; i < kN; ++i)
    for (int j = i + 1; j < kN; ++j) EXPECT_NE(ids[i], ids[j]) << i << " " << j;
  // the same id again, also after a record and a wait
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(ev[i], s));
    ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(s, ev[i]));
  }
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
  for (int i = 0; i < kN; ++i) {
    uint32_t again = 0;
    EXPECT_ACL_OK(aclrtGetEventId(ev[i], &again));
    EXPECT_EQ(ids[i], again) << i;
  }
  // an event created later does not reuse a live event's id
  aclrtEvent late = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&late));
  uint32_t late_id = 0;
  EXPECT_ACL_OK(aclrtGetEventId(late, &late_id));
  for (int i = 0; i < kN; ++i) EXPECT_NE(ids[i], late_id) << i;
  EXPECT_ACL_OK(aclrtDestroyEvent(late));
  for (aclrtEvent x : ev) EXPECT_ACL_OK(aclrtDestroyEvent(x));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// ------------------------------------------------------------------ notifies

TEST_F(ApiEventTest, NotifyRecordAndWait) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_NE(nullptr, n);
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, b, 0));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(b, 2));
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(a, 1));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(n, a));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(b, kGraceMs));
  EXPECT_EQ(0u, seq.size());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_EQ((std::vector<int>{1, 2}), seq.Get());
  ClearErrorState();
  // The wait consumed the signal: a second wait needs a second record.
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, b, 0));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(b, 3));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(b, kGraceMs));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordNotify(n, a));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ((std::vector<int>{1, 2, 3}), seq.Get());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiEventTest, NotifyWaitTimeoutFailsTheStream) {
  aclrtStream b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, b, 10));
  aclError rc = aclrtSynchronizeStream(b);
  EXPECT_NE(ACL_SUCCESS, rc);
  EXPECT_EQ(rc, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiEventTest, NotifyArguments) {
  aclrtNotify n = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(nullptr, ACL_NOTIFY_DEFAULT));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtRecordNotify(nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtWaitAndResetNotify(nullptr, nullptr, 0));
  EXPECT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEVICE_USE_ONLY));
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  OnOtherThread([] {
    aclrtNotify x = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateNotify(&x, ACL_NOTIFY_DEFAULT));
  });
}

// --------------------------------------------------------- value write/wait

class ApiValueTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev_, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a_));
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b_));
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtDestroyStream(a_));
    EXPECT_ACL_OK(aclrtDestroyStream(b_));
    EXPECT_ACL_OK(aclrtFree(dev_));
    apitest::DeviceTest::TearDown();
  }
  void SetValue(uint64_t v) {
    ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(dev_, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  uint64_t GetValue() {
    uint64_t v = 0;
    EXPECT_ACL_OK(aclrtMemcpy(&v, 8, dev_, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  // Stream b waits (flag, value) for a write of `write` issued on stream a
  // behind a gate; b's follow-up task must not run before the gate opens.
  void ExpectWaitReleasedBy(uint64_t initial, uint32_t flag, uint64_t value, uint64_t write) {
    SetValue(initial);
    Gate gate;
    Seq seq;
    ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(dev_, value, flag, b_));
    ASSERT_EQ(ACL_SUCCESS, seq.Append(b_, 2));
    ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a_));
    ASSERT_EQ(ACL_SUCCESS, seq.Append(a_, 1));
    ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(dev_, write, 0, a_));
    EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(b_, kGraceMs))
        << "flag " << flag;
    EXPECT_EQ(0u, seq.size());
    gate.Open();
    EXPECT_ACL_OK(aclrtSynchronizeStream(b_));
    EXPECT_ACL_OK(aclrtSynchronizeStream(a_));
    EXPECT_EQ((std::vector<int>{1, 2}), seq.Get()) << "flag " << flag;
    EXPECT_EQ(write, GetValue());
    ClearErrorState();
  }
  // A wait whose condition already holds does not block.
  void ExpectWaitPasses(uint64_t initial, uint32_t flag, uint64_t value) {
    SetValue(initial);
    ASSERT_EQ(ACL_SUCCESS, aclrtValueWait(dev_, value, flag, b_));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(b_, 5000)) << "flag " << flag;
  }
  void* dev_ = nullptr;
  aclrtStream a_ = nullptr, b_ = nullptr;
};

TEST_F(ApiValueTest, WriteStoresTheValue) {
  SetValue(0);
  EXPECT_ACL_OK(aclrtValueWrite(dev_, 0x1122334455667788ull, 0, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(a_));
  EXPECT_EQ(0x1122334455667788ull, GetValue());
  EXPECT_ACL_OK(aclrtValueWrite(dev_, 42, 0, nullptr));  // default stream
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(42u, GetValue());
}

TEST_F(ApiValueTest, WaitGreaterOrEqual) {
  ExpectWaitReleasedBy(0, ACL_STREAM_WAIT_VALUE_GEQ, 5, 7);
  ExpectWaitPasses(5, ACL_STREAM_WAIT_VALUE_GEQ, 5);
  ExpectWaitPasses(9, ACL_STREAM_WAIT_VALUE_GEQ, 5);
}

TEST_F(ApiValueTest, WaitEqual) {
  ExpectWaitReleasedBy(4, ACL_STREAM_WAIT_VALUE_EQ, 5, 5);
  ExpectWaitPasses(5, ACL_STREAM_WAIT_VALUE_EQ, 5);
}

TEST_F(ApiValueTest, WaitAnd) {
  ExpectWaitReleasedBy(0x3, ACL_STREAM_WAIT_VALUE_AND, 0x4, 0x6);
  ExpectWaitPasses(0x5, ACL_STREAM_WAIT_VALUE_AND, 0x4);
}

TEST_F(ApiValueTest, WaitNor) {
  // ~(cur | value) != 0: blocked while cur | value has every bit set.
  ExpectWaitReleasedBy(~0ull, ACL_STREAM_WAIT_VALUE_NOR, 0x1, 0x1);
  ExpectWaitPasses(0, ACL_STREAM_WAIT_VALUE_NOR, 0);
}

TEST_F(ApiValueTest, Arguments) {
  uint64_t host = 0;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(nullptr, 1, 0, a_));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtValueWait(nullptr, 1, 0, a_));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWrite(&host, 1, 0, a_));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWait(&host, 1, 0, a_));
  void* pinned = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pinned, 64));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWrite(pinned, 1, 0, a_));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWait(pinned, 1, 0, a_));
  EXPECT_ACL_OK(aclrtFreeHost(pinned));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWrite(dev_, 1, 1, a_));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtValueWait(dev_, 1, 4, a_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(a_));
}

}  // namespace
