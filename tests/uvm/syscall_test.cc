// System calls on managed memory in every residency state: the kernel's own
// accesses (copy_to_user / copy_from_user) fault through userfaultfd like
// user accesses do, so read(2), write(2) and iostreams just work.
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "uvm_fixture.h"

using namespace uvmtest;

namespace {
std::string TempPath(const char* tag) {
  return std::string("/tmp/simnpu_uvm_") + tag + "_" + std::to_string(getpid());
}
std::vector<char> Pattern(size_t n, int seed) {
  std::vector<char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<char>((i * 131 + seed) >> 3);
  return v;
}
void WriteFile(const std::string& path, const std::vector<char>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(v.data(), static_cast<std::streamsize>(v.size()));
}
}  // namespace

enum class State { kUnpopulated, kHost, kDevice, kSplit };

class UvmSyscallTest : public UvmTest, public ::testing::WithParamInterface<State> {
 protected:
  // A 3-block range (the calls span block boundaries) put into the state.
  char* Prepare(size_t n) {
    char* p = Alloc(n);
    switch (GetParam()) {
      case State::kUnpopulated: break;
      case State::kHost: std::memset(p, 0x33, n); break;
      case State::kDevice: DeviceFill(p, n, 0x44); break;
      case State::kSplit:
        std::memset(p, 0x33, n);
        DeviceFill(p + kBlock, kBlock, 0x44);  // middle block on the device
        break;
    }
    return p;
  }
};

TEST_P(UvmSyscallTest, ReadIntoManagedMemory) {
  const size_t n = 3 * kBlock;
  char* p = Prepare(n);
  auto src = Pattern(n - 100, 1);
  std::string path = TempPath("read");
  WriteFile(path, src);
  int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ssize_t r = read(fd, p + 50, src.size());  // unaligned start and end
  close(fd);
  unlink(path.c_str());
  ASSERT_EQ(r, static_cast<ssize_t>(src.size()));
  ASSERT_EQ(std::memcmp(p + 50, src.data(), src.size()), 0);
}

TEST_P(UvmSyscallTest, WriteFromManagedMemory) {
  const size_t n = 3 * kBlock;
  char* p = Prepare(n);
  std::vector<char> expect(n);
  std::memcpy(expect.data(), p, n);  // host view (migrates as needed)
  // Put it back into the state before the system call reads it.
  if (GetParam() == State::kDevice) DeviceFill(p, n, 0x44), std::memset(expect.data(), 0x44, n);
  if (GetParam() == State::kSplit) DeviceFill(p + kBlock, kBlock, 0x44), std::memset(expect.data() + kBlock, 0x44, kBlock);
  std::string path = TempPath("write");
  int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ssize_t w = write(fd, p, n);
  close(fd);
  ASSERT_EQ(w, static_cast<ssize_t>(n));
  std::ifstream f(path, std::ios::binary);
  std::vector<char> got(n);
  f.read(got.data(), static_cast<std::streamsize>(n));
  unlink(path.c_str());
  ASSERT_EQ(std::memcmp(got.data(), expect.data(), n), 0);
}

TEST_P(UvmSyscallTest, IfstreamAndOfstream) {
  const size_t n = 2 * kBlock + 4096;
  char* p = Prepare(3 * kBlock);
  auto src = Pattern(n, 7);
  std::string in = TempPath("ifs"), out = TempPath("ofs");
  WriteFile(in, src);
  {
    std::ifstream f(in, std::ios::binary);
    f.rdbuf()->sgetn(p, static_cast<std::streamsize>(n));  // as the sample reads its inputs
  }
  ASSERT_EQ(std::memcmp(p, src.data(), n), 0);
  DeviceFill(p, kBlock, 0x55);  // the device writes part of it
  {
    std::ofstream f(out, std::ios::binary);
    f.write(p, static_cast<std::streamsize>(n));
  }
  std::ifstream f(out, std::ios::binary);
  std::vector<char> got(n);
  f.read(got.data(), static_cast<std::streamsize>(n));
  for (size_t i = 0; i < kBlock; ++i) src[i] = 0x55;
  EXPECT_EQ(std::memcmp(got.data(), src.data(), n), 0);
  unlink(in.c_str());
  unlink(out.c_str());
}

INSTANTIATE_TEST_SUITE_P(States, UvmSyscallTest,
                         ::testing::Values(State::kUnpopulated, State::kHost, State::kDevice, State::kSplit),
                         [](const ::testing::TestParamInfo<State>& i) {
                           switch (i.param) {
                             case State::kUnpopulated: return std::string("Unpopulated");
                             case State::kHost: return std::string("Host");
                             case State::kDevice: return std::string("Device");
                             default: return std::string("Split");
                           }
                         });
