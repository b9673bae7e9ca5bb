// Oversubscription: device memory of 8 MiB (4 frames, set by CMake for this
// binary) and working sets several times larger. Least recently used blocks
// are evicted to the host; every byte survives; nothing hangs.
#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, WorkingSetFourTimesTheDeviceCompletes) {
  size_t total, free_bytes;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  ASSERT_EQ(total, 8u << 20);
  const size_t n = 4 * total;  // 16 blocks on a 4-frame device
  char* p = Alloc(n);
  for (size_t b = 0; b < n / kBlock; ++b) DeviceFill(p + b * kBlock, kBlock, static_cast<int>(b + 1));
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 16u);
  EXPECT_EQ(c.evictions, 12u);  // the first 4 fit, each later block evicts one
  EXPECT_EQ(c.bytes_evicted, 12u * kBlock);
  EXPECT_EQ(PagesWith(p, n, DevBit(0)), 4u * 512);     // the last four blocks
  EXPECT_EQ(PagesWith(p, n, kHostBit), 12u * 512);     // evicted ones are on the host
  // Sweep twice more on the device, then check every byte on the host.
  for (int round = 0; round < 2; ++round) {
    std::vector<char> out(kBlock);
    for (size_t b = 0; b < n / kBlock; ++b) {
      ASSERT_EQ(aclrtMemcpy(out.data(), kBlock, p + b * kBlock, kBlock, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
      ASSERT_EQ(out[0], static_cast<char>(b + 1));
      ASSERT_EQ(out[kBlock - 1], static_cast<char>(b + 1));
    }
  }
  for (size_t i = 0; i < n; i += 1024) ASSERT_EQ(p[i], static_cast<char>(i / kBlock + 1)) << i;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
}

TEST_F(UvmTest, PrefetchLargerThanTheDeviceEvicts) {
  const size_t n = 16u << 20;  // 2x the device
  char* p = Alloc(n);
  std::memset(p, 9, n);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, n, Dev(0), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, n, DevBit(0)), 4u * 512);
  EXPECT_EQ(Counters().evictions, 4u);
  for (size_t i = 0; i < n; i += 4096) ASSERT_EQ(p[i], 9);
}

TEST_F(UvmTest, PlainAllocationsAndManagedFramesShareTheCapacity) {
  void* d = nullptr;
  ASSERT_EQ(aclrtMalloc(&d, 4u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // 4 MiB + padding: 3 chunks
  char* p = Alloc(2 * kBlock);
  DeviceFill(p, 2 * kBlock, 1);  // both blocks pass through the one frame left
  EXPECT_EQ(Counters().evictions, 1u);
  // A plain allocation reclaims the frame held by managed pages.
  void* small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(Counters().evictions, 2u);
  EXPECT_EQ(PagesWith(p, 2 * kBlock, kHostBit), 2u * 512);
  for (size_t i = 0; i < 2 * kBlock; i += 4096) ASSERT_EQ(p[i], 1);
  // Nothing reclaimable is left for a large request.
  void* more = nullptr;
  EXPECT_EQ(aclrtMalloc(&more, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  ASSERT_EQ(aclrtFree(small), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
}
