// simnpu Ascend C model: shared helpers of the advanced ("high-level") API
// families (adv_*.h): element loops over half/float/bfloat16 in float, and
// the size checks of row-shaped operands. The advanced APIs accept a
// sharedTmpBuffer like the devkit's, and need none: it is checked to be a
// LocalTensor of the unified buffer with its start 32-byte aligned, and not
// otherwise used (so results never depend on its size or contents).
#ifndef SIMNPU_ASCENDC_ADV_COMMON_H_
#define SIMNPU_ASCENDC_ADV_COMMON_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <memory>

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsAdvFloat = std::is_same<T, half>::value || std::is_same<T, float>::value;
template <typename T>
constexpr bool kIsAdvFloatBf = kIsAdvFloat<T> || std::is_same<T, bfloat16_t>::value;

inline void CheckTmp(const char* api, const AscendC::LocalTensor<uint8_t>& tmp, const SrcLoc& loc) {
  CheckAligned(api, "sharedTmpBuffer", tmp.GetPhyAddr(), loc);
}

// The operand must hold `need` elements.
template <typename T>
inline void NeedElems(const char* api, const char* what, const AscendC::LocalTensor<T>& t, uint64_t need,
                      const SrcLoc& loc) {
  CheckAligned(api, what, t.GetPhyAddr(), loc);
  if (__builtin_expect(need > t.GetSize(), 0)) {
    CheckFail(loc, "%s: %s needs %llu elements, its LocalTensor has %u", api, what,
              static_cast<unsigned long long>(need), t.GetSize());
  }
}

// dst[i] = f(src[i]) for i < n, computed in double for float types (rounded
// once to T), in float-from-T for half and bfloat16 (rounded once to T).
template <typename T, typename F>
inline void MapUnary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     uint32_t n, const SrcLoc& loc, F&& f) {
  if (!CheckCount(api, static_cast<int32_t>(n), loc, dst, src)) return;
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) d[i] = T(static_cast<float>(f(static_cast<double>(static_cast<float>(s[i])))));
}

template <typename T, typename F>
inline void MapBinary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                      const AscendC::LocalTensor<T>& b, uint32_t n, const SrcLoc& loc, F&& f) {
  if (!CheckCount(api, static_cast<int32_t>(n), loc, dst, a, b)) return;
  T* d = dst.GetPhyAddr();
  const T* x = a.GetPhyAddr();
  const T* y = b.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) {
    d[i] = T(static_cast<float>(f(static_cast<double>(static_cast<float>(x[i])), static_cast<double>(static_cast<float>(y[i])))));
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

// Four overloads of an element-wise unary advanced API computing FN(x).
#define SIMNPU_ADV_UNARY(Name, FN)                                                                          \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                       \
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                   \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                              \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::CheckTmp(#Name, sharedTmpBuffer, simnpuLoc);                                 \
    ::simnpu::ascendc::detail::MapUnary(#Name, dstTensor, srcTensor, calCount, simnpuLoc,                   \
                                        [](double x) { return FN; });                                       \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                       \
                   const LocalTensor<uint8_t>& sharedTmpBuffer, SIMNPU_ASCENDC_LOC_PARAM) {                 \
    Name<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), simnpuLoc);           \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount, \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                              \
    static_assert(::simnpu::ascendc::detail::kIsAdvFloatBf<T>, #Name ": unsupported data type (half, float)"); \
    ::simnpu::ascendc::detail::MapUnary(#Name, dstTensor, srcTensor, calCount, simnpuLoc,                   \
                                        [](double x) { return FN; });                                       \
  }                                                                                                         \
  template <typename T, bool isReuseSource = false>                                                        \
  inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, SIMNPU_ASCENDC_LOC_PARAM) { \
    Name<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), simnpuLoc);                            \
  }

#endif  // SIMNPU_ASCENDC_ADV_COMMON_H_
