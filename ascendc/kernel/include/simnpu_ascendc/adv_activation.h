// simnpu Ascend C model: the advanced activation functions: Sigmoid, Gelu,
// FasterGelu, FasterGeluV2, Silu, Swish, SwiGLU, GeGLU, ReGlu (formulas of the
// API pages; each computed in double and rounded once to the element type,
// see adv_math.h).
//   Gelu(x)        = x / (1 + e^(-1.59576912 (x + 0.044715 x^3)))   (the tanh form)
//   FasterGelu(x)  = x / (1 + e^(-1.702 |x|)) * e^(0.851 (x - |x|))
//   FasterGeluV2   = the same function (a cheaper NPU evaluation of it)
//   Silu(x)        = x / (1 + e^-x);  Swish(x, b) = x / (1 + e^(-b x))
//   SwiGLU(a, b)   = a * Swish(b, beta);  GeGLU(a, b) = a * Gelu(b);  ReGlu(a, b) = a * max(b, 0)
#ifndef SIMNPU_ASCENDC_ADV_ACTIVATION_H_
#define SIMNPU_ASCENDC_ADV_ACTIVATION_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {
inline double GeluOf(double x) { return x / (1.0 + std::exp(-1.59576912 * (x + 0.044715 * x * x * x))); }
inline double FasterGeluOf(double x) {
  const double a = std::fabs(x);
  return x / (1.0 + std::exp(-1.702 * a)) * std::exp(0.851 * (x - a));
}
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

SIMNPU_ADV_UNARY(Sigmoid, 1.0 / (1.0 + std::exp(-x)))

#define SIMNPU_ADV_GELU(Name, FN)                                                                          \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                          \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                         \
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,                   \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                              \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::CheckTmp(#Name, sharedTmpBuffer, simnpuLoc);                                 \
    ::simnpu::ascendc::detail::MapUnary(#Name, dstLocal, srcLocal, dataSize, simnpuLoc,                     \
                                        [](double x) { return FN(x); });                                    \
  }                                                                                                         \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                          \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize, \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                              \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::MapUnary(#Name, dstLocal, srcLocal, dataSize, simnpuLoc,                     \
                                        [](double x) { return FN(x); });                                    \
  }

SIMNPU_ADV_GELU(Gelu, ::simnpu::ascendc::detail::GeluOf)
SIMNPU_ADV_GELU(FasterGelu, ::simnpu::ascendc::detail::FasterGeluOf)
SIMNPU_ADV_GELU(FasterGeluV2, ::simnpu::ascendc::detail::FasterGeluOf)
#undef SIMNPU_ADV_GELU

template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, "Silu: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::MapUnary("Silu", dstLocal, srcLocal, dataSize, simnpuLoc,
                                      [](double x) { return x / (1.0 + std::exp(-x)); });
}

template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                  const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type scalarValue, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, "Swish: unsupported data type (half, float)");
  const double b = static_cast<double>(static_cast<float>(scalarValue));
  ::simnpu::ascendc::detail::MapUnary("Swish", dstLocal, srcLocal, dataSize, simnpuLoc,
                                      [b](double x) { return x / (1.0 + std::exp(-b * x)); });
}

template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                   SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, "SwiGLU: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("SwiGLU", sharedTmpBuffer, simnpuLoc);
  const double b = scalarValue;
  ::simnpu::ascendc::detail::MapBinary("SwiGLU", dstTensor, srcTensor0, srcTensor1, calCount, simnpuLoc,
                                       [b](double x0, double x1) { return x0 * (x1 / (1.0 + std::exp(-b * x1))); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, SIMNPU_ASCENDC_LOC_PARAM) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, sharedTmpBuffer, srcTensor0.GetSize(), simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, "SwiGLU: unsupported data type (half, float)");
  const double b = scalarValue;
  ::simnpu::ascendc::detail::MapBinary("SwiGLU", dstTensor, srcTensor0, srcTensor1, calCount, simnpuLoc,
                                       [b](double x0, double x1) { return x0 * (x1 / (1.0 + std::exp(-b * x1))); });
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, SIMNPU_ASCENDC_LOC_PARAM) {
  SwiGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, scalarValue, srcTensor0.GetSize(), simnpuLoc);
}

#define SIMNPU_ADV_GLU(Name, FN)                                                                           \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,                      \
                   const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
                   uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {                                           \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::CheckTmp(#Name, sharedTmpBuffer, simnpuLoc);                                 \
    ::simnpu::ascendc::detail::MapBinary(#Name, dstTensor, srcTensor0, srcTensor1, calCount, simnpuLoc,     \
                                         [](double x0, double x1) { return x0 * FN(x1); });                 \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,                      \
                   const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                              \
    Name<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(), simnpuLoc); \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,                      \
                   const LocalTensor<T>& srcTensor1, uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {         \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::MapBinary(#Name, dstTensor, srcTensor0, srcTensor1, calCount, simnpuLoc,     \
                                         [](double x0, double x1) { return x0 * FN(x1); });                 \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,                      \
                   const LocalTensor<T>& srcTensor1, SIMNPU_ASCENDC_LOC_PARAM) {                            \
    Name<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), simnpuLoc);             \
  }

namespace simnpu_adv_detail {
inline double ReluOf(double x) { return x > 0.0 ? x : 0.0; }
}  // namespace simnpu_adv_detail
SIMNPU_ADV_GLU(GeGLU, ::simnpu::ascendc::detail::GeluOf)
SIMNPU_ADV_GLU(ReGlu, simnpu_adv_detail::ReluOf)
#undef SIMNPU_ADV_GLU

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_ACTIVATION_H_
