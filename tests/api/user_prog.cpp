// A user program built against the staged install exactly as a CANN user
// builds one (g++ -std=c++17 -Wall -Werror -I<stage>/include ... -lacl_rt or
// -lascendcl). Exercises devices, contexts, streams, events, host callbacks
// and device memory; prints one "CHECK <name> <value>" line per result and
// "RESULT PASS" at the end (exit 0), or "RESULT FAIL" (exit 1).
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace {

int g_failures = 0;

#define CHECK_ACL(expr)                                                               \
  do {                                                                                \
    aclError _rc = (expr);                                                            \
    if (_rc != ACL_SUCCESS) {                                                         \
      std::printf("FAILED %s -> %d (%s)\n", #expr, _rc,                               \
                  aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "no message");        \
      ++g_failures;                                                                   \
    }                                                                                 \
  } while (0)

void AddOne(void* arg) { ++*static_cast<int*>(arg); }

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  const char* soc = aclrtGetSocName();
  std::printf("CHECK soc %s\n", soc ? soc : "(null)");
  uint32_t count = 0;
  CHECK_ACL(aclrtGetDeviceCount(&count));
  std::printf("CHECK devices %u\n", count);

  CHECK_ACL(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK_ACL(aclrtGetCurrentContext(&ctx));
  aclrtStream a = nullptr, b = nullptr;
  CHECK_ACL(aclrtCreateStream(&a));
  CHECK_ACL(aclrtCreateStreamWithConfig(&b, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));

  const size_t n = 1 << 20;
  std::vector<unsigned char> in(n), out(n, 0);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<unsigned char>(i * 13 + 5);
  void* d1 = nullptr;
  void* d2 = nullptr;
  void* pinned = nullptr;
  CHECK_ACL(aclrtMalloc(&d1, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&d2, n, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMallocHost(&pinned, n));

  // a: H2D, record; b: wait, D2D, D2H into pinned memory, host callback.
  aclrtEvent ev = nullptr, t0 = nullptr, t1 = nullptr;
  CHECK_ACL(aclrtCreateEvent(&ev));
  CHECK_ACL(aclrtCreateEvent(&t0));
  CHECK_ACL(aclrtCreateEvent(&t1));
  int calls = 0;
  CHECK_ACL(aclrtRecordEvent(t0, a));
  CHECK_ACL(aclrtMemcpyAsync(d1, n, in.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, a));
  CHECK_ACL(aclrtRecordEvent(ev, a));
  CHECK_ACL(aclrtStreamWaitEvent(b, ev));
  CHECK_ACL(aclrtMemcpyAsync(d2, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE, b));
  CHECK_ACL(aclrtMemcpyAsync(pinned, n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST, b));
  CHECK_ACL(aclrtLaunchHostFunc(b, AddOne, &calls));
  CHECK_ACL(aclrtRecordEvent(t1, b));
  CHECK_ACL(aclrtSynchronizeStream(b));
  CHECK_ACL(aclrtSynchronizeStream(a));
  std::memcpy(out.data(), pinned, n);
  std::printf("CHECK copy_roundtrip %s\n", out == in ? "ok" : "mismatch");
  std::printf("CHECK host_callbacks %d\n", calls);
  float ms = -1;
  CHECK_ACL(aclrtEventElapsedTime(&ms, t0, t1));
  std::printf("CHECK elapsed_nonnegative %s\n", ms >= 0 ? "yes" : "no");

  // Memset + synchronous copy back.
  CHECK_ACL(aclrtMemset(d1, n, 0x7e, n));
  CHECK_ACL(aclrtMemcpy(out.data(), n, d1, n, ACL_MEMCPY_DEVICE_TO_HOST));
  bool filled = true;
  for (size_t i = 0; i < n; ++i) filled = filled && out[i] == 0x7e;
  std::printf("CHECK memset %s\n", filled ? "ok" : "mismatch");

  // Error handling: a deliberate NULL argument.
  aclError rc = aclrtGetRunMode(nullptr);
  std::printf("CHECK null_arg %d\n", rc);
  const char* msg = aclGetRecentErrMsg();
  std::printf("CHECK errmsg_first %s\n", msg ? "text" : "null");
  msg = aclGetRecentErrMsg();
  std::printf("CHECK errmsg_second %s\n", msg ? "text" : "null");
  int32_t dev = -1;
  CHECK_ACL(aclrtGetDevice(&dev));
  std::printf("CHECK current_device %d\n", dev);

  // A second context on device 1, used and destroyed.
  aclrtContext ctx1 = nullptr;
  CHECK_ACL(aclrtCreateContext(&ctx1, 1));
  aclrtStream s1 = nullptr;
  CHECK_ACL(aclrtCreateStream(&s1));
  CHECK_ACL(aclrtLaunchHostFunc(s1, AddOne, &calls));
  CHECK_ACL(aclrtSynchronizeStream(s1));
  CHECK_ACL(aclrtDestroyStream(s1));
  CHECK_ACL(aclrtDestroyContext(ctx1));
  CHECK_ACL(aclrtSetCurrentContext(ctx));
  std::printf("CHECK host_callbacks_after_ctx %d\n", calls);

  CHECK_ACL(aclrtDestroyEvent(ev));
  CHECK_ACL(aclrtDestroyEvent(t0));
  CHECK_ACL(aclrtDestroyEvent(t1));
  CHECK_ACL(aclrtFreeHost(pinned));
  CHECK_ACL(aclrtFree(d1));
  CHECK_ACL(aclrtFree(d2));
  CHECK_ACL(aclrtDestroyStreamForce(a));
  CHECK_ACL(aclrtDestroyStreamForce(b));
  CHECK_ACL(aclrtResetDeviceForce(0));
  CHECK_ACL(aclFinalize());
  std::printf("RESULT %s\n", g_failures == 0 ? "PASS" : "FAIL");
  return g_failures == 0 ? 0 : 1;
}
