// Prefetch (single and batch): stream-ordered, moves whole blocks, populates
// unpopulated pages at the destination, records the last prefetch location.
#include <atomic>
#include <thread>

#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, PrefetchToDeviceAndBackMovesBlocksWithoutFaults) {
  char* p = Alloc(4 * kBlock);
  std::memset(p, 5, 4 * kBlock);
  simnpu_uvm_reset_counters();
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, 4 * kBlock, Dev(0), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.prefetch_requests, 1u);
  EXPECT_EQ(c.pages_h2d, 4u * 512);
  EXPECT_EQ(c.blocks_moved, 4u);
  EXPECT_EQ(c.device_faults + c.host_faults, 0u);
  EXPECT_EQ(PagesWith(p, 4 * kBlock, DevBit(0)), 4u * 512);
  DeviceFill(p, 4 * kBlock, 6);  // resident: no fault
  EXPECT_EQ(Counters().device_faults, 0u);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, 4 * kBlock, Host(), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  c = Counters();
  EXPECT_EQ(c.pages_d2h, 4u * 512);
  for (size_t i = 0; i < 4 * kBlock; i += 4096) ASSERT_EQ(p[i], 6);
  EXPECT_EQ(Counters().host_faults, 0u);
  int32_t last = 9, type = 9;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, kBlock, &last, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, kBlock, &type, 4), ACL_SUCCESS);
  EXPECT_EQ(last, -1);
  EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_HOST);
}

TEST_F(UvmTest, PrefetchPopulatesUnpopulatedPagesAtTheDestination) {
  char* p = Alloc(kBlock);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Counters().pages_populated_device, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
}

TEST_F(UvmTest, PrefetchIsOrderedOnItsStream) {
  char* p = Alloc(kBlock);
  std::memset(p, 1, kBlock);
  std::atomic<bool> release{false};
  auto block = [](void* arg) {
    auto* r = static_cast<std::atomic<bool>*>(arg);
    while (!r->load()) std::this_thread::yield();
  };
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, block, &release), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 0, stream_), ACL_SUCCESS);
  // The attribute reflects the request at once; residency only after the stream runs it.
  int32_t last = 9;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, kBlock, &last, 4), ACL_SUCCESS);
  EXPECT_EQ(last, 0);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
  release = true;
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
}

TEST_F(UvmTest, BatchPrefetchAppliesLocationsByIndex) {
  char* p = Alloc(4 * kBlock);
  std::memset(p, 2, 4 * kBlock);
  const void* ptrs[4] = {p, p + kBlock, p + 2 * kBlock, p + 3 * kBlock};
  size_t sizes[4] = {kBlock, kBlock, kBlock, kBlock};
  aclrtMemManagedLocation locs[2] = {Dev(1), Dev(0)};
  size_t idx[2] = {0, 3};  // ranges 0-2 to device 1, range 3 to device 0
  ASSERT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 4, locs, idx, 2, 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, 3 * kBlock, DevBit(1)), 3u * 512);
  EXPECT_EQ(PagesWith(p + 3 * kBlock, kBlock, DevBit(0)), 512u);
  EXPECT_EQ(Counters().prefetch_requests, 4u);
  // Device 0 pulls a block that lives on device 1: a device-to-device move.
  DeviceFill(p, kBlock, 3);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.pages_d2d, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
  EXPECT_EQ(p[0], 3);
  EXPECT_EQ(p[kBlock + 1], 2);
}

TEST_F(UvmTest, ReadMostlyPrefetchCreatesAReplica) {
  char* p = Alloc(kBlock);
  std::memset(p, 4, kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit | DevBit(0)), 512u);
  EXPECT_EQ(Counters().read_duplicates, 512u);
}

// Blocks already partly at the destination cannot move whole: they are
// assembled in a huge page (with the pages already there) and moved in, in
// both directions, without losing a byte.
TEST_F(UvmTest, PartlyResidentBlocksMigrateWithoutLoss) {
  const size_t n = 4 * kBlock;
  char* p = Alloc(n);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<char>(i * 13 + 7);
  auto prefetch = [&](void* q, size_t len, aclrtMemManagedLocation loc) {
    ASSERT_EQ(aclrtMemManagedPrefetchAsync(q, len, loc, 0, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  };
  for (size_t b = 0; b < n; b += kBlock) prefetch(p + b + 5 * kPage, kPage, Dev(0));
  ASSERT_EQ(PagesWith(p, n, DevBit(0)), 4u);
  simnpu_uvm_reset_counters();
  prefetch(p, n, Dev(0));
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.pages_h2d, 4u * 511);
  EXPECT_EQ(c.copy_fallbacks, 4u);  // one assembled block each
  EXPECT_EQ(PagesWith(p, n, DevBit(0)), 4u * 512);
  std::vector<char> r = DeviceRead(p, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(r[i], static_cast<char>(i * 13 + 7)) << i;
  for (size_t b = 0; b < n; b += kBlock) prefetch(p + b + 300 * kPage, kPage, Host());
  simnpu_uvm_reset_counters();
  prefetch(p, n, Host());
  c = Counters();
  EXPECT_EQ(c.pages_d2h, 4u * 511);
  EXPECT_EQ(PagesWith(p, n, kHostBit), 4u * 512);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(p[i], static_cast<char>(i * 13 + 7)) << i;
}

TEST_F(UvmTest, PartlyReplicatedBlocksStayCoherent) {
  char* p = Alloc(kBlock);
  std::memset(p, 0x21, kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  DeviceRead(p + 10 * kPage, kPage);  // 64 KiB granule? no: auto, whole block replica
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit | DevBit(0)), 512u);
  p[0] = 0x22;  // invalidates the replica of one granule
  std::vector<char> r = DeviceRead(p, kBlock);
  EXPECT_EQ(r[0], 0x22);
  EXPECT_EQ(r[kBlock - 1], 0x21);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit | DevBit(0)), 512u);
  p[kBlock - 1] = 0x23;
  r = DeviceRead(p, kBlock);
  EXPECT_EQ(r[kBlock - 1], 0x23);
}
