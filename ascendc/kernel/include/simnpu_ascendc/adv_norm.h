// simnpu Ascend C model: normalisation: LayerNorm (output, mean, variance;
// [B, S, H] source, gamma/beta [H], mean/variance [B, S]), RmsNorm
// ([B, S, H], gamma [H]), WelfordUpdate / WelfordFinalize.
//
// Shapes come from the tiling (bLength, sLength, hLength; originalHLength
// columns are real, the rest of each H row is padding that the result
// leaves as it was). Arithmetic in float whatever T is: the row mean is the
// sum in column order divided by H, the variance the mean of (x - mean)^2
// (the population variance), the result (x - mean) / sqrt(var + eps) *
// gamma + beta rounded once to T. RmsNorm: x / sqrt(mean(x^2) + eps) * gamma.
#ifndef SIMNPU_ASCENDC_ADV_NORM_H_
#define SIMNPU_ASCENDC_ADV_NORM_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
inline void LayerNormImpl(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean,
                          const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& x,
                          const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta, float eps,
                          const ::LayerNormTiling& t, const SrcLoc& loc) {
  const uint64_t rows = static_cast<uint64_t>(t.bLength) * t.sLength;
  const uint32_t h = t.hLength;
  const uint32_t cols = t.originalHLength != 0 ? t.originalHLength : h;
  if (cols > h) CheckFail(loc, "LayerNorm: originalHLength (%u) is larger than hLength (%u)", cols, h);
  if ((static_cast<uint64_t>(h) * sizeof(T)) % 32u != 0) {
    CheckFail(loc, "LayerNorm: hLength (%u) * sizeof(T) must be a multiple of 32 bytes", h);
  }
  NeedElems("LayerNorm", "inputX", x, rows * h, loc);
  NeedElems("LayerNorm", "output", out, rows * h, loc);
  NeedElems("LayerNorm", "outputMean", mean, rows, loc);
  NeedElems("LayerNorm", "outputVariance", var, rows, loc);
  NeedElems("LayerNorm", "gamma", gamma, h, loc);
  NeedElems("LayerNorm", "beta", beta, h, loc);
  const float inv = cols == 0 ? 0.0f : 1.0f / static_cast<float>(cols);
  for (uint64_t r = 0; r < rows; ++r) {
    const T* xr = x.GetPhyAddr() + r * h;
    T* o = out.GetPhyAddr() + r * h;
    float s = 0.0f;
    for (uint32_t j = 0; j < cols; ++j) s += static_cast<float>(xr[j]);
    const float m = s * inv;
    float v = 0.0f;
    for (uint32_t j = 0; j < cols; ++j) {
      const float dx = static_cast<float>(xr[j]) - m;
      v += dx * dx;
    }
    v *= inv;
    const float rs = 1.0f / std::sqrt(v + eps);
    const T* g = gamma.GetPhyAddr();
    const T* b = beta.GetPhyAddr();
    for (uint32_t j = 0; j < cols; ++j) {
      o[j] = T((static_cast<float>(xr[j]) - m) * rs * static_cast<float>(g[j]) + static_cast<float>(b[j]));
    }
    mean.GetPhyAddr()[r] = T(m);
    var.GetPhyAddr()[r] = T(v);
  }
}

template <typename T>
inline void RmsNormImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& x,
                        const AscendC::LocalTensor<T>& gamma, float eps, const ::RmsNormTiling& t, const SrcLoc& loc) {
  const uint64_t rows = static_cast<uint64_t>(t.bLength) * t.sLength;
  const uint32_t h = t.hLength;
  const uint32_t cols = t.originalHLength != 0 ? t.originalHLength : h;
  if (cols > h) CheckFail(loc, "RmsNorm: originalHLength (%u) is larger than hLength (%u)", cols, h);
  if ((static_cast<uint64_t>(h) * sizeof(T)) % 32u != 0) {
    CheckFail(loc, "RmsNorm: hLength (%u) * sizeof(T) must be a multiple of 32 bytes", h);
  }
  NeedElems("RmsNorm", "srcLocal", x, rows * h, loc);
  NeedElems("RmsNorm", "dstLocal", dst, rows * h, loc);
  NeedElems("RmsNorm", "gammaLocal", gamma, h, loc);
  const float inv = cols == 0 ? 0.0f : 1.0f / static_cast<float>(cols);
  for (uint64_t r = 0; r < rows; ++r) {
    const T* xr = x.GetPhyAddr() + r * h;
    T* o = dst.GetPhyAddr() + r * h;
    float s = 0.0f;
    for (uint32_t j = 0; j < cols; ++j) {
      const float v = static_cast<float>(xr[j]);
      s += v * v;
    }
    const float rs = 1.0f / std::sqrt(s * inv + eps);
    const T* g = gamma.GetPhyAddr();
    for (uint32_t j = 0; j < cols; ++j) o[j] = T(static_cast<float>(xr[j]) * rs * static_cast<float>(g[j]));
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                      LayerNormTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "LayerNorm: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("LayerNorm", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::LayerNormImpl(output, outputMean, outputVariance, inputX, gamma, beta,
                                           static_cast<float>(epsilon), tiling, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                      const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                      const LocalTensor<T>& beta, const T epsilon, LayerNormTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "LayerNorm: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::LayerNormImpl(output, outputMean, outputVariance, inputX, gamma, beta,
                                           static_cast<float>(epsilon), tiling, simnpuLoc);
}

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "RmsNorm: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("RmsNorm", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::RmsNormImpl(dstLocal, srcLocal, gammaLocal, static_cast<float>(epsilon), tiling, simnpuLoc);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "RmsNorm: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::RmsNormImpl(dstLocal, srcLocal, gammaLocal, static_cast<float>(epsilon), tiling, simnpuLoc);
}

// ---- Welford: running mean and variance over rLength columns processed in
// chunks. WelfordUpdate folds one chunk (abComputeLength columns of each of
// rnLength rows, the chunk being element k of the running count with
// nRec = 1 / k) into per-element running mean and M2 (sum of squared
// deviations): delta = x - mean; mean += delta * nRec; M2 += delta * (x - mean).
struct WelfordUpdateParam {
  uint32_t rnLength = 0;
  uint32_t abLength = 0;
  uint32_t abComputeLength = 0;
  float nRec = 0.0f;
};
struct WelfordUpdateConfig {
  constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}  // NOLINT
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T> && std::is_same<U, float>::value,
                "WelfordUpdate: unsupported data types (T half or float, U float)");
  d::CheckTmp("WelfordUpdate", sharedTmpBuffer, simnpuLoc);
  const uint64_t n = static_cast<uint64_t>(para.rnLength) * para.abLength;
  d::NeedElems("WelfordUpdate", "inputX", inputX, n, simnpuLoc);
  d::NeedElems("WelfordUpdate", "inputMean", inputMean, n, simnpuLoc);
  d::NeedElems("WelfordUpdate", "inputVariance", inputVariance, n, simnpuLoc);
  d::NeedElems("WelfordUpdate", "outputMean", outputMean, n, simnpuLoc);
  d::NeedElems("WelfordUpdate", "outputVariance", outputVariance, n, simnpuLoc);
  for (uint32_t r = 0; r < para.rnLength; ++r) {
    for (uint32_t c = 0; c < para.abLength; ++c) {
      const size_t i = static_cast<size_t>(r) * para.abLength + c;
      const float mean = inputMean.GetPhyAddr()[i];
      const float m2 = inputVariance.GetPhyAddr()[i];
      if (c >= para.abComputeLength) {
        outputMean.GetPhyAddr()[i] = mean;
        outputVariance.GetPhyAddr()[i] = m2;
        continue;
      }
      const float x = static_cast<float>(inputX.GetPhyAddr()[i]);
      const float delta = x - mean;
      const float nm = mean + delta * para.nRec;
      outputMean.GetPhyAddr()[i] = nm;
      outputVariance.GetPhyAddr()[i] = m2 + delta * (x - nm);
    }
  }
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para, SIMNPU_ASCENDC_LOC_PARAM) {
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX,
                                             inputX.template ReinterpretCast<uint8_t>(), para, simnpuLoc);
}

// WelfordFinalize: combines abLength per-element partial (mean, M2) pairs of
// one row, each over `count` samples (rnLength = rows is 1 here: the page's
// [abLength] inputs), into the row's mean and variance (M2 / total count).
struct WelfordFinalizePara {
  uint32_t rnLength = 0;
  uint32_t abLength = 0;
  uint32_t headCount = 0;
  uint32_t headCountLength = 0;
  uint32_t tailCount = 0;
  uint32_t tailCountLength = 0;
  float abRec = 0.0f;
  float rRec = 0.0f;
};

template <bool isReuseSource = false>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordFinalizePara& para,
                            SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckTmp("WelfordFinalize", sharedTmpBuffer, simnpuLoc);
  d::NeedElems("WelfordFinalize", "inputMean", inputMean, para.abLength, simnpuLoc);
  d::NeedElems("WelfordFinalize", "inputVariance", inputVariance, para.abLength, simnpuLoc);
  d::NeedElems("WelfordFinalize", "outputMean", outputMean, 1, simnpuLoc);
  d::NeedElems("WelfordFinalize", "outputVariance", outputVariance, 1, simnpuLoc);
  // element i holds headCount samples for i < headCountLength, else tailCount
  double total = 0.0, mean_acc = 0.0;
  for (uint32_t i = 0; i < para.abLength; ++i) {
    const double cnt = i < para.headCountLength ? para.headCount : (i < para.headCountLength + para.tailCountLength ? para.tailCount : 0);
    total += cnt;
    mean_acc += cnt * inputMean.GetPhyAddr()[i];
  }
  const double mean = total > 0 ? mean_acc / total : 0.0;
  double m2 = 0.0;
  for (uint32_t i = 0; i < para.abLength; ++i) {
    const double cnt = i < para.headCountLength ? para.headCount : (i < para.headCountLength + para.tailCountLength ? para.tailCount : 0);
    const double dm = inputMean.GetPhyAddr()[i] - mean;
    m2 += inputVariance.GetPhyAddr()[i] + cnt * dm * dm;
  }
  outputMean.GetPhyAddr()[0] = static_cast<float>(mean);
  outputVariance.GetPhyAddr()[0] = static_cast<float>(total > 0 ? m2 / total : 0.0);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_NORM_H_
