// Stream teardown and device-wide synchronize (acl-api.md §4.2, §4.4):
//  - aclrtSynchronizeDeviceWithTimeout bounds the whole call, not each stream,
//    and the failures of streams other than the one it reports stay pending.
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
