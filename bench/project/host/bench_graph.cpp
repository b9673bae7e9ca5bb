// bench_graph: the cost of replaying a captured task graph (issue 11 item 2).
//
//   replay  N empty kernels captured once (aclmdlRICaptureBegin .. End),
//           then aclmdlRIExecuteAsync + aclrtSynchronizeStream: time per
//           kernel; beside it, in the same process and interleaved sample
//           by sample, N individual launches + one synchronize (what
//           launch.throughput measures)
//
// The replayed graph is checked first: a graph of add_one_float launches run
// three times must add exactly 3 x launches to every element.
#include <cinttypes>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_one_float.h"
#include "aclrtlaunch_empty_kernel.h"
#include "bench_common.h"

namespace sb = simnpu_bench;
using sb::Emit;
using sb::Info;

namespace {

#define ACL_CHECK(expr)                                                                                      \
  do {                                                                                                       \
    aclError e_ = (expr);                                                                                    \
    if (e_ != ACL_SUCCESS) {                                                                                 \
      const char* m_ = aclGetRecentErrMsg();                                                                 \
      std::fprintf(stderr, "bench_graph: %s failed with %d at line %d: %s\n", #expr, static_cast<int>(e_), \
                   __LINE__, m_ ? m_ : "");                                                                  \
      std::printf("{\"id\": \"graph\", \"error\": \"%s failed with %d\"}\n", #expr, static_cast<int>(e_));    \
      std::exit(3);                                                                                          \
    }                                                                                                        \
  } while (0)

#define LAUNCH_CHECK(expr)                                                                            \
  do {                                                                                                \
    uint32_t r_ = (expr);                                                                             \
    if (r_ != 0) {                                                                                    \
      std::fprintf(stderr, "bench_graph: launch %s failed with %u at line %d\n", #expr, r_, __LINE__); \
      std::exit(3);                                                                                   \
    }                                                                                                 \
  } while (0)

aclrtStream g_stream = nullptr;

// A replayed graph computes what its launches compute.
void CheckReplay() {
  constexpr uint64_t n = 4096;
  constexpr int launches = 10, runs = 3;
  void* x = nullptr;
  ACL_CHECK(aclrtMalloc(&x, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<float> host(n, 1.0f);
  ACL_CHECK(aclrtMemcpy(x, n * sizeof(float), host.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_CHECK(aclmdlRICaptureBegin(g_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int i = 0; i < launches; ++i) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(add_one_float)(2, g_stream, x, n, 1024));
  aclmdlRI m = nullptr;
  ACL_CHECK(aclmdlRICaptureEnd(g_stream, &m));
  for (int r = 0; r < runs; ++r) ACL_CHECK(aclmdlRIExecuteAsync(m, g_stream));
  ACL_CHECK(aclrtSynchronizeStream(g_stream));
  ACL_CHECK(aclrtMemcpy(host.data(), n * sizeof(float), x, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < n; ++i)
    if (host[i] != 1.0f + launches * runs) {
      std::fprintf(stderr, "bench_graph: replay result %f at %" PRIu64 ", expected %d\n", host[i], i,
                   1 + launches * runs);
      std::printf("{\"id\": \"graph.replay\", \"error\": \"wrong replay result\"}\n");
      std::exit(4);
    }
  ACL_CHECK(aclmdlRIDestroy(m));
  ACL_CHECK(aclrtFree(x));
}

void BenchReplay(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 7));
  const int n = static_cast<int>(args.Int("kernels", 5000));
  for (int i = 0; i < 500; ++i) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
  ACL_CHECK(aclrtSynchronizeStream(g_stream));
  CheckReplay();
  uint64_t c0 = sb::NowNs();
  ACL_CHECK(aclmdlRICaptureBegin(g_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int i = 0; i < n; ++i) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
  aclmdlRI m = nullptr;
  ACL_CHECK(aclmdlRICaptureEnd(g_stream, &m));
  const double capture_us = static_cast<double>(sb::NowNs() - c0) / 1000.0 / n;
  ACL_CHECK(aclmdlRIExecuteAsync(m, g_stream));  // warm
  ACL_CHECK(aclrtSynchronizeStream(g_stream));
  std::vector<double> replay, launch;
  for (int r = 0; r < reps; ++r) {
    uint64_t t0 = sb::NowNs();
    for (int i = 0; i < n; ++i) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
    uint64_t t1 = sb::NowNs();
    ACL_CHECK(aclmdlRIExecuteAsync(m, g_stream));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
    uint64_t t2 = sb::NowNs();
    launch.push_back(static_cast<double>(t1 - t0) / 1000.0 / n);
    replay.push_back(static_cast<double>(t2 - t1) / 1000.0 / n);
  }
  ACL_CHECK(aclmdlRIDestroy(m));
  Emit("graph.launches.inproc", "us/launch",
       "empty kernel, 1 block: " + std::to_string(n) +
           " launches then one synchronize, in the replay benchmark's process, interleaved with its samples",
       launch, Info().Add("launches_per_sample", n));
  Emit("graph.replay", "us/kernel",
       "a captured graph of " + std::to_string(n) +
           " empty kernels (1 block): aclmdlRIExecuteAsync + aclrtSynchronizeStream, time per kernel",
       replay, Info().Add("kernels_per_graph", n).Add("capture_us_per_kernel", capture_us));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s replay [--reps N] [--kernels N]\n", argv[0]);
    return 2;
  }
  sb::Args args(argc, argv, 2);
  ACL_CHECK(aclInit(nullptr));
  ACL_CHECK(aclrtSetDevice(0));
  ACL_CHECK(aclrtCreateStream(&g_stream));
  const std::string cmd = argv[1];
  if (cmd == "replay") {
    BenchReplay(args);
  } else {
    std::fprintf(stderr, "bench_graph: unknown command %s\n", argv[1]);
    return 2;
  }
  aclrtDestroyStream(g_stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
