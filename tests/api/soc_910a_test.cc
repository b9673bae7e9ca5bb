// Runs with SIMNPU_SOC=Ascend910A (the old Atlas training part, arch 1001):
// the SOC name, device information, architecture compatibility, the CANN
// attribute table without bf16/inf-nan, and the host-function subscription
// family, which is available on this SOC (it is not on A2/A3/950).
#include <pthread.h>

#include <atomic>
#include <set>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Seq;

class ApiSoc910ATest : public apitest::DeviceTest {};

TEST_F(ApiSoc910ATest, SocName) {
  ASSERT_NE(nullptr, aclrtGetSocName());
  EXPECT_STREQ("Ascend910A", aclrtGetSocName());
  EXPECT_ACL_OK(aclInit(nullptr));
  EXPECT_ACL_OK(aclFinalize());
}

TEST_F(ApiSoc910ATest, DeviceInfo) {
  int64_t v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
  EXPECT_EQ(32, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v));
  EXPECT_EQ(1001, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
  EXPECT_EQ(int64_t{32} << 30, v);
}

TEST_F(ApiSoc910ATest, ArchCompatibility) {
  int32_t ok = -1;
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910B4", &ok));
  EXPECT_EQ(0, ok);
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910ProA", &ok));
  EXPECT_EQ(1, ok);
  EXPECT_ACL_OK(aclrtCheckArchCompatibility("Ascend910B", &ok));  // old C100 part: same arch
  EXPECT_EQ(1, ok);
  int32_t cap = -1;
  EXPECT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &cap));
  EXPECT_EQ(ACL_DEV_FEATURE_NOT_SUPPORT, cap);
}

TEST_F(ApiSoc910ATest, CannAttributesWithoutBf16AndInfNan) {
  const aclCannAttr* list = nullptr;
  size_t num = 0;
  ASSERT_EQ(ACL_SUCCESS, aclGetCannAttributeList(&list, &num));
  std::set<int> got(list, list + num);
  EXPECT_EQ((std::set<int>{ACL_CANN_ATTR_JIT_COMPILE}), got);
  int32_t v = -1;
  EXPECT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
  EXPECT_EQ(0, v);
  EXPECT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &v));
  EXPECT_EQ(0, v);
  EXPECT_ACL_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
  EXPECT_EQ(1, v);
}

TEST_F(ApiSoc910ATest, SubscribeHostFuncRoutesHostFunctions) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  std::atomic<uint64_t> tid{0};
  std::atomic<bool> stop{false};
  std::atomic<int> unexpected{0};
  std::thread worker([&] {
    tid.store(static_cast<uint64_t>(pthread_self()));
    while (!stop.load()) {
      aclError rc = aclrtProcessHostFunc(5);
      if (rc != ACL_SUCCESS && rc != ACL_ERROR_RT_REPORT_TIMEOUT && rc != ACL_ERROR_RT_THREAD_SUBSCRIBE)
        unexpected.store(rc);
    }
  });
  while (tid.load() == 0) std::this_thread::yield();
  ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeHostFunc(tid.load(), s));
  Seq seq;
  for (int i = 0; i < 5; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ((std::vector<int>{0, 1, 2, 3, 4}), seq.Get());
  EXPECT_ACL_OK(aclrtUnSubscribeHostFunc(tid.load(), s));
  stop.store(true);
  worker.join();
  EXPECT_EQ(0, unexpected.load());
  // Unsubscribed: host functions run on the runtime's own thread again.
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 5));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(6u, seq.size());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiSoc910ATest, ProcessHostFuncArguments) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtProcessHostFunc(0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtProcessHostFunc(-2));
  EXPECT_ACL(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessHostFunc(5));
  ClearErrorState();
}

}  // namespace
