// Runs with SIMNPU_DEVICE_COUNT=0: the SOC is known but no device exists.
#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

class ApiNoDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override { ClearErrorState(); }
};

TEST_F(ApiNoDeviceTest, CountFailsWithNoDevice) {
  uint32_t n = 99;
  EXPECT_ACL(ACL_ERROR_RT_NO_DEVICE, aclrtGetDeviceCount(&n));
  EXPECT_EQ(0u, n);
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_NO_DEVICE, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiNoDeviceTest, DeviceCallsFail) {
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(0));
  aclrtContext c = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, 0));
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
}

TEST_F(ApiNoDeviceTest, SocNameAndInitStillWork) {
  EXPECT_STREQ("Ascend910B1", aclrtGetSocName());
  EXPECT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());
}

}  // namespace
