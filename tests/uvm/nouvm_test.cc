// A SOC without managed memory (SIMNPU_SOC=Ascend910A, set by CMake for this
// binary): aclrtMemAllocManaged returns 207000 and records it as the thread's
// last error; the other managed calls return 207000 as well.
#include <gtest/gtest.h>

#include "acl/acl.h"

TEST(UvmNoUvmSoc, EveryManagedCallIsNotSupported) {
  ASSERT_STREQ(aclrtGetSocName(), "Ascend910A");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(&p, 32768, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(msg, nullptr);
  EXPECT_NE(std::string(msg).find("Ascend910A"), std::string::npos);
  char buf[4096];
  aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  EXPECT_EQ(aclrtMemManagedAdvise(buf, 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  int32_t v;
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, buf, 4096, &v, 4), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  aclrtMemManagedRangeAttribute attrs[1] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY};
  void* data[1] = {&v};
  size_t sizes[1] = {4};
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, buf, 4096, data, sizes), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(buf, 4096, dev0, 0, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  const void* ptrs[1] = {buf};
  size_t psz[1] = {4096};
  size_t idx[1] = {0};
  EXPECT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, psz, 1, &dev0, idx, 1, 0, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  // Those do not touch the last error.
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  // Argument checks still come first.
  EXPECT_EQ(aclrtMemAllocManaged(&p, 32768, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}
