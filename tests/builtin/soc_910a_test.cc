// Built-in tasks and overflow calls on a chip without the features
// (Ascend910A, Atlas training: SATURATION only, no overflow switch, no
// random-number tasks).
#include <cstring>

#include "api_test_util.h"

namespace {

class Builtin910ATest : public apitest::DeviceTest {};

TEST_F(Builtin910ATest, SaturationOnly) {
  ASSERT_STREQ("Ascend910A", aclrtGetSocName());
  aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_ACL_OK(aclrtGetDeviceSatMode(&m));
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_SATURATION, m);
  EXPECT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  EXPECT_ACL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  EXPECT_ACL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSetStreamOverflowSwitch(nullptr, 1));
  uint32_t flag = 0;
  EXPECT_ACL_OK(aclrtGetStreamOverflowSwitch(nullptr, &flag));
  EXPECT_EQ(1u, flag);  // no switch: detection always on
  apitest::ClearErrorState();
}

TEST_F(Builtin910ATest, RandomNumbersAreNotSupported) {
  aclrtRandomNumTaskInfo info;
  std::memset(&info, 0, sizeof info);
  info.dataType = ACL_FLOAT;
  EXPECT_ACL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRandomNumAsync(&info, nullptr, nullptr));
  apitest::ClearErrorState();
}

}  // namespace
