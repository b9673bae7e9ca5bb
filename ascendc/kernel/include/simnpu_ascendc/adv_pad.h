// simnpu Ascend C model: Pad and UnPad of a [height, width] LocalTensor
// along the width (the advanced API's pad family; Broadcast is in
// adv_broadcast.h).
//
// Shapes come from the tiling: srcHeight rows of srcWidth elements, rows
// stored one after the other (row r at r * srcWidth), srcOriWidth of them
// real (PadTiling). Let Wa be srcWidth rounded up to 32 bytes of T.
//  - Pad, width not 32-byte aligned (srcWidth * sizeof(T) % 32 != 0): dst
//    rows are Wa elements apart; row r is leftPad padValues, the srcWidth
//    source elements, rightPad padValues; leftPad + srcWidth + rightPad must
//    not exceed Wa (columns after them are left as they were).
//  - Pad, width aligned: dst rows are srcWidth apart, a copy of the source
//    with columns [srcOriWidth, srcOriWidth + rightPad) set to padValue;
//    only right padding (leftPad 0), srcOriWidth + rightPad <= srcWidth.
//  - UnPad: the aligned srcWidth-element rows lose their last rightPad
//    columns (0 < rightPad < 32 bytes of T); dst rows are srcWidth - rightPad
//    apart (packed). leftPad is not in effect on the device and is ignored.
// padValue (int32_t) is converted to T as a number (half: 321 -> 321.0).
// The element bits are copied, never computed: bit-exact.
#ifndef SIMNPU_ASCENDC_ADV_PAD_H_
#define SIMNPU_ASCENDC_ADV_PAD_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cstring>
#include <vector>

namespace AscendC {

struct PadParams {
  PadParams() = default;
  PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() = default;
  UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsPadType = std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                            std::is_same<T, half>::value || std::is_same<T, int32_t>::value ||
                            std::is_same<T, uint32_t>::value || std::is_same<T, float>::value;

template <typename T>
inline T PadValueAs(int32_t v) {
  if constexpr (std::is_same<T, half>::value || std::is_same<T, float>::value) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
inline void PadImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::PadParams& pp, const ::PadTiling& t, const SrcLoc& loc) {
  const uint32_t h = t.srcHeight, w = t.srcWidth;
  const uint32_t epb = 32u / sizeof(T);
  const uint32_t wa = (w + epb - 1) / epb * epb;
  const T pv = PadValueAs<T>(pp.padValue);
  NeedElems("Pad", "srcTensor", src, static_cast<uint64_t>(h) * w, loc);
  std::vector<T> rows(static_cast<size_t>(h) * w);  // dst may overlap src
  std::memcpy(rows.data(), src.GetPhyAddr(), rows.size() * sizeof(T));
  if (w % epb != 0) {
    const uint64_t total = static_cast<uint64_t>(pp.leftPad) + w + pp.rightPad;
    if (total > wa) {
      CheckFail(loc, "Pad: leftPad (%u) + srcWidth (%u) + rightPad (%u) = %llu exceeds the 32-byte aligned width %u",
                pp.leftPad, w, pp.rightPad, static_cast<unsigned long long>(total), wa);
    }
    NeedElems("Pad", "dstTensor", dst, static_cast<uint64_t>(h) * wa, loc);
    for (uint32_t r = 0; r < h; ++r) {
      T* o = dst.GetPhyAddr() + static_cast<size_t>(r) * wa;
      for (uint32_t j = 0; j < pp.leftPad; ++j) o[j] = pv;
      std::memcpy(o + pp.leftPad, rows.data() + static_cast<size_t>(r) * w, w * sizeof(T));
      for (uint32_t j = 0; j < pp.rightPad; ++j) o[pp.leftPad + w + j] = pv;
    }
    return;
  }
  const uint32_t ow = t.srcOriWidth;
  if (ow > w) CheckFail(loc, "Pad: srcOriWidth (%u) is larger than srcWidth (%u)", ow, w);
  if (ow == w) {
    CheckFail(loc, "Pad: the width (%u) is 32-byte aligned and every column is real data: nothing to pad", w);
  }
  if (pp.leftPad != 0) {
    CheckFail(loc, "Pad: leftPad must be 0 when the width (%u) is 32-byte aligned (only right padding)", w);
  }
  if (ow + static_cast<uint32_t>(pp.rightPad) > w) {
    CheckFail(loc, "Pad: srcOriWidth (%u) + rightPad (%u) exceeds srcWidth (%u)", ow, pp.rightPad, w);
  }
  NeedElems("Pad", "dstTensor", dst, static_cast<uint64_t>(h) * w, loc);
  std::memcpy(dst.GetPhyAddr(), rows.data(), rows.size() * sizeof(T));
  for (uint32_t r = 0; r < h; ++r) {
    T* o = dst.GetPhyAddr() + static_cast<size_t>(r) * w;
    for (uint32_t j = 0; j < pp.rightPad; ++j) o[ow + j] = pv;
  }
}

template <typename T>
inline void UnPadImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::UnPadParams& up, const ::UnPadTiling& t, const SrcLoc& loc) {
  const uint32_t h = t.srcHeight, w = t.srcWidth;
  const uint32_t epb = 32u / sizeof(T);
  if (w % epb != 0) {
    CheckFail(loc, "UnPad: srcWidth (%u) * sizeof(T) must be a multiple of 32 bytes", w);
  }
  if (up.rightPad == 0 || up.rightPad >= epb || up.rightPad > w) {
    CheckFail(loc, "UnPad: rightPad (%u) must be in [1, %u] (less than 32 bytes of the element type)", up.rightPad,
              epb - 1);
  }
  const uint32_t ow = w - up.rightPad;
  NeedElems("UnPad", "srcTensor", src, static_cast<uint64_t>(h) * w, loc);
  NeedElems("UnPad", "dstTensor", dst, static_cast<uint64_t>(h) * ow, loc);
  // rows move towards the start: a forward row-by-row memmove is safe in place
  for (uint32_t r = 0; r < h; ++r) {
    std::memmove(dst.GetPhyAddr() + static_cast<size_t>(r) * ow, src.GetPhyAddr() + static_cast<size_t>(r) * w,
                 ow * sizeof(T));
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPadType<T>,
                "Pad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  ::simnpu::ascendc::detail::CheckTmp("Pad", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::PadImpl(dstTensor, srcTensor, padParams, tiling, simnpuLoc);
}
template <typename T>
inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                PadTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPadType<T>,
                "Pad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  ::simnpu::ascendc::detail::PadImpl(dstTensor, srcTensor, padParams, tiling, simnpuLoc);
}

template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPadType<T>,
                "UnPad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  ::simnpu::ascendc::detail::CheckTmp("UnPad", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::UnPadImpl(dstTensor, srcTensor, unPadParams, tiling, simnpuLoc);
}
template <typename T>
inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                  UnPadTiling& tiling, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsPadType<T>,
                "UnPad: unsupported data type (int16_t, uint16_t, half, int32_t, uint32_t, float)");
  ::simnpu::ascendc::detail::UnPadImpl(dstTensor, srcTensor, unPadParams, tiling, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_PAD_H_
