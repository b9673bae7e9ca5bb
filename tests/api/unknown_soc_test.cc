// Runs with SIMNPU_SOC set to a name no SOC has: aclrtGetSocName returns NULL
// (as the real runtime does when it cannot determine the SOC), aclInit fails
// with ACL_ERROR_INTERNAL_ERROR, and no device is visible.
#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

class ApiUnknownSocTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override { ClearErrorState(); }
};

TEST_F(ApiUnknownSocTest, SocNameIsNull) {
  EXPECT_EQ(nullptr, aclrtGetSocName());
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(nullptr, aclrtGetSocName());
}

TEST_F(ApiUnknownSocTest, InitFails) {
  EXPECT_ACL(ACL_ERROR_INTERNAL_ERROR, aclInit(nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_ACL(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
}

TEST_F(ApiUnknownSocTest, NoDevice) {
  uint32_t n = 99;
  EXPECT_ACL(ACL_ERROR_RT_NO_DEVICE, aclrtGetDeviceCount(&n));
  EXPECT_EQ(0u, n);
  EXPECT_EQ(ACL_ERROR_RT_NO_DEVICE, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(0));
}

TEST_F(ApiUnknownSocTest, ArchCompatibilityHasNothingToCompareWith) {
  int32_t ok = -1;
  EXPECT_NE(ACL_SUCCESS, aclrtCheckArchCompatibility("Ascend910B1", &ok));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtCheckArchCompatibility("NoSuchSoc", &ok));
}

}  // namespace
