// Runs with SIMNPU_DEVICE_MEMORY=8M: running out of device memory.
#include <vector>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::TakeErrMsg;

class ApiSmallMemoryTest : public apitest::DeviceTest {};

TEST_F(ApiSmallMemoryTest, CapacityIsTheConfiguredSize) {
  size_t freeb = 0, total = 0;
  EXPECT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &freeb, &total));
  EXPECT_EQ(size_t{8} << 20, total);
  int64_t v = 0;
  EXPECT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
  EXPECT_EQ(int64_t{8} << 20, v);
}

TEST_F(ApiSmallMemoryTest, OversizedRequestFails) {
  void* p = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, 16u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(nullptr, p);
  std::string msg = TakeErrMsg();
  EXPECT_FALSE(msg.empty());
  EXPECT_EQ(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
}

// Out of device memory reads as such in aclGetRecentErrMsg.
TEST_F(ApiSmallMemoryTest, OutOfMemoryIsReportedAsResourceExhausted) {
  void* p = nullptr;
  EXPECT_ACL(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, 16u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  std::string msg = TakeErrMsg();
  EXPECT_NE(std::string::npos, msg.find("Resource_Exhausted(EE1007): aclrtMalloc")) << msg;
  EXPECT_EQ(std::string::npos, msg.find("Invalid_Argument")) << msg;
}

TEST_F(ApiSmallMemoryTest, ExhaustionAndRecovery) {
  std::vector<void*> blocks;
  aclError rc = ACL_SUCCESS;
  for (int i = 0; i < 64 && rc == ACL_SUCCESS; ++i) {
    void* p = nullptr;
    rc = aclrtMalloc(&p, 1u << 20, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc == ACL_SUCCESS) blocks.push_back(p);
  }
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, rc);
  EXPECT_GE(blocks.size(), 3u);
  EXPECT_LE(blocks.size(), 8u);
  EXPECT_FALSE(TakeErrMsg().empty());
  ClearErrorState();
  ASSERT_FALSE(blocks.empty());
  EXPECT_ACL_OK(aclrtFree(blocks.back()));
  blocks.pop_back();
  void* p = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&p, 1u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  blocks.push_back(p);
  for (void* b : blocks) EXPECT_ACL_OK(aclrtFree(b));
}

TEST_F(ApiSmallMemoryTest, ResetReturnsEverything) {
  std::vector<void*> blocks;
  for (;;) {
    void* p = nullptr;
    if (aclrtMalloc(&p, 1u << 20, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) break;
    blocks.push_back(p);
    ASSERT_LT(blocks.size(), 64u);
  }
  ClearErrorState();
  ASSERT_EQ(ACL_SUCCESS, aclrtResetDeviceForce(0));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
  void* big = nullptr;
  EXPECT_ACL_OK(aclrtMalloc(&big, 6u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtFree(big));
}

}  // namespace
