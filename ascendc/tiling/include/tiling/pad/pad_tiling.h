// simnpu: host tiling of Pad and UnPad (the Pad Tiling / UnPad Tiling
// pages): source shape [height, width] (the real width in oriSrcShape).
//
// The model pads and unpads a row at a time with plain copies and needs no
// temporary space; the sizes reported are those of one 32-byte aligned row
// (minimum) and of the whole aligned tensor (maximum), so programs that
// allocate what they are told keep working. The buffer-plan fields describe
// that row-at-a-time plan: heightTiling rows per pass.
#ifndef SIMNPU_TILING_PAD_PAD_TILING_H_
#define SIMNPU_TILING_PAD_PAD_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace tiling {
using ::PadTiling;
using ::UnPadTiling;
}  // namespace tiling

namespace simnpu_tiling_detail {
inline void PadShape(const ge::Shape& s, uint32_t& h, uint32_t& w) {
  const size_t n = s.GetDimNum();
  w = n == 0 ? 0u : static_cast<uint32_t>(s.GetDim(n - 1));
  h = n == 0 ? 0u : 1u;
  for (size_t i = 0; i + 1 < n; ++i) h *= static_cast<uint32_t>(s.GetDim(i));
}
inline uint32_t PadRowBytes(uint32_t w, uint32_t typeSize) { return (w * typeSize + 31u) / 32u * 32u; }
}  // namespace simnpu_tiling_detail

inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
  uint32_t h = 0, w = 0;
  simnpu_tiling_detail::PadShape(srcShape, h, w);
  minValue = simnpu_tiling_detail::PadRowBytes(w, typeSize);
  maxValue = minValue * (h == 0 ? 1u : h);
}

inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, ::PadTiling& t) {
  uint32_t h = 0, w = 0, oh = 0, ow = 0;
  simnpu_tiling_detail::PadShape(srcShape, h, w);
  simnpu_tiling_detail::PadShape(oriSrcShape, oh, ow);
  (void)oh;
  t = ::PadTiling{};
  t.srcHeight = h;
  t.srcWidth = w;
  t.srcOriWidth = ow == 0 ? w : ow;
  const uint32_t row = simnpu_tiling_detail::PadRowBytes(w, typeSize == 0 ? 1u : typeSize);
  t.blocksPerRow = row / 32u;
  t.widthWithoutLastBlock = typeSize == 0 || t.blocksPerRow == 0 ? 0u : (t.blocksPerRow - 1u) * 32u / typeSize;
  uint32_t rows = row == 0 ? 0u : stackBufferSize / row;
  if (rows == 0) rows = 1;
  if (h != 0 && rows > h) rows = h;
  t.heightTiling = rows;
  t.heightFractal = rows == 0 ? 0u : h / rows;
  t.heightFractalTail = h - t.heightFractal * rows;
  t.mainLoopOffset = rows * w;
  t.tailBlockOffset = t.heightFractal * rows * w;
  t.maxRepeatTimes = 255;
}

inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
  ::PadTiling t;
  PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, t);
#define SIMNPU_SET_F(type, name) tiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_PAD_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            ::UnPadTiling& t) {
  uint32_t h = 0, w = 0;
  simnpu_tiling_detail::PadShape(srcShape, h, w);
  t = ::UnPadTiling{};
  t.srcHeight = h;
  t.srcWidth = w;
  const uint32_t row = simnpu_tiling_detail::PadRowBytes(w, typeSize == 0 ? 1u : typeSize);
  uint32_t rows = row == 0 ? 0u : stackBufferSize / row;
  if (rows == 0) rows = 1;
  if (h != 0 && rows > h) rows = h;
  t.tmpBuffer1RowNum = rows;
  t.tmpBuffer1BlockNum = rows * (row / 32u);
  t.tmpBuffer2Offset = rows * row;
  t.widthTiling = w;
  t.widthFractal = 1;
  t.widthFractalTail = 0;
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
  ::UnPadTiling t;
  UnPadTilingFunc(srcShape, stackBufferSize, typeSize, t);
#define SIMNPU_SET_F(type, name) tiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_UNPAD_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
}

}  // namespace AscendC

#endif  // SIMNPU_TILING_PAD_PAD_TILING_H_
