// Plain C++ reduction loop (compiled with the kernels' options).
#ifndef SIMNPU_BENCH_BASELINE_REDUCE_H_
#define SIMNPU_BENCH_BASELINE_REDUCE_H_

#include <cstddef>

namespace bench_baseline {

// s = x[0] + x[1] + ... in order (what a plain loop computes; -O2 keeps the
// float order, so it is not vectorised).
float SumF32(const float* x, size_t n);

}  // namespace bench_baseline

#endif  // SIMNPU_BENCH_BASELINE_REDUCE_H_
