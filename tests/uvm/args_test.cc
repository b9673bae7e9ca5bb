// Argument checks of the managed-memory API with their exact codes
// (acl-api.md §5.2, §9 item 2): ACL-layer checks give 100000 and leave the
// last error alone; runtime checks give 107000 / 107002 and set it.
#include <thread>

#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, AllocManagedArgumentChecks) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(nullptr, 4096, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);  // ACL layer: not recorded
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);  // consumed
  EXPECT_EQ(aclrtMemAllocManaged(&p, 4096, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 4096, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 4ull << 40, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION);
}

TEST_F(UvmTest, AllocManagedNeedsAContext) {
  aclError rc = ACL_SUCCESS;
  std::thread t([&] {
    void* p = nullptr;
    rc = aclrtMemAllocManaged(&p, 4096, ACL_RT_MEM_ATTACH_GLOBAL);
  });
  t.join();
  EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(UvmTest, FreeWorksWithoutAContext) {
  char* p = Alloc(kBlock);
  p[0] = 1;
  allocs_.clear();
  aclError rc = ACL_ERROR_NONE;
  std::thread t([&] { rc = aclrtFree(p); });
  t.join();
  EXPECT_EQ(rc, ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_RT_PARAM_INVALID);  // already freed
}

TEST_F(UvmTest, AdviseArgumentChecks) {
  char* p = Alloc(kBlock);
  EXPECT_EQ(aclrtMemManagedAdvise(nullptr, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedAdvise(p, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, static_cast<aclrtMemManagedAdviseType>(6), Host()),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Dev(8)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Dev(-1)), ACL_ERROR_RT_PARAM_INVALID);
  // Outside managed memory.
  char host[64];
  EXPECT_EQ(aclrtMemManagedAdvise(host, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedAdvise(p, 2 * kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_ERROR_RT_PARAM_INVALID);
  // Every advice value is accepted on a valid range.
  for (int a = 0; a <= 5; ++a)
    EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, static_cast<aclrtMemManagedAdviseType>(a), Host()), ACL_SUCCESS) << a;
  // A current context is required.
  aclError rc = ACL_SUCCESS;
  std::thread t([&] { rc = aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()); });
  t.join();
  EXPECT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
}

TEST_F(UvmTest, GetAttrArgumentChecks) {
  char* p = Alloc(kBlock);
  int32_t v;
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, nullptr, kBlock, &v, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, kBlock, nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 0, &v, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(0), p, kBlock, &v, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(9), p, kBlock, &v, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, kBlock, &v, 8), ACL_ERROR_RT_PARAM_INVALID);
  int32_t many[3];
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, kBlock, many, 6), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, kBlock, many, 12), ACL_SUCCESS);
  EXPECT_EQ(many[0], -2);
  // All eight attributes, no context needed.
  aclError rcs[8];
  std::thread t([&] {
    for (int a = 1; a <= 8; ++a) {
      int32_t out = 0;
      rcs[a - 1] = aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(a), p, kBlock, &out, 4);
    }
  });
  t.join();
  for (int a = 0; a < 8; ++a) EXPECT_EQ(rcs[a], ACL_SUCCESS) << a + 1;
  // Plural form.
  aclrtMemManagedRangeAttribute attrs[1] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY};
  void* data[1] = {&v};
  size_t sizes[1] = {4};
  EXPECT_EQ(aclrtMemManagedGetAttrs(nullptr, 1, p, kBlock, data, sizes), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, p, kBlock, nullptr, sizes), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, p, kBlock, data, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, p, 0, data, sizes), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, p, kBlock, data, sizes), ACL_SUCCESS);
  attrs[0] = static_cast<aclrtMemManagedRangeAttribute>(12);
  EXPECT_EQ(aclrtMemManagedGetAttrs(attrs, 1, p, kBlock, data, sizes), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(UvmTest, PrefetchArgumentChecks) {
  char* p = Alloc(kBlock);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(nullptr, kBlock, Dev(0), 0, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, 0, Dev(0), 0, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 1, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(8), 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  aclrtMemManagedLocation invalid = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, invalid, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  aclrtMemManagedLocation weird = {static_cast<aclrtMemManagedLocationType>(77), 0};
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, weird, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  aclrtMemManagedLocation numa = {ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT, 0};
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, numa, 0, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(1), 0, nullptr), ACL_SUCCESS);  // default stream
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  // No current context and no stream: nothing to run it on.
  aclError rc = ACL_SUCCESS;
  std::thread t([&] { rc = aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 0, nullptr); });
  t.join();
  EXPECT_EQ(rc, ACL_ERROR_RT_INTERNAL_ERROR);
}

TEST_F(UvmTest, PrefetchBatchArgumentChecks) {
  char* p = Alloc(2 * kBlock);
  const void* ptrs[2] = {p, p + kBlock};
  size_t sizes[2] = {kBlock, kBlock};
  aclrtMemManagedLocation locs[2] = {Dev(0), Host()};
  size_t idx[2] = {0, 1};
  auto call = [&](const void** pp, size_t* ss, size_t count, aclrtMemManagedLocation* ll, size_t* ii, size_t nl,
                  uint64_t flags) {
    return aclrtMemManagedPrefetchBatchAsync(pp, ss, count, ll, ii, nl, flags, stream_);
  };
  EXPECT_EQ(call(nullptr, sizes, 2, locs, idx, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, nullptr, 2, locs, idx, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 2, nullptr, idx, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 2, locs, nullptr, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 0, locs, idx, 2, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 2, locs, idx, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 2, locs, idx, 2, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(call(ptrs, sizes, 1, locs, idx, 2, 0), ACL_ERROR_INVALID_PARAM);  // count < numPrefetchLocs
  size_t bad0[2] = {1, 1};
  EXPECT_EQ(call(ptrs, sizes, 2, locs, bad0, 2, 0), ACL_ERROR_RT_PARAM_INVALID);  // first index not 0
  size_t notinc[2] = {0, 0};
  EXPECT_EQ(call(ptrs, sizes, 2, locs, notinc, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
  size_t oob[2] = {0, 2};
  EXPECT_EQ(call(ptrs, sizes, 2, locs, oob, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
  const void* nullptrs[2] = {p, nullptr};
  EXPECT_EQ(call(nullptrs, sizes, 2, locs, idx, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
  aclrtMemManagedLocation badloc[2] = {Dev(9), Host()};
  EXPECT_EQ(call(ptrs, sizes, 2, badloc, idx, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(call(ptrs, sizes, 2, locs, idx, 2, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
}

TEST_F(UvmTest, CopiesAndFillsOnManagedRanges) {
  char* a = Alloc(3 * kBlock);
  char* b = Alloc(3 * kBlock);
  std::vector<char> host(3 * kBlock);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<char>(i * 3 + 1);
  ASSERT_EQ(aclrtMemcpy(a, 3 * kBlock, host.data(), 3 * kBlock, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b, 3 * kBlock, a, 3 * kBlock, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(b + 10, 100, 0x7f, 100, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (size_t i = 0; i < host.size(); ++i) {
    char want = (i >= 10 && i < 110) ? 0x7f : host[i];
    ASSERT_EQ(b[i], want) << i;
  }
  std::vector<char> back(3 * kBlock);
  ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), a, back.size(), ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  ASSERT_EQ(aclrtMemset(a, kBlock, 0, kBlock), ACL_SUCCESS);
  EXPECT_EQ(a[kBlock - 1], 0);
  EXPECT_EQ(a[kBlock], host[kBlock]);
}
