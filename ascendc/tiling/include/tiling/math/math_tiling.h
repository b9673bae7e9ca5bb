// simnpu: temporary-space sizes of the element-wise advanced APIs
// (Get<Api>MaxMinTmpSize). The model needs no temporary space for them; the
// sizes returned are those of a computation in float one vector repeat
// (256 bytes) at a time (minimum) or all at once (maximum: 4 bytes per
// element, rounded up to 32 bytes, never below the minimum), so that
// programs which allocate the space they are told to allocate keep working.
#ifndef SIMNPU_TILING_MATH_MATH_TILING_H_
#define SIMNPU_TILING_MATH_MATH_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {
namespace simnpu_tiling_detail {
inline void ElementwiseTmp(const ge::Shape& s, uint32_t& maxValue, uint32_t& minValue) {
  const int64_t n = s.GetShapeSize();
  const uint64_t bytes = n > 0 ? (static_cast<uint64_t>(n) * 4u + 31u) / 32u * 32u : 0u;
  minValue = 256u;
  maxValue = bytes < 256u ? 256u : static_cast<uint32_t>(bytes > 0xffffffe0u ? 0xffffffe0u : bytes);
}
}  // namespace simnpu_tiling_detail

#define SIMNPU_ELEMENTWISE_TMP(Api)                                                                       \
  inline void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                 \
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
    (void)typeSize;                                                                                       \
    (void)isReuseSource;                                                                                  \
    simnpu_tiling_detail::ElementwiseTmp(srcShape, maxValue, minValue);                                   \
  }                                                                                                       \
  inline void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                 \
                                      uint32_t& maxValue, uint32_t& minValue,                             \
                                      const bool isReuseSource = false) {                                 \
    (void)typeSize;                                                                                       \
    (void)isReuseSource;                                                                                  \
    simnpu_tiling_detail::ElementwiseTmp(srcShape, maxValue, minValue);                                   \
  }

SIMNPU_ELEMENTWISE_TMP(Sigmoid)
SIMNPU_ELEMENTWISE_TMP(Gelu)
SIMNPU_ELEMENTWISE_TMP(SwiGLU)
SIMNPU_ELEMENTWISE_TMP(GeGLU)
SIMNPU_ELEMENTWISE_TMP(Silu)
SIMNPU_ELEMENTWISE_TMP(Swish)
SIMNPU_ELEMENTWISE_TMP(Erf)
SIMNPU_ELEMENTWISE_TMP(Erfc)
SIMNPU_ELEMENTWISE_TMP(Exp)
SIMNPU_ELEMENTWISE_TMP(Log)
SIMNPU_ELEMENTWISE_TMP(Tanh)
SIMNPU_ELEMENTWISE_TMP(Sin)
SIMNPU_ELEMENTWISE_TMP(Cos)
SIMNPU_ELEMENTWISE_TMP(Atan)
SIMNPU_ELEMENTWISE_TMP(Power)
SIMNPU_ELEMENTWISE_TMP(Clamp)
SIMNPU_ELEMENTWISE_TMP(AscendQuant)
SIMNPU_ELEMENTWISE_TMP(AscendDequant)
SIMNPU_ELEMENTWISE_TMP(AscendAntiQuant)
SIMNPU_ELEMENTWISE_TMP(CumSum)
SIMNPU_ELEMENTWISE_TMP(Xor)
SIMNPU_ELEMENTWISE_TMP(Axpy)
#undef SIMNPU_ELEMENTWISE_TMP

// The one-sided forms of the Gelu page: the minimum and the maximum alone.
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, false, maxValue, minValue);
  return minValue;
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  GetGeluMaxMinTmpSize(srcShape, typeSize, false, maxValue, minValue);
  return maxValue;
}

// CumSum with the axis flag of the page (isLastAxis: the sum runs along the
// inner axis); the sizes do not depend on it in the model.
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                   const bool isLastAxis, uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  (void)isLastAxis;
  simnpu_tiling_detail::ElementwiseTmp(srcShape, maxValue, minValue);
}

// Sum: n is the number of elements of one row that are summed. The page says
// the maximum equals the minimum; the model asks for one vector repeat of
// float per row-chunk, a fixed 256 bytes (never 0, so a TBuf of that size
// can be made).
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
  (void)n;
  (void)typeSize;
  (void)isReuseSource;
  minValue = 256u;
  maxValue = 256u;
}

}  // namespace AscendC

#endif  // SIMNPU_TILING_MATH_MATH_TILING_H_
