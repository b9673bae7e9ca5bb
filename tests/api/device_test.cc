// Devices (acl-api.md §4.2): count, set/reset (reference counted) and the
// forced reset, aclrtGetDevice, invalid ids, device information, resource
// limits, utilisation, status, stream priority range, error verbose,
// aclrtGetMemInfo. Default environment: Ascend910B1, 2 devices.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::OnOtherThread;
using apitest::TakeErrMsg;

class ApiDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearErrorState(); }
  void TearDown() override {
    for (int d = 0; d < 2; ++d) EXPECT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(d));
    ClearErrorState();
  }
};

TEST_F(ApiDeviceTest, CountIsEightByDefault) {
  uint32_t n = 0;
  EXPECT_ACL_OK(aclrtGetDeviceCount(&n));
  EXPECT_EQ(8u, n);  // an Atlas A2 server's eight NPUs
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiDeviceTest, SetDeviceMakesItCurrent) {
  int32_t d = -1;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  ClearErrorState();
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(0, d);
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(1, d);
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(0, d);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
}

TEST_F(ApiDeviceTest, GetDeviceWithoutContext) {
  int32_t d = 123;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_EQ(123, d);
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

TEST_F(ApiDeviceTest, InvalidIds) {
  for (int32_t id : {-1, 8, 9, 1000}) {
    ClearErrorState();
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(id)) << id;
    EXPECT_FALSE(TakeErrMsg().empty());
    EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(id)) << id;
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(id)) << id;
    int64_t v;
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID,
               aclrtGetDeviceInfo(static_cast<uint32_t>(id), ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    aclrtContext c = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&c, id));
    aclrtDeviceStatus st;
    EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtQueryDeviceStatus(id, &st));
  }
  // A failed SetDevice leaves no context behind.
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
}

TEST_F(ApiDeviceTest, ResetIsReferenceCounted) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
  EXPECT_ACL_OK(aclrtResetDevice(0));
  aclrtContext again = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&again));
  EXPECT_EQ(ctx, again);  // still alive: one reference left
  EXPECT_ACL_OK(aclrtResetDevice(0));
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&again));
}

TEST_F(ApiDeviceTest, ResetForceReleasesAllReferences) {
  for (int i = 0; i < 3; ++i) ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  // The device can be set again and gets a fresh default context.
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(0, d);
  aclrtStream s2 = nullptr;
  EXPECT_ACL_OK(aclrtCreateStream(&s2));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(ApiDeviceTest, ResetOfAnotherDeviceKeepsCurrent) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  int32_t d = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&d));
  EXPECT_EQ(0, d);
}

TEST_F(ApiDeviceTest, ResetDeviceFreesItsMemory) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  size_t free0 = 0, total = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free1 = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_LT(free1, free0);
  EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  size_t free2 = 0;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
  EXPECT_EQ(free0, free2);
}

TEST_F(ApiDeviceTest, SetDeviceOnTwoThreadsSharesTheDefaultContext) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtContext mine = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&mine));
  aclrtContext theirs = nullptr;
  OnOtherThread([&] {
    EXPECT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtGetCurrentContext(&theirs));
    EXPECT_ACL_OK(aclrtResetDevice(0));
  });
  EXPECT_EQ(mine, theirs);
  // The other thread's reset dropped only its own reference.
  aclrtContext still = nullptr;
  EXPECT_ACL_OK(aclrtGetCurrentContext(&still));
  EXPECT_EQ(mine, still);
}

// Several threads each set the device, use memory and streams, and reset
// it (reference counted): no thread may lose its context or memory to
// another thread's reset.
TEST_F(ApiDeviceTest, ConcurrentSetUseReset) {
  constexpr int kThreads = 4;
  const int iterations = std::getenv("SIMNPU_STRESS") ? 2000 : 100;
  std::atomic<int> failures{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      std::vector<unsigned char> out(4096);
      for (int i = 0; i < iterations && failures.load() == 0; ++i) {
        if (aclrtSetDevice(0) != ACL_SUCCESS) { failures.fetch_add(1); return; }
        void* p = nullptr;
        aclrtStream s = nullptr;
        bool ok = aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
                  aclrtCreateStream(&s) == ACL_SUCCESS &&
                  aclrtMemsetAsync(p, 4096, t + 1, 4096, s) == ACL_SUCCESS &&
                  aclrtSynchronizeStream(s) == ACL_SUCCESS &&
                  aclrtMemcpy(out.data(), 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS &&
                  out == std::vector<unsigned char>(4096, static_cast<unsigned char>(t + 1)) &&
                  aclrtDestroyStream(s) == ACL_SUCCESS && aclrtFree(p) == ACL_SUCCESS;
        if (!ok) {
          ADD_FAILURE() << "thread " << t << " iteration " << i << ": " << apitest::TakeErrMsg();
          failures.fetch_add(1);
        }
        if (aclrtResetDevice(0) != ACL_SUCCESS) failures.fetch_add(1);
      }
    });
  }
  for (auto& th : ts) th.join();
  EXPECT_EQ(0, failures.load());
}

TEST_F(ApiDeviceTest, DeviceInfo) {
  int64_t v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
  EXPECT_EQ(24, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
  EXPECT_EQ(24, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
  EXPECT_EQ(48, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
  EXPECT_EQ(24, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
  EXPECT_EQ(int64_t{64} << 30, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
  EXPECT_GT(v, 0);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
  EXPECT_GT(v, 0);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &v));
  EXPECT_EQ(192 * 1024, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
  EXPECT_EQ(0, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
  EXPECT_EQ(1, v);
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_NPU_ARCH, &v));
  EXPECT_EQ(2201, v);
  // Needs neither aclrtSetDevice nor a context.
  int32_t d;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&d));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr));
}

TEST_F(ApiDeviceTest, UnsupportedDeviceInfoIsARuntimeError) {
  int64_t v = -1;
  aclError rc = aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v);
  EXPECT_NE(ACL_SUCCESS, rc);
  EXPECT_NE(ACL_ERROR_INVALID_PARAM, rc);
  EXPECT_EQ(rc, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_FALSE(TakeErrMsg().empty());
}

TEST_F(ApiDeviceTest, ResourceLimits) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  uint32_t v = 0;
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(24u, v);
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
  EXPECT_EQ(48u, v);
  EXPECT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8));
  EXPECT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 4));
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(8u, v);
  EXPECT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(8u, v);
  EXPECT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v));
  EXPECT_EQ(4u, v);
  // Device 1 is unaffected.
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(1, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(24u, v);
  EXPECT_ACL_OK(aclrtResetDeviceResLimit(0));
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(24u, v);
  EXPECT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &v));
  EXPECT_EQ(48u, v);
}

TEST_F(ApiDeviceTest, ResourceLimitErrors) {
  uint32_t v = 0;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceResLimit(8, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDeviceResLimit(-1, ACL_RT_DEV_RES_CUBE_CORE, 1));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceResLimit(8));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 25));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID,
             aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(2), 1));
  // No context on this thread.
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
}

TEST_F(ApiDeviceTest, Utilization) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  aclrtUtilizationInfo info;
  std::memset(&info, 0x5a, sizeof info);
  info.utilizationExtend = nullptr;
  EXPECT_ACL_OK(aclrtGetDeviceUtilizationRate(0, &info));
  EXPECT_EQ(-1, info.memoryUtilization);
  for (int32_t u : {info.cubeUtilization, info.vectorUtilization, info.aicpuUtilization}) {
    EXPECT_GE(u, -1);
    EXPECT_LE(u, 100);
  }
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, nullptr));
  info.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(&info);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, &info));
  info.utilizationExtend = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceUtilizationRate(8, &info));
}

TEST_F(ApiDeviceTest, Status) {
  aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_ABNORMAL;
  EXPECT_ACL_OK(aclrtQueryDeviceStatus(0, &st));
  EXPECT_EQ(ACL_RT_DEVICE_STATUS_NORMAL, st);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(0, nullptr));
}

TEST_F(ApiDeviceTest, StreamPriorityRange) {
  int32_t least = -1, greatest = -1;
  EXPECT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(7, least);
  EXPECT_EQ(0, greatest);
  least = -1;
  EXPECT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, nullptr));
  EXPECT_EQ(7, least);
  greatest = -1;
  EXPECT_ACL_OK(aclrtDeviceGetStreamPriorityRange(nullptr, &greatest));
  EXPECT_EQ(0, greatest);
  EXPECT_ACL_OK(aclrtDeviceGetStreamPriorityRange(nullptr, nullptr));
}

TEST_F(ApiDeviceTest, ErrorVerbose) {
  aclrtErrorInfo info;
  std::memset(&info, 0x7f, sizeof info);
  EXPECT_ACL_OK(aclrtGetErrorVerbose(0, &info));
  EXPECT_EQ(ACL_RT_NO_ERROR, info.errorType);
  EXPECT_EQ(0, info.hasDetail);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetErrorVerbose(0, nullptr));
  EXPECT_ACL(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetErrorVerbose(9, &info));
}

TEST_F(ApiDeviceTest, MemInfo) {
  size_t freeb = 0, total = 0;
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
  ClearErrorState();
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
  EXPECT_EQ(size_t{64} << 30, total);
  EXPECT_LE(freeb, total);
  EXPECT_GT(freeb, total / 2);
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 64u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free2 = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
  EXPECT_LE(free2 + (64u << 20), freeb);
  EXPECT_ACL_OK(aclrtFree(p));
  size_t free3 = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free3, &total));
  EXPECT_EQ(freeb, free3);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, &freeb, nullptr));
}

TEST_F(ApiDeviceTest, SynchronizeDevice) {
  EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
  ClearErrorState();
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  apitest::Seq seq;
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 2));
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
  EXPECT_EQ(2u, seq.size());
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeDeviceWithTimeout(-2));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
}

TEST_F(ApiDeviceTest, SynchronizeDeviceWithTimeoutExpires) {
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  apitest::Gate gate;
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_TRUE(gate.WaitEntered());
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeDeviceWithTimeout(20));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
}

}  // namespace
