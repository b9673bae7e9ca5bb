// Scripted access patterns with exact fault, migration and residency counts.
// Each test runs in its own process (gtest_discover_tests), so the counters
// and the engine state start fresh.
#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, AllocationIsInTheDocumentedWindowAndRoundedTo2MiB) {
  char* p = Alloc(32768);
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_GE(a, 0x90000000000ull);
  EXPECT_LT(a, 0x90000000000ull + (3ull << 40));
#endif
  EXPECT_EQ(a % kBlock, 0u);
  char* q = Alloc(1);
  EXPECT_GE(static_cast<size_t>(q - p), kBlock);  // 32 KiB took a whole 2 MiB block
  aclrtPtrAttributes attr;
  ASSERT_EQ(aclrtPointerGetAttributes(p + 100, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  EXPECT_EQ(attr.pageSize, 2u << 20);
  // Nothing is populated before the first touch.
  EXPECT_EQ(PagesWith(p, kBlock, 0), kBlock / kPage);
  EXPECT_EQ(Counters().host_faults, 0u);
}

TEST_F(UvmTest, FirstTouchOnHostPopulatesTheBlockWithOneFault) {
  char* p = Alloc(2 * kBlock);
  p[5] = 1;
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.host_faults, 1u);
  EXPECT_EQ(c.host_faults_first_touch, 1u);
  EXPECT_EQ(c.pages_populated_host, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
  EXPECT_EQ(PagesWith(p + kBlock, kBlock, 0), 512u);  // the second block is untouched
  std::memset(p, 7, 2 * kBlock);
  c = Counters();
  EXPECT_EQ(c.host_faults, 2u);  // one more: the second block
  EXPECT_EQ(c.device_faults, 0u);
  EXPECT_EQ(c.pages_h2d + c.pages_d2h, 0u);
}

TEST_F(UvmTest, FirstTouchOnDevicePopulatesOnTheDevice) {
  char* p = Alloc(kBlock);
  DeviceFill(p, kBlock, 0x5a);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.device_faults_first_touch, 1u);
  EXPECT_EQ(c.pages_populated_device, 512u);
  EXPECT_EQ(c.host_faults, 0u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
  // The host reads it: one fault moves the whole block back.
  EXPECT_EQ(p[kBlock - 1], 0x5a);
  c = Counters();
  EXPECT_EQ(c.host_faults, 1u);
  EXPECT_EQ(c.host_faults_migrate, 1u);
  EXPECT_EQ(c.pages_d2h, 512u);
  EXPECT_EQ(c.bytes_d2h, kBlock);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
  for (size_t i = 0; i < kBlock; i += 997) ASSERT_EQ(p[i], 0x5a) << i;
}

TEST_F(UvmTest, MigrationReleasesTheOldCopyAndItsFrame) {
  char* p = Alloc(kBlock);
  std::memset(p, 3, kBlock);  // host resident
  size_t free_before, total;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
  std::vector<char> r = DeviceRead(p, kBlock);  // device fault: host -> device
  EXPECT_EQ(r[12345], 3);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.device_faults_migrate, 1u);
  EXPECT_EQ(c.pages_h2d, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);  // no host copy is left
  size_t free_mid;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_mid, &total), ACL_SUCCESS);
  EXPECT_EQ(free_before - free_mid, kBlock);  // one device frame in use
  EXPECT_EQ(p[0], 3);                        // host fault: device -> host
  size_t free_after;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
  EXPECT_EQ(free_after, free_before);  // the device frame was released
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
}

TEST_F(UvmTest, WholeBlocksMoveWithoutCopying) {
  char* p = Alloc(4 * kBlock);
  std::memset(p, 1, 4 * kBlock);
  DeviceFill(p, 4 * kBlock, 2);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.blocks_moved, 4u);
  EXPECT_EQ(c.copy_fallbacks, 0u);
  EXPECT_EQ(c.pages_h2d, 4u * 512);
  for (size_t i = 0; i < 4 * kBlock; i += 4096) ASSERT_EQ(p[i], 2);
  c = Counters();
  EXPECT_EQ(c.blocks_moved, 8u);
  EXPECT_EQ(c.pages_d2h, 4u * 512);
  // 4 first touches, then 2 faults: each fault on a device-resident block
  // also moves the next block of the pass (read-ahead).
  EXPECT_EQ(c.host_faults, 4u + 2u);
  EXPECT_EQ(c.readahead_blocks, 2u);
}

TEST_F(UvmTest, PingPongCountsEveryMigration) {
  char* p = Alloc(kBlock);
  const int rounds = 6;
  for (int i = 0; i < rounds; ++i) {
    p[i] = static_cast<char>(i);      // host side
    DeviceFill(p + kBlock / 2, 64, i);  // device side
  }
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.host_faults, static_cast<uint64_t>(rounds));  // first touch + 5 migrations
  EXPECT_EQ(c.host_faults_first_touch, 1u);
  EXPECT_EQ(c.device_faults, static_cast<uint64_t>(rounds));
  EXPECT_EQ(c.pages_h2d, 512u * rounds);
  EXPECT_EQ(c.pages_d2h, 512u * (rounds - 1));
  for (int i = 0; i < rounds; ++i) EXPECT_EQ(p[i], i);
  EXPECT_EQ(p[kBlock / 2], rounds - 1);
}

