// Runs with ASCEND_RT_VISIBLE_DEVICES=1 (and the default 2 simulated
// devices): one device is visible; user device 0 is physical device 1.
#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;

class ApiVisibleDevicesTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override {
    EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(0));
    ClearErrorState();
  }
};

TEST_F(ApiVisibleDevicesTest, OneDeviceVisible) {
  uint32_t n = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(1u, n);
  EXPECT_ACL_OK(aclrtSetDevice(0));
  int32_t d = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(0, d);  // user ids are remapped
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(1));
  aclrtContext c = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, 1));
}

TEST_F(ApiVisibleDevicesTest, PhysicalIdIsOne) {
  int64_t v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
  EXPECT_EQ(1, v);
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
}

TEST_F(ApiVisibleDevicesTest, MemoryReportsTheUserId) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtPtrAttributes a;
  EXPECT_ACL_OK(aclrtPointerGetAttributes(p, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type);
  EXPECT_EQ(0u, a.location.id);
  EXPECT_ACL_OK(aclrtFree(p));
}

}  // namespace
