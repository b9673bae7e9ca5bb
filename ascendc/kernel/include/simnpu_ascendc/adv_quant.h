// simnpu Ascend C model: quantisation: AscendQuant (float/half -> int8,
// per tensor), AscendDequant (int32 [m, n] * a per-column scale -> half,
// float or bfloat16), AscendAntiQuant (int8 -> half/bfloat16 with offset
// and scale, per tensor or per channel).
//
//   AscendQuant:     dst = sat_int8(rint(src * scale + offset)), in float
//                    (round half to even, saturated to [-128, 127]).
//   AscendDequant:   dst[i][j] = T(float(src[i][j]) * scale[j]) for the
//                    first calCount columns of each of m rows of n.
//   AscendAntiQuant: dst = (src + offset) * scale, in float, rounded once.
#ifndef SIMNPU_ASCENDC_ADV_QUANT_H_
#define SIMNPU_ASCENDC_ADV_QUANT_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {
inline int8_t QuantOne(float v) {
  if (v != v) return 0;
  const float r = std::nearbyint(v);  // the default rounding mode: to nearest, ties to even
  if (r >= 127.0f) return 127;
  if (r <= -128.0f) return -128;
  return static_cast<int8_t>(r);
}
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "AscendQuant: unsupported data type (half, float)");
  d::CheckTmp("AscendQuant", sharedTmpBuffer, simnpuLoc);
  if (!d::CheckCount("AscendQuant", static_cast<int32_t>(calCount), simnpuLoc, dstTensor, srcTensor)) return;
  const T* s = srcTensor.GetPhyAddr();
  int8_t* o = dstTensor.GetPhyAddr();
  for (uint32_t i = 0; i < calCount; ++i) o[i] = d::QuantOne(static_cast<float>(s[i]) * scale + offset);
}
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, srcTensor.template ReinterpretCast<uint8_t>(), scale, offset,
                                calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, SIMNPU_ASCENDC_LOC_PARAM) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(), simnpuLoc);
}

struct DequantParams {
  uint32_t m = 0;
  uint32_t n = 0;
  uint32_t calCount = 0;
};
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW = 1 };

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                          DequantParams params, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloatBf<dstT>, "AscendDequant: unsupported destination type (half, float, bfloat16_t)");
  static_assert(d::kIsAdvFloatBf<scaleT> || std::is_same<scaleT, uint64_t>::value,
                "AscendDequant: unsupported scale type (float, bfloat16_t, uint64_t)");
  d::CheckTmp("AscendDequant", sharedTmpBuffer, simnpuLoc);
  if (params.calCount > params.n) {
    d::CheckFail(simnpuLoc, "AscendDequant: calCount (%u) is larger than n (%u)", params.calCount, params.n);
  }
  const uint64_t total = static_cast<uint64_t>(params.m) * params.n;
  d::NeedElems("AscendDequant", "srcTensor", srcTensor, total, simnpuLoc);
  d::NeedElems("AscendDequant", "dstTensor", dstTensor, total, simnpuLoc);
  d::NeedElems("AscendDequant", "deqScale", deqScale, params.calCount, simnpuLoc);
  for (uint32_t r = 0; r < params.m; ++r) {
    for (uint32_t j = 0; j < params.calCount; ++j) {
      float sc;
      if constexpr (std::is_same<scaleT, uint64_t>::value) {
        // the quantisation parameter form: a float in the low 32 bits
        const uint32_t lo = static_cast<uint32_t>(deqScale.GetPhyAddr()[j]);
        std::memcpy(&sc, &lo, 4);
      } else {
        sc = static_cast<float>(deqScale.GetPhyAddr()[j]);
      }
      const size_t i = static_cast<size_t>(r) * params.n + j;
      dstTensor.GetPhyAddr()[i] = dstT(static_cast<float>(srcTensor.GetPhyAddr()[i]) * sc);
    }
  }
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                          const LocalTensor<scaleT>& deqScale, DequantParams params, SIMNPU_ASCENDC_LOC_PARAM) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, srcTensor.template ReinterpretCast<uint8_t>(),
                                    params, simnpuLoc);
}

struct AntiQuantShapeInfo {
  uint32_t offsetHeight = 0;
  uint32_t offsetWidth = 0;
  uint32_t scaleHeight = 0;
  uint32_t scaleWidth = 0;
};

// Per channel: src is [K, N] (isTranspose false: offset/scale have N
// elements, one per column) or [N, K] (isTranspose true: one per row).
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo& shapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<InputDataType, int8_t>::value, "AscendAntiQuant: unsupported source type (int8_t)");
  static_assert(std::is_same<OutputDataType, half>::value || std::is_same<OutputDataType, bfloat16_t>::value,
                "AscendAntiQuant: unsupported destination type (half, bfloat16_t)");
  d::CheckTmp("AscendAntiQuant", sharedTmpBuffer, simnpuLoc);
  (void)shapeInfo;
  if (K == 0) d::CheckFail(simnpuLoc, "AscendAntiQuant: K is 0");
  const uint32_t total = src.GetSize();
  const uint32_t other = total / K;
  d::NeedElems("AscendAntiQuant", "dst", dst, total, simnpuLoc);
  d::NeedElems("AscendAntiQuant", "offset", offset, other, simnpuLoc);
  d::NeedElems("AscendAntiQuant", "scale", scale, other, simnpuLoc);
  for (uint32_t i = 0; i < other * K; ++i) {
    // [K, N]: column i % N; [N, K]: row i / K
    const uint32_t ch = isTranspose ? i / K : i % other;
    const float v = (static_cast<float>(src.GetPhyAddr()[i]) + static_cast<float>(offset.GetPhyAddr()[ch])) *
                    static_cast<float>(scale.GetPhyAddr()[ch]);
    dst.GetPhyAddr()[i] = OutputDataType(v);
  }
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                            const uint32_t K, const AntiQuantShapeInfo& shapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                              src.template ReinterpretCast<uint8_t>(), K, shapeInfo,
                                                              simnpuLoc);
}
// Per tensor: one offset and one scale.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
                            const AntiQuantShapeInfo& shapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<InputDataType, int8_t>::value, "AscendAntiQuant: unsupported source type (int8_t)");
  d::CheckTmp("AscendAntiQuant", sharedTmpBuffer, simnpuLoc);
  (void)K;
  (void)shapeInfo;
  const uint32_t total = src.GetSize();
  d::NeedElems("AscendAntiQuant", "dst", dst, total, simnpuLoc);
  const float o = static_cast<float>(offset), s = static_cast<float>(scale);
  for (uint32_t i = 0; i < total; ++i) {
    dst.GetPhyAddr()[i] = OutputDataType((static_cast<float>(src.GetPhyAddr()[i]) + o) * s);
  }
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                            const OutputDataType offset, const OutputDataType scale, const uint32_t K,
                            const AntiQuantShapeInfo& shapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                              src.template ReinterpretCast<uint8_t>(), K, shapeInfo,
                                                              simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_QUANT_H_
