// simnpu Ascend C model: LayerNorm of a [A, R] source with mean and rstd
// (or variance) outputs: the form with LayerNormPara and LayerNormConfig
// (the [B, S, H] form with mean and variance is adv_norm.h).
//
// Rows are rLengthWithPadding elements apart, the first rLength real; a
// padded column of the output is left as it was. Per row, in float:
// mean = column-order sum / rLength, var = mean of (x - mean)^2 (population),
// rstd = 1 / sqrt(var + epsilon), y = (x - mean) * rstd * gamma + beta
// rounded once to T (isNoGamma: gamma 1; isNoBeta: beta 0). outputMean and
// outputRstd hold one float per row (aLength of them); with isOutputRstd
// false outputRstd receives the variance; with isOnlyOutput neither is
// written. U (gamma, beta) is T or float.
#ifndef SIMNPU_ASCENDC_ADV_LAYERNORM_RSTD_H_
#define SIMNPU_ASCENDC_ADV_LAYERNORM_RSTD_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cmath>

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig GetLayerNormNormalConfig() { return {false, false, false, true}; }
constexpr LayerNormConfig LNCFG_NORM = GetLayerNormNormalConfig();

struct LayerNormPara {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t rLengthWithPadding = 0;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename U, typename T, const AscendC::LayerNormConfig& config>
inline void LayerNormRstdImpl(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& mean,
                              const AscendC::LocalTensor<float>& rstd, const AscendC::LocalTensor<T>& x,
                              const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta, float eps,
                              const AscendC::LayerNormPara& p, const SrcLoc& loc) {
  const uint32_t a = p.aLength, r = p.rLength, rp = p.rLengthWithPadding;
  if (r == 0 || r > rp) CheckFail(loc, "LayerNorm: rLength (%u) must be in [1, rLengthWithPadding = %u]", r, rp);
  if ((static_cast<uint64_t>(rp) * sizeof(T)) % 32u != 0) {
    CheckFail(loc, "LayerNorm: rLengthWithPadding (%u) * sizeof(T) must be a multiple of 32 bytes", rp);
  }
  const uint64_t rows = a;
  NeedElems("LayerNorm", "inputX", x, rows * rp, loc);
  NeedElems("LayerNorm", "output", out, rows * rp, loc);
  if (!config.isOnlyOutput) {
    NeedElems("LayerNorm", "outputMean", mean, rows, loc);
    NeedElems("LayerNorm", "outputRstd", rstd, rows, loc);
  }
  if (!config.isNoGamma) NeedElems("LayerNorm", "gamma", gamma, r, loc);
  if (!config.isNoBeta) NeedElems("LayerNorm", "beta", beta, r, loc);
  const float inv = 1.0f / static_cast<float>(r);
  for (uint64_t i = 0; i < rows; ++i) {
    const T* xr = x.GetPhyAddr() + i * rp;
    T* o = out.GetPhyAddr() + i * rp;
    float s = 0.0f;
    for (uint32_t j = 0; j < r; ++j) s += static_cast<float>(xr[j]);
    const float m = s * inv;
    float v = 0.0f;
    for (uint32_t j = 0; j < r; ++j) {
      const float d = static_cast<float>(xr[j]) - m;
      v += d * d;
    }
    v *= inv;
    const float rs = 1.0f / std::sqrt(v + eps);
    for (uint32_t j = 0; j < r; ++j) {
      float y = (static_cast<float>(xr[j]) - m) * rs;
      if (!config.isNoGamma) y *= static_cast<float>(gamma.GetPhyAddr()[j]);
      if (!config.isNoBeta) y += static_cast<float>(beta.GetPhyAddr()[j]);
      o[j] = T(y);
    }
    if (!config.isOnlyOutput) {
      mean.GetPhyAddr()[i] = m;
      rstd.GetPhyAddr()[i] = config.isOutputRstd ? rs : v;
    }
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T> &&
                    (std::is_same<U, T>::value || std::is_same<U, float>::value),
                "LayerNorm: unsupported data types (T half or float; U T or float)");
  (void)tiling;
  ::simnpu::ascendc::detail::LayerNormRstdImpl<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                             epsilon, para, simnpuLoc);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T> &&
                    (std::is_same<U, T>::value || std::is_same<U, float>::value),
                "LayerNorm: unsupported data types (T half or float; U T or float)");
  (void)tiling;
  ::simnpu::ascendc::detail::CheckTmp("LayerNorm", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::LayerNormRstdImpl<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                             epsilon, para, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_LAYERNORM_RSTD_H_
