// Fault injection (platform/fault_inject.h): every seam made to fail once
// gives a clean error code, leaks nothing the runtime tracks (allocations,
// device memory), and the same call works when retried. Linked against the
// static layers (not libacl_rt.so) so that the test can arm the seams.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "core/allocation_map.h"
#include "platform/fault_inject.h"
#include "sim/npu_system.h"
#include "simnpu/uvm.h"

namespace {

using simnpu::platform::ArmFault;
using simnpu::platform::FaultSite;
using simnpu::platform::InjectedFaults;

class FaultTest : public ::testing::Test {
 protected:
  void TearDown() override {
    simnpu::platform::DisarmAllFaults();
    uint32_t n = 0;
    if (aclrtGetDeviceCount(&n) != ACL_SUCCESS) n = 0;
    for (uint32_t d = 0; d < n; ++d) (void)aclrtResetDeviceForce(static_cast<int32_t>(d));
    apitest::ClearErrorState();
  }
  size_t Live() { return simnpu::core::AllocationMap::Get().live_count(); }
};

TEST_F(FaultTest, AddressSpaceReservationFailsOnceThenDeviceOpens) {
  ArmFault(FaultSite::kReserveVa, 1);
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtSetDevice(1));
  EXPECT_FALSE(apitest::TakeErrMsg().empty());
  EXPECT_EQ(1u, InjectedFaults(FaultSite::kReserveVa));
  EXPECT_EQ(nullptr, simnpu::sim::NpuSystem::Get().Find(1));  // nothing half-open left behind
  ACL_OK(aclrtSetDevice(1));
  void* p = nullptr;
  ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtFree(p));
}

TEST_F(FaultTest, CommitFailsOnceThenDeviceOpens) {
  ArmFault(FaultSite::kCommit, 1);
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtSetDevice(0));
  EXPECT_EQ(1u, InjectedFaults(FaultSite::kCommit));
  ACL_OK(aclrtSetDevice(0));
  void* p = nullptr;
  ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemset(p, 4096, 1, 4096));
  ACL_OK(aclrtFree(p));
}

TEST_F(FaultTest, ThreadCreationFailsOnceThenTheStreamRuns) {
  ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ACL_OK(aclrtCreateStream(&s));
  void* p = nullptr;
  ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  const size_t live = Live();
  ArmFault(FaultSite::kThread, 1);
  ACL_OK(aclrtMemsetAsync(p, 4096, 7, 4096, s));  // accepted; its worker cannot start
  EXPECT_EQ(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, aclrtSynchronizeStream(s));
  EXPECT_NE(std::string::npos, apitest::TakeErrMsg().find("worker thread could not be started"));
  EXPECT_EQ(live, Live());
  ACL_OK(aclrtMemsetAsync(p, 4096, 9, 4096, s));  // the retry starts the worker
  ACL_OK(aclrtSynchronizeStream(s));
  unsigned char back[4096];
  ACL_OK(aclrtMemcpy(back, sizeof back, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
  for (unsigned char c : back) ASSERT_EQ(9, c);
  ACL_OK(aclrtDestroyStream(s));
  ACL_OK(aclrtFree(p));
}

TEST_F(FaultTest, FileReadFailsOnceThenTheConfigurationLoads) {
  const std::string path = "fault_test_acl.json";
  {
    std::ofstream f(path);
    f << "{\"err_msg_mode\": \"1\"}";
  }
  ArmFault(FaultSite::kFileRead, 1);
  EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclInit(path.c_str()));
  EXPECT_FALSE(apitest::TakeErrMsg().empty());
  ACL_OK(aclInit(path.c_str()));
  ACL_OK(aclFinalize());
  ArmFault(FaultSite::kFileRead, 1);
  aclrtBinHandle b = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_FILE_OPEN, aclrtBinaryLoadFromFile(SIMNPU_TEST_FATBIN_PATH, nullptr, &b));
  ACL_OK(aclrtBinaryLoadFromFile(SIMNPU_TEST_FATBIN_PATH, nullptr, &b));
  ACL_OK(aclrtBinaryUnLoad(b));
  std::remove(path.c_str());
}

TEST_F(FaultTest, MemoryObjectFailsOnceThenTheImageLoads) {
  std::ifstream f(SIMNPU_TEST_FATBIN_PATH, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string bytes = ss.str();
  ASSERT_GT(bytes.size(), 64u);
  ArmFault(FaultSite::kShm, 1);
  aclrtBinHandle b = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &b));
  EXPECT_EQ(nullptr, b);
  ACL_OK(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &b));
  ACL_OK(aclrtBinaryUnLoad(b));
}

TEST_F(FaultTest, UserfaultfdFailureFallsBackToPinnedMemory) {
  ArmFault(FaultSite::kUffd, 1);
  ACL_OK(aclrtSetDevice(0));
  void* m = nullptr;
  ACL_OK(aclrtMemAllocManaged(&m, 1 << 20, ACL_RT_MEM_ATTACH_GLOBAL));
  const char* why = nullptr;
  EXPECT_EQ(0, simnpu_uvm_mode(&why));
  ASSERT_NE(nullptr, why);
  EXPECT_NE(std::string::npos, std::string(why).find("fault injected"));
  std::vector<unsigned char> src(1 << 20, 3), back(1 << 20);
  ACL_OK(aclrtMemcpy(m, 1 << 20, src.data(), 1 << 20, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_OK(aclrtMemcpy(back.data(), 1 << 20, m, 1 << 20, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(src, back);
  ACL_OK(aclrtFree(m));
}

TEST_F(FaultTest, RepeatedFailuresNeverLeak) {
  ACL_OK(aclrtSetDevice(0));
  const size_t live = Live();
  const uint64_t used = simnpu::sim::NpuSystem::Get().Find(0)->arena().used();
  for (int i = 0; i < 50; ++i) {
    ArmFault(FaultSite::kShm, 1);
    aclrtBinHandle b = nullptr;
    char junk[128] = "\x7f" "ELF";
    (void)aclrtBinaryLoadFromData(junk, sizeof junk, nullptr, &b);
    void* p = nullptr;
    ACL_OK(aclrtMalloc(&p, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtFree(p));
  }
  EXPECT_EQ(live, Live());
  EXPECT_EQ(used, simnpu::sim::NpuSystem::Get().Find(0)->arena().used());
}

}  // namespace
