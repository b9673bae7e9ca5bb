// bench_cube: the cube benchmark of issue 15. A 1024 x 1024 x 1024 matmul
// with half inputs and float results through the Matmul API kernel, held
// against the BLAS sgemm Debian installs (libblas3, the reference BLAS
// unless an optimised one is selected with update-alternatives) on the same
// data as float, split into row panels over as many threads as the device
// runs blocks on. GFLOP/s = 2 M N K / time. The kernel's result is checked
// against the sgemm result (the bound of K float32 additions).
//
// Usage: bench_cube matmul [--size 1024] [--reps 5] [--blocks 16] [--only kernel|sgemm]
#include <acl/acl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "aclrtlaunch_matmul_half_float.h"
#include "bench_common.h"
#include "tiling/tiling_api.h"

extern "C" void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

namespace sb = simnpu_bench;

namespace {

#define CCHECK(expr)                                                                              \
  do {                                                                                            \
    long e_ = static_cast<long>(expr);                                                            \
    if (e_ != 0) {                                                                                \
      std::fprintf(stderr, "bench_cube: %s failed with %ld at line %d\n", #expr, e_, __LINE__);   \
      std::printf("{\"id\": \"cube\", \"error\": \"%s failed with %ld\"}\n", #expr, e_);          \
      std::exit(3);                                                                               \
    }                                                                                             \
  } while (0)

using sb::DeviceThreads;

uint16_t ToHalf(float f) {  // exact for the values Fill makes (multiples of 1/256 in [-1, 1])
  if (f == 0.0f) return 0;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  const uint32_t sign = (u >> 16) & 0x8000u;
  const int exp = static_cast<int>((u >> 23) & 0xff) - 127 + 15;
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exp) << 10) | ((u >> 13) & 0x3ffu));
}

void Fill(std::vector<float>& v, uint32_t seed) {
  for (float& f : v) {
    seed = seed * 1664525u + 1013904223u;
    f = static_cast<float>(static_cast<int32_t>(seed >> 8) % 257 - 128) / 128.0f;
  }
}

// Row-major C = A B through column-major sgemm: C^T = B^T A^T.
void Sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
  const float one = 1.0f, zero = 0.0f;
  sgemm_("N", "N", &n, &m, &k, &one, b, &n, a, &k, &zero, c, &n);
}

void Baseline(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int s, int reps) {
  const int threads = DeviceThreads();
  sb::Team team(threads);
  std::function<void(int, int)> body = [&](int i, int nt) {
    size_t r0, r1;
    sb::Split(static_cast<size_t>(s), i, nt, 16, &r0, &r1);
    if (r1 > r0) Sgemm(a.data() + r0 * s, b.data(), c.data() + r0 * s, static_cast<int>(r1 - r0), s, s);
  };
  team.Run(body);
  std::vector<double> gf;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    team.Run(body);
    gf.push_back(2.0 * s * s * s / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit("matmul.sgemm.f32", "GFLOP/s",
           "BLAS sgemm (libblas3 as installed), " + std::to_string(s) + "^3 float, row panels over " +
               std::to_string(threads) + " threads",
           gf, sb::Info().Add("size", static_cast<uint64_t>(s)).Add("threads", threads));
}

void Kernel(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& ref, int s,
            uint32_t blocks, int reps) {
  const size_t n = static_cast<size_t>(s) * s;
  std::vector<uint16_t> ah(n), bh(n);
  for (size_t i = 0; i < n; ++i) {
    ah[i] = ToHalf(a[i]);
    bh[i] = ToHalf(b[i]);
  }
  matmul_tiling::MultiCoreMatmulTiling tiling;
  tiling.SetDim(static_cast<int32_t>(blocks));
  tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  tiling.SetShape(s, s, s);
  tiling.SetOrgShape(s, s, s);
  TCubeTiling t;
  CCHECK(tiling.GetTiling(t));
  aclrtStream stream = nullptr;
  CCHECK(aclInit(nullptr));
  CCHECK(aclrtSetDevice(0));
  CCHECK(aclrtCreateStream(&stream));
  void *da = nullptr, *db = nullptr, *dc = nullptr, *dt = nullptr;
  CCHECK(aclrtMalloc(&da, n * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CCHECK(aclrtMalloc(&db, n * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CCHECK(aclrtMalloc(&dc, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CCHECK(aclrtMalloc(&dt, sizeof t, ACL_MEM_MALLOC_HUGE_FIRST));
  CCHECK(aclrtMemcpy(da, n * 2, ah.data(), n * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CCHECK(aclrtMemcpy(db, n * 2, bh.data(), n * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CCHECK(aclrtMemcpy(dt, sizeof t, &t, sizeof t, ACL_MEMCPY_HOST_TO_DEVICE));
  auto launch = [&] {
    CCHECK(ACLRT_LAUNCH_KERNEL(matmul_half_float)(static_cast<uint32_t>(t.usedCoreNum), stream, da, db, dc, dt));
  };
  launch();
  CCHECK(aclrtSynchronizeStream(stream));
  std::vector<float> c(n);
  CCHECK(aclrtMemcpy(c.data(), n * 4, dc, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  double worst = 0;
  for (size_t i = 0; i < n; ++i) worst = std::max(worst, static_cast<double>(std::fabs(c[i] - ref[i])));
  // |A|, |B| <= 1: K float32 additions of terms <= 1 differ by at most ~2 K^2 eps
  if (worst > 2.0 * s * s * 1.2e-7) sb::EmitError("matmul.kernel.f16f32", "wrong result, max error " + std::to_string(worst));
  std::vector<double> gf;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = sb::NowNs();
    launch();
    CCHECK(aclrtSynchronizeStream(stream));
    gf.push_back(2.0 * s * s * s / static_cast<double>(sb::NowNs() - t0));
  }
  sb::Emit("matmul.kernel.f16f32", "GFLOP/s",
           "Ascend C Matmul API (CFG_NORM), half x half -> float, " + std::to_string(s) + "^3, " +
               std::to_string(t.usedCoreNum) + " blocks of " + std::to_string(t.singleCoreM) + " x " +
               std::to_string(t.singleCoreN) + ", base " + std::to_string(t.baseM) + " x " + std::to_string(t.baseN) +
               "; launch + synchronize",
           gf,
           sb::Info().Add("size", static_cast<uint64_t>(s)).Add("blocks", static_cast<uint64_t>(t.usedCoreNum)).Add("max_abs_err_vs_sgemm", worst));
  for (void* p : {da, db, dc, dt}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "matmul") {
    std::fprintf(stderr, "usage: %s matmul [--size 1024] [--reps 5] [--blocks 16] [--only kernel|sgemm]\n", argv[0]);
    return 2;
  }
  sb::Args args(argc, argv, 2);
  const int s = static_cast<int>(args.Int("size", 1024));
  const int reps = static_cast<int>(args.Int("reps", 5));
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 16));
  const std::string only = args.Get("only", "");
  std::vector<float> a(static_cast<size_t>(s) * s), b(a.size()), ref(a.size());
  Fill(a, 1);
  Fill(b, 2);
  if (only.empty() || only == "sgemm") Baseline(a, b, ref, s, reps);
  if (only.empty() || only == "kernel") {
    if (only == "kernel") Sgemm(a.data(), b.data(), ref.data(), s, s, s);
    Kernel(a, b, ref, s, blocks, reps);
  }
  return 0;
}
