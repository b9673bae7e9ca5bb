// Issue 11 item 7: behaviours found by running real programs.
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;
using apitest::Seq;

class FidelityTest : public apitest::DeviceTest {};

TEST_F(FidelityTest, NeverRecordedEventIsNotReady) {
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, st);
  EXPECT_EQ(0, static_cast<int>(st));
  // aclrtQueryEvent keeps reporting such an event complete.
  aclrtEventStatus qs = ACL_EVENT_STATUS_NOT_READY;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_ACL_OK(aclrtQueryEvent(e, &qs));
#pragma GCC diagnostic pop
  EXPECT_EQ(ACL_EVENT_STATUS_COMPLETE, qs);
  // Once recorded and done: complete.
  EXPECT_ACL_OK(aclrtRecordEvent(e, nullptr));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_ACL_OK(aclrtQueryEventStatus(e, &st));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, st);
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
}

TEST_F(FidelityTest, StopReports507000) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamStop(s));
  gate.Open();
  EXPECT_ACL(ACL_ERROR_RT_INTERNAL_ERROR, aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, seq.size());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));  // reported once
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(FidelityTest, AbortWithoutFailureReportsTheAbort) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL_OK(aclrtStreamAbort(s));
  gate.Open();
  EXPECT_ACL(ACL_ERROR_RT_STREAM_ABORT, aclrtSynchronizeStream(s));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// The task running when the abort comes then fails: the synchronize reports
// that task's own code (S26: 507035 from the trapping kernel), not the abort.
TEST_F(FidelityTest, AbortDuringAFailingTaskReportsTheTaskFailure) {
  aclrtStream s = nullptr, blocker = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&blocker));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate never;
  ASSERT_EQ(ACL_SUCCESS, never.Enqueue(blocker));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, blocker));
  // A wait that times out after 300 ms: running when the abort is issued.
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEventWithTimeout(s, e, 300));
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  apitest::SleepMs(50);
  EXPECT_ACL_OK(aclrtStreamAbort(s));
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, seq.size());
  ClearErrorState();
  never.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(blocker));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_OK(aclrtDestroyStream(blocker));
}

}  // namespace
