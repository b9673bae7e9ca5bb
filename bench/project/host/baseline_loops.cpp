// Plain C++ vector-add loops: the denominators of the Ascend C vector-add
// benchmark. This file is compiled with exactly the options the kernels get
// from ascendc.cmake (-O2, no -march), see ../CMakeLists.txt.
#include "baseline_loops.h"

#include <immintrin.h>

namespace bench_baseline {

void AddF32(const float* x, const float* y, float* z, size_t n) {
  for (size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
}

void AddF16Plain(const _Float16* x, const _Float16* y, _Float16* z, size_t n) {
  for (size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
}

// Hand-vectorised: 8 halves at a time converted to float (F16C), added in
// float and rounded once back to half (round to nearest even).
__attribute__((target("avx,f16c"))) void AddF16F16C(const uint16_t* x, const uint16_t* y, uint16_t* z, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 a = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    __m256 b = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(z + i), _mm256_cvtps_ph(_mm256_add_ps(a, b), _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) {
    float s = _cvtsh_ss(x[i]) + _cvtsh_ss(y[i]);
    z[i] = _cvtss_sh(s, _MM_FROUND_TO_NEAREST_INT);
  }
}

bool HaveF16C() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
}

}  // namespace bench_baseline
