// Contexts (acl-api.md §4.3): create/destroy/set/get current, the default
// stream, and the thread-local current context with several threads.
#include <atomic>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::OnOtherThread;
using apitest::TakeErrMsg;

class ApiContextTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override {
    for (int d = 0; d < 2; ++d) EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(d));
    ClearErrorState();
  }
};

TEST_F(ApiContextTest, NullArguments) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCreateContext(nullptr, 0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtDestroyContext(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetCurrentContext(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetCurrentContext(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtCtxGetCurrentDefaultStream(nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiContextTest, NoCurrentContext) {
  aclrtContext c = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&c));
  aclrtStream s = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCtxGetCurrentDefaultStream(&s));
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiContextTest, CreateMakesItCurrent) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 1));
  ASSERT_NE(nullptr, c);
  aclrtContext cur = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(c, cur);
  int32_t d = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(1, d);
  EXPECT_ACL_OK(aclrtDestroyContext(c));
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
}

TEST_F(ApiContextTest, CreateIsDistinctFromDefaultContext) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtContext primary = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&primary));
  aclrtStream primary_stream = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetCurrentDefaultStream(&primary_stream));
  EXPECT_NE(nullptr, primary_stream);

  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
  EXPECT_NE(primary, c);
  aclrtStream own = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetCurrentDefaultStream(&own));
  EXPECT_NE(nullptr, own);
  EXPECT_NE(primary_stream, own);

  // Switch back and forth.
  EXPECT_ACL_OK(aclrtSetCurrentContext(primary));
  aclrtStream again = nullptr;
  EXPECT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&again));
  EXPECT_EQ(primary_stream, again);
  EXPECT_ACL_OK(aclrtSetCurrentContext(c));
  EXPECT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&again));
  EXPECT_EQ(own, again);

  // Destroying a context that is not current keeps the current one.
  EXPECT_ACL_OK(aclrtSetCurrentContext(primary));
  EXPECT_ACL_OK(aclrtDestroyContext(c));
  aclrtContext cur = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(primary, cur);
}

TEST_F(ApiContextTest, DefaultStreamIsUsable) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
  aclrtStream ds = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCtxGetCurrentDefaultStream(&ds));
  apitest::Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(ds, 1));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 2));  // NULL = the same default stream
  EXPECT_ACL_OK(aclrtSynchronizeStream(ds));
  EXPECT_EQ((std::vector<int>{1, 2}), seq.Get());
  EXPECT_ACL_OK(aclrtDestroyContext(c));
}

TEST_F(ApiContextTest, DestroyContextDestroysItsStreams) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  apitest::Seq seq;
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 7));
  EXPECT_ACL_OK(aclrtDestroyContext(c));
  EXPECT_EQ((std::vector<int>{7}), seq.Get());  // submitted work ran first
  // The stream handle is gone with its context.
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStreamStatus st;
  EXPECT_NE(ACL_SUCCESS, aclrtStreamQuery(s, &st));
}

TEST_F(ApiContextTest, SetCurrentContextAfterDestroyFails) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
  ASSERT_EQ(ACL_SUCCESS, aclrtDestroyContext(c));
  EXPECT_NE(ACL_SUCCESS, aclrtSetCurrentContext(c));
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyContext(c));
  aclrtContext cur = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
}

TEST_F(ApiContextTest, ThreadWithoutSetDeviceHasNoContext) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  OnOtherThread([] {
    aclrtContext c = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&c));
    int32_t d;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
    aclrtStream s = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
    void* p = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtEvent e = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&e));
  });
  // This thread is unaffected.
  aclrtContext c = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&c));
}

TEST_F(ApiContextTest, ThreadsSettingTheSameDeviceShareTheDefaultContext) {
  constexpr int kThreads = 4;
  aclrtContext ctx[kThreads] = {};
  aclrtStream ds[kThreads] = {};
  std::atomic<int> ready{0};
  std::vector<std::thread> ts;
  for (int i = 0; i < kThreads; ++i) {
    ts.emplace_back([&, i] {
      EXPECT_ACL_OK(aclrtSetDevice(0));
      EXPECT_ACL_OK(aclrtGetCurrentContext(&ctx[i]));
      EXPECT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&ds[i]));
      ready.fetch_add(1);
      // Keep the reference until every thread has looked.
      while (ready.load() < kThreads) std::this_thread::yield();
    });
  }
  for (auto& t : ts) t.join();
  for (int i = 1; i < kThreads; ++i) {
    EXPECT_EQ(ctx[0], ctx[i]);
    EXPECT_EQ(ds[0], ds[i]);
  }
}

TEST_F(ApiContextTest, SetCurrentContextOnAnotherThread) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 1));
  OnOtherThread([c] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(c));
    aclrtContext cur = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&cur));
    EXPECT_EQ(c, cur);
    int32_t d = -1;
    EXPECT_ACL_OK(aclrtGetDevice(&d));
    EXPECT_EQ(1, d);
    aclrtStream s = nullptr;
    EXPECT_ACL_OK(aclrtCreateStream(&s));
    EXPECT_ACL_OK(aclrtDestroyStream(s));
  });
  EXPECT_ACL_OK(aclrtDestroyContext(c));
}

TEST_F(ApiContextTest, CurrentContextIsPerThread) {
  aclrtContext c0 = nullptr, c1 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c0, 0));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c1, 1));  // current here: c1
  OnOtherThread([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(c0));
    aclrtContext cur = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&cur));
    EXPECT_EQ(c0, cur);
  });
  aclrtContext cur = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&cur));
  EXPECT_EQ(c1, cur);
  EXPECT_ACL_OK(aclrtDestroyContext(c0));
  EXPECT_ACL_OK(aclrtDestroyContext(c1));
}

TEST_F(ApiContextTest, DestroyOnAnotherThreadClearsCurrentEverywhere) {
  aclrtContext c = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
  OnOtherThread([c] { EXPECT_ACL_OK(aclrtDestroyContext(c)); });
  aclrtContext cur = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&cur));
}

}  // namespace
