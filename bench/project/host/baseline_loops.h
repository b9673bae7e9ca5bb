// Plain C++ vector-add loops (compiled with the kernels' options).
#ifndef SIMNPU_BENCH_BASELINE_LOOPS_H_
#define SIMNPU_BENCH_BASELINE_LOOPS_H_

#include <cstddef>
#include <cstdint>

namespace bench_baseline {

void AddF32(const float* x, const float* y, float* z, size_t n);
// A straightforward _Float16 loop, as g++ compiles it without -march.
void AddF16Plain(const _Float16* x, const _Float16* y, _Float16* z, size_t n);
// Hand-vectorised with F16C (halves as their bit patterns).
void AddF16F16C(const uint16_t* x, const uint16_t* y, uint16_t* z, size_t n);
bool HaveF16C();

}  // namespace bench_baseline

#endif  // SIMNPU_BENCH_BASELINE_LOOPS_H_
