// simnpu Ascend C model: element-wise loops behind the vector APIs.
// float/int loops use GCC vector extensions (SSE2 on baseline x86-64, no
// -march needed). half loops convert with F16C 8 lanes at a time and compute
// in AVX float, selected at run time; a portable scalar path gives the same
// bits (each result is computed in float and rounded once to nearest even).
#ifndef SIMNPU_ASCENDC_SIMD_H_
#define SIMNPU_ASCENDC_SIMD_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#if SIMNPU_ASCENDC_X86
#include <immintrin.h>
#define SIMNPU_ASCENDC_TARGET_F16C __attribute__((target("avx2,f16c")))
#define SIMNPU_ASCENDC_TARGET_F16C_INLINE __attribute__((target("avx2,f16c"), always_inline)) inline
#endif

namespace simnpu {
namespace ascendc {
namespace simd {

enum BinOp : int { kAdd = 0, kSub, kMul, kDiv, kMax, kMin };
enum UnOp : int { kAbs = 0, kRelu, kSqrt, kExp, kLn, kRsqrt, kRec };

// ---- run-time selection of the F16C/AVX2 path.
// Tests may set force_portable to compare both paths.
SIMNPU_ASCENDC_HIDDEN inline bool force_portable = false;

SIMNPU_ASCENDC_HIDDEN inline bool HardwareHasF16c() {
#if SIMNPU_ASCENDC_X86
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
  }();
  return has;
#else
  return false;
#endif
}

inline bool UseF16c() { return !force_portable && HardwareHasF16c(); }

// ---- scalar definitions (the reference for every path).
template <typename T>
struct Wide {
  using type = T;
};
template <>
struct Wide<int16_t> {
  using type = int32_t;
};
template <>
struct Wide<int32_t> {
  using type = int64_t;
};

template <int Op, typename T>
inline T ScalarBin(T a, T b) {
  if constexpr (Op == kMax) {
    return a > b ? a : b;
  } else if constexpr (Op == kMin) {
    return a < b ? a : b;
  } else if constexpr (std::is_integral<T>::value) {
    // integer arithmetic wraps like the vector unit
    using U = typename std::make_unsigned<T>::type;
    const U x = static_cast<U>(a);
    const U y = static_cast<U>(b);
    if constexpr (Op == kAdd) return static_cast<T>(static_cast<U>(x + y));
    if constexpr (Op == kSub) return static_cast<T>(static_cast<U>(x - y));
    using M = typename std::conditional<(sizeof(T) < 4), uint32_t, U>::type;  // no int promotion overflow
    if constexpr (Op == kMul) return static_cast<T>(static_cast<U>(static_cast<M>(x) * static_cast<M>(y)));
    if constexpr (Op == kDiv) return b == 0 ? T(0) : static_cast<T>(static_cast<typename Wide<T>::type>(a) / b);
  } else {
    if constexpr (Op == kAdd) return a + b;
    if constexpr (Op == kSub) return a - b;
    if constexpr (Op == kMul) return a * b;
    if constexpr (Op == kDiv) return a / b;
  }
}

template <int Op>
inline float ScalarUn(float x) {
  if constexpr (Op == kAbs) return fp::BitsFloat(fp::FloatBits(x) & 0x7fffffffu);
  if constexpr (Op == kRelu) return x > 0.0f ? x : 0.0f;
  if constexpr (Op == kSqrt) return std::sqrt(x);
  if constexpr (Op == kExp) return std::exp(x);
  if constexpr (Op == kLn) return std::log(x);
  if constexpr (Op == kRsqrt) return 1.0f / std::sqrt(x);
  if constexpr (Op == kRec) return 1.0f / x;
}

// ---- portable vector-extension loops for float / int32 / int16.
// 16-byte vectors: native on baseline x86-64 (SSE2) and on AArch64 (NEON);
// a 32-byte by-value vector would change the ABI without AVX (-Wpsabi).
template <typename T>
struct Vec16 {
  typedef T type __attribute__((vector_size(16)));
};

template <int Op, typename V>
inline V VecBin(V a, V b) {
  if constexpr (Op == kAdd) return a + b;
  if constexpr (Op == kSub) return a - b;
  if constexpr (Op == kMul) return a * b;
  if constexpr (Op == kDiv) return a / b;
  if constexpr (Op == kMax) return a > b ? a : b;
  if constexpr (Op == kMin) return a < b ? a : b;
}

template <int Op, typename T>
inline void BinaryLoop(T* d, const T* a, const T* b, size_t n) {
  using V = typename Vec16<T>::type;
  constexpr size_t kL = 16 / sizeof(T);
  size_t i = 0;
  if constexpr (!(std::is_integral<T>::value && Op == kDiv)) {
    for (; i + 2 * kL <= n; i += 2 * kL) {
      V x0, y0, x1, y1;
      std::memcpy(&x0, a + i, 16);
      std::memcpy(&y0, b + i, 16);
      std::memcpy(&x1, a + i + kL, 16);
      std::memcpy(&y1, b + i + kL, 16);
      const V r0 = VecBin<Op>(x0, y0);
      const V r1 = VecBin<Op>(x1, y1);
      std::memcpy(d + i, &r0, 16);
      std::memcpy(d + i + kL, &r1, 16);
    }
  }
  for (; i < n; ++i) d[i] = ScalarBin<Op>(a[i], b[i]);
}

template <int Op, typename T>
inline void BinaryScalarLoop(T* d, const T* a, T s, size_t n) {
  using V = typename Vec16<T>::type;
  constexpr size_t kL = 16 / sizeof(T);
  size_t i = 0;
  if constexpr (!(std::is_integral<T>::value && Op == kDiv)) {
    V sv;
    for (size_t k = 0; k < kL; ++k) sv[k] = s;
    for (; i + kL <= n; i += kL) {
      V x;
      std::memcpy(&x, a + i, 16);
      const V r = VecBin<Op>(x, sv);
      std::memcpy(d + i, &r, 16);
    }
  }
  // tail as its own counted loop (keeps GCC's loop-bound analysis quiet at -O2)
  const size_t left = n - i;
  T* dt = d + i;
  const T* at = a + i;
  for (size_t k = 0; k < left; ++k) dt[k] = ScalarBin<Op>(at[k], s);
}

template <int Op>
inline void FloatUnaryLoop(float* d, const float* a, size_t n) {
  if constexpr (Op == kAbs || Op == kRelu || Op == kRec) {
    using V = typename Vec16<float>::type;
    using VI = typename Vec16<uint32_t>::type;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      V x;
      std::memcpy(&x, a + i, 16);
      V r;
      if constexpr (Op == kAbs) {
        VI bits;
        std::memcpy(&bits, &x, 16);
        bits &= 0x7fffffffu;
        std::memcpy(&r, &bits, 16);
      } else if constexpr (Op == kRelu) {
        const V z = {0, 0, 0, 0};
        r = x > z ? x : z;
      } else {
        const V one = {1, 1, 1, 1};
        r = one / x;
      }
      std::memcpy(d + i, &r, 16);
    }
    for (; i < n; ++i) d[i] = ScalarUn<Op>(a[i]);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = ScalarUn<Op>(a[i]);
  }
}

// ---- half: portable scalar paths.
template <int Op>
inline void HalfBinaryPortable(uint16_t* d, const uint16_t* a, const uint16_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    d[i] = fp::FloatToHalfRne(ScalarBin<Op>(fp::HalfToFloat(a[i]), fp::HalfToFloat(b[i])));
  }
}
template <int Op>
inline void HalfBinaryScalarPortable(uint16_t* d, const uint16_t* a, float s, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = fp::FloatToHalfRne(ScalarBin<Op>(fp::HalfToFloat(a[i]), s));
}
template <int Op>
inline void HalfUnaryPortable(uint16_t* d, const uint16_t* a, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = fp::FloatToHalfRne(ScalarUn<Op>(fp::HalfToFloat(a[i])));
}
inline void HalfLeakyReluPortable(uint16_t* d, const uint16_t* a, float alpha, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float x = fp::HalfToFloat(a[i]);
    d[i] = fp::FloatToHalfRne(x >= 0.0f ? x : x * alpha);
  }
}

#if SIMNPU_ASCENDC_X86
// ---- half: F16C + AVX2 paths.
template <int Op>
SIMNPU_ASCENDC_TARGET_F16C_INLINE __m256 AvxBin(__m256 a, __m256 b) {
  if constexpr (Op == kAdd) return _mm256_add_ps(a, b);
  if constexpr (Op == kSub) return _mm256_sub_ps(a, b);
  if constexpr (Op == kMul) return _mm256_mul_ps(a, b);
  if constexpr (Op == kDiv) return _mm256_div_ps(a, b);
  if constexpr (Op == kMax) return _mm256_max_ps(a, b);  // a > b ? a : b
  if constexpr (Op == kMin) return _mm256_min_ps(a, b);  // a < b ? a : b
}

SIMNPU_ASCENDC_TARGET_F16C_INLINE __m256 LoadH(const uint16_t* p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
SIMNPU_ASCENDC_TARGET_F16C_INLINE void StoreH(uint16_t* p, __m256 v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

template <int Op>
SIMNPU_ASCENDC_TARGET_F16C void HalfBinaryF16c(uint16_t* d, const uint16_t* a, const uint16_t* b, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256 r0 = AvxBin<Op>(LoadH(a + i), LoadH(b + i));
    const __m256 r1 = AvxBin<Op>(LoadH(a + i + 8), LoadH(b + i + 8));
    const __m256 r2 = AvxBin<Op>(LoadH(a + i + 16), LoadH(b + i + 16));
    const __m256 r3 = AvxBin<Op>(LoadH(a + i + 24), LoadH(b + i + 24));
    StoreH(d + i, r0);
    StoreH(d + i + 8, r1);
    StoreH(d + i + 16, r2);
    StoreH(d + i + 24, r3);
  }
  for (; i + 8 <= n; i += 8) StoreH(d + i, AvxBin<Op>(LoadH(a + i), LoadH(b + i)));
  HalfBinaryPortable<Op>(d + i, a + i, b + i, n - i);
}

template <int Op>
SIMNPU_ASCENDC_TARGET_F16C void HalfBinaryScalarF16c(uint16_t* d, const uint16_t* a, float s, size_t n) {
  const __m256 sv = _mm256_set1_ps(s);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256 r0 = AvxBin<Op>(LoadH(a + i), sv);
    const __m256 r1 = AvxBin<Op>(LoadH(a + i + 8), sv);
    StoreH(d + i, r0);
    StoreH(d + i + 8, r1);
  }
  for (; i + 8 <= n; i += 8) StoreH(d + i, AvxBin<Op>(LoadH(a + i), sv));
  HalfBinaryScalarPortable<Op>(d + i, a + i, s, n - i);
}

template <int Op>
SIMNPU_ASCENDC_TARGET_F16C void HalfUnaryF16c(uint16_t* d, const uint16_t* a, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = LoadH(a + i);
    __m256 r;
    if constexpr (Op == kAbs) {
      r = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    } else if constexpr (Op == kRelu) {
      r = _mm256_max_ps(x, _mm256_setzero_ps());
    } else if constexpr (Op == kSqrt) {
      r = _mm256_sqrt_ps(x);
    } else if constexpr (Op == kRsqrt) {
      r = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x));
    } else if constexpr (Op == kRec) {
      r = _mm256_div_ps(_mm256_set1_ps(1.0f), x);
    } else {
      alignas(32) float t[8];
      _mm256_store_ps(t, x);
      for (int k = 0; k < 8; ++k) t[k] = ScalarUn<Op>(t[k]);
      r = _mm256_load_ps(t);
    }
    StoreH(d + i, r);
  }
  HalfUnaryPortable<Op>(d + i, a + i, n - i);
}

SIMNPU_ASCENDC_TARGET_F16C inline void HalfToFloatF16c(float* d, const uint16_t* a, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(d + i, LoadH(a + i));
  for (; i < n; ++i) d[i] = fp::HalfToFloat(a[i]);
}
SIMNPU_ASCENDC_TARGET_F16C inline void FloatToHalfF16c(uint16_t* d, const float* a, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) StoreH(d + i, _mm256_loadu_ps(a + i));
  for (; i < n; ++i) d[i] = fp::FloatToHalfRne(a[i]);
}
#endif  // SIMNPU_ASCENDC_X86

// ---- dispatchers.
template <int Op>
inline void HalfBinary(uint16_t* d, const uint16_t* a, const uint16_t* b, size_t n) {
#if SIMNPU_ASCENDC_X86
  if (UseF16c()) {
    HalfBinaryF16c<Op>(d, a, b, n);
    return;
  }
#endif
  HalfBinaryPortable<Op>(d, a, b, n);
}

template <int Op>
inline void HalfBinaryScalar(uint16_t* d, const uint16_t* a, float s, size_t n) {
#if SIMNPU_ASCENDC_X86
  if (UseF16c()) {
    HalfBinaryScalarF16c<Op>(d, a, s, n);
    return;
  }
#endif
  HalfBinaryScalarPortable<Op>(d, a, s, n);
}

template <int Op>
inline void HalfUnary(uint16_t* d, const uint16_t* a, size_t n) {
#if SIMNPU_ASCENDC_X86
  if (UseF16c()) {
    HalfUnaryF16c<Op>(d, a, n);
    return;
  }
#endif
  HalfUnaryPortable<Op>(d, a, n);
}

inline void HalfToFloatArray(float* d, const uint16_t* a, size_t n) {
#if SIMNPU_ASCENDC_X86
  if (UseF16c()) {
    HalfToFloatF16c(d, a, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) d[i] = fp::HalfToFloat(a[i]);
}

inline void FloatToHalfArray(uint16_t* d, const float* a, size_t n) {
#if SIMNPU_ASCENDC_X86
  if (UseF16c()) {
    FloatToHalfF16c(d, a, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; ++i) d[i] = fp::FloatToHalfRne(a[i]);
}

}  // namespace simd
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_SIMD_H_
