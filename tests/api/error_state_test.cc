// Error state (acl-api.md §4.0, §4.8, §8.1, §8.2): aclGetRecentErrMsg is
// thread-local text consumed by reading; aclrtPeekAtLastError keeps and
// aclrtGetLastError clears the thread's last runtime-layer error;
// ACL-layer parameter failures (100000) queue a message but do not set the
// last error.
#include <unistd.h>

#include <regex>
#include <string>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::OnOtherThread;
using apitest::TakeErrMsg;

class ApiErrorStateTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override {
    for (int d = 0; d < 2; ++d) EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(d));
    ClearErrorState();
  }
};

TEST_F(ApiErrorStateTest, NothingPending) {
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiErrorStateTest, NullPointerFailureQueuesAMessageOnly) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  std::string text = msg;
  EXPECT_NE(std::string::npos, text.find("EH0008")) << text;
  EXPECT_NE(std::string::npos, text.find("aclrtGetRunMode")) << text;
  EXPECT_NE(std::string::npos, text.find("runMode")) << text;
  EXPECT_EQ(std::string::npos, text.find("Impl")) << text;
  // Consumed by reading.
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
}

TEST_F(ApiErrorStateTest, MessageFormat) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
  std::string text = TakeErrMsg();
  // [PID: <pid>] <yyyy-mm-dd-hh:mm:ss.mmm.uuu> <Title>(<code>): <message>
  std::regex re("^\\[PID: " + std::to_string(getpid()) +
                "\\] \\d{4}-\\d{2}-\\d{2}-\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\.\\d{3} [^\\n]*\\(EH0008\\): .+");
  EXPECT_TRUE(std::regex_search(text, re)) << text;
}

TEST_F(ApiErrorStateTest, SeveralFailuresAreJoined) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetRunMode(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
  std::string text = TakeErrMsg();
  size_t a = text.find("aclrtGetRunMode");
  size_t b = text.find("aclrtGetDeviceCount");
  ASSERT_NE(std::string::npos, a) << text;
  ASSERT_NE(std::string::npos, b) << text;
  EXPECT_LT(a, b);  // oldest first
  EXPECT_NE(std::string::npos, text.find('\n'));
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
}

TEST_F(ApiErrorStateTest, RuntimeFailureSetsTheLastError) {
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  // S02: after one Get, both read 0.
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiErrorStateTest, LastErrorKeepsTheMostRecentFailure) {
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiErrorStateTest, ParameterFailureDoesNotOverwriteTheLastError) {
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiErrorStateTest, BadLevel) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(1)));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(static_cast<aclrtLastErrLevel>(-1)));
  EXPECT_FALSE(TakeErrMsg().empty());
  // A bad level does not clear a pending error.
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)));
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiErrorStateTest, StateIsPerThread) {
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  OnOtherThread([] {
    EXPECT_EQ(nullptr, aclGetRecentErrMsg());
    EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(-5));
    EXPECT_NE(nullptr, aclGetRecentErrMsg());
    EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  });
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  std::string text = TakeErrMsg();
  EXPECT_FALSE(text.empty());
}

TEST_F(ApiErrorStateTest, AsyncFailureIsReportedBySynchronize) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, s, 5));  // times out on the stream
  ClearErrorState();
  aclError rc = aclrtSynchronizeStream(s);
  EXPECT_NE(ACL_SUCCESS, rc);
  EXPECT_EQ(rc, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(rc, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  // Reported once.
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiErrorStateTest, S02Sequence) {
  // The error-handling sample's flow: a deliberate NULL argument, then the
  // recent message (text, then NULL), then the last-error pair.
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_NE(ACL_SUCCESS, aclrtGetRunMode(nullptr));
  const char* m1 = aclGetRecentErrMsg();
  EXPECT_NE(nullptr, m1);
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_EQ(ACL_SUCCESS, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  aclrtErrorInfo info;
  EXPECT_ACL_OK(aclrtGetErrorVerbose(0, &info));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  EXPECT_ACL_OK(aclFinalize());
}

// The error-manager title and code of a runtime failure name what went wrong
// (acl-api.md §8.1), not "Invalid_Argument" for every runtime code.
TEST_F(ApiErrorStateTest, RuntimeFailuresCarryTheirOwnTitle) {
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  std::string text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("No_Context(EE1005): aclrtGetDevice")) << text;

  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(99));
  text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Invalid_Device(EE1002): aclrtSetDevice")) << text;
  EXPECT_NE(std::string::npos, text.find("99")) << text;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(99));
  text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Invalid_Device(EE1002): aclrtResetDevice")) << text;

  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  int bogus = 0;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyEvent(&bogus));
  text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Invalid_Handle(EE1006): aclrtDestroyEvent: event")) << text;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream(&bogus));
  text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Invalid_Handle(EE1006)")) << text;

  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  apitest::Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, s));
  EXPECT_ACL(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 5));
  text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Timeout(EE1008): aclrtSynchronizeEventWithTimeout")) << text;
  EXPECT_EQ(std::string::npos, text.find("Invalid_Argument")) << text;
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// aclrtSynchronizeDevice reports the failure of the stream that failed, with
// that stream's message, and consumes it.
TEST_F(ApiErrorStateTest, SynchronizeDeviceKeepsTheStreamsMessage) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  aclrtNotify n = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_EQ(ACL_SUCCESS, aclrtWaitAndResetNotify(n, s, 5));  // times out on the stream
  ClearErrorState();
  aclError rc = aclrtSynchronizeDevice();
  EXPECT_EQ(ACL_ERROR_RT_WAIT_TIMEOUT, rc);
  EXPECT_EQ(rc, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  std::string text = TakeErrMsg();
  EXPECT_NE(std::string::npos, text.find("Timeout(EE1008): aclrtSynchronizeDevice")) << text;
  EXPECT_NE(std::string::npos, text.find("notify")) << text;
  EXPECT_EQ(std::string::npos, text.find("a task on the device failed")) << text;
  // Reported once, on the device and on the stream.
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

}  // namespace
