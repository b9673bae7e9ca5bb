// A CANN-style profiling/dump program, built against the staged install the
// way the CANN profiling and adump samples are (headers from <prefix>/include
// and <prefix>/<arch>-linux/pkg_inc, -lascendcl -lmsprofiler -lprofapi
// -lascend_dump -lc_sec -ldl). Exit 0 when every call behaves.
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"
#include "securec.h"

#define CHECK(x)                                                              \
  do {                                                                        \
    if (!(x)) {                                                               \
      std::fprintf(stderr, "check failed at line %d: %s\n", __LINE__, #x);    \
      return 1;                                                               \
    }                                                                         \
  } while (0)

static void* Reader(void* arg) {
  int fd = *static_cast<int*>(arg);
  char buf[800];
  while (read(fd, buf, sizeof buf) > 0) {
  }
  return nullptr;
}

int main() {
  CHECK(aclInit(nullptr) == ACL_SUCCESS);
  CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  // The msproftx session of the profiling samples.
  CHECK(aclprofInit("./output", 8) == ACL_SUCCESS);
  uint32_t dev = 0;
  aclprofConfig* cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr,
                                           ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  CHECK(cfg != nullptr);
  CHECK(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2) == ACL_SUCCESS);
  CHECK(aclprofStart(cfg) == ACL_SUCCESS);
  void* stamp = aclprofCreateStamp();
  CHECK(stamp != nullptr);
  CHECK(aclprofSetStampTraceMessage(stamp, "step", 4) == ACL_SUCCESS);
  aclprofStepInfo* step = aclprofCreateStepInfo();
  CHECK(aclprofGetStepTimestamp(step, ACL_STEP_START, stream) == ACL_SUCCESS);
  CHECK(aclprofMark(stamp) == ACL_SUCCESS);
  CHECK(aclprofPush(stamp) == ACL_SUCCESS);
  uint32_t range = 0;
  CHECK(aclprofRangeStart(stamp, &range) == ACL_SUCCESS);
  mstxRangeId mr = mstxRangeStartA("mstx range", stream);
  mstxMarkA("mstx mark", stream);
  mstxRangeEnd(mr);
  CHECK(aclprofRangeStop(range) == ACL_SUCCESS);
  CHECK(aclprofPop() == ACL_SUCCESS);
  CHECK(aclprofGetStepTimestamp(step, ACL_STEP_END, stream) == ACL_SUCCESS);
  aclprofDestroyStepInfo(step);
  aclprofDestroyStamp(stamp);
  CHECK(aclprofStop(cfg) == ACL_SUCCESS);
  CHECK(aclprofDestroyConfig(cfg) == ACL_SUCCESS);
  CHECK(aclprofFinalize() == ACL_SUCCESS);
  // The subscription sample: the reader must see EOF after UnSubscribe.
  CHECK(MsprofSetDeviceIdByGeModelIdx(0, 0) == 0);
  int fd[2];
  CHECK(pipe(fd) == 0);
  aclprofSubscribeConfig* sub = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fd[1]);
  CHECK(sub != nullptr);
  (void)aclprofModelSubscribe(0, sub);
  pthread_t t;
  pthread_create(&t, nullptr, Reader, &fd[0]);
  CHECK(aclprofModelUnSubscribe(0) == ACL_SUCCESS);
  pthread_join(t, nullptr);
  close(fd[0]);
  CHECK(aclprofDestroySubscribeConfig(sub) == ACL_SUCCESS);
  // securec and the dump API.
  char buf[16];
  CHECK(memset_s(buf, sizeof buf, 0, sizeof buf) == EOK);
  CHECK(strcpy_s(buf, sizeof buf, "securec") == EOK);
  CHECK(acldumpGetPath(DATA_DUMP) == nullptr);
  CHECK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "./args") == ACL_SUCCESS);
  CHECK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS) == ACL_SUCCESS);
  CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
  CHECK(aclFinalize() == ACL_SUCCESS);
  std::printf("profiling program ok\n");
  return 0;
}
