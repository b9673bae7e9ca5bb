// aclnn operator benchmark (issue 13): aclnnAdd (alpha 1) of two contiguous
// float32 tensors into a third, 64 MiB each, in aclrtMalloc memory, with the
// same inputs as the vector-add kernel row (patterns.h) and counted the same
// way (3 arrays per pass, 4 passes per sample, launch + synchronize), so the
// row aclnn.add.f32 is held against vadd.kernel.f32 of the same run. The
// executor is planned once and made repeatable (the operator's host planning
// is not what is measured); the result is checked bit for bit.
//
//   bench_aclnn add [--size 64M] [--reps 5]
#include <cstdio>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "bench_common.h"
#include "patterns.h"

namespace sb = simnpu_bench;
namespace bp = bench_patterns;

#define CHECK(expr)                                                             \
  do {                                                                          \
    const int _rc = static_cast<int>(expr);                                     \
    if (_rc != 0) {                                                             \
      const char* _m = aclGetRecentErrMsg();                                    \
      std::fprintf(stderr, "%s failed: %d %s\n", #expr, _rc, _m ? _m : "");     \
      sb::EmitError("aclnn.add.f32", std::string(#expr) + " failed");           \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "add") {
    std::fprintf(stderr, "usage: %s add [--size 64M] [--reps 5]\n", argv[0]);
    return 2;
  }
  sb::Args args(argc, argv, 2);
  const size_t bytes = args.Size("size", 64 * sb::kMiB);
  const int reps = static_cast<int>(args.Int("reps", 5));
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  bp::Chunks<float> c;
  std::vector<char> host(bytes);
  void *x = nullptr, *y = nullptr, *z = nullptr;
  CHECK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  bp::Fill(host.data(), c.x, bytes);
  CHECK(aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  bp::Fill(host.data(), c.y, bytes);
  CHECK(aclrtMemcpy(y, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemset(z, bytes, 0, bytes));
  const int64_t n = static_cast<int64_t>(bytes / sizeof(float));
  const int64_t one = 1;
  aclTensor* tx = aclCreateTensor(&n, 1, ACL_FLOAT, &one, 0, ACL_FORMAT_ND, &n, 1, x);
  aclTensor* ty = aclCreateTensor(&n, 1, ACL_FLOAT, &one, 0, ACL_FORMAT_ND, &n, 1, y);
  aclTensor* tz = aclCreateTensor(&n, 1, ACL_FLOAT, &one, 0, ACL_FORMAT_ND, &n, 1, z);
  float a = 1.0f;
  aclScalar* alpha = aclCreateScalar(&a, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  CHECK(aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &ws, &ex));
  CHECK(aclSetAclOpExecutorRepeatable(ex));
  void* wsp = nullptr;
  if (ws > 0) CHECK(aclrtMalloc(&wsp, ws, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclnnAdd(wsp, ws, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(host.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  const size_t bad = bp::Mismatch(host.data(), c.z, bytes);
  if (bad != SIZE_MAX) sb::EmitError("aclnn.add.f32", "wrong result at byte " + std::to_string(bad));
  const int passes = 4;
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    for (int k = 0; k < passes; ++k) CHECK(aclnnAdd(wsp, ws, ex, stream));
    CHECK(aclrtSynchronizeStream(stream));
    gbs.push_back(3.0 * static_cast<double>(bytes) * passes / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit("aclnn.add.f32", "GB/s",
           "aclnnAdd (alpha 1) of two contiguous float32 tensors, " + sb::SizeName(bytes) +
               " each in aclrtMalloc memory, repeatable executor; aclnnAdd + synchronize; 3 arrays counted",
           gbs, sb::Info().Add("array_bytes", static_cast<uint64_t>(bytes)).Add("workspace_bytes", ws).Add(
                    "launches_per_sample", passes));
  aclDestroyAclOpExecutor(ex);
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tz);
  aclDestroyScalar(alpha);
  aclrtFree(x);
  aclrtFree(y);
  aclrtFree(z);
  if (wsp != nullptr) aclrtFree(wsp);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
