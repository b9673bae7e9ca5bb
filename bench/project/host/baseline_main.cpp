// bench_baseline: the plain C++ vector add over the same arrays the Ascend C
// kernel processes (64 MiB each), on as many threads as the simulated
// device runs blocks on (SIMNPU_AICORE_THREADS, else every CPU). Does not use
// the runtime. The loops are in baseline_loops.cpp, compiled with the
// kernels' options.
//
// Usage: bench_baseline [--size 64M] [--reps 7]
#include <cstdint>

#include "baseline_loops.h"
#include "bench_common.h"
#include "patterns.h"

namespace sb = simnpu_bench;
namespace bp = bench_patterns;

namespace {

using sb::DeviceThreads;

template <typename T, typename Fn>
void Run(const char* id, const char* what, size_t bytes, int reps, int passes, Fn fn) {
  sb::HugeBuffer x(bytes), y(bytes), z(bytes);
  bp::Chunks<T> c;
  bp::Fill(x.data(), c.x, bytes);
  bp::Fill(y.data(), c.y, bytes);
  const size_t n = bytes / sizeof(T);
  const int threads = DeviceThreads();
  sb::Team team(threads);
  std::function<void(int, int)> body = [&](int i, int nt) {
    size_t b, e;
    sb::Split(n, i, nt, 1024, &b, &e);
    fn(reinterpret_cast<const T*>(x.data()) + b, reinterpret_cast<const T*>(y.data()) + b,
       reinterpret_cast<T*>(z.data()) + b, e - b);
  };
  team.Run(body);  // warm-up
  size_t bad = bp::Mismatch(z.data(), c.z, bytes);
  if (bad != SIZE_MAX) {
    sb::EmitError(id, "wrong result at byte " + std::to_string(bad));
    return;
  }
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    uint64_t t0 = sb::NowNs();
    for (int p = 0; p < passes; ++p) team.Run(body);
    gbs.push_back(3.0 * static_cast<double>(bytes) * passes / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit(id, "GB/s", what, gbs,
           sb::Info()
               .Add("array_bytes", static_cast<uint64_t>(bytes))
               .Add("threads", threads)
               .Add("bytes_counted", "3 arrays (2 reads + 1 write)"));
}

}  // namespace

int main(int argc, char** argv) {
  sb::Args args(argc, argv, 1);
  const size_t bytes = args.Size("size", 64 * sb::kMiB);
  const int reps = static_cast<int>(args.Int("reps", 7));
  Run<float>("vadd.loop.f32", "plain C++ loop z[i] = x[i] + y[i], float, same threads and flags as the kernels",
             bytes, reps, 4, [](const float* x, const float* y, float* z, size_t n) {
               bench_baseline::AddF32(x, y, z, n);
             });
  Run<uint16_t>("vadd.loop.f16", "plain C++ _Float16 loop z[i] = x[i] + y[i], same threads and flags as the kernels",
                bytes, std::min(reps, 3), 1, [](const uint16_t* x, const uint16_t* y, uint16_t* z, size_t n) {
                  bench_baseline::AddF16Plain(reinterpret_cast<const _Float16*>(x),
                                              reinterpret_cast<const _Float16*>(y), reinterpret_cast<_Float16*>(z), n);
                });
  if (bench_baseline::HaveF16C()) {
    Run<uint16_t>("vadd.f16c.f16", "hand-vectorised F16C loop (8 halves per step, add in float, round once)", bytes,
                  reps, 4, [](const uint16_t* x, const uint16_t* y, uint16_t* z, size_t n) {
                    bench_baseline::AddF16F16C(x, y, z, n);
                  });
  } else {
    sb::EmitError("vadd.f16c.f16", "this CPU has no F16C");
  }
  return 0;
}
