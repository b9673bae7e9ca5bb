// simnpu Ascend C model: Cast with RoundMode between the element types, and
// ReduceSum/ReduceMax/ReduceMin in the documented order (a binary tree of
// adjacent pairs inside each 256-byte repeat, repeats combined in sequence).
#ifndef SIMNPU_ASCENDC_CAST_REDUCE_H_
#define SIMNPU_ASCENDC_CAST_REDUCE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cfloat>
#include <limits>

namespace AscendC {

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,   // to nearest, ties to even
  CAST_FLOOR,  // toward -inf
  CAST_CEIL,   // toward +inf
  CAST_ROUND,  // to nearest, ties away from zero
  CAST_TRUNC,  // toward zero
  CAST_ODD,    // round to odd
#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102
  CAST_HYBRID,  // hifloat8 targets: modelled as CAST_ROUND (deterministic)
  CAST_EVEN,
  CAST_ZERO,
#endif
  UNKNOWN = 0xFF,
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

inline int RndOf(AscendC::RoundMode m) {
  switch (m) {
    case AscendC::RoundMode::CAST_FLOOR:
      return fp::kDown;
    case AscendC::RoundMode::CAST_CEIL:
      return fp::kUp;
    case AscendC::RoundMode::CAST_ROUND:
      return fp::kAway;
    case AscendC::RoundMode::CAST_TRUNC:
      return fp::kZero;
    case AscendC::RoundMode::CAST_ODD:
      return fp::kOdd;
#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102
    case AscendC::RoundMode::CAST_HYBRID:
      return fp::kAway;
    case AscendC::RoundMode::CAST_ZERO:
      return fp::kZero;
#endif
    default:
      return fp::kRne;
  }
}

template <typename S>
inline double ToDouble(S v) {
  if constexpr (fp::IsHalfLike<S>::value) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

// double -> float with a rounding direction (one rounding).
inline float DoubleToFloat(double d, int mode) {
  const float f = static_cast<float>(d);  // nearest even
  if (mode == fp::kRne || std::isnan(d) || static_cast<double>(f) == d) return f;
  float lo = f, hi = f;
  if (static_cast<double>(f) > d) {
    lo = std::nextafter(f, -std::numeric_limits<float>::infinity());
  } else {
    hi = std::nextafter(f, std::numeric_limits<float>::infinity());
  }
  const bool neg = d < 0;
  float r = f;
  switch (mode) {
    case fp::kDown:
      r = lo;
      break;
    case fp::kUp:
      r = hi;
      break;
    case fp::kZero:
      r = neg ? hi : lo;
      break;
    case fp::kAway: {
      const double dl = d - static_cast<double>(lo);
      const double dh = static_cast<double>(hi) - d;
      r = dl < dh ? lo : (dh < dl ? hi : (neg ? lo : hi));
      break;
    }
    case fp::kOdd:
      r = (fp::FloatBits(lo) & 1u) != 0 ? lo : hi;
      break;
    default:
      break;
  }
  if (std::isinf(r) && !std::isinf(d) && !fp::OverflowToInf(neg, mode)) r = neg ? -FLT_MAX : FLT_MAX;
  return r;
}

template <typename D>
inline D DoubleToInt(double d, int mode) {
  if (std::isnan(d)) return D(0);
  double r;
  switch (mode) {
    case fp::kDown:
      r = std::floor(d);
      break;
    case fp::kUp:
      r = std::ceil(d);
      break;
    case fp::kZero:
      r = std::trunc(d);
      break;
    case fp::kAway:
      r = std::round(d);
      break;
    default:
      r = std::nearbyint(d);
      break;
  }
  if (r <= static_cast<double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (r >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(r);
}

template <typename D, typename S>
inline D ConvertElem(S v, int mode) {
  const double d = ToDouble(v);  // exact for every supported source type
  if constexpr (fp::IsMiniFloat<D>::value) {
    return D::FromBits(fp::MiniEncode(fp::MiniFormatOf<D>(), d, mode));
  } else if constexpr (std::is_same<D, AscendC::int4b_t>::value) {
    const int8_t v = DoubleToInt<int8_t>(d, mode);
    return AscendC::int4b_t(static_cast<int>(v < -8 ? -8 : (v > 7 ? 7 : v)));
  } else if constexpr (std::is_same<D, bool>::value) {
    return d != 0.0;
  } else if constexpr (std::is_same<D, half>::value) {
    return half::FromBits(fp::DoubleToHalf(d, mode));
  } else if constexpr (std::is_same<D, bfloat16_t>::value) {
    // round to odd into float first keeps a single correct rounding to bf16
    return bfloat16_t::FromBits(fp::FloatToBf16(DoubleToFloat(d, fp::kOdd), mode));
  } else if constexpr (std::is_same<D, float>::value) {
    return DoubleToFloat(d, mode);
  } else if constexpr (std::is_same<D, double>::value) {
    return d;
  } else {
    return DoubleToInt<D>(d, mode);
  }
}

// Reduction steps. half sums saturate at +-65504 like the vector unit.
template <typename T>
struct ReduceTraits;
template <>
struct ReduceTraits<float> {
  static float Sum(float a, float b) { return a + b; }
};
template <>
struct ReduceTraits<half> {
  static float Sum(float a, float b) {
    const float r = static_cast<float>(half(a + b));
    if (std::isinf(r) && !std::isinf(a) && !std::isinf(b)) return r > 0 ? 65504.0f : -65504.0f;
    return r;
  }
};

enum ReduceKind : int { kReduceSum = 0, kReduceMax, kReduceMin };

template <int Kind, typename T>
inline float ReduceStep(float a, float b) {
  if constexpr (Kind == kReduceSum) return ReduceTraits<T>::Sum(a, b);
  if constexpr (Kind == kReduceMax) return b > a ? b : a;
  if constexpr (Kind == kReduceMin) return b < a ? b : a;
}

// One level of the pair tree on float sums, 4 lanes at a time:
// out[i] = in[2i] + in[2i+1] for i < m/2 (m a multiple of 8), the same
// additions in the same order as the scalar tree.
inline void PairSumLevel(float* t, size_t m) {
  using V = typename simd::Vec16<float>::type;
  using VI = typename simd::Vec16<int32_t>::type;
  for (size_t i = 0; i < m / 2; i += 4) {
    V a, b;
    std::memcpy(&a, t + 2 * i, 16);
    std::memcpy(&b, t + 2 * i + 4, 16);
    const V even = __builtin_shuffle(a, b, VI{0, 2, 4, 6});
    const V odd = __builtin_shuffle(a, b, VI{1, 3, 5, 7});
    const V r = even + odd;
    std::memcpy(t + i, &r, 16);
  }
}

template <int Kind, typename T>
inline float ReduceValues(const T* src, size_t n) {
  constexpr size_t kPerRepeat = 256 / sizeof(T);
  float tmp[kPerRepeat];
  float acc = 0.0f;
  for (size_t base = 0; base < n; base += kPerRepeat) {
    size_t m = n - base < kPerRepeat ? n - base : kPerRepeat;
    if constexpr (Kind == kReduceSum && std::is_same<T, float>::value) {
      if (m == kPerRepeat) {  // a full float repeat: vector levels down to 4 values
        std::memcpy(tmp, src + base, sizeof tmp);
        for (; m > 4; m /= 2) PairSumLevel(tmp, m);
        const float r = (tmp[0] + tmp[1]) + (tmp[2] + tmp[3]);
        acc = base == 0 ? r : acc + r;
        continue;
      }
    }
    for (size_t i = 0; i < m; ++i) tmp[i] = static_cast<float>(src[base + i]);
    while (m > 1) {  // adjacent pairs; an odd last element passes through
      const size_t half_m = m / 2;
      for (size_t i = 0; i < half_m; ++i) tmp[i] = ReduceStep<Kind, T>(tmp[2 * i], tmp[2 * i + 1]);
      if ((m & 1u) != 0) tmp[half_m] = tmp[m - 1];
      m = half_m + (m & 1u);
    }
    acc = base == 0 ? tmp[0] : ReduceStep<Kind, T>(acc, tmp[0]);
  }
  return acc;
}

template <int Kind, typename T>
inline void Reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                   int32_t count, bool calIndex, const SrcLoc& loc) {
  static_assert(kIsVecFloat<T>, "Reduce APIs support half and float");
  if (count <= 0) {
    if (count < 0) CheckFail(loc, "%s: count %d is negative", api, count);
    return;
  }
  if (static_cast<uint32_t>(count) > src.GetSize()) {
    CheckFail(loc, "%s: count %d exceeds the source LocalTensor (%u elements)", api, count, src.GetSize());
  }
  const uint32_t need = calIndex ? 2u : 1u;
  if (dst.GetSize() < need) {
    CheckFail(loc, "%s: the destination LocalTensor needs %u elements, it has %u", api, need, dst.GetSize());
  }
  const T* s = src.GetPhyAddr();
  const float v = ReduceValues<Kind, T>(s, static_cast<size_t>(count));
  T* d = dst.GetPhyAddr();
  uint32_t index = 0;
  if (calIndex) {  // first position holding the result
    for (uint32_t i = 0; i < static_cast<uint32_t>(count); ++i) {
      if (static_cast<float>(s[i]) == v) {
        index = i;
        break;
      }
    }
  }
  d[0] = T(v);
  if (calIndex) {
    if constexpr (sizeof(T) == 4) {
      std::memcpy(&d[1], &index, 4);
    } else {
      const uint16_t i16 = static_cast<uint16_t>(index);
      std::memcpy(&d[1], &i16, 2);
    }
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// Element type conversion of the first count elements.
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const RoundMode& round_mode,
                 const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::IsSupportedElem<T>::value && d::IsSupportedElem<U>::value, "Cast: unsupported data type");
  if (count == 0) return;
  d::CheckCount("Cast", static_cast<int32_t>(count), simnpuLoc, dstLocal, srcLocal);
  const int mode = d::RndOf(round_mode);
  const size_t n = count;
  if constexpr (std::is_same<T, float>::value && std::is_same<U, half>::value) {
    ::simnpu::ascendc::simd::HalfToFloatArray(dstLocal.GetPhyAddr(), d::H(srcLocal), n);
  } else if constexpr (std::is_same<T, half>::value && std::is_same<U, float>::value) {
    if (mode == ::simnpu::ascendc::fp::kRne) {
      ::simnpu::ascendc::simd::FloatToHalfArray(d::H(dstLocal), srcLocal.GetPhyAddr(), n);
    } else {
      uint16_t* o = d::H(dstLocal);
      const float* s = srcLocal.GetPhyAddr();
      for (size_t i = 0; i < n; ++i) o[i] = ::simnpu::ascendc::fp::FloatToHalf(s[i], mode);
    }
  } else if constexpr (std::is_same<T, float>::value && std::is_same<U, bfloat16_t>::value) {
    float* o = dstLocal.GetPhyAddr();
    const U* s = srcLocal.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) o[i] = static_cast<float>(s[i]);
  } else if constexpr (std::is_same<T, bfloat16_t>::value && std::is_same<U, float>::value) {
    T* o = dstLocal.GetPhyAddr();
    const float* s = srcLocal.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) o[i] = bfloat16_t::FromBits(::simnpu::ascendc::fp::FloatToBf16(s[i], mode));
  } else if constexpr (std::is_same<T, half>::value && std::is_same<U, int32_t>::value) {
    // int32 -> half scales by the SetDeqScale register; the round mode does not apply
    const double scale = static_cast<double>(d::Regs(simnpuLoc).deq_scale);
    uint16_t* o = d::H(dstLocal);
    const int32_t* s = srcLocal.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) o[i] = ::simnpu::ascendc::fp::DoubleToHalf(static_cast<double>(s[i]) * scale);
  } else if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T> || ::simnpu::ascendc::fp::kIsHalfByte<U>) {
    if ((count & 1u) != 0) {
      d::CheckFail(simnpuLoc, "Cast: count %u must be even when a 4-bit type is involved", count);
    }
    for (size_t i = 0; i < n; ++i) {
      U v;
      if constexpr (::simnpu::ascendc::fp::kIsHalfByte<U>) {
        v = U::FromBits(d::GetNibble(srcLocal.GetPhyAddr(), i));
      } else {
        v = srcLocal.GetPhyAddr()[i];
      }
      const T r = d::ConvertElem<T>(v, mode);
      if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
        d::SetNibble(dstLocal.GetPhyAddr(), i, r.ToBits());
      } else {
        dstLocal.GetPhyAddr()[i] = r;
      }
    }
  } else {
    T* o = dstLocal.GetPhyAddr();
    const U* s = srcLocal.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) o[i] = d::ConvertElem<T>(s[i], mode);
  }
}

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& workLocal,
                      const int32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)workLocal;
  ::simnpu::ascendc::detail::Reduce<::simnpu::ascendc::detail::kReduceSum>("ReduceSum", dstLocal, srcLocal, count,
                                                                          false, simnpuLoc);
}

template <typename T, bool isSetMask = true>
inline void ReduceMax(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& workLocal,
                      const int32_t count, bool calIndex = false, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)workLocal;
  ::simnpu::ascendc::detail::Reduce<::simnpu::ascendc::detail::kReduceMax>("ReduceMax", dstLocal, srcLocal, count,
                                                                          calIndex, simnpuLoc);
}

template <typename T, bool isSetMask = true>
inline void ReduceMin(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& workLocal,
                      const int32_t count, bool calIndex = false, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)workLocal;
  ::simnpu::ascendc::detail::Reduce<::simnpu::ascendc::detail::kReduceMin>("ReduceMin", dstLocal, srcLocal, count,
                                                                          calIndex, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_CAST_REDUCE_H_
