// simnpu Ascend C model: the high-dimension form of Cast (mask +
// repeatTime + UnaryRepeatParams; the repeat counts elements of the wider of
// the two types, as the Cast page says) and SetDeqScale, the scale an
// int32_t -> half Cast multiplies by. Element conversion is the count form's
// (cast_reduce.h): one correct rounding in the requested direction.
#ifndef SIMNPU_ASCENDC_VEC_CAST_H_
#define SIMNPU_ASCENDC_VEC_CAST_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T, typename U>
inline void CastPacked(uint8_t* const* p, size_t n, int mode, float deq) {
  T* d = reinterpret_cast<T*>(p[0]);
  const U* s = reinterpret_cast<const U*>(p[1]);
  if constexpr (std::is_same<T, half>::value && std::is_same<U, int32_t>::value) {
    for (size_t i = 0; i < n; ++i) d[i] = half::FromBits(fp::DoubleToHalf(static_cast<double>(s[i]) * deq));
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = ConvertElem<T>(s[i], mode);
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::IsSupportedElem<T>::value && d::IsSupportedElem<U>::value, "Cast: unsupported data type");
  static_assert(!::simnpu::ascendc::fp::kIsHalfByte<T> && !::simnpu::ascendc::fp::kIsHalfByte<U>,
                "Cast: the high-dimension form of a 4-bit Cast is not modelled; use the count form");
  const int mode = d::RndOf(roundMode);
  const float deq = d::Regs(simnpuLoc).deq_scale;
  d::Level0Unary<T, U, isSetMask>("Cast", dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc,
                                  [mode, deq](uint8_t* const* p, size_t n) { d::CastPacked<T, U>(p, n, mode, deq); });
}

template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::IsSupportedElem<T>::value && d::IsSupportedElem<U>::value, "Cast: unsupported data type");
  static_assert(!::simnpu::ascendc::fp::kIsHalfByte<T> && !::simnpu::ascendc::fp::kIsHalfByte<U>,
                "Cast: the high-dimension form of a 4-bit Cast is not modelled; use the count form");
  const int mode = d::RndOf(roundMode);
  const float deq = d::Regs(simnpuLoc).deq_scale;
  d::Level0Unary<T, U, isSetMask>("Cast", dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc,
                                  [mode, deq](uint8_t* const* p, size_t n) { d::CastPacked<T, U>(p, n, mode, deq); });
}

// Scale of the int32_t -> half Cast (dst = half(src * scale)).
inline void SetDeqScale(half scale, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::Regs(simnpuLoc).deq_scale = static_cast<float>(scale);
}
inline void SetDeqScale(float scale, int16_t offset, bool signMode, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)offset;
  (void)signMode;
  ::simnpu::ascendc::detail::Regs(simnpuLoc).deq_scale = scale;
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_CAST_H_
