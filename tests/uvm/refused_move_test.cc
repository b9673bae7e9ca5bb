// Runs with SIMNPU_UVM_TEST_REFUSE_ASSEMBLED_MOVES=1: every block assembled
// in a pool slot from copies fails to move, as the kernel refuses moves of
// pages shared after fork. The migration must still complete by copying, and
// the slot, which now holds that block's data, must never be handed out as
// fresh memory for another allocation.
#include "uvm_fixture.h"

using namespace uvmtest;

namespace {
// True when every byte of the block is zero.
bool AllZero(const char* p) {
  static const char kZero[kBlock] = {};
  return std::memcmp(p, kZero, kBlock) == 0;
}
}  // namespace

TEST_F(UvmTest, RefusedAssembledMovesCopyAndNeverLeakIntoNewMemory) {
  // Host -> device replica: assembled on the device side, the move refused.
  char* a = Alloc(kBlock);
  std::memset(a, 0x77, kBlock);
  ASSERT_EQ(aclrtMemManagedAdvise(a, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  std::vector<char> r = DeviceRead(a, kBlock);
  EXPECT_EQ(r[kBlock - 1], 0x77);
  EXPECT_EQ(PagesWith(a, kBlock, kHostBit | DevBit(0)), 512u);
  // Device -> host replica: assembled on the host side, the move refused.
  char* b = Alloc(kBlock);
  DeviceFill(b, kBlock, 0x66);
  ASSERT_EQ(aclrtMemManagedAdvise(b, kBlock, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()), ACL_SUCCESS);
  EXPECT_EQ(b[12345], 0x66);
  EXPECT_EQ(PagesWith(b, kBlock, kHostBit | DevBit(0)), 512u);
  for (size_t i = 0; i < kBlock; i += 4093) ASSERT_EQ(b[i], 0x66) << i;
  // New memory is zero wherever its first touch happens, whichever pool
  // slot it is populated from.
  const size_t blocks = 16;
  char* fresh = Alloc(blocks * kBlock);
  for (size_t k = 0; k < blocks; ++k) {
    char* blk = fresh + k * kBlock;
    if (k % 2) {
      EXPECT_TRUE(AllZero(blk)) << "host first touch, block " << k;
    } else {
      std::vector<char> d = DeviceRead(blk, kBlock);
      EXPECT_TRUE(AllZero(d.data())) << "device first touch, block " << k;
    }
  }
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.read_duplicates, 1024u);
}
