// simnpu Ascend C model: the inner kernel of the cube unit's Mmad.
//
// C[i][j] = init[i][j] + sum over kk ascending of A[i][kk] * B[kk][j], the
// product rounded to fp32, then the sum (no fused multiply-add). The operands
// are packed into fp32 panels first (half and bfloat16_t products are exact
// in fp32; float inputs are used as they are, or rounded to HF32 in the
// HF32 mode). Every blocking over i and j gives the same bits: the result
// depends only on the order over kk, which is always ascending.
// The kernel is blocked 6 x 16 (twelve 8-float accumulators) and built
// twice, for AVX2+FMA (chosen at run time when the CPU has it) and for the
// baseline instruction set. Integer products (int8, int4) accumulate in
// int32 with wrap-around, which is order-free.
//
// C is in L0C's NZ layout: element (i, j) at (j / 16) * ldc16 + i * 16 + j % 16
// (ldc16 = 16 x the aligned row count), so a 16-wide column strip of one row
// is 16 contiguous floats. Scratch panels are per thread.
#ifndef SIMNPU_ASCENDC_CUBE_GEMM_H_
#define SIMNPU_ASCENDC_CUBE_GEMM_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <initializer_list>
#include <vector>

namespace simnpu {
namespace ascendc {
namespace detail {
namespace cube {

constexpr int kMr = 6;   // rows per micro tile
constexpr int kNr = 16;  // columns per micro tile (one NZ fractal column)

typedef float V8f __attribute__((vector_size(32)));

// Ap: k x kMr floats per row panel (kk-major); Bp: k x 16 floats per column
// strip (kk-major). c points at C(i0, j0) in NZ (rows 16 floats apart).
// rows <= kMr, cols <= 16 valid.
#define SIMNPU_CUBE_MICRO_BODY                                                                   \
  V8f acc[kMr][2];                                                                               \
  for (int r = 0; r < kMr; ++r) {                                                                \
    if (r < rows) {                                                                              \
      std::memcpy(&acc[r][0], c + r * 16, 32);                                                   \
      std::memcpy(&acc[r][1], c + r * 16 + 8, 32);                                               \
    } else {                                                                                     \
      acc[r][0] = V8f{};                                                                         \
      acc[r][1] = V8f{};                                                                         \
    }                                                                                            \
  }                                                                                              \
  for (int kk = 0; kk < k; ++kk) {                                                               \
    V8f b0, b1;                                                                                  \
    std::memcpy(&b0, bp + kk * 16, 32);                                                          \
    std::memcpy(&b1, bp + kk * 16 + 8, 32);                                                      \
    const float* a = ap + kk * kMr;                                                              \
    for (int r = 0; r < kMr; ++r) {                                                              \
      const V8f av = V8f{} + a[r];                                                               \
      acc[r][0] = acc[r][0] + av * b0;                                                           \
      acc[r][1] = acc[r][1] + av * b1;                                                           \
    }                                                                                            \
  }                                                                                              \
  for (int r = 0; r < rows; ++r) {                                                               \
    if (cols == 16) {                                                                            \
      std::memcpy(c + r * 16, &acc[r][0], 32);                                                   \
      std::memcpy(c + r * 16 + 8, &acc[r][1], 32);                                               \
    } else {                                                                                     \
      float tmp[16];                                                                             \
      std::memcpy(tmp, &acc[r][0], 32);                                                          \
      std::memcpy(tmp + 8, &acc[r][1], 32);                                                      \
      for (int j = 0; j < cols; ++j) c[r * 16 + j] = tmp[j];                                     \
    }                                                                                            \
  }

// products and sums round separately (no contraction into a fused
// multiply-add), so both builds give the same bits for float inputs too
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#if SIMNPU_ASCENDC_X86
__attribute__((target("avx2,fma"))) inline void MicroAvx2(const float* ap, const float* bp, float* c, int k, int rows,
                                                          int cols) {
  SIMNPU_CUBE_MICRO_BODY
}
#endif
inline void MicroBase(const float* ap, const float* bp, float* c, int k, int rows, int cols) {
  SIMNPU_CUBE_MICRO_BODY
}
#pragma GCC pop_options
#undef SIMNPU_CUBE_MICRO_BODY

inline bool UseAvx2() {
#if SIMNPU_ASCENDC_X86
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

struct Scratch {
  std::vector<float> a, b;
};
SIMNPU_ASCENDC_HIDDEN inline Scratch& ThreadScratch() {
  static thread_local Scratch s;
  return s;
}

// fp32 GEMM on packed panels. geta(i, kk) / getb(kk, j) read the operands
// (already as float); c is L0C in NZ with ldc16 floats per fractal column.
template <typename GetA, typename GetB>
inline void GemmF32(int m, int n, int k, GetA geta, GetB getb, float* c, size_t ldc16) {
  Scratch& s = ThreadScratch();
  const int mp = (m + kMr - 1) / kMr;
  const int np = (n + kNr - 1) / kNr;
  s.a.assign(static_cast<size_t>(mp) * kMr * k, 0.0f);
  s.b.assign(static_cast<size_t>(np) * kNr * k, 0.0f);
  for (int p = 0; p < mp; ++p) {
    float* dst = s.a.data() + static_cast<size_t>(p) * kMr * k;
    for (int r = 0; r < kMr; ++r) {
      const int i = p * kMr + r;
      if (i >= m) break;
      for (int kk = 0; kk < k; ++kk) dst[kk * kMr + r] = geta(i, kk);
    }
  }
  for (int q = 0; q < np; ++q) {
    float* dst = s.b.data() + static_cast<size_t>(q) * kNr * k;
    for (int kk = 0; kk < k; ++kk) {
      for (int jj = 0; jj < kNr; ++jj) {
        const int j = q * kNr + jj;
        if (j < n) dst[kk * kNr + jj] = getb(kk, j);
      }
    }
  }
  const bool avx = UseAvx2();
  for (int q = 0; q < np; ++q) {
    const float* bp = s.b.data() + static_cast<size_t>(q) * kNr * k;
    const int cols = n - q * kNr < kNr ? n - q * kNr : kNr;
    float* cstrip = c + static_cast<size_t>(q) * ldc16;
    for (int p = 0; p < mp; ++p) {
      const float* ap = s.a.data() + static_cast<size_t>(p) * kMr * k;
      const int rows = m - p * kMr < kMr ? m - p * kMr : kMr;
      float* ct = cstrip + static_cast<size_t>(p) * kMr * 16;
#if SIMNPU_ASCENDC_X86
      if (avx) {
        MicroAvx2(ap, bp, ct, k, rows, cols);
        continue;
      }
#endif
      (void)avx;
      MicroBase(ap, bp, ct, k, rows, cols);
    }
  }
}

// int32 GEMM (wrap-around), same C layout.
template <typename GetA, typename GetB>
inline void GemmI32(int m, int n, int k, GetA geta, GetB getb, int32_t* c, size_t ldc16) {
  Scratch& s = ThreadScratch();
  std::vector<int32_t> bt(static_cast<size_t>(k) * n);
  for (int kk = 0; kk < k; ++kk) {
    for (int j = 0; j < n; ++j) bt[static_cast<size_t>(kk) * n + j] = getb(kk, j);
  }
  (void)s;
  std::vector<uint32_t> row(n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) row[j] = static_cast<uint32_t>(c[(j / 16) * ldc16 + static_cast<size_t>(i) * 16 + j % 16]);
    for (int kk = 0; kk < k; ++kk) {
      const uint32_t a = static_cast<uint32_t>(geta(i, kk));
      const int32_t* b = bt.data() + static_cast<size_t>(kk) * n;
      for (int j = 0; j < n; ++j) row[j] += a * static_cast<uint32_t>(b[j]);
    }
    for (int j = 0; j < n; ++j) c[(j / 16) * ldc16 + static_cast<size_t>(i) * 16 + j % 16] = static_cast<int32_t>(row[j]);
  }
}

}  // namespace cube
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_CUBE_GEMM_H_
