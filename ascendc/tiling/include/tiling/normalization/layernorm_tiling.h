// simnpu: host tiling of LayerNorm (mean and variance outputs) and RmsNorm.
// Source shape [B, S, H] (a fourth dimension, when given, is the original H
// before padding; the LayerNorm example passes {B, S, H, H}).
//
// The model computes a row (H elements) at a time in float: the minimum
// temporary space is two rows of H floats, the maximum two rows for every
// B*S row. The buffer-plan fields describe that plan.
#ifndef SIMNPU_TILING_NORMALIZATION_LAYERNORM_TILING_H_
#define SIMNPU_TILING_NORMALIZATION_LAYERNORM_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace AscendC {
namespace tiling {
using ::LayerNormTiling;
using ::RmsNormTiling;
using ::LayerNormSeparateTiling;
}  // namespace tiling

namespace simnpu_tiling_detail {
struct NormShape {
  uint32_t b = 0, s = 0, h = 0, oh = 0;
};
inline NormShape NormShapeOf(const ge::Shape& shape) {
  NormShape r;
  const size_t n = shape.GetDimNum();
  if (n >= 3) {
    r.b = static_cast<uint32_t>(shape.GetDim(0));
    r.s = static_cast<uint32_t>(shape.GetDim(1));
    r.h = static_cast<uint32_t>(shape.GetDim(2));
  } else if (n == 2) {
    r.b = 1;
    r.s = static_cast<uint32_t>(shape.GetDim(0));
    r.h = static_cast<uint32_t>(shape.GetDim(1));
  } else if (n == 1) {
    r.b = r.s = 1;
    r.h = static_cast<uint32_t>(shape.GetDim(0));
  }
  r.oh = n >= 4 ? static_cast<uint32_t>(shape.GetDim(3)) : r.h;
  if (r.oh == 0 || r.oh > r.h) r.oh = r.h;
  return r;
}
inline uint32_t NormRowBytes(uint32_t h) { return ((h * 4u + 31u) / 32u) * 32u; }
}  // namespace simnpu_tiling_detail

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  const simnpu_tiling_detail::NormShape s = simnpu_tiling_detail::NormShapeOf(srcShape);
  minValue = 2u * simnpu_tiling_detail::NormRowBytes(s.h);
  maxValue = minValue * s.b * s.s;
  if (maxValue < minValue) maxValue = minValue;
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, ::LayerNormTiling& t) {
  (void)isReuseSource;
  const simnpu_tiling_detail::NormShape s = simnpu_tiling_detail::NormShapeOf(srcShape);
  t = ::LayerNormTiling{};
  t.bLength = s.b;
  t.sLength = s.s;
  t.hLength = s.h;
  t.originalHLength = s.oh;
  t.inputXSize = s.b * s.s * s.h;
  t.meanVarSize = s.b * s.s;
  t.numberOfTmpBuf = 2;
  const uint32_t row = simnpu_tiling_detail::NormRowBytes(s.h);
  uint32_t rows = row == 0 ? 0 : stackBufferSize / (2u * row);
  if (rows == 0) rows = 1;
  if (rows > t.meanVarSize && t.meanVarSize != 0) rows = t.meanVarSize;
  t.tmpBufSize = stackBufferSize / 4u;
  t.oneTmpSize = rows * s.h;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.oneTmpSize;
  t.thirdTmpStartPos = 2u * t.oneTmpSize;
  t.meanTmpTensorPos = 0;
  t.meanTmpTensorSize = rows;
  t.varianceTmpTensorPos = rows;
  t.varianceTmpTensorSize = rows;
  t.bshCurLength = rows * s.h;
  t.bsCurLength = rows;
  t.loopRound = rows == 0 ? 0 : t.meanVarSize / rows;
  t.inputRoundSize = t.bshCurLength;
  t.inputTailSize = (t.meanVarSize - t.loopRound * rows) * s.h;
  t.inputTailPos = t.loopRound * t.bshCurLength;
  t.meanVarRoundSize = rows;
  t.meanVarTailSize = t.meanVarSize - t.loopRound * rows;
  t.meanVarTailPos = t.loopRound * rows;
  t.lastDimValueBack = s.oh == 0 ? 0.0f : 1.0f / static_cast<float>(s.oh);
  (void)typeSize;
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
  ::LayerNormTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
#define SIMNPU_SET_F(type, name) tiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_LAYERNORM_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
}

inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  (void)typeSize;
  (void)isBasicBlock;
  const simnpu_tiling_detail::NormShape s = simnpu_tiling_detail::NormShapeOf(srcShape);
  if (s.h == 0) return false;
  minValue = simnpu_tiling_detail::NormRowBytes(s.h) + 32u;
  maxValue = minValue * s.b * s.s;
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize, ::RmsNormTiling& t,
                                 const bool isBasicBlock = false) {
  (void)typeSize;
  (void)isBasicBlock;
  const simnpu_tiling_detail::NormShape s = simnpu_tiling_detail::NormShapeOf(srcShape);
  const simnpu_tiling_detail::NormShape o = simnpu_tiling_detail::NormShapeOf(originSrcShape);
  if (s.h == 0 || o.h > s.h) return false;
  const uint32_t row = simnpu_tiling_detail::NormRowBytes(s.h) + 32u;
  if (stackBufferByteSize < row) return false;
  t = ::RmsNormTiling{};
  t.bLength = s.b;
  t.sLength = s.s;
  t.hLength = s.h;
  t.originalHLength = o.h == 0 ? s.h : o.h;
  t.reciprocalOfHLength = 1.0f / static_cast<float>(t.originalHLength);
  uint32_t rows = stackBufferByteSize / row;
  const uint32_t bs = s.b * s.s;
  if (rows > bs) rows = bs;
  if (rows == 0) rows = 1;
  t.mainBsLength = rows;
  t.mainBsLengthAlign = (rows + 7u) / 8u * 8u;
  t.mainBshLength = rows * s.h;
  t.loopRound = bs / rows;
  t.inputTailPos = t.loopRound * t.mainBshLength;
  t.tailBsLength = bs - t.loopRound * rows;
  t.tailBshLength = t.tailBsLength * s.h;
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  ::RmsNormTiling t;
  if (!GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, t, isBasicBlock)) return false;
#define SIMNPU_SET_F(type, name) tiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_RMSNORM_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
  return true;
}

// ---- the LayerNorm form with rstd output: source [A, R] (R the padded
// length). The model computes a row at a time in float: one row of R floats
// is the minimum, every row the maximum (isComputeRstd / isOnlyOutput do not
// change what it needs).
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  (void)isComputeRstd;
  (void)isOnlyOutput;
  const size_t n = srcShape.GetDimNum();
  const uint32_t r = n == 0 ? 0u : static_cast<uint32_t>(srcShape.GetDim(n - 1));
  uint32_t a = n == 0 ? 0u : 1u;
  for (size_t i = 0; i + 1 < n; ++i) a *= static_cast<uint32_t>(srcShape.GetDim(i));
  minValue = simnpu_tiling_detail::NormRowBytes(r);
  maxValue = minValue * (a == 0 ? 1u : a);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     ::LayerNormSeparateTiling& t) {
  (void)typeSize;
  (void)isReuseSource;
  (void)isComputeRstd;
  const size_t n = srcShape.GetDimNum();
  const uint32_t r = n == 0 ? 0u : static_cast<uint32_t>(srcShape.GetDim(n - 1));
  uint32_t a = n == 0 ? 0u : 1u;
  for (size_t i = 0; i + 1 < n; ++i) a *= static_cast<uint32_t>(srcShape.GetDim(i));
  t = ::LayerNormSeparateTiling{};
  t.aLength = a;
  t.rLength = r;
  uint32_t head = 1;
  while (head * 2u <= r) head *= 2u;
  t.rHeadLength = r == 0 ? 0u : head;
  t.k2Rec = r == 0 ? 0.0f : 1.0f / static_cast<float>(head);
  t.k2RRec = head == 0 ? 0.0f : static_cast<float>(head) / static_cast<float>(r);
  t.inputXSize = a * r;
  t.meanVarSize = a;
  t.numberOfTmpBuf = 1;
  const uint32_t row = simnpu_tiling_detail::NormRowBytes(r);
  uint32_t rows = row == 0 ? 0u : stackBufferSize / row;
  if (rows == 0) rows = 1;
  if (a != 0 && rows > a) rows = a;
  t.tmpBufSize = stackBufferSize / 4u;
  t.oneTmpSize = rows * r;
  t.varianceTmpTensorPos = 0;
  t.varianceTmpTensorSize = rows;
  t.loopRound = rows == 0 ? 0u : a / rows;
  t.inputRoundSize = rows * r;
  t.inputTailSize = (a - t.loopRound * rows) * r;
  t.inputTailPos = t.loopRound * rows * r;
  t.meanVarRoundSize = rows;
  t.meanVarTailSize = a - t.loopRound * rows;
  t.meanVarTailPos = t.loopRound * rows;
  t.arCurLength = rows * r;
  t.aCurLength = rows;
  t.rValueBack = r == 0 ? 0.0f : 1.0f / static_cast<float>(r);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
  ::LayerNormSeparateTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, t);
#define SIMNPU_SET_F(type, name) tiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_LAYERNORM_SEPARATE_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
}

}  // namespace AscendC

#endif  // SIMNPU_TILING_NORMALIZATION_LAYERNORM_TILING_H_
