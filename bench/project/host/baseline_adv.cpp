// The plain loops of bench_adv: the same float math as the kernels' SoftMax
// and LayerNorm (max, e^(x - max), sum, divide; mean, variance, normalise),
// written the way a C++ programmer would, with no Ascend C in between.
#include "baseline_adv.h"

#include <cmath>

namespace bench_baseline {

void SoftmaxRows(const float* x, float* y, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* a = x + r * cols;
    float* o = y + r * cols;
    float m = -INFINITY;
    for (size_t j = 0; j < cols; ++j) m = a[j] > m ? a[j] : m;
    float s = 0.0f;
    for (size_t j = 0; j < cols; ++j) {
      o[j] = std::exp(a[j] - m);
      s += o[j];
    }
    for (size_t j = 0; j < cols; ++j) o[j] = o[j] / s;
  }
}

void LayerNormRows(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* var,
                   size_t rows, size_t cols, float eps) {
  const float inv = 1.0f / static_cast<float>(cols);
  for (size_t r = 0; r < rows; ++r) {
    const float* a = x + r * cols;
    float* o = y + r * cols;
    float s = 0.0f;
    for (size_t j = 0; j < cols; ++j) s += a[j];
    const float m = s * inv;
    float v = 0.0f;
    for (size_t j = 0; j < cols; ++j) {
      const float d = a[j] - m;
      v += d * d;
    }
    v *= inv;
    const float rs = 1.0f / std::sqrt(v + eps);
    for (size_t j = 0; j < cols; ++j) o[j] = (a[j] - m) * rs * gamma[j] + beta[j];
    mean[r] = m;
    var[r] = v;
  }
}

}  // namespace bench_baseline
