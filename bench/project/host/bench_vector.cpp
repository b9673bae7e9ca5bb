// bench_vector: the vector-API benchmarks of issue 14b, each a kernel held
// against a plain C++ loop of the same math over the same data, on as many
// threads as the simulated device runs blocks on.
//
//   reduce   ReduceSum over 16 MiB of floats: the kernel (reduce_sum_float,
//            tiles through UB, partial sums per block) and the plain loop
//            (one sequential sum per thread share), in GB/s of input read
//
// Usage: bench_vector reduce [--size 16M] [--reps 7] [--blocks 16]
#include <acl/acl.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "aclrtlaunch_reduce_sum_float.h"
#include "baseline_reduce.h"
#include "bench_common.h"

namespace sb = simnpu_bench;

namespace {

#define VCHECK(expr)                                                                                  \
  do {                                                                                                \
    long e_ = static_cast<long>(expr);                                                                \
    if (e_ != 0) {                                                                                    \
      std::fprintf(stderr, "bench_vector: %s failed with %ld at line %d\n", #expr, e_, __LINE__);     \
      std::printf("{\"id\": \"vector\", \"error\": \"%s failed with %ld\"}\n", #expr, e_);             \
      std::exit(3);                                                                                   \
    }                                                                                                 \
  } while (0)

using sb::DeviceThreads;

void Fill(std::vector<float>& v) {
  uint32_t s = 12345;
  for (float& f : v) {
    s = s * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int32_t>(s >> 8) % 2001 - 1000) * 0.001f;
  }
}

double Reference(const std::vector<float>& v) {
  double s = 0;
  for (float f : v) s += f;
  return s;
}

bool Close(double got, double want, size_t n) { return std::fabs(got - want) <= 1e-5 * static_cast<double>(n) + 1e-3; }

void Baseline(const std::vector<float>& x, int reps) {
  const size_t n = x.size();
  const int threads = DeviceThreads();
  sb::Team team(threads);
  std::vector<float> part(static_cast<size_t>(threads));
  std::function<void(int, int)> body = [&](int i, int nt) {
    size_t b, e;
    sb::Split(n, i, nt, 1024, &b, &e);
    part[static_cast<size_t>(i)] = bench_baseline::SumF32(x.data() + b, e - b);
  };
  team.Run(body);
  double got = 0;
  for (float p : part) got += p;
  if (!Close(got, Reference(x), n)) sb::EmitError("reduce.loop.f32", "wrong sum " + std::to_string(got));
  const int passes = 4;
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    for (int k = 0; k < passes; ++k) team.Run(body);
    gbs.push_back(static_cast<double>(n * sizeof(float)) * passes / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit("reduce.loop.f32", "GB/s",
           "plain C++ sum loop (s += x[i]), " + sb::SizeName(n * sizeof(float)) + " of floats split over " +
               std::to_string(threads) + " threads; input bytes counted",
           gbs, sb::Info().Add("array_bytes", static_cast<uint64_t>(n * sizeof(float))).Add("threads", threads));
}

void Kernel(const std::vector<float>& x, uint32_t blocks, int reps) {
  const size_t n = x.size();
  const size_t bytes = n * sizeof(float);
  const uint32_t tile = 8192;
  aclrtStream stream = nullptr;
  VCHECK(aclInit(nullptr));
  VCHECK(aclrtSetDevice(0));
  VCHECK(aclrtCreateStream(&stream));
  void *dx = nullptr, *dp = nullptr;
  VCHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  VCHECK(aclrtMalloc(&dp, blocks * 32u, ACL_MEM_MALLOC_HUGE_FIRST));
  VCHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  auto launch = [&] { VCHECK(ACLRT_LAUNCH_KERNEL(reduce_sum_float)(blocks, stream, dx, dp, n, tile)); };
  launch();
  VCHECK(aclrtSynchronizeStream(stream));
  std::vector<float> part(blocks * 8u);
  VCHECK(aclrtMemcpy(part.data(), part.size() * 4, dp, part.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  double got = 0;
  for (uint32_t b = 0; b < blocks; ++b) got += part[b * 8u];
  if (!Close(got, Reference(x), n)) sb::EmitError("reduce.kernel.f32", "wrong sum " + std::to_string(got));
  const int passes = 4;
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    for (int k = 0; k < passes; ++k) launch();
    VCHECK(aclrtSynchronizeStream(stream));
    gbs.push_back(static_cast<double>(bytes) * passes / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit("reduce.kernel.f32", "GB/s",
           "Ascend C ReduceSum (float), " + std::to_string(blocks) + " blocks, tiles of " + std::to_string(tile) +
               " floats through a double-buffered queue, " + sb::SizeName(bytes) +
               " in aclrtMalloc memory; launch + synchronize; input bytes counted",
           gbs, sb::Info().Add("array_bytes", static_cast<uint64_t>(bytes)).Add("blocks", static_cast<uint64_t>(blocks)));
  aclrtFree(dx);
  aclrtFree(dp);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "reduce") {
    std::fprintf(stderr, "usage: %s reduce [--size 16M] [--reps 7] [--blocks 16] [--only kernel|loop]\n", argv[0]);
    return 2;
  }
  sb::Args args(argc, argv, 2);
  const size_t bytes = args.Size("size", 16 * sb::kMiB);
  const int reps = static_cast<int>(args.Int("reps", 7));
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 16));
  const std::string only = args.Get("only", "");
  std::vector<float> x(bytes / sizeof(float));
  Fill(x);
  if (only.empty() || only == "loop") Baseline(x, reps);
  if (only.empty() || only == "kernel") Kernel(x, blocks, reps);
  return 0;
}
