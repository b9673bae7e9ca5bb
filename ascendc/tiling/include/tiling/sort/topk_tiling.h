// simnpu: host tiling of TopK (the TopK Tiling page). The model selects a
// row at a time and needs no temporary space; the sizes reported are those
// of one row of (value, index) pairs (minimum: inner * 8 bytes, rounded to
// 32) and of every row (maximum), so programs that allocate what they are
// told keep working. TopkTiling's fields are the sizes of that plan; the
// kernel's TopK reads none of them (the shape is its TopKInfo).
#ifndef SIMNPU_TILING_SORT_TOPK_TILING_H_
#define SIMNPU_TILING_SORT_TOPK_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
namespace tiling {
using ::TopkTiling;
}  // namespace tiling

#ifndef SIMNPU_TOPK_MODE_DEFINED
#define SIMNPU_TOPK_MODE_DEFINED
enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};
#endif

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  (void)isInitIndex;
  (void)isLargest;
  if (inner <= 0 || inner % 32 != 0 || outter <= 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
  if (mode == TopKMode::TOPK_NSMALL && inner != 32) return false;
  minValue = static_cast<uint32_t>(inner) * 8u;
  maxValue = minValue * static_cast<uint32_t>(outter);
  return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, ::TopkTiling& t) {
  uint32_t mx = 0, mn = 0;
  if (!GetTopKMaxMinTmpSize(ascendcPlatform, inner, outter, false, isInitIndex, mode, isLargest, dataTypeSize, mx, mn)) {
    return false;
  }
  if (k < 1 || k > inner) return false;
  t = ::TopkTiling{};
  t.tmpLocalSize = static_cast<int32_t>(mn / dataTypeSize);
  t.allDataSize = inner * outter;
  t.innerDataSize = inner;
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  t.mrgSortRepeat = inner / 32;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  t.kAlignTwoBytes = (k + 15) / 16 * 16;
  t.srcIndexOffset = mode == TopKMode::TOPK_NSMALL ? inner * outter : inner;
  t.topkNSmallSrcIndexOffset = inner * outter;
  return true;
}
inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
  ::TopkTiling t;
  if (!TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t)) return false;
#define SIMNPU_SET_F(type, name) topKTiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_TOPK_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
  return true;
}

}  // namespace AscendC

#endif  // SIMNPU_TILING_SORT_TOPK_TILING_H_
