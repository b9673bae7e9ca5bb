// Thrashing detection: a block migrating back and forth faster than the lapse
// is throttled and then pinned to the host (devices map it remotely). The
// thresholds are made small for this binary by CMake
// (SIMNPU_UVM_THRASH_LAPSE_US=1000000, _THRESHOLD=2, _PIN_THRESHOLD=2, _NAP_US=100).
#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, PingPongIsThrottledThenPinned) {
  char* p = Alloc(kBlock);
  for (int i = 0; i < 12; ++i) {
    p[0] = static_cast<char>(i);
    DeviceFill(p + 4096, 64, i);
  }
  simnpu_uvm_counters c = Counters();
  EXPECT_GE(c.thrashing_events, 2u);
  EXPECT_EQ(c.throttles, 2u);
  EXPECT_EQ(c.pins, 1u);
  EXPECT_GT(c.remote_maps, 0u);
  // Once pinned, the block stays on the host and the device reaches it remotely.
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
  EXPECT_EQ(p[0], 11);
  EXPECT_EQ(p[4096], 11);
}
