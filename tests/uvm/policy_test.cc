// Advice: read-mostly duplication, preferred location, accessed-by.
#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, ReadMostlyDuplicatesOnReadAndInvalidatesOnWrite) {
  char* p = Alloc(kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  std::memset(p, 6, kBlock);  // host first touch
  simnpu_uvm_reset_counters();
  std::vector<char> r = DeviceRead(p, kBlock);  // the device gets a read-only replica
  EXPECT_EQ(r[777], 6);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.read_duplicates, 512u);
  EXPECT_EQ(c.pages_h2d, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit | DevBit(0)), 512u);
  // Reads on either side do not fault any more.
  EXPECT_EQ(p[100], 6);
  r = DeviceRead(p, kBlock);
  c = Counters();
  EXPECT_EQ(c.host_faults, 0u);
  EXPECT_EQ(c.device_faults, 1u);
  // A host write invalidates the replica of the written granule (16 pages).
  p[0] = 42;
  c = Counters();
  EXPECT_EQ(c.host_faults, 1u);
  EXPECT_EQ(c.host_faults_write_dup, 1u);
  EXPECT_EQ(c.invalidations, 16u);
  EXPECT_EQ(PagesWith(p, 16 * kPage, kHostBit), 16u);
  EXPECT_EQ(PagesWith(p + 16 * kPage, kBlock - 16 * kPage, kHostBit | DevBit(0)), 512u - 16u);
  // The device sees the new value (it re-duplicates the invalidated pages).
  r = DeviceRead(p, 64);
  EXPECT_EQ(r[0], 42);
  int32_t rm = -1;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, kBlock, &rm, 4), ACL_SUCCESS);
  EXPECT_EQ(rm, 1);
}

TEST_F(UvmTest, UnsetReadMostlyCollapsesReplicasToTheLocation) {
  char* p = Alloc(kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  std::memset(p, 2, kBlock);
  DeviceRead(p, kBlock);
  ASSERT_EQ(PagesWith(p, kBlock, kHostBit | DevBit(0)), 512u);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, Dev(0)), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
  int32_t rm = -1;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, kBlock, &rm, 4), ACL_SUCCESS);
  EXPECT_EQ(rm, 0);
  EXPECT_EQ(p[1], 2);
}

TEST_F(UvmTest, PreferredLocationDevicePreallocatesThere) {
  char* p = Alloc(kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Dev(0)), ACL_SUCCESS);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.pages_populated_device, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 512u);
  DeviceFill(p, kBlock, 1);  // no fault: already mapped on the device
  EXPECT_EQ(Counters().device_faults, 0u);
  int32_t loc = 99, type = 99, id = 99;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, kBlock, &loc, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, kBlock, &type, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, kBlock, &id, 4), ACL_SUCCESS);
  EXPECT_EQ(loc, 0);
  EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_DEVICE);
  EXPECT_EQ(id, 0);
  // The host cannot map device memory: a host access still migrates.
  EXPECT_EQ(p[5], 1);
  EXPECT_EQ(Counters().host_faults, 1u);
}

TEST_F(UvmTest, PreferredLocationRefusesARangeResidentElsewhere) {
  char* p = Alloc(kBlock);
  p[0] = 1;  // resident on the host
  EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Dev(0)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  // Host preference on host-resident memory is fine.
  EXPECT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()), ACL_SUCCESS);
}

TEST_F(UvmTest, PreferredLocationHostMapsDevicesRemotely) {
  char* p = Alloc(kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()), ACL_SUCCESS);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);  // pre-populated on the host
  simnpu_uvm_reset_counters();
  DeviceFill(p, kBlock, 8);  // mapped remotely, not migrated
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.remote_maps, 512u);
  EXPECT_EQ(c.pages_h2d, 0u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
  EXPECT_EQ(p[kBlock - 1], 8);
  EXPECT_EQ(Counters().host_faults, 0u);
  DeviceFill(p, kBlock, 9);  // the mapping stays: no second fault
  EXPECT_EQ(Counters().device_faults, 1u);
  EXPECT_EQ(p[0], 9);
}

TEST_F(UvmTest, AccessedByMapsWithoutFaults) {
  char* p = Alloc(kBlock);
  std::memset(p, 3, kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_ACCESSED_BY, Dev(0)), ACL_SUCCESS);
  simnpu_uvm_reset_counters();
  std::vector<char> r = DeviceRead(p, kBlock);
  EXPECT_EQ(r[4096], 3);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 0u);
  EXPECT_EQ(c.pages_h2d, 0u);
  int32_t ids[4] = {7, 7, 7, 7};
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, kBlock, ids, sizeof ids), ACL_SUCCESS);
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], -2);
  EXPECT_EQ(ids[3], -2);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, Dev(0)), ACL_SUCCESS);
  r = DeviceRead(p, kBlock);  // faults again (and migrates)
  EXPECT_EQ(Counters().device_faults, 1u);
}

TEST_F(UvmTest, AttributesOfAMixedRangeAreInvalid) {
  char* p = Alloc(2 * kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()), ACL_SUCCESS);
  int32_t loc = 0, type = 5;
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, kBlock, &loc, 4), ACL_SUCCESS);
  EXPECT_EQ(loc, -1);  // all pages prefer the host
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 2 * kBlock, &loc, 4), ACL_SUCCESS);
  EXPECT_EQ(loc, -2);  // mixed
  ASSERT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 2 * kBlock, &type, 4), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_INVALID);
  // Several attributes at once.
  aclrtMemManagedRangeAttribute attrs[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
  int32_t rm = 9, ty = 9;
  void* data[2] = {&rm, &ty};
  size_t sizes[2] = {4, 4};
  ASSERT_EQ(aclrtMemManagedGetAttrs(attrs, 2, p, kBlock, data, sizes), ACL_SUCCESS);
  EXPECT_EQ(rm, 0);
  EXPECT_EQ(ty, ACL_MEM_LOCATIONTYPE_HOST);
}

// A write through an accessed-by mapping to pages whose only copies are
// read-only replicas on devices (no writable copy anywhere): the data is made
// exclusive on the host and the device writes it there, instead of the access
// finding nothing writable round after round and failing.
TEST_F(UvmTest, AccessedByWriteToDeviceOnlyReplicasGoesThroughTheHost) {
  char* p = Alloc(kBlock);
  DeviceFill(p, kBlock, 5);  // only copy: device 0, writable
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(1), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(PagesWith(p, kBlock, DevBit(0) | DevBit(1)), 512u);  // two read-only replicas, none on the host
  ASSERT_EQ(aclrtMemManagedAdvise(p, kBlock, ACL_MEM_ADVISE_SET_ACCESSED_BY, Dev(0)), ACL_SUCCESS);
  simnpu_uvm_reset_counters();
  DeviceFill(p, kBlock, 9);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.pages_d2h, 512u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);  // the replicas are gone; the host holds the data
  EXPECT_EQ(Counters().host_faults, 0u);
  for (size_t i = 0; i < kBlock; i += 4093) ASSERT_EQ(p[i], 9) << i;
  std::vector<char> r = DeviceRead(p, kBlock);  // reads through the mapping see the write
  EXPECT_EQ(r[kBlock - 1], 9);
}
