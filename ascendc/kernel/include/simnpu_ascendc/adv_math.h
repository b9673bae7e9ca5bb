// simnpu Ascend C model: the advanced math library (element-wise): Erf,
// Erfc, Tanh, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh,
// Atanh, Floor, Ceil, Trunc, Frac, Sign, Log, Log2, Log10, the advanced Exp
// (taylorExpandLevel), Power (tensor^tensor, tensor^scalar, scalar^tensor),
// ClampMax, ClampMin, CumSum.
//
// Each function has the devkit's overloads: with a sharedTmpBuffer or
// without, with a count or over the whole source. Results: computed in double
// from the source values and rounded once to the element type (the pages
// state a tolerance, not an algorithm: this is within half a unit in the
// last place of the exact value, and numpy golden tests hold it to that).
// Exact operations (Floor, Ceil, Trunc, Sign, Clamp, integer Power, CumSum
// in its documented order) are bit-exact.
#ifndef SIMNPU_ASCENDC_ADV_MATH_H_
#define SIMNPU_ASCENDC_ADV_MATH_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

SIMNPU_ADV_UNARY(Erf, std::erf(x))
SIMNPU_ADV_UNARY(Erfc, std::erfc(x))
SIMNPU_ADV_UNARY(Tanh, std::tanh(x))
SIMNPU_ADV_UNARY(Sin, std::sin(x))
SIMNPU_ADV_UNARY(Cos, std::cos(x))
SIMNPU_ADV_UNARY(Tan, std::tan(x))
SIMNPU_ADV_UNARY(Asin, std::asin(x))
SIMNPU_ADV_UNARY(Acos, std::acos(x))
SIMNPU_ADV_UNARY(Atan, std::atan(x))
SIMNPU_ADV_UNARY(Sinh, std::sinh(x))
SIMNPU_ADV_UNARY(Cosh, std::cosh(x))
SIMNPU_ADV_UNARY(Asinh, std::asinh(x))
SIMNPU_ADV_UNARY(Acosh, std::acosh(x))
SIMNPU_ADV_UNARY(Atanh, std::atanh(x))
SIMNPU_ADV_UNARY(Floor, std::floor(x))
SIMNPU_ADV_UNARY(Ceil, std::ceil(x))
SIMNPU_ADV_UNARY(Trunc, std::trunc(x))
SIMNPU_ADV_UNARY(Frac, x - std::trunc(x))
SIMNPU_ADV_UNARY(Sign, (x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0 * x)))
SIMNPU_ADV_UNARY(Log, std::log(x))
SIMNPU_ADV_UNARY(Log2, std::log2(x))
SIMNPU_ADV_UNARY(Log10, std::log10(x))

// Exp with a Taylor expansion on the NPU; here the exact exponential (the
// expansion level only trades speed for accuracy there).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "Exp: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("Exp", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::MapUnary("Exp", dstTensor, srcTensor, calCount, simnpuLoc,
                                      [](double x) { return std::exp(x); });
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "Exp: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::MapUnary("Exp", dstTensor, srcTensor, calCount, simnpuLoc,
                                      [](double x) { return std::exp(x); });
}

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsPowerType = kIsAdvFloat<T> || std::is_same<T, int32_t>::value;

// Integer power: exponent < 0 gives 0 except for bases 1 and -1 (the
// integer quotient of 1 / base^-e); wraps like the int32 multiply.
inline int32_t IntPow(int32_t b, int32_t e) {
  if (e < 0) {
    if (b == 1) return 1;
    if (b == -1) return (e & 1) ? -1 : 1;
    return 0;
  }
  uint32_t r = 1u, x = static_cast<uint32_t>(b);
  uint32_t k = static_cast<uint32_t>(e);
  while (k != 0) {
    if (k & 1u) r *= x;
    x *= x;
    k >>= 1;
  }
  return static_cast<int32_t>(r);
}

template <typename T>
inline T PowOne(T a, T b) {
  if constexpr (std::is_same<T, int32_t>::value) {
    return IntPow(a, b);
  } else {
    return T(static_cast<float>(std::pow(static_cast<double>(static_cast<float>(a)), static_cast<double>(static_cast<float>(b)))));
  }
}

template <typename T>
inline void PowerTT(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                    uint32_t n, const SrcLoc& loc) {
  if (!CheckCount("Power", static_cast<int32_t>(n), loc, dst, a, b)) return;
  T* d = dst.GetPhyAddr();
  const T* x = a.GetPhyAddr();
  const T* y = b.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = PowOne<T>(x[i], y[i]);
}
template <typename T>
inline void PowerTS(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a, T s, uint32_t n, const SrcLoc& loc) {
  if (!CheckCount("Power", static_cast<int32_t>(n), loc, dst, a)) return;
  T* d = dst.GetPhyAddr();
  const T* x = a.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = PowOne<T>(x[i], s);
}
template <typename T>
inline void PowerST(const AscendC::LocalTensor<T>& dst, T s, const AscendC::LocalTensor<T>& b, uint32_t n, const SrcLoc& loc) {
  if (!CheckCount("Power", static_cast<int32_t>(n), loc, dst, b)) return;
  T* d = dst.GetPhyAddr();
  const T* y = b.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = PowOne<T>(s, y[i]);
}

template <typename T, bool kMax>
inline void ClampImpl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T s,
                      uint32_t n, const SrcLoc& loc) {
  if (!CheckCount(api, static_cast<int32_t>(n), loc, dst, src)) return;
  T* d = dst.GetPhyAddr();
  const T* x = src.GetPhyAddr();
  const float lim = static_cast<float>(s);
  for (uint32_t i = 0; i < n; ++i) {
    const float v = static_cast<float>(x[i]);
    // NaN sources stay NaN (the comparison is false)
    d[i] = kMax ? (v > lim ? s : x[i]) : (v < lim ? s : x[i]);
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::CheckTmp("Power", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::PowerTT(dstTensor, src0Tensor, src1Tensor, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::PowerTT(dstTensor, src0Tensor, src1Tensor, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  SIMNPU_ASCENDC_LOC_PARAM) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& src1Scalar,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::CheckTmp("Power", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::PowerTS<T>(dstTensor, src0Tensor, src1Scalar, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& src1Scalar, const uint32_t calCount,
                  SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::PowerTS<T>(dstTensor, src0Tensor, src1Scalar, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& src0Scalar,
                  const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                  SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::CheckTmp("Power", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::PowerST<T>(dstTensor, src0Scalar, src1Tensor, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dstTensor, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& src0Scalar,
                  const LocalTensor<T>& src1Tensor, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPowerType<T>, "Power: unsupported data type (half, float, int32_t)");
  ::simnpu::ascendc::detail::PowerST<T>(dstTensor, src0Scalar, src1Tensor, calCount, simnpuLoc);
}

// dst = min(src, scalar) (ClampMax) / max(src, scalar) (ClampMin)
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "ClampMax: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("ClampMax", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::ClampImpl<T, true>("ClampMax", dstTensor, srcTensor, scalar, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                     const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "ClampMax: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::ClampImpl<T, true>("ClampMax", dstTensor, srcTensor, scalar, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "ClampMin: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::CheckTmp("ClampMin", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::ClampImpl<T, false>("ClampMin", dstTensor, srcTensor, scalar, calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                     const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "ClampMin: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::ClampImpl<T, false>("ClampMin", dstTensor, srcTensor, scalar, calCount, simnpuLoc);
}

// ---- CumSum: prefix sums of a [outter, inner] source, along the last axis
// (isLastAxis, each row) or the first (each column); lastRowTensor gets the
// last row of the result when outputLastRow. Sums run in float in index
// order and are rounded to T at every step (the result of each element is
// the rounded sum of the previous result and the source element).
struct CumSumConfig {
  bool isLastAxis = true;
  bool isReuseSource = false;
  bool outputLastRow = false;
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, false};
struct CumSumInfo {
  uint32_t outter = 0;
  uint32_t inner = 0;
};

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "CumSum: unsupported data type (half, float)");
  d::CheckTmp("CumSum", sharedTmpBuffer, simnpuLoc);
  const uint32_t rows = cumSumInfo.outter, cols = cumSumInfo.inner;
  if (cols * sizeof(T) % 32 != 0) {
    d::CheckFail(simnpuLoc, "CumSum: inner (%u) * sizeof(T) must be a multiple of 32 bytes", cols);
  }
  const uint64_t total = static_cast<uint64_t>(rows) * cols;
  d::NeedElems("CumSum", "srcTensor", srcTensor, total, simnpuLoc);
  d::NeedElems("CumSum", "dstTensor", dstTensor, total, simnpuLoc);
  if (config.outputLastRow) d::NeedElems("CumSum", "lastRowTensor", lastRowTensor, cols, simnpuLoc);
  const T* s = srcTensor.GetPhyAddr();
  T* o = dstTensor.GetPhyAddr();
  if (config.isLastAxis) {
    for (uint32_t r = 0; r < rows; ++r) {
      T acc = T(0.0f);
      for (uint32_t c = 0; c < cols; ++c) {
        acc = T(static_cast<float>(acc) + static_cast<float>(s[r * cols + c]));
        o[r * cols + c] = acc;
      }
    }
  } else {
    for (uint32_t c = 0; c < cols; ++c) {
      T acc = T(0.0f);
      for (uint32_t r = 0; r < rows; ++r) {
        acc = T(static_cast<float>(acc) + static_cast<float>(s[r * cols + c]));
        o[r * cols + c] = acc;
      }
    }
  }
  if (config.outputLastRow && rows > 0) {
    T* l = lastRowTensor.GetPhyAddr();
    for (uint32_t c = 0; c < cols; ++c) l[c] = o[(rows - 1) * cols + c];
  }
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo, SIMNPU_ASCENDC_LOC_PARAM) {
  LocalTensor<uint8_t> none = srcTensor.template ReinterpretCast<uint8_t>();
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, none, cumSumInfo, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_MATH_H_
