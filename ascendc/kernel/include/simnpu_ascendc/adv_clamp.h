// simnpu Ascend C model: the advanced Clamp (min and max each a scalar or a
// LocalTensor):
//   Clamp<config>(dst, src, min, max, count)
// dst[i] = src[i] if min <= src[i] <= max, min if below, max if above; a NaN
// stays NaN; where min > max every non-NaN element becomes max (the order of
// the page: the lower bound first, then the upper one). Element types: the
// 8- to 64-bit integers, half, bfloat16_t, float; min and max of the same
// type as src (a scalar is converted). (ClampMax / ClampMin, the older
// one-sided forms, are in adv_math.h.) The page lists the API for the newest
// SOC; the model offers it on all.
#ifndef SIMNPU_ASCENDC_ADV_CLAMP_H_
#define SIMNPU_ASCENDC_ADV_CLAMP_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

struct ClampConfig {
  bool isReuseSource;
};
constexpr ClampConfig DEFAULT_CLAMP_CONFIG = {false};

template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
inline void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
                  const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_integral<T>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
                    std::is_same<T, float>::value,
                "Clamp: unsupported data type (integers, half, bfloat16_t, float)");
  static_assert(!std::is_same<T, bool>::value, "Clamp: bool is not a supported data type");
  if constexpr (d::IsLocalTensor<U>::value) {
    static_assert(std::is_same<U, LocalTensor<T>>::value, "Clamp: a min tensor must have the element type of src");
    if (!d::CheckCount("Clamp", static_cast<int32_t>(count), simnpuLoc, dst, src, min)) return;
  }
  if constexpr (d::IsLocalTensor<S>::value) {
    static_assert(std::is_same<S, LocalTensor<T>>::value, "Clamp: a max tensor must have the element type of src");
    if (!d::CheckCount("Clamp", static_cast<int32_t>(count), simnpuLoc, dst, src, max)) return;
  }
  if (!d::CheckCount("Clamp", static_cast<int32_t>(count), simnpuLoc, dst, src)) return;
  T* o = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) {
    const T lo = d::WhereValue<T>(min, i);
    const T hi = d::WhereValue<T>(max, i);
    if constexpr (std::is_integral<T>::value) {
      T v = s[i] < lo ? lo : s[i];
      o[i] = v > hi ? hi : v;
    } else {
      const float x = static_cast<float>(s[i]);
      if (x != x) {
        o[i] = s[i];
        continue;
      }
      const float l = static_cast<float>(lo), h = static_cast<float>(hi);
      T v = x < l ? lo : s[i];
      o[i] = static_cast<float>(v) > h ? hi : v;
    }
  }
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_CLAMP_H_
