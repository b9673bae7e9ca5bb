// The plain loop the ReduceSum benchmark is held against.
#include "baseline_reduce.h"

namespace bench_baseline {

float SumF32(const float* x, size_t n) {
  float s = 0.0f;
  for (size_t i = 0; i < n; ++i) s += x[i];
  return s;
}

}  // namespace bench_baseline
