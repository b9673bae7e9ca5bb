// Fault granularity and the density prefetcher, with 64 KiB granules forced
// (SIMNPU_UVM_FAULT_GRANULE=64K, set by CMake for this binary).
#include "uvm_fixture.h"

using namespace uvmtest;

// Sequential host touches of a device-resident block: faults bring 16 pages,
// and the density rule (>51% of a subtree) widens them: 6 faults in all.
//   touch page   region         new host pages
//   0            [0,16)          16
//   16           [0,32)          16
//   32           [0,64)          32
//   64           [0,128)         64
//   128          [0,256)        128
//   256          [0,512)        256
TEST_F(UvmTest, SequentialHostReadsOfADeviceBlockTakeSixFaults) {
  char* p = Alloc(kBlock);
  DeviceFill(p, kBlock, 4);
  simnpu_uvm_reset_counters();
  const size_t expect_resident[] = {16, 32, 64, 128, 256, 512};
  size_t fault = 0;
  for (size_t page = 0; page < 512; ++page) {
    ASSERT_EQ(p[page * kPage], 4);
    simnpu_uvm_counters c = Counters();
    if (c.host_faults > fault) {
      ASSERT_LT(fault, 6u);
      EXPECT_EQ(PagesWith(p, kBlock, kHostBit), expect_resident[fault]) << "after fault " << fault;
      fault = c.host_faults;
    }
  }
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.host_faults, 6u);
  EXPECT_EQ(c.host_faults_migrate, 6u);
  EXPECT_EQ(c.pages_d2h, 512u);
  EXPECT_EQ(c.density_expansions, 4u);  // the fault at page 16 widens but brings nothing new
  EXPECT_EQ(c.blocks_moved, 0u);  // partial migrations copy
  EXPECT_EQ(c.copy_fallbacks, 6u);
}

// A device access batches all missing pages of the access into one fault.
TEST_F(UvmTest, ADeviceAccessIsOneFaultBatch) {
  char* p = Alloc(kBlock);
  std::memset(p, 1, kBlock);
  simnpu_uvm_reset_counters();
  // Read 40 pages (2.5 granules) from the device.
  std::vector<char> r = DeviceRead(p + 8 * kPage, 40 * kPage);
  EXPECT_EQ(r[0], 1);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.device_faults, 1u);
  EXPECT_EQ(c.device_fault_pages, 40u);
  // [8,48) touches granules [0,16) [16,32) [32,48): 48 pages; density then
  // takes [0,64) (48/64 > 51%).
  EXPECT_EQ(c.pages_h2d, 64u);
  EXPECT_EQ(PagesWith(p, kBlock, DevBit(0)), 64u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u - 64u);
}

// Host and device share one block at page granularity without losing data.
TEST_F(UvmTest, SplitResidencyKeepsEveryByte) {
  char* p = Alloc(kBlock);
  for (size_t i = 0; i < kBlock; ++i) p[i] = static_cast<char>(i * 7);
  DeviceFill(p + 100 * kPage, 3 * kPage, 0x11);  // device writes 3 pages
  for (size_t i = 0; i < kBlock; ++i) {
    size_t page = i / kPage;
    char want = (page >= 100 && page < 103) ? 0x11 : static_cast<char>(i * 7);
    ASSERT_EQ(p[i], want) << i;
  }
}
