// simnpu Ascend C model: the advanced Arange (an arithmetic progression):
//   Arange<T>(dst, firstValue, diffValue, count)
// dst[i] = firstValue + i * diffValue for i < count; half, float, int16_t,
// int32_t. Floating types are computed in float per element from the index
// (no running sum, so no error builds up along the tensor) and rounded once;
// integers wrap as the vector unit's integer arithmetic does.
#ifndef SIMNPU_ASCENDC_ADV_ARANGE_H_
#define SIMNPU_ASCENDC_ADV_ARANGE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
                   SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value || std::is_same<T, int16_t>::value ||
                    std::is_same<T, int32_t>::value,
                "Arange: unsupported data type (half, float, int16_t, int32_t)");
  if (!d::CheckCount("Arange", count, simnpuLoc, dst)) return;
  T* o = dst.GetPhyAddr();
  if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type;
    for (int32_t i = 0; i < count; ++i) {
      o[i] = static_cast<T>(static_cast<U>(static_cast<U>(firstValue) + static_cast<U>(i) * static_cast<U>(diffValue)));
    }
  } else {
    const float f = static_cast<float>(firstValue), k = static_cast<float>(diffValue);
    for (int32_t i = 0; i < count; ++i) o[i] = T(f + static_cast<float>(i) * k);
  }
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_ARANGE_H_
