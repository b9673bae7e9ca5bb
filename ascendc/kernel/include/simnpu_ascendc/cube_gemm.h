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
// The full 6 x 16 tile keeps its twelve accumulators in registers (named,
// so the compiler does not spill an array); partial tiles go through a
// padded copy.
#define SIMNPU_CUBE_MICRO_BODY                                                                   \
  float pad[kMr * 16];                                                                           \
  float* cc = c;                                                                                 \
  const bool full = rows == kMr && cols == 16;                                                   \
  if (!full) {                                                                                   \
    std::memset(pad, 0, sizeof pad);                                                             \
    for (int r = 0; r < rows; ++r) std::memcpy(pad + r * 16, c + r * 16, 64);                    \
    cc = pad;                                                                                    \
  }                                                                                              \
  V8f c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;                                \
  std::memcpy(&c00, cc + 0, 32);                                                                 \
  std::memcpy(&c01, cc + 8, 32);                                                                 \
  std::memcpy(&c10, cc + 16, 32);                                                                \
  std::memcpy(&c11, cc + 24, 32);                                                                \
  std::memcpy(&c20, cc + 32, 32);                                                                \
  std::memcpy(&c21, cc + 40, 32);                                                                \
  std::memcpy(&c30, cc + 48, 32);                                                                \
  std::memcpy(&c31, cc + 56, 32);                                                                \
  std::memcpy(&c40, cc + 64, 32);                                                                \
  std::memcpy(&c41, cc + 72, 32);                                                                \
  std::memcpy(&c50, cc + 80, 32);                                                                \
  std::memcpy(&c51, cc + 88, 32);                                                                \
  for (int kk = 0; kk < k; ++kk) {                                                               \
    V8f b0, b1;                                                                                  \
    std::memcpy(&b0, bp + kk * 16, 32);                                                          \
    std::memcpy(&b1, bp + kk * 16 + 8, 32);                                                      \
    const float* a = ap + kk * kMr;                                                              \
    V8f av = V8f{} + a[0];                                                                       \
    c00 = c00 + av * b0;                                                                         \
    c01 = c01 + av * b1;                                                                         \
    av = V8f{} + a[1];                                                                           \
    c10 = c10 + av * b0;                                                                         \
    c11 = c11 + av * b1;                                                                         \
    av = V8f{} + a[2];                                                                           \
    c20 = c20 + av * b0;                                                                         \
    c21 = c21 + av * b1;                                                                         \
    av = V8f{} + a[3];                                                                           \
    c30 = c30 + av * b0;                                                                         \
    c31 = c31 + av * b1;                                                                         \
    av = V8f{} + a[4];                                                                           \
    c40 = c40 + av * b0;                                                                         \
    c41 = c41 + av * b1;                                                                         \
    av = V8f{} + a[5];                                                                           \
    c50 = c50 + av * b0;                                                                         \
    c51 = c51 + av * b1;                                                                         \
  }                                                                                              \
  std::memcpy(cc + 0, &c00, 32);                                                                 \
  std::memcpy(cc + 8, &c01, 32);                                                                 \
  std::memcpy(cc + 16, &c10, 32);                                                                \
  std::memcpy(cc + 24, &c11, 32);                                                                \
  std::memcpy(cc + 32, &c20, 32);                                                                \
  std::memcpy(cc + 40, &c21, 32);                                                                \
  std::memcpy(cc + 48, &c30, 32);                                                                \
  std::memcpy(cc + 56, &c31, 32);                                                                \
  std::memcpy(cc + 64, &c40, 32);                                                                \
  std::memcpy(cc + 72, &c41, 32);                                                                \
  std::memcpy(cc + 80, &c50, 32);                                                                \
  std::memcpy(cc + 88, &c51, 32);                                                                \
  if (!full) {                                                                                   \
    for (int r = 0; r < rows; ++r) {                                                             \
      for (int j = 0; j < cols; ++j) c[r * 16 + j] = pad[r * 16 + j];                           \
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
