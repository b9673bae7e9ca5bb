// Streams (acl-api.md §4.4): creation (plain, WithConfig, V2 with a config
// handle), destruction (own and foreign context, forced), synchronize with
// and without timeout, query, failure mode, stop/abort, id/flags/priority,
// stream-state callbacks. Blocking uses apitest::Gate, never sleeps.
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;
using apitest::OnOtherThread;
using apitest::Seq;
using apitest::TakeErrMsg;

class ApiStreamTest : public apitest::DeviceTest {};

TEST_F(ApiStreamTest, CreateAndDestroy) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_NE(nullptr, s);
  uint32_t prio = 99, flags = 99;
  EXPECT_ACL_OK(aclrtStreamGetPriority(s, &prio));
  EXPECT_EQ(0u, prio);
  EXPECT_ACL_OK(aclrtStreamGetFlags(s, &flags));
  EXPECT_EQ(0u, flags);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, CreateNullAndNoContext) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamWithConfig(nullptr, 0, 0));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  OnOtherThread([] {
    aclrtStream s = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStreamWithConfig(&s, 0, 0));
    EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  });
}

TEST_F(ApiStreamTest, StreamIdsAreDistinct) {
  std::set<int32_t> ids;
  std::vector<aclrtStream> ss;
  for (int i = 0; i < 8; ++i) {
    aclrtStream s = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
    int32_t id = -1;
    EXPECT_ACL_OK(aclrtStreamGetId(s, &id));
    EXPECT_GE(id, 0);
    ids.insert(id);
    ss.push_back(s);
  }
  EXPECT_EQ(8u, ids.size());
  int32_t id;
  EXPECT_ACL_OK(aclrtStreamGetId(nullptr, &id));  // the default stream has an id too
  EXPECT_EQ(0u, ids.count(id));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(ss[0], nullptr));
  for (auto s : ss) EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, CreateWithConfig) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&s, 7, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
  uint32_t prio = 0, flags = 0;
  EXPECT_ACL_OK(aclrtStreamGetPriority(s, &prio));
  EXPECT_EQ(7u, prio);
  EXPECT_ACL_OK(aclrtStreamGetFlags(s, &flags));
  EXPECT_EQ(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC, flags);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtStreamGetPriority(s, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtStreamGetFlags(s, nullptr));
  EXPECT_ACL_OK(aclrtDestroyStream(s));

  // Unknown flag bits are dropped.
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_HUGE | 0x80000000u));
  EXPECT_ACL_OK(aclrtStreamGetFlags(s, &flags));
  EXPECT_EQ(ACL_STREAM_HUGE, flags);
  EXPECT_ACL_OK(aclrtStreamGetPriority(s, &prio));
  EXPECT_EQ(3u, prio);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, CreateWithConfigPriorityOutOfRange) {
  aclrtStream s = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtCreateStreamWithConfig(&s, 8, 0));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtCreateStreamWithConfig(&s, 0xFFFFFFFFu, 0));
}

TEST_F(ApiStreamTest, ConfigHandleAndCreateV2) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(nullptr, h);
  uint32_t prio = 5;
  EXPECT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
  // The flag value may be given as 4 bytes (what S28 passes) or as a size_t.
  uint32_t flag4 = ACL_STREAM_FAST_LAUNCH;
  EXPECT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag4, sizeof flag4));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamV2(&s, h));
  uint32_t got = 0;
  EXPECT_ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(5u, got);
  EXPECT_ACL_OK(aclrtStreamGetFlags(s, &got));
  EXPECT_EQ(ACL_STREAM_FAST_LAUNCH, got);
  EXPECT_ACL_OK(aclrtDestroyStream(s));

  size_t flag8 = ACL_STREAM_FAST_SYNC;
  EXPECT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag8, sizeof flag8));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamV2(&s, h));
  EXPECT_ACL_OK(aclrtStreamGetFlags(s, &got));
  EXPECT_EQ(ACL_STREAM_FAST_SYNC, got);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));

  void* work = nullptr;
  EXPECT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof work));
  size_t wsize = 0;
  EXPECT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &wsize, sizeof wsize));
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(h));

  // A NULL handle means defaults.
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamV2(&s, nullptr));
  EXPECT_ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(0u, got);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, ConfigHandleErrors) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(nullptr, h);
  uint32_t v4 = 1;
  uint16_t v2 = 1;
  size_t v8 = 1;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_PRIORITY, &v4, 4));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, nullptr, 4));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, static_cast<aclrtStreamConfigAttr>(4), &v4, 4));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &v2, sizeof v2));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &v8, sizeof v8));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &v4, sizeof v4));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &v4, sizeof v4));
  uint32_t bad_prio = 8;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &bad_prio, 4));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(nullptr, h));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(nullptr));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(aclrtDestroyStreamConfigHandle(h));
}

TEST_F(ApiStreamTest, DestroyErrors) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(nullptr));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  OnOtherThread([s] { EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtDestroyStream(s)); });
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, DestroyStreamOfAnotherContext) {
  aclrtContext primary = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&primary));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtContext other = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&other, 0));  // now current
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStream(s));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CONTEXT, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStreamForce(s));
  // A stream of device 1 while device 0's context is current.
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  aclrtStream s1 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetCurrentContext(primary));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_CONTEXT, aclrtDestroyStream(s1));
  // In its own context it is fine.
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtDestroyStream(s1));
  EXPECT_ACL_OK(aclrtDestroyContext(other));
}

TEST_F(ApiStreamTest, DestroyedStreamIsNoLongerUsable) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(s));
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, DestroyForceStillRunsSubmittedWork) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Seq seq;
  for (int i = 0; i < 5; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ((std::vector<int>{0, 1, 2, 3, 4}), seq.Get());
}

TEST_F(ApiStreamTest, SynchronizeDefaultStream) {
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(1u, seq.size());
  OnOtherThread([] { EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeStream(nullptr)); });
}

TEST_F(ApiStreamTest, SynchronizeWithTimeout) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStreamWithTimeout(s, -2));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 0));  // already idle
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));

  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 20));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 0));
  EXPECT_EQ(0u, seq.size());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
  EXPECT_EQ(1u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, Query) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
  EXPECT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(s, nullptr));

  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  EXPECT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  // The default stream.
  EXPECT_ACL_OK(aclrtStreamQuery(nullptr, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// A task that fails without a kernel: waiting with a timeout for an event
// whose record is held back by a gate on another stream.
void QueueFailingWait(aclrtStream s, aclrtEvent e) {
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(s, e, 10));
}

TEST_F(ApiStreamTest, FailureModeStopDiscardsFollowingTasks) {
  aclrtStream s = nullptr, blocker = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&blocker));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(blocker));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, blocker));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  QueueFailingWait(s, e);
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{1}), seq.Get());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(blocker));
  ClearErrorState();
  // The stream accepts and runs new work afterwards.
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 3));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{1, 3}), seq.Get());
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(ApiStreamTest, FailureModeContinueRunsFollowingTasks) {
  aclrtStream s = nullptr, blocker = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&blocker));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(blocker));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, blocker));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  QueueFailingWait(s, e);
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));
  aclError rc = aclrtSynchronizeStream(s);
  EXPECT_NE(ACL_SUCCESS, rc);
  EXPECT_EQ(rc, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ((std::vector<int>{1, 2}), seq.Get());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(blocker));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(ApiStreamTest, FailureModeArguments) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, 0xF0));  // only bit 0 counts
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE));
  OnOtherThread([s] { EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE)); });
  aclrtStream dev_only = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&dev_only, 0, ACL_STREAM_DEVICE_USE_ONLY));
  EXPECT_ACL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetStreamFailureMode(dev_only, ACL_STOP_ON_FAILURE));
  EXPECT_ACL_OK(aclrtDestroyStream(dev_only));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, AbortDiscardsQueuedTasks) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamAbort(s));
  gate.Open();
  aclError rc = aclrtSynchronizeStream(s);
  EXPECT_NE(ACL_SUCCESS, rc);
  EXPECT_EQ(0u, seq.size());
  ClearErrorState();
  // Later work runs normally.
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 3));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{3}), seq.Get());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, AbortDoesNotDiscardTasksSubmittedAfterIt) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));  // pending at the abort: discarded
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamAbort(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));  // submitted after the abort: runs
  gate.Open();
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{2}), seq.Get());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, StopOnFailureDoesNotDiscardTasksSubmittedAfterTheFailure) {
  aclrtStream s = nullptr, blocker = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&blocker));
  EXPECT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate never, later;
  ASSERT_EQ(ACL_SUCCESS, never.Enqueue(blocker));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, blocker));
  Seq seq;
  QueueFailingWait(s, e);
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));   // behind the failure: discarded
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(s));
  ClearErrorState();
  ASSERT_EQ(ACL_SUCCESS, later.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));   // after the failure was reported: runs
  later.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{2}), seq.Get());
  never.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(blocker));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(ApiStreamTest, StopDiscardsQueuedTasks) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamStop(s));
  gate.Open();
  EXPECT_NE(ACL_SUCCESS, aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, StopAndAbortArguments) {
  OnOtherThread([] {
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtStreamStop(nullptr));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtStreamAbort(nullptr));
  });
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  // Nothing queued: nothing to report afterwards? Stop/abort of an idle
  // stream succeed.
  EXPECT_ACL_OK(aclrtStreamAbort(s));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// Stream-state callbacks.
struct StateLog {
  std::mutex mu;
  std::vector<std::pair<aclrtStream, int>> events;
};
void StateCb(aclrtStream s, aclrtStreamState st, void* args) {
  auto* log = static_cast<StateLog*>(args);
  std::lock_guard<std::mutex> g(log->mu);
  log->events.emplace_back(s, static_cast<int>(st));
}

TEST_F(ApiStreamTest, StreamStateCallbacks) {
  StateLog log;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtRegStreamStateCallback(nullptr, StateCb, &log));
  ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("api_stream_test", StateCb, &log));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  {
    std::lock_guard<std::mutex> g(log.mu);
    ASSERT_EQ(1u, log.events.size());
    EXPECT_EQ(s, log.events[0].first);
    EXPECT_EQ(ACL_RT_STREAM_STATE_CREATE_POST, log.events[0].second);
  }
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
  {
    std::lock_guard<std::mutex> g(log.mu);
    ASSERT_EQ(2u, log.events.size());
    EXPECT_EQ(s, log.events[1].first);
    EXPECT_EQ(ACL_RT_STREAM_STATE_DESTROY_PRE, log.events[1].second);
  }
  // Streams destroyed by a device reset are reported too.
  aclrtStream s2 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
  ASSERT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(0));
  {
    std::lock_guard<std::mutex> g(log.mu);
    ASSERT_EQ(4u, log.events.size());
    EXPECT_EQ(s2, log.events[3].first);
    EXPECT_EQ(ACL_RT_STREAM_STATE_DESTROY_PRE, log.events[3].second);
  }
  // Deregistration (NULL callback under the same name).
  ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("api_stream_test", nullptr, nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
  std::lock_guard<std::mutex> g(log.mu);
  EXPECT_EQ(4u, log.events.size());
}

TEST_F(ApiStreamTest, StreamStateCallbackReRegistrationReplaces) {
  StateLog a, b;
  ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("api_stream_test_re", StateCb, &a));
  ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("api_stream_test_re", StateCb, &b));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRegStreamStateCallback("api_stream_test_re", nullptr, nullptr));
  EXPECT_EQ(0u, a.events.size());
  EXPECT_EQ(2u, b.events.size());
}

TEST_F(ApiStreamTest, StreamQuotaPerDevice) {
  // 1984 user streams per device; the next one fails with 207008.
  constexpr size_t kQuota = 1984;
  std::vector<aclrtStream> ss;
  ss.reserve(kQuota);
  for (size_t i = 0; i < kQuota; ++i) {
    aclrtStream s = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s)) << i;
    ss.push_back(s);
  }
  aclrtStream extra = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_NO_STREAM_RESOURCE, aclrtCreateStream(&extra));
  EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_FALSE(TakeErrMsg().empty());
  // Another device has its own quota.
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtCreateStream(&extra));
  EXPECT_ACL_OK(aclrtDestroyStream(extra));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  // Destroying one makes room again.
  EXPECT_ACL_OK(aclrtDestroyStream(ss.back()));
  ss.pop_back();
  EXPECT_ACL_OK(aclrtCreateStream(&extra));
  ss.push_back(extra);
  for (auto s : ss) ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, ThreadLastTaskId) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetThreadLastTaskId(nullptr));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  uint32_t first = 0, second = 0;
  EXPECT_ACL_OK(aclrtGetThreadLastTaskId(&first));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));
  EXPECT_ACL_OK(aclrtGetThreadLastTaskId(&second));
  EXPECT_NE(first, second);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiStreamTest, ManyStreams) {
  std::vector<aclrtStream> ss(64);
  Seq seq;
  for (size_t i = 0; i < ss.size(); ++i) {
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&ss[i]));
    ASSERT_EQ(ACL_SUCCESS, seq.Append(ss[i], static_cast<int>(i)));
  }
  for (auto s : ss) EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(ss.size(), seq.size());
  for (auto s : ss) EXPECT_ACL_OK(aclrtDestroyStream(s));
}

}  // namespace
