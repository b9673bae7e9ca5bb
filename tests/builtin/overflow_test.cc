// Saturation mode, overflow switch and status (acl-api-ext.md §7.2, S53),
// on the default SOC (Atlas A2: both modes, default INFNAN).
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;

class OverflowTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&status_, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  void TearDown() override {
    (void)aclrtFree(status_);
    (void)aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN);
    apitest::DeviceTest::TearDown();
  }
  uint32_t Status(aclrtStream s) {
    std::vector<uint32_t> v(16, 0xFFFFFFFFu);
    EXPECT_EQ(ACL_SUCCESS, aclrtGetOverflowStatus(status_, 64, s));
    EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(v.data(), 64, status_, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 1; i < v.size(); ++i) EXPECT_EQ(0u, v[i]);
    return v[0];
  }
  // FLT_MAX + FLT_MAX on stream s; returns the result.
  float OverflowingSum(aclrtStream s) {
    std::vector<float> big{FLT_MAX, 1.0f};
    void* a = nullptr;
    void* b = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&a, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&b, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(a, 8, big.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(b, 8, big.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_EQ(ACL_SUCCESS, aclrtReduceAsync(a, b, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, nullptr));
    EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
    std::vector<float> out(2);
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(out.data(), 8, a, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(2.0f, out[1]);
    (void)aclrtFree(a);
    (void)aclrtFree(b);
    return out[0];
  }
  void* status_ = nullptr;
};

TEST_F(OverflowTest, SampleS53Flow) {
  aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_ACL_OK(aclrtGetDeviceSatMode(&m));
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, m);
  EXPECT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  EXPECT_ACL_OK(aclrtGetDeviceSatMode(&m));
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_SATURATION, m);
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  uint32_t flag = 7;
  EXPECT_ACL_OK(aclrtGetStreamOverflowSwitch(s, &flag));
  EXPECT_EQ(0u, flag);
  EXPECT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
  EXPECT_ACL_OK(aclrtGetStreamOverflowSwitch(s, &flag));
  EXPECT_EQ(1u, flag);
  EXPECT_EQ(0u, Status(s));
  EXPECT_ACL_OK(aclrtResetOverflowStatus(s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, Status(s));
  EXPECT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(OverflowTest, OverflowingTaskSetsTheStatusUntilReset) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 1));
  EXPECT_TRUE(std::isinf(OverflowingSum(s)));  // INFNAN mode: IEEE result
  EXPECT_EQ(1u, Status(s));
  EXPECT_EQ(1u, Status(s));  // reading does not clear it
  EXPECT_ACL_OK(aclrtResetOverflowStatus(s));
  EXPECT_EQ(0u, Status(s));
  // The 64-bit-size variants behave the same.
  EXPECT_TRUE(std::isinf(OverflowingSum(s)));
  uint32_t v = 0;
  EXPECT_ACL_OK(aclrtGetFloatOverflowStatus(status_, 64, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtMemcpy(&v, 4, status_, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(1u, v);
  EXPECT_ACL_OK(aclrtResetFloatOverflowStatus(s));
  EXPECT_EQ(0u, Status(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(OverflowTest, SwitchOffRecordsNothing) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_TRUE(std::isinf(OverflowingSum(s)));
  EXPECT_EQ(0u, Status(s));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(OverflowTest, SaturationModeClampsForStreamsCreatedAfterwards) {
  aclrtStream before = nullptr, after = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&before));
  EXPECT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&after));
  EXPECT_TRUE(std::isinf(OverflowingSum(before)));
  EXPECT_EQ(FLT_MAX, OverflowingSum(after));
  EXPECT_ACL_OK(aclrtDestroyStream(before));
  EXPECT_ACL_OK(aclrtDestroyStream(after));
}

TEST_F(OverflowTest, ArgumentErrors) {
  aclrtFloatOverflowMode undef = ACL_RT_OVERFLOW_MODE_UNDEF;
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceSatMode(undef));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceSatMode(nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtSetStreamOverflowSwitch(nullptr, 2));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetStreamOverflowSwitch(nullptr, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetOverflowStatus(nullptr, 64, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtGetOverflowStatus(status_, 63, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtGetFloatOverflowStatus(status_, 128, nullptr));
  uint8_t host[64];
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtGetOverflowStatus(host, 64, nullptr));  // not device memory
  ClearErrorState();
  // Without a current context.
  apitest::OnOtherThread([] {
    aclrtFloatOverflowMode m;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDeviceSatMode(&m));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtSetStreamOverflowSwitch(nullptr, 1));
    ClearErrorState();
  });
}

}  // namespace
