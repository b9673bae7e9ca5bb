// The misuse suite's runner: every row in a forked child (misuse.h). The
// parent never touches the runtime, so each child starts from a clean
// process image. A child that crashes, hangs (20 s) or leaves the process
// damaged fails its row.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "misuse.h"
#include "simnpu/kernel_abi.h"

const simnpu_kernel_table* MisuseKernelTable();

namespace misuse {
namespace {

struct Result {
  int code = 0;
  int message = 0;  // a message was queued
  int intact = 0;   // canary unchanged, runtime still working
};

bool Setup(Level level, Fx& f) {
  if (level == kBare) return true;
  if (aclInit(nullptr) != ACL_SUCCESS) return false;
  if (level == kInit) return true;
  auto ok = [](aclError e) { return e == ACL_SUCCESS; };
  if (!ok(aclrtSetDevice(0)) || !ok(aclrtGetCurrentContext(&f.ctx))) return false;
  if (!ok(aclrtMalloc(&f.dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST)) ||
      !ok(aclrtMalloc(&f.canary, 4096, ACL_MEM_MALLOC_HUGE_FIRST)) ||
      !ok(aclrtMemset(f.canary, 4096, 0x5a, 4096)) || !ok(aclrtMallocHost(&f.pinned, 4096)) ||
      !ok(aclrtMemAllocManaged(&f.managed, 2u << 20, ACL_RT_MEM_ATTACH_GLOBAL)) ||
      !ok(aclrtMalloc(&f.freed_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST)) || !ok(aclrtFree(f.freed_dev)) ||
      !ok(aclrtMemAllocManaged(&f.freed_managed, 2u << 20, ACL_RT_MEM_ATTACH_GLOBAL)) ||
      !ok(aclrtFree(f.freed_managed)) || !ok(aclrtMallocHost(&f.freed_pinned, 64)) || !ok(aclrtFreeHost(f.freed_pinned)))
    return false;
  if (!ok(aclrtCreateStream(&f.stream)) || !ok(aclrtCreateStream(&f.dead_stream)) ||
      !ok(aclrtDestroyStream(f.dead_stream)))
    return false;
  if (!ok(aclrtCreateEvent(&f.event)) || !ok(aclrtRecordEvent(f.event, f.stream)) ||
      !ok(aclrtSynchronizeStream(f.stream)) || !ok(aclrtCreateEvent(&f.dead_event)) || !ok(aclrtDestroyEvent(f.dead_event)))
    return false;
  if (!ok(aclrtCreateNotify(&f.notify, 0)) || !ok(aclrtCreateNotify(&f.dead_notify, 0)) ||
      !ok(aclrtDestroyNotify(f.dead_notify)))
    return false;
  if (!ok(aclrtCreateContext(&f.dead_ctx, 0)) || !ok(aclrtDestroyContext(f.dead_ctx)) ||
      !ok(aclrtSetCurrentContext(f.ctx)))
    return false;
  // Live objects first, then the dead ones: a dead handle's address is then
  // never that of a live object of the fixture (a freed object's memory may
  // be reused by the next allocation, as on the hardware runtime).
  static simnpu_inproc_image img{SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, nullptr};
  img.table = MisuseKernelTable();
  if (!ok(aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &f.bin)) ||
      !ok(aclrtBinaryGetFunction(f.bin, "mu_fill", &f.func)) || !ok(aclrtKernelArgsInit(f.func, &f.args)))
    return false;
  if (!ok(aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &f.dead_bin)) ||
      !ok(aclrtBinaryGetFunction(f.dead_bin, "mu_fill", &f.dead_func)) || !ok(aclrtBinaryUnLoad(f.dead_bin)))
    return false;
  f.buf = aclCreateDataBuffer(f.host, 16);
  f.dead_buf = aclCreateDataBuffer(f.host, 16);
  if (!f.buf || !f.dead_buf || !ok(aclDestroyDataBuffer(f.dead_buf))) return false;
  f.cfg = aclrtCreateStreamConfigHandle();
  f.dead_cfg = aclrtCreateStreamConfigHandle();
  if (!f.cfg || !f.dead_cfg || !ok(aclrtDestroyStreamConfigHandle(f.dead_cfg))) return false;
  // keep a few allocations between a dead object and the next one a row makes
  static std::vector<void*>* spacers = new std::vector<void*>();
  for (int i = 0; i < 8; ++i) spacers->push_back(std::malloc(512));
  if (level == kFinalized) {
    if (!ok(aclrtResetDeviceForce(0)) || !ok(aclFinalize())) return false;
  }
  while (aclGetRecentErrMsg() != nullptr) {
  }
  (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  return true;
}

// After the call: the canary is unchanged and the runtime still copies.
bool Intact(Level level, Fx& f) {
  if (level != kDevice) return true;
  (void)aclrtSetCurrentContext(f.ctx);
  (void)aclrtSynchronizeStream(f.stream);
  while (aclGetRecentErrMsg() != nullptr) {
  }
  unsigned char back[4096];
  if (aclrtMemcpy(back, sizeof back, f.canary, 4096, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return false;
  for (unsigned char c : back)
    if (c != 0x5a) return false;
  void* p = nullptr;
  if (aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return false;
  return aclrtMemcpy(p, 64, back, 64, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS && aclrtFree(p) == ACL_SUCCESS;
}

[[noreturn]] void Child(const Row& row, int fd) {
  alarm(20);
  Fx f;
  Result r;
  if (!Setup(row.level, f)) {
    r.code = -999;
  } else {
    r.code = row.call(f);
    const char* m = aclGetRecentErrMsg();
    r.message = m != nullptr && m[0] != '\0';
    r.intact = Intact(row.level, f);
  }
  (void)!write(fd, &r, sizeof r);
  std::fflush(stdout);
  _exit(0);
}

class Misuse : public ::testing::TestWithParam<size_t> {};

const std::vector<Row>& Rows() {
  static const std::vector<Row>* rows = new std::vector<Row>(AllRows());
  return *rows;
}

TEST_P(Misuse, Row) {
  const Row& row = Rows()[GetParam()];
  SCOPED_TRACE(row.name);
  int fds[2];
  ASSERT_EQ(0, pipe(fds));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    Child(row, fds[1]);
  }
  close(fds[1]);
  Result r;
  const ssize_t n = read(fds[0], &r, sizeof r);
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  ASSERT_TRUE(WIFEXITED(status)) << row.name << ": the child died of signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  ASSERT_EQ(static_cast<ssize_t>(sizeof r), n) << row.name << ": no result from the child";
  ASSERT_NE(-999, r.code) << row.name << ": set-up failed";
  EXPECT_EQ(row.expected, r.code) << row.name;
  if (row.expected != 0 && row.message) EXPECT_TRUE(r.message) << row.name << ": no message for aclGetRecentErrMsg";
  EXPECT_TRUE(r.intact) << row.name << ": the canary allocation or the runtime was damaged";
}

std::string RowName(const ::testing::TestParamInfo<size_t>& info) {
  std::string s = std::to_string(info.param) + "_";
  for (char c : Rows()[info.param].name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s.substr(0, 120);
}

INSTANTIATE_TEST_SUITE_P(Table, Misuse, ::testing::Range<size_t>(0, Rows().size()), RowName);

}  // namespace
}  // namespace misuse
