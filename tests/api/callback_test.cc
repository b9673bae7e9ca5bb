// Host functions, report callbacks and exception-info getters (acl-api.md §4.8).
#include <pthread.h>

#include <atomic>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;
using apitest::OnOtherThread;
using apitest::Seq;
using apitest::SleepMs;
using apitest::TakeErrMsg;
using apitest::WaitUntil;

class ApiCallbackTest : public apitest::DeviceTest {};

// ------------------------------------------------------------ host functions

TEST_F(ApiCallbackTest, LaunchHostFuncRunsInOrder) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Seq seq;
  for (int i = 0; i < 20; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<int> want(20);
  for (int i = 0; i < 20; ++i) want[i] = i;
  EXPECT_EQ(want, seq.Get());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

struct ThreadProbe {
  std::atomic<bool> ran{false};
  pthread_t thread{};
  void* arg = nullptr;
};
void ProbeFn(void* p) {
  auto* probe = static_cast<ThreadProbe*>(p);
  probe->thread = pthread_self();
  probe->arg = p;
  probe->ran.store(true);
}

TEST_F(ApiCallbackTest, LaunchHostFuncRunsOffTheCallingThread) {
  ThreadProbe probe;
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchHostFunc(nullptr, ProbeFn, &probe));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_TRUE(probe.ran.load());
  EXPECT_EQ(&probe, probe.arg);
  EXPECT_EQ(0, pthread_equal(probe.thread, pthread_self()));
}

TEST_F(ApiCallbackTest, LaunchHostFuncArguments) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtLaunchHostFunc(nullptr, nullptr, nullptr));
  OnOtherThread([] {
    ThreadProbe probe;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtLaunchHostFunc(nullptr, ProbeFn, &probe));
  });
}

// --------------------------------------------------------- report callbacks

// A thread that subscribes to a stream and processes reports until stopped.
class Reporter {
 public:
  explicit Reporter(aclrtStream s) : stream_(s) {
    thread_ = std::thread([this] {
      tid_.store(static_cast<uint64_t>(pthread_self()));
      while (!stop_.load()) {
        aclError rc = aclrtProcessReport(5);
        if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_REPORT_TIMEOUT && rc != ACL_ERROR_RT_THREAD_SUBSCRIBE)
          unexpected_.store(rc);
      }
    });
    while (tid_.load() == 0) std::this_thread::yield();
  }
  ~Reporter() { Stop(); }
  uint64_t tid() const { return tid_.load(); }
  aclError Subscribe() { return aclrtSubscribeReport(tid(), stream_); }
  aclError Unsubscribe() { return aclrtUnSubscribeReport(tid(), stream_); }
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  int unexpected() const { return unexpected_.load(); }

 private:
  aclrtStream stream_;
  std::thread thread_;
  std::atomic<uint64_t> tid_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> unexpected_{0};
};

struct CbArg {
  Seq* seq;
  int value;
  std::atomic<uint64_t>* thread;
};
void PushCb(void* p) {
  auto* a = static_cast<CbArg*>(p);
  if (a->thread) a->thread->store(static_cast<uint64_t>(pthread_self()));
  a->seq->Push(a->value);
}

TEST_F(ApiCallbackTest, BlockingCallbackRunsOnTheSubscribedThread) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Reporter rep(s);
  ASSERT_EQ(ACL_SUCCESS, rep.Subscribe());
  Seq seq;
  std::atomic<uint64_t> ran_on{0};
  CbArg arg{&seq, 1, &ran_on};
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_BLOCK, s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 2));  // waits for the blocking callback
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{1, 2}), seq.Get());
  EXPECT_EQ(rep.tid(), ran_on.load());
  EXPECT_ACL_OK(rep.Unsubscribe());
  rep.Stop();
  EXPECT_EQ(0, rep.unexpected());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, NonBlockingCallbackRunsEventually) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Reporter rep(s);
  ASSERT_EQ(ACL_SUCCESS, rep.Subscribe());
  Seq seq;
  std::atomic<uint64_t> ran_on{0};
  CbArg arg{&seq, 1, &ran_on};
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_NO_BLOCK, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(WaitUntil([&] { return seq.size() == 1; }));
  EXPECT_EQ(rep.tid(), ran_on.load());
  EXPECT_ACL_OK(rep.Unsubscribe());
  rep.Stop();
  EXPECT_EQ(0, rep.unexpected());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, CallbacksFollowStreamOrder) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Reporter rep(s);
  ASSERT_EQ(ACL_SUCCESS, rep.Subscribe());
  Gate gate;
  Seq seq;
  CbArg arg{&seq, 1, nullptr};
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_BLOCK, s));
  ASSERT_TRUE(gate.WaitEntered());
  apitest::SleepMs(20);
  EXPECT_EQ(0u, seq.size());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(1u, seq.size());
  EXPECT_ACL_OK(rep.Unsubscribe());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, ProcessReportOnASubscribedThread) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  // This thread subscribes itself and processes the callback directly.
  uint64_t me = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(me, s));
  EXPECT_ACL(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(10));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  Seq seq;
  CbArg arg{&seq, 5, nullptr};
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_NO_BLOCK, s));
  EXPECT_ACL_OK(aclrtProcessReport(5000));
  EXPECT_EQ((std::vector<int>{5}), seq.Get());
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(me, s));
  EXPECT_ACL(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, UnsubscribingWakesAThreadWaitingForever) {
  // The usual shutdown of a report thread: it loops in aclrtProcessReport(-1)
  // and the main thread unsubscribes it. The wait must end, not hang.
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  std::atomic<uint64_t> tid{0};
  std::atomic<bool> subscribed{false};
  std::atomic<int> rc{-1};
  std::thread waiter([&] {
    const uint64_t me = static_cast<uint64_t>(pthread_self());
    if (aclrtSubscribeReport(me, s) != ACL_SUCCESS) return;
    tid = me;
    subscribed = true;
    rc = aclrtProcessReport(-1);
  });
  if (!WaitUntil([&] { return subscribed.load(); })) {
    waiter.join();
    FAIL() << "the waiting thread could not subscribe";
  }
  SleepMs(50);  // very likely waiting by now; either way the wait must end
  EXPECT_ACL_OK(aclrtUnSubscribeReport(tid, s));
  waiter.join();
  EXPECT_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, rc.load());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, ProcessReportArguments) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  // Not subscribed.
  EXPECT_ACL(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(-1));
}

TEST_F(ApiCallbackTest, LaunchCallbackWithoutSubscription) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Seq seq;
  CbArg arg{&seq, 1, nullptr};
  EXPECT_ACL(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_BLOCK, s));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_NO_BLOCK, nullptr));
  // After unsubscribing, the stream has no callback thread again.
  Reporter rep(s);
  ASSERT_EQ(ACL_SUCCESS, rep.Subscribe());
  ASSERT_EQ(ACL_SUCCESS, rep.Unsubscribe());
  EXPECT_ACL(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_BLOCK, s));
  EXPECT_EQ(0u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, LaunchCallbackArguments) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Reporter rep(s);
  ASSERT_EQ(ACL_SUCCESS, rep.Subscribe());
  Seq seq;
  CbArg arg{&seq, 1, nullptr};
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtLaunchCallback(nullptr, &arg, ACL_CALLBACK_BLOCK, s));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM,
             aclrtLaunchCallback(PushCb, &arg, static_cast<aclrtCallbackBlockType>(2), s));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL_OK(rep.Unsubscribe());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_EQ(0u, seq.size());
}

TEST_F(ApiCallbackTest, SubscribeTwiceAndUnsubscribeUnknown) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  uint64_t me = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(me, s));
  EXPECT_NE(ACL_SUCCESS, aclrtSubscribeReport(me, s));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(me, s));
  EXPECT_NE(ACL_SUCCESS, aclrtUnSubscribeReport(me, s));
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiCallbackTest, DestroyedStreamTakesItsSubscriptionAlong) {
  // A stream destroyed while subscribed must not leave a subscription that a
  // later stream (which may reuse the memory of the old one) inherits.
  Seq seq;
  CbArg arg{&seq, 1, nullptr};
  for (int i = 0; i < 20; ++i) {
    aclrtStream s = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
    uint64_t me = static_cast<uint64_t>(pthread_self());
    ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(me, s));
    ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
    aclrtStream fresh = nullptr;
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&fresh));
    EXPECT_ACL(ACL_ERROR_RT_STREAM_NO_CB_REG, aclrtLaunchCallback(PushCb, &arg, ACL_CALLBACK_BLOCK, fresh))
        << "iteration " << i << (fresh == s ? " (same handle reused)" : "");
    EXPECT_ACL_OK(aclrtSynchronizeStream(fresh));
    EXPECT_ACL_OK(aclrtDestroyStream(fresh));
    ClearErrorState();
  }
  EXPECT_EQ(0u, seq.size());
}

TEST_F(ApiCallbackTest, OneThreadServesSeveralStreams) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  Reporter rep(a);
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(rep.tid(), a));
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport(rep.tid(), b));
  Seq seq;
  CbArg x{&seq, 1, nullptr}, y{&seq, 2, nullptr};
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &x, ACL_CALLBACK_BLOCK, a));
  ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(PushCb, &y, ACL_CALLBACK_BLOCK, b));
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ(2u, seq.size());
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rep.tid(), a));
  EXPECT_ACL_OK(aclrtUnSubscribeReport(rep.tid(), b));
  rep.Stop();
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

// ----------------------------------------- host-function subscription (A2)

// The C library real programs link forwards the subscription calls to the
// runtime on every SOC (issue 11 item 7): on the default SOC (Atlas A2) a
// subscribed thread receives the stream's host functions and can be
// unsubscribed again.
TEST_F(ApiCallbackTest, SubscribeHostFuncWorksOnA2) {
  ASSERT_STREQ("Ascend910B1", aclrtGetSocName());
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  std::atomic<uint64_t> tid{0};
  std::atomic<bool> stop{false};
  std::atomic<int> unexpected{0};
  std::atomic<int> processed{0};
  std::thread worker([&] {
    tid.store(static_cast<uint64_t>(pthread_self()));
    while (!stop.load()) {
      aclError rc = aclrtProcessHostFunc(5);
      if (rc == ACL_SUCCESS) processed.fetch_add(1);
      else if (rc != ACL_ERROR_RT_REPORT_TIMEOUT && rc != ACL_ERROR_RT_THREAD_SUBSCRIBE) unexpected.store(rc);
    }
  });
  while (tid.load() == 0) std::this_thread::yield();
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeHostFunc(tid.load(), s));
  Seq seq;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{0, 1, 2}), seq.Get());
  EXPECT_GE(processed.load(), 1);  // they ran on the subscribed thread
  EXPECT_ACL_OK(aclrtUnSubscribeHostFunc(tid.load(), s));
  stop.store(true);
  worker.join();
  EXPECT_EQ(0, unexpected.load());
  // A second unsubscribe names no subscription.
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SUBSCRIBE, aclrtUnSubscribeHostFunc(tid.load(), s));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessHostFunc(5));
  ClearErrorState();
  // Host functions run through the runtime's own thread again.
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 3));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(4u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// ------------------------------------------------------- exception getters

TEST_F(ApiCallbackTest, ExceptionInfoGettersWithNull) {
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetTaskIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetStreamIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetThreadIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetDeviceIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetErrorCodeFromExceptionInfo(nullptr));
  void* args = nullptr;
  uint32_t len = 0;
  EXPECT_EQ(static_cast<aclError>(0xFFFFFFFFu), aclrtGetArgsFromExceptionInfo(nullptr, &args, &len));
  EXPECT_EQ(-1, aclrtGetArgsFromExceptionInfo(nullptr, &args, &len));
  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(-1, aclrtGetFuncHandleFromExceptionInfo(nullptr, &f));
  EXPECT_EQ(-1, aclrtGetArgsFromExceptionInfo(nullptr, nullptr, nullptr));
}

TEST_F(ApiCallbackTest, SetExceptionInfoCallbackAcceptsNull) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
#pragma GCC diagnostic pop
}

}  // namespace
