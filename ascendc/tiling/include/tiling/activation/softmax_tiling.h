// simnpu: host tiling of the SoftMax family (SoftMax/SimpleSoftMax,
// SoftmaxFlash, SoftmaxFlashV2): temporary-space sizes and the tiling
// struct, for the source shape [m0, ..., mt, k] seen as [m, k].
//
// The model computes a row at a time in float, so the space it would need is
// one row of k floats plus one 32-byte block (the row's max and sum): that is
// the minimum; the maximum is the whole source, m such rows. splitM is how
// many rows fit in the space given (at least 1, at most m).
#ifndef SIMNPU_TILING_ACTIVATION_SOFTMAX_TILING_H_
#define SIMNPU_TILING_ACTIVATION_SOFTMAX_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace AscendC {
namespace tiling {
using ::SoftMaxTiling;
}  // namespace tiling

namespace simnpu_tiling_detail {
inline void SoftMaxShape(const ge::Shape& s, uint32_t& m, uint32_t& k) {
  const size_t n = s.GetDimNum();
  k = n == 0 ? 0u : static_cast<uint32_t>(s.GetDim(n - 1));
  m = n == 0 ? 0u : 1u;
  for (size_t i = 0; i + 1 < n; ++i) m *= static_cast<uint32_t>(s.GetDim(i));
}
inline uint32_t SoftMaxRowBytes(uint32_t k) { return ::simnpu::tiling::SoftMaxRowBytes(k); }
}  // namespace simnpu_tiling_detail

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)dataTypeSize;
  (void)isReuseSource;
  uint32_t m = 0, k = 0;
  simnpu_tiling_detail::SoftMaxShape(srcShape, m, k);
  return m == 0 ? 0u : simnpu_tiling_detail::SoftMaxRowBytes(k);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)dataTypeSize;
  (void)isReuseSource;
  uint32_t m = 0, k = 0;
  simnpu_tiling_detail::SoftMaxShape(srcShape, m, k);
  return m * simnpu_tiling_detail::SoftMaxRowBytes(k);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, ::SoftMaxTiling& t) {
  uint32_t m = 0, k = 0;
  simnpu_tiling_detail::SoftMaxShape(srcShape, m, k);
  t = ::simnpu::tiling::SoftMaxPlan(m, k, dataTypeSize == 0 ? 8u : 32u / dataTypeSize, localWorkSpaceSize);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling) {
  ::SoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
#define SIMNPU_SET_F(type, name) softmaxTiling.set_##name(t.name);
#define SIMNPU_SET_A(type, count, name)
#define SIMNPU_SET_S(type, name)
  SIMNPU_SOFTMAX_TILING_FIELDS(SIMNPU_SET_F, SIMNPU_SET_A, SIMNPU_SET_S)
#undef SIMNPU_SET_F
#undef SIMNPU_SET_A
#undef SIMNPU_SET_S
}

// SoftmaxFlashV2 and SoftmaxFlash use the same plan (their extra inputs and
// outputs are per-row blocks like max and sum).
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize1, false);
}
inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize1, false);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  SoftMaxTilingFunc(srcShape, dataTypeSize2 != 0 ? dataTypeSize2 : dataTypeSize1, localWorkSpaceSize,
                    softmaxFlashTiling);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     ::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  SoftMaxTilingFunc(srcShape, dataTypeSize2 != 0 ? dataTypeSize2 : dataTypeSize1, localWorkSpaceSize,
                    softmaxFlashTiling);
}

// SoftmaxGrad uses the SoftMax plan.
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
  (void)isFront;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
  (void)isFront;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}

// True when the tiling's rows are whole 64-element multiples and splitM a
// multiple of 8 (the "basic block" of the SoftMax pages).
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  (void)dataTypeSize;
  return tiling.get_srcK() % 64 == 0 && tiling.get_srcK() <= 2048 && tiling.get_splitM() % 8 == 0;
}

}  // namespace AscendC

#endif  // SIMNPU_TILING_ACTIVATION_SOFTMAX_TILING_H_
