// simnpu Ascend C model: the compound element-wise instructions (count form):
//   AddRelu(dst, src0, src1, count)   dst = max(src0 + src1, 0)
//   SubRelu(dst, src0, src1, count)   dst = max(src0 - src1, 0)
//   Axpy<T, U>(dst, src, scalar, count)
//                                     dst = dst + src * scalar (dst is read:
//                                     it is the accumulator), T == U for half
//                                     and float, or T float with U half (the
//                                     mixed form, src widened)
//   Axpy(dst, src, scalar, sharedTmpBuffer, count)
//                                     the advanced form with a temporary
//                                     buffer: the same result (the model needs
//                                     no temporary space; the buffer is only
//                                     checked to be a local tensor).
// half and float (AddRelu / SubRelu also int16_t). The arithmetic is done in
// float and rounded once to the destination type, which for one add or sub
// of two halves is the correctly rounded half result; the product and sum of
// Axpy are rounded once (a fused multiply-add), as the vector unit's
// multiply-accumulate does.
#ifndef SIMNPU_ASCENDC_VEC_COMPOUND_H_
#define SIMNPU_ASCENDC_VEC_COMPOUND_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cmath>

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsCompoundType = std::is_same<T, half>::value || std::is_same<T, float>::value ||
                                 std::is_same<T, int16_t>::value;

template <typename T, bool kSub>
inline void AddSubRelu(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                       const AscendC::LocalTensor<T>& src1, int32_t count, const SrcLoc& loc) {
  if (!CheckCount(api, count, loc, dst, src0, src1)) return;
  T* o = dst.GetPhyAddr();
  const T* a = src0.GetPhyAddr();
  const T* b = src1.GetPhyAddr();
  for (int32_t i = 0; i < count; ++i) {
    if constexpr (std::is_same<T, int16_t>::value) {
      const int32_t v = kSub ? int32_t(a[i]) - int32_t(b[i]) : int32_t(a[i]) + int32_t(b[i]);
      const int32_t r = v < 0 ? 0 : (v > 32767 ? 32767 : v);  // saturating, as the int16 vector add does
      o[i] = static_cast<int16_t>(r);
    } else {
      const float v = kSub ? static_cast<float>(a[i]) - static_cast<float>(b[i])
                           : static_cast<float>(a[i]) + static_cast<float>(b[i]);
      const T r = T(v);
      o[i] = static_cast<float>(r) > 0.0f ? r : T(0.0f);
    }
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void AddRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                    const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsCompoundType<T>, "AddRelu: unsupported data type (half, float, int16_t)");
  ::simnpu::ascendc::detail::AddSubRelu<T, false>("AddRelu", dst, src0, src1, count, simnpuLoc);
}
template <typename T, bool isSetMask = true>
inline void SubRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                    const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsCompoundType<T>, "SubRelu: unsupported data type (half, float, int16_t)");
  ::simnpu::ascendc::detail::AddSubRelu<T, true>("SubRelu", dst, src0, src1, count, simnpuLoc);
}

template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, const int32_t& count,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert((std::is_same<T, U>::value && (std::is_same<T, half>::value || std::is_same<T, float>::value)) ||
                    (std::is_same<T, float>::value && std::is_same<U, half>::value),
                "Axpy: unsupported data types (half/half, float/float, float/half)");
  if (!d::CheckCount("Axpy", count, simnpuLoc, dst, src)) return;
  T* o = dst.GetPhyAddr();
  const U* s = src.GetPhyAddr();
  const float k = static_cast<float>(scalarValue);
  for (int32_t i = 0; i < count; ++i) o[i] = T(std::fmaf(static_cast<float>(s[i]), k, static_cast<float>(o[i])));
}
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)sharedTmpBuffer;
  Axpy<T, U>(dst, src, scalarValue, static_cast<int32_t>(count), simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_COMPOUND_H_
