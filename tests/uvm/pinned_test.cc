// Host-pinned fallback (SIMNPU_UVM_MODE=pinned, set by CMake for this binary;
// the mode used when userfaultfd is not available): programs stay correct,
// system calls work, nothing migrates, and the mode says why.
#include <fcntl.h>
#include <unistd.h>

#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, PinnedModeStaysCorrect) {
  char* p = Alloc(2 * kBlock);
  const char* why = nullptr;
  EXPECT_EQ(simnpu_uvm_mode(&why), 0);
  ASSERT_NE(why, nullptr);
  EXPECT_NE(std::string(why).find("SIMNPU_UVM_MODE"), std::string::npos);
  std::memset(p, 1, 2 * kBlock);
  DeviceFill(p + 100, 1000, 2);
  std::vector<char> r = DeviceRead(p, 2 * kBlock);
  EXPECT_EQ(r[99], 1);
  EXPECT_EQ(r[100], 2);
  EXPECT_EQ(p[1099], 2);
  EXPECT_EQ(p[1100], 1);
  std::string path = "/tmp/simnpu_pinned_" + std::to_string(getpid());
  int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR, 0600);
  ASSERT_EQ(write(fd, p, 2 * kBlock), static_cast<ssize_t>(2 * kBlock));
  ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
  DeviceFill(p, 2 * kBlock, 0);
  ASSERT_EQ(read(fd, p, 2 * kBlock), static_cast<ssize_t>(2 * kBlock));
  close(fd);
  unlink(path.c_str());
  EXPECT_EQ(p[100], 2);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, kBlock, Dev(0), 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  simnpu_uvm_counters c = Counters();
  EXPECT_EQ(c.host_faults, 0u);
  EXPECT_EQ(c.device_faults, 0u);
  EXPECT_EQ(c.pages_h2d + c.pages_d2h, 0u);
  EXPECT_EQ(PagesWith(p, kBlock, kHostBit), 512u);
}
