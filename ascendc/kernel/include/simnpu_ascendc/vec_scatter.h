// simnpu Ascend C model: Gatherb (gather by 32-byte blocks) and Scatter
// (scatter elements by byte offsets), the inverse partners of vec_gather.h.
//  - Gatherb: repeat r (1..255) gathers 8 blocks: block b is the 32 bytes
//    of src0 at byte offsetLocal[8r + b] (each offset a multiple of 32,
//    inside src0), written at dst + (r * dstRepStride + b * dstBlkStride)
//    * 32 bytes. Any element type (the blocks are copied).
//  - Scatter: element i of src goes to byte dstBaseAddr + dstOffset[i] of
//    dst (a multiple of the element size, inside dst). The count form takes
//    the first count elements; the mask forms take repeat r's active lanes
//    j of src at r * srcRepStride * 32 bytes + lane, with offset element
//    r * (256 / sizeof(T)) + j (the offsets are read densely, as Gather's).
//    Elements are written in source order, so a later duplicate wins.
#ifndef SIMNPU_ASCENDC_VEC_SCATTER_H_
#define SIMNPU_ASCENDC_VEC_SCATTER_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cstring>
#include <vector>

namespace AscendC {

struct GatherRepeatParams {
  GatherRepeatParams() {}
  GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsScatterType = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;

template <typename T>
inline void ScatterOne(uint8_t* d, uint64_t d_cap, const T& v, uint32_t base, uint32_t off, uint64_t i,
                       const SrcLoc& loc) {
  const uint64_t at = static_cast<uint64_t>(base) + off;
  if (at % sizeof(T) != 0) {
    CheckFail(loc, "Scatter: dstBaseAddr + dstOffset[%llu] = %llu bytes is not a multiple of the element size %zu",
              static_cast<unsigned long long>(i), static_cast<unsigned long long>(at), sizeof(T));
  }
  if (at + sizeof(T) > d_cap) {
    CheckFail(loc, "Scatter: dstBaseAddr + dstOffset[%llu] = %llu bytes is outside dst (%llu bytes)",
              static_cast<unsigned long long>(i), static_cast<unsigned long long>(at),
              static_cast<unsigned long long>(d_cap));
  }
  std::memcpy(d + at, &v, sizeof(T));
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& offset,
                    const uint8_t repeatTime, const GatherRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScatterType<T>, "Gatherb: unsupported data type");
  d::CheckAligned("Gatherb", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Gatherb", "src0", src0.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Gatherb", "offset", offset.GetPhyAddr(), simnpuLoc);
  if (repeatTime == 0) d::CheckFail(simnpuLoc, "Gatherb: repeatTime must be in [1, 255]");
  const uint32_t blocks = static_cast<uint32_t>(repeatTime) * 8u;
  if (blocks > offset.GetSize()) {
    d::CheckFail(simnpuLoc, "Gatherb: %u repeats read %u offsets but offset has %u elements", repeatTime, blocks,
                 offset.GetSize());
  }
  const uint64_t last =
      (static_cast<uint64_t>(repeatTime - 1) * repeatParams.dstRepStride + 7u * repeatParams.dstBlkStride) * 32u + 32u;
  if (last > dst.GetLength()) {
    d::CheckFail(simnpuLoc, "Gatherb: the destination reaches byte %llu but dst has %u bytes",
                 static_cast<unsigned long long>(last), dst.GetLength());
  }
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src0.GetPhyAddr());
  std::vector<uint8_t> tmp(static_cast<size_t>(blocks) * 32u);  // dst may overlap src0
  for (uint32_t k = 0; k < blocks; ++k) {
    const uint32_t off = offset.GetPhyAddr()[k];
    if (off % 32u != 0) {
      d::CheckFail(simnpuLoc, "Gatherb: offset[%u] = %u bytes is not a multiple of 32", k, off);
    }
    if (static_cast<uint64_t>(off) + 32u > src0.GetLength()) {
      d::CheckFail(simnpuLoc, "Gatherb: offset[%u] = %u bytes reads past src0 (%u bytes)", k, off, src0.GetLength());
    }
    std::memcpy(&tmp[static_cast<size_t>(k) * 32u], s + off, 32u);
  }
  uint8_t* o = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      std::memcpy(o + (static_cast<uint64_t>(r) * repeatParams.dstRepStride + b * repeatParams.dstBlkStride) * 32u,
                  &tmp[(static_cast<size_t>(r) * 8u + b) * 32u], 32u);
    }
  }
}

template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScatterType<T>, "Scatter: unsupported data type");
  d::CheckAligned("Scatter", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Scatter", "src", src.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Scatter", "dstOffset", dstOffset.GetPhyAddr(), simnpuLoc);
  if (count > src.GetSize() || count > dstOffset.GetSize()) {
    d::CheckFail(simnpuLoc, "Scatter: count %u exceeds src (%u) or dstOffset (%u)", count, src.GetSize(),
                 dstOffset.GetSize());
  }
  std::vector<T> vals(src.GetPhyAddr(), src.GetPhyAddr() + count);  // dst may overlap src
  uint8_t* o = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t i = 0; i < count; ++i) {
    d::ScatterOne<T>(o, dst.GetLength(), vals[i], dstBaseAddr, dstOffset.GetPhyAddr()[i], i, simnpuLoc);
  }
}

template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                    const uint8_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScatterType<T> && sizeof(T) != 8, "Scatter: unsupported data type for the mask forms");
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), mask, 0, repeatTime, true, simnpuLoc);
  d::Operand s = d::MakeOperand(src, 1, srcRepStride, "src");
  d::Prepare("Scatter", s, p, simnpuLoc);
  d::CheckAligned("Scatter", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Scatter", "dstOffset", dstOffset.GetPhyAddr(), simnpuLoc);
  std::vector<T> vals;
  std::vector<uint64_t> at;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    const uint32_t n = p.ActiveIn(r);
    for (uint32_t k = 0; k < n; ++k) {
      const uint64_t oi = static_cast<uint64_t>(r) * p.per_repeat + p.idx[k];
      if (oi >= dstOffset.GetSize()) {
        d::CheckFail(simnpuLoc, "Scatter: repeat %u reads dstOffset[%llu] but dstOffset has %u elements", r,
                     static_cast<unsigned long long>(oi), dstOffset.GetSize());
      }
      T v;
      std::memcpy(&v, s.base + s.At(r, k), sizeof(T));
      vals.push_back(v);
      at.push_back(oi);
    }
  }
  uint8_t* o = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (size_t i = 0; i < vals.size(); ++i) {
    d::ScatterOne<T>(o, dst.GetLength(), vals[i], dstBaseAddr, dstOffset.GetPhyAddr()[at[i]], at[i], simnpuLoc);
  }
}
template <typename T>
inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& dstOffset,
                    const uint32_t dstBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                    const uint8_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  uint64_t bits[2];
  ::simnpu::ascendc::detail::ContinuousMask(mask, 256 / sizeof(T), bits);
  if (::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode) {
    bits[0] = mask;
    bits[1] = 0;
  }
  Scatter(dst, src, dstOffset, dstBaseAddr, bits, repeatTime, srcRepStride, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_SCATTER_H_
