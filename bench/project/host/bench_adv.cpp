// bench_adv: the advanced-API benchmarks of issue 14c, each a kernel held
// against a plain C++ loop of the same math over the same data, on as many
// threads as the simulated device runs blocks on.
//
//   softmax    SoftMax over 16 MiB of floats in rows of 1024: the kernel
//              (softmax_rows_float, tiles of 8 rows through UB) and the
//              plain loop (bench_baseline::SoftmaxRows per thread share)
//   layernorm  LayerNorm over the same rows (gamma, beta, eps 1e-5), mean
//              and variance per row: layernorm_float against LayerNormRows
// Figures in GB/s of input read.
//
// Usage: bench_adv softmax|layernorm [--size 16M] [--reps 5] [--blocks 16] [--only kernel|loop]
#include <acl/acl.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "aclrtlaunch_layernorm_float.h"
#include "aclrtlaunch_softmax_rows_float.h"
#include "baseline_adv.h"
#include "bench_common.h"

namespace sb = simnpu_bench;

namespace {

#define ACHECK(expr)                                                                                  \
  do {                                                                                                \
    long e_ = static_cast<long>(expr);                                                                \
    if (e_ != 0) {                                                                                    \
      std::fprintf(stderr, "bench_adv: %s failed with %ld at line %d\n", #expr, e_, __LINE__);        \
      std::printf("{\"id\": \"adv\", \"error\": \"%s failed with %ld\"}\n", #expr, e_);                \
      std::exit(3);                                                                                   \
    }                                                                                                 \
  } while (0)

constexpr uint32_t kCols = 1024;
constexpr uint32_t kTileRows = 8;

using sb::DeviceThreads;

void Fill(std::vector<float>& v, uint32_t seed) {
  uint32_t s = seed;
  for (float& f : v) {
    s = s * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int32_t>(s >> 8) % 2001 - 1000) * 0.004f;
  }
}

struct Data {
  std::vector<float> x, gamma, beta, y, mean, var;
  size_t rows = 0;
};

// The kernel's and the loop's results must agree closely (same math, same order).
bool Agree(const std::vector<float>& a, const std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(std::fabs(a[i] - b[i]) <= 1e-5f * std::max(1.0f, std::fabs(b[i])))) return false;
  }
  return true;
}

void Loop(const std::string& what, Data& d, int reps) {
  const int threads = DeviceThreads();
  sb::Team team(threads);
  std::function<void(int, int)> body = [&](int i, int nt) {
    size_t b, e;
    sb::Split(d.rows, i, nt, 1, &b, &e);
    if (what == "softmax") {
      bench_baseline::SoftmaxRows(d.x.data() + b * kCols, d.y.data() + b * kCols, e - b, kCols);
    } else {
      bench_baseline::LayerNormRows(d.x.data() + b * kCols, d.gamma.data(), d.beta.data(), d.y.data() + b * kCols,
                                    d.mean.data() + b, d.var.data() + b, e - b, kCols, 1e-5f);
    }
  };
  team.Run(body);
  std::vector<double> gbs;
  const double bytes = static_cast<double>(d.x.size() * sizeof(float));
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    team.Run(body);
    gbs.push_back(bytes / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit(what + ".loop.f32", "GB/s",
           "plain C++ " + what + " loop over rows of " + std::to_string(kCols) + " floats, " +
               sb::SizeName(d.x.size() * sizeof(float)) + " split over " + std::to_string(threads) +
               " threads; input bytes counted",
           gbs, sb::Info().Add("array_bytes", static_cast<uint64_t>(d.x.size() * 4)).Add("threads", threads));
}

void Kernel(const std::string& what, Data& d, uint32_t blocks, int reps) {
  const size_t bytes = d.x.size() * sizeof(float);
  aclrtStream stream = nullptr;
  ACHECK(aclInit(nullptr));
  ACHECK(aclrtSetDevice(0));
  ACHECK(aclrtCreateStream(&stream));
  void *dx = nullptr, *dy = nullptr, *dg = nullptr, *db = nullptr, *dm = nullptr, *dv = nullptr;
  ACHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMalloc(&dg, kCols * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMalloc(&db, kCols * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMalloc(&dm, d.rows * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMalloc(&dv, d.rows * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  ACHECK(aclrtMemcpy(dx, bytes, d.x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACHECK(aclrtMemcpy(dg, kCols * 4, d.gamma.data(), kCols * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  ACHECK(aclrtMemcpy(db, kCols * 4, d.beta.data(), kCols * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  auto launch = [&] {
    if (what == "softmax") {
      ACHECK(ACLRT_LAUNCH_KERNEL(softmax_rows_float)(blocks, stream, dx, dy, static_cast<uint64_t>(d.rows), kCols,
                                                     kTileRows));
    } else {
      ACHECK(ACLRT_LAUNCH_KERNEL(layernorm_float)(blocks, stream, dx, dg, db, dy, dm, dv,
                                                  static_cast<uint64_t>(d.rows), kCols, kTileRows));
    }
  };
  launch();
  ACHECK(aclrtSynchronizeStream(stream));
  std::vector<float> got(d.x.size());
  ACHECK(aclrtMemcpy(got.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  // the reference: the plain loop on this thread
  Data ref = d;
  if (what == "softmax") {
    bench_baseline::SoftmaxRows(ref.x.data(), ref.y.data(), ref.rows, kCols);
  } else {
    bench_baseline::LayerNormRows(ref.x.data(), ref.gamma.data(), ref.beta.data(), ref.y.data(), ref.mean.data(),
                                  ref.var.data(), ref.rows, kCols, 1e-5f);
  }
  if (!Agree(got, ref.y)) sb::EmitError(what + ".kernel.f32", "the kernel's result differs from the plain loop's");
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    launch();
    ACHECK(aclrtSynchronizeStream(stream));
    gbs.push_back(static_cast<double>(bytes) / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit(what + ".kernel.f32", "GB/s",
           "Ascend C " + std::string(what == "softmax" ? "SoftMax" : "LayerNorm") + " (float), " +
               std::to_string(blocks) + " blocks, tiles of " + std::to_string(kTileRows) + " rows of " +
               std::to_string(kCols) + " through double-buffered queues, " + sb::SizeName(bytes) +
               " in aclrtMalloc memory; launch + synchronize; input bytes counted",
           gbs, sb::Info().Add("array_bytes", static_cast<uint64_t>(bytes)).Add("blocks", static_cast<uint64_t>(blocks)));
  aclrtFree(dx);
  aclrtFree(dy);
  aclrtFree(dg);
  aclrtFree(db);
  aclrtFree(dm);
  aclrtFree(dv);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc >= 2 ? argv[1] : "";
  if (what != "softmax" && what != "layernorm") {
    std::fprintf(stderr, "usage: %s softmax|layernorm [--size 16M] [--reps 5] [--blocks 16] [--only kernel|loop]\n",
                 argv[0]);
    return 2;
  }
  sb::Args args(argc, argv, 2);
  const size_t bytes = args.Size("size", 16 * sb::kMiB);
  const int reps = static_cast<int>(args.Int("reps", 5));
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 16));
  const std::string only = args.Get("only", "");
  Data d;
  d.rows = bytes / sizeof(float) / kCols;
  d.x.resize(d.rows * kCols);
  d.y.resize(d.x.size());
  d.gamma.resize(kCols);
  d.beta.resize(kCols);
  d.mean.resize(d.rows);
  d.var.resize(d.rows);
  Fill(d.x, 4242);
  Fill(d.gamma, 7);
  Fill(d.beta, 9);
  if (only.empty() || only == "loop") Loop(what, d, reps);
  if (only.empty() || only == "kernel") Kernel(what, d, blocks, reps);
  return 0;
}
