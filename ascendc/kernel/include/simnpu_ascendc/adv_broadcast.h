// simnpu Ascend C model: Broadcast and DropOut.
//
//   Broadcast<T, dim, axis>: dim 1: src [1] -> dst [n]; dim 2, axis 0:
//     src [1, n] -> dst [m, n] (the row repeated); axis 1: src [m, 1] ->
//     dst [m, n] (each value along its row). Exact copies.
//   DropOut<T, isInitBitMode, dropOutMode>: [firstAxis, srcLastAxis] source,
//     mask bytes (byte mode: one per element, non-zero keeps) or mask bits
//     (bit mode: bit j % 8 of byte j / 8 of the row, 1 keeps); kept elements
//     become src / keepProb (in float, rounded once), the others 0. Byte mode
//     when maskLastAxis >= srcLastAxis (dropOutMode 0), or dropOutMode 1;
//     bit mode otherwise, or dropOutMode 2.
#ifndef SIMNPU_ASCENDC_ADV_BROADCAST_H_
#define SIMNPU_ASCENDC_ADV_BROADCAST_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
  d::CheckTmp("Broadcast", sharedTmpBuffer, simnpuLoc);
  if constexpr (dim == 1) {
    if (srcShape[0] != 1) d::CheckFail(simnpuLoc, "Broadcast: srcShape[0] is %u, it must be 1 for dim 1", srcShape[0]);
    d::NeedElems("Broadcast", "dstLocal", dstLocal, dstShape[0], simnpuLoc);
    d::NeedElems("Broadcast", "srcLocal", srcLocal, 1, simnpuLoc);
    const T v = srcLocal.GetPhyAddr()[0];
    for (uint32_t i = 0; i < dstShape[0]; ++i) dstLocal.GetPhyAddr()[i] = v;
  } else {
    const uint32_t m = dstShape[0], n = dstShape[1];
    const bool ok = axis == 0 ? (srcShape[0] == 1 && srcShape[1] == n) : (srcShape[0] == m && srcShape[1] == 1);
    if (!ok) {
      d::CheckFail(simnpuLoc, "Broadcast: srcShape [%u, %u] does not broadcast to dstShape [%u, %u] along axis %d",
                   srcShape[0], srcShape[1], m, n, axis);
    }
    d::NeedElems("Broadcast", "dstLocal", dstLocal, static_cast<uint64_t>(m) * n, simnpuLoc);
    d::NeedElems("Broadcast", "srcLocal", srcLocal, axis == 0 ? n : m, simnpuLoc);
    const T* s = srcLocal.GetPhyAddr();
    T* o = dstLocal.GetPhyAddr();
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t c = 0; c < n; ++c) o[static_cast<size_t>(r) * n + c] = axis == 0 ? s[c] : s[r];
    }
  }
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
inline void Broadcast(LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
                      const uint32_t srcShape[dim], SIMNPU_ASCENDC_LOC_PARAM) {
  LocalTensor<uint8_t> none = srcLocal.template ReinterpretCast<uint8_t>();
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, none, simnpuLoc);
}

struct DropOutShapeInfo {
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "DropOut: unsupported data type (half, float)");
  d::CheckTmp("DropOut", sharedTmpBuffer, simnpuLoc);
  if (!(keepProb > 0.0f && keepProb <= 1.0f)) d::CheckFail(simnpuLoc, "DropOut: keepProb %g is outside (0, 1]", keepProb);
  const bool bytes = dropOutMode == 1 || (dropOutMode != 2 && info.maskLastAxis >= info.srcLastAxis);
  const uint64_t n = static_cast<uint64_t>(info.firstAxis) * info.srcLastAxis;
  d::NeedElems("DropOut", "srcLocal", srcLocal, n, simnpuLoc);
  d::NeedElems("DropOut", "dstLocal", dstLocal, n, simnpuLoc);
  const uint64_t mrow = bytes ? info.maskLastAxis : info.maskLastAxis;
  if (bytes ? info.maskLastAxis < info.srcLastAxis : static_cast<uint64_t>(info.maskLastAxis) * 8u < info.srcLastAxis) {
    d::CheckFail(simnpuLoc, "DropOut: maskLastAxis %u is too small for srcLastAxis %u (%s mode)", info.maskLastAxis,
                 info.srcLastAxis, bytes ? "byte" : "bit");
  }
  d::NeedElems("DropOut", "maskLocal", maskLocal, static_cast<uint64_t>(info.firstAxis) * mrow, simnpuLoc);
  const uint8_t* m = maskLocal.GetPhyAddr();
  for (uint32_t r = 0; r < info.firstAxis; ++r) {
    for (uint32_t c = 0; c < info.srcLastAxis; ++c) {
      const size_t i = static_cast<size_t>(r) * info.srcLastAxis + c;
      const uint8_t* mr = m + static_cast<size_t>(r) * mrow;
      const bool keep = bytes ? mr[c] != 0 : ((mr[c / 8] >> (c % 8)) & 1u) != 0;
      dstLocal.GetPhyAddr()[i] = keep ? T(static_cast<float>(srcLocal.GetPhyAddr()[i]) / keepProb) : T(0.0f);
    }
  }
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info, SIMNPU_ASCENDC_LOC_PARAM) {
  DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, maskLocal, keepProb, info, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_BROADCAST_H_
