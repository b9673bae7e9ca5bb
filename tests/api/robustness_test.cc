// Teardown corner cases: a stream destroyed from one of its own tasks, and a
// process that exits while a stream is blocked forever (the exit drain is
// bounded by SIMNPU_DRAIN_TIMEOUT_MS, set to 300 ms for this binary).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <unistd.h>

#include "acl/acl.h"

namespace {
struct SelfDestroy {
  aclrtContext ctx;
  aclrtStream stream;
  std::atomic<int> rc{-1};
};
}  // namespace

TEST(ApiRobustnessTest, AStreamCanBeDestroyedFromItsOwnHostFunction) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  SelfDestroy s;
  ASSERT_EQ(aclrtGetCurrentContext(&s.ctx), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s.stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(
                s.stream,
                [](void* arg) {
                  auto* p = static_cast<SelfDestroy*>(arg);
                  aclrtSetCurrentContext(p->ctx);
                  p->rc = aclrtDestroyStream(p->stream);
                },
                &s),
            ACL_SUCCESS);
  for (int i = 0; i < 2000 && s.rc.load() == -1; ++i) usleep(1000);
  EXPECT_EQ(s.rc.load(), ACL_SUCCESS);
  // The handle is gone; the runtime still works.
  aclrtStreamStatus st;
  EXPECT_EQ(aclrtStreamQuery(s.stream, &st), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtStream other;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
}

TEST(ApiRobustnessDeathTest, ExitIsNotHeldUpByAStreamBlockedForever) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        aclrtSetDevice(0);
        aclrtStream s;
        aclrtNotify n;
        aclrtCreateStream(&s);
        aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT);
        aclrtWaitAndResetNotify(n, s, 0);  // never recorded: waits forever
        std::exit(3);
      },
      ::testing::ExitedWithCode(3), "work still running on a stream");
}
