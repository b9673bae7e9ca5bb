// Plain C++ loops of the advanced-API benchmarks' math (bench_adv), compiled
// with the kernels' options: row softmax and LayerNorm over rows of floats.
#ifndef SIMNPU_BENCH_BASELINE_ADV_H_
#define SIMNPU_BENCH_BASELINE_ADV_H_

#include <cstddef>

namespace bench_baseline {
// y[r] = softmax(x[r]) for rows [0, rows) of cols floats
void SoftmaxRows(const float* x, float* y, size_t rows, size_t cols);
// y[r] = (x[r] - mean) / sqrt(var + eps) * gamma + beta; mean[r], var[r]
void LayerNormRows(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* var,
                   size_t rows, size_t cols, float eps);
}  // namespace bench_baseline

#endif  // SIMNPU_BENCH_BASELINE_ADV_H_
