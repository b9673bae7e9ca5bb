// The three scenarios of sample S43 (model_ri/4_model_sync_external,
// acl-api-ext.md §5.6), written from the reference's flow table: RELAXED
// captures with events from aclrtCreateEventExWithFlag(ACL_EVENT_SYNC).
//  1. the graph waits (EXTERNAL) for a record made outside, then copies;
//  2. the graph copies, then records (EXTERNAL); an outside stream waits and
//     copies the result into a std::vector;
//  3. graph 1 records (EXTERNAL), graph 2 waits (EXTERNAL).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define CHECK(expr)                                                       \
  do {                                                                    \
    aclError e_ = (expr);                                                 \
    if (e_ != ACL_SUCCESS) {                                              \
      std::printf("FAILED %s -> %d\n", #expr, static_cast<int>(e_));      \
      return 1;                                                           \
    }                                                                     \
  } while (0)

static const size_t kBytes = 8 * sizeof(int32_t);

static bool Same(const std::vector<int32_t>& a, const std::vector<int32_t>& b) { return a == b; }

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream graphStream = nullptr, other = nullptr;
  CHECK(aclrtCreateStream(&graphStream));
  CHECK(aclrtCreateStream(&other));
  std::vector<int32_t> in{1, 2, 3, 4, 5, 6, 7, 8};
  void *src = nullptr, *dst = nullptr, *dst2 = nullptr;
  CHECK(aclrtMalloc(&src, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dst, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dst2, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(src, kBytes, in.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  int failures = 0;

  {  // scenario 1
    aclrtEvent ev = nullptr;
    CHECK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
    CHECK(aclmdlRICaptureBegin(graphStream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(aclrtStreamWaitEventWithFlag(graphStream, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK(aclrtMemcpyAsync(dst, kBytes, src, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, graphStream));
    aclmdlRI m = nullptr;
    CHECK(aclmdlRICaptureEnd(graphStream, &m));
    CHECK(aclrtRecordEvent(ev, other));
    CHECK(aclmdlRIExecuteAsync(m, graphStream));
    CHECK(aclrtSynchronizeStream(graphStream));
    std::vector<int32_t> out(8, 0);
    CHECK(aclrtMemcpy(out.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("CHECK scenario1 %s\n", Same(in, out) ? "ok" : "wrong");
    failures += !Same(in, out);
    CHECK(aclmdlRIDestroy(m));
    CHECK(aclrtDestroyEvent(ev));
  }
  CHECK(aclrtMemset(dst, kBytes, 0, kBytes));
  aclrtEvent ev2 = nullptr;
  CHECK(aclrtCreateEventExWithFlag(&ev2, ACL_EVENT_SYNC));
  aclmdlRI g1 = nullptr;
  {  // scenario 2
    CHECK(aclmdlRICaptureBegin(graphStream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(aclrtMemcpyAsync(dst, kBytes, src, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, graphStream));
    CHECK(aclrtRecordEventWithFlag(ev2, graphStream, ACL_EVENT_RECORD_EXTERNAL));
    CHECK(aclmdlRICaptureEnd(graphStream, &g1));
    CHECK(aclmdlRIExecuteAsync(g1, graphStream));
    std::vector<int32_t> out(8, 0);
    CHECK(aclrtStreamWaitEvent(other, ev2));
    CHECK(aclrtMemcpyAsync(out.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, other));
    CHECK(aclrtSynchronizeStream(other));
    CHECK(aclrtSynchronizeStream(graphStream));
    std::printf("CHECK scenario2 %s\n", Same(in, out) ? "ok" : "wrong");
    failures += !Same(in, out);
  }
  {  // scenario 3
    CHECK(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK(aclrtStreamWaitEventWithFlag(other, ev2, 0, ACL_EVENT_WAIT_EXTERNAL));
    CHECK(aclrtMemcpyAsync(dst2, kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, other));
    aclmdlRI g2 = nullptr;
    CHECK(aclmdlRICaptureEnd(other, &g2));
    CHECK(aclrtMemset(dst, kBytes, 0, kBytes));
    CHECK(aclmdlRIExecuteAsync(g1, graphStream));
    CHECK(aclmdlRIExecuteAsync(g2, other));
    CHECK(aclrtSynchronizeStream(other));
    CHECK(aclrtSynchronizeStream(graphStream));
    std::vector<int32_t> out(8, 0);
    CHECK(aclrtMemcpy(out.data(), kBytes, dst2, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("CHECK scenario3 %s\n", Same(in, out) ? "ok" : "wrong");
    failures += !Same(in, out);
    CHECK(aclmdlRIDestroy(g2));
  }
  CHECK(aclmdlRIDestroy(g1));
  CHECK(aclrtDestroyEvent(ev2));
  CHECK(aclrtFree(src));
  CHECK(aclrtFree(dst));
  CHECK(aclrtFree(dst2));
  CHECK(aclrtDestroyStream(graphStream));
  CHECK(aclrtDestroyStream(other));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("RESULT %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
