// simnpu Ascend C model: gather and broadcast-style vector APIs: Gather (by
// byte offsets), Brcb (one element per 32-byte block), CreateVecIndex
// (first + i) and Transpose (16 x 16 of a 2-byte type).
//  - Gather: dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src;
//    every offset must be a multiple of the element size and inside src;
//  - Brcb: repeat r takes src elements 8r .. 8r+7 and fills block b of the
//    destination (at (r * dstRepStride + b * dstBlkStride) * 32) with element
//    8r + b;
//  - Transpose: dst[j * 16 + i] = src[i * 16 + j] for one 16 x 16 tile.
#ifndef SIMNPU_ASCENDC_VEC_GATHER_H_
#define SIMNPU_ASCENDC_VEC_GATHER_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() {}
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
inline void GatherOne(uint8_t* d, const uint8_t* s, uint64_t s_cap, uint32_t base, uint32_t off, uint32_t i,
                      const SrcLoc& loc) {
  const uint64_t at = static_cast<uint64_t>(base) + off;
  if (at % sizeof(T) != 0) {
    CheckFail(loc, "Gather: srcBaseAddr + srcOffset[%u] = %llu bytes is not a multiple of the element size %zu", i,
              static_cast<unsigned long long>(at), sizeof(T));
  }
  if (at + sizeof(T) > s_cap) {
    CheckFail(loc, "Gather: srcBaseAddr + srcOffset[%u] = %llu bytes is outside src (%llu bytes)", i,
              static_cast<unsigned long long>(at), static_cast<unsigned long long>(s_cap));
  }
  std::memcpy(d, s + at, sizeof(T));
}

template <typename T>
constexpr bool kIsGatherType = sizeof(T) == 2 || sizeof(T) == 4;

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsGatherType<T>, "Gather: unsupported data type (16- and 32-bit types)");
  d::CheckAligned("Gather", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Gather", "src", src.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Gather", "srcOffset", srcOffset.GetPhyAddr(), simnpuLoc);
  if (count > dst.GetSize() || count > srcOffset.GetSize()) {
    d::CheckFail(simnpuLoc, "Gather: count %u exceeds dst (%u) or srcOffset (%u)", count, dst.GetSize(), srcOffset.GetSize());
  }
  uint8_t* o = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  const uint32_t* offs = srcOffset.GetPhyAddr();
  // gather into a temporary: dst may overlap src
  std::vector<T> tmp(count);
  for (uint32_t i = 0; i < count; ++i) {
    d::GatherOne<T>(reinterpret_cast<uint8_t*>(&tmp[i]), s, src.GetLength(), srcBaseAddr, offs[i], i, simnpuLoc);
  }
  if (count != 0) std::memcpy(o, tmp.data(), count * sizeof(T));
}

// High-dimension Gather: repeat r writes its active elements at
// dst + r * dstRepStride * 32; offsets are read densely (element r * per + j).
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, SIMNPU_ASCENDC_LOC_PARAM);
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsGatherType<T>, "Gather: unsupported data type (16- and 32-bit types)");
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), mask, 0, repeatTime, true, simnpuLoc);
  d::Operand o = d::MakeOperand(dst, 1, dstRepStride, "dst");
  d::Prepare("Gather", o, p, simnpuLoc);
  d::CheckAligned("Gather", "src", src.GetPhyAddr(), simnpuLoc);
  const uint32_t* offs = srcOffset.GetPhyAddr();
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  std::vector<T> tmp;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    const uint32_t n = p.ActiveIn(r);
    tmp.assign(n, T());
    for (uint32_t k = 0; k < n; ++k) {
      const uint64_t oi = static_cast<uint64_t>(r) * p.per_repeat + p.idx[k];
      if (oi >= srcOffset.GetSize()) {
        d::CheckFail(simnpuLoc, "Gather: repeat %u reads srcOffset[%llu] but srcOffset has %u elements", r,
                     static_cast<unsigned long long>(oi), srcOffset.GetSize());
      }
      d::GatherOne<T>(reinterpret_cast<uint8_t*>(&tmp[k]), s, src.GetLength(), srcBaseAddr, offs[oi],
                      static_cast<uint32_t>(oi), simnpuLoc);
    }
    for (uint32_t k = 0; k < n; ++k) std::memcpy(o.base + o.At(r, k), &tmp[k], sizeof(T));
  }
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, ::simnpu::ascendc::SrcLoc const& simnpuLoc) {
  uint64_t bits[2];
  ::simnpu::ascendc::detail::ContinuousMask(mask, 256 / sizeof(T), bits);
  if (::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode) {
    bits[0] = mask;
    bits[1] = 0;
  }
  Gather(dst, src, srcOffset, srcBaseAddr, bits, repeatTime, dstRepStride, simnpuLoc);
}

template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                 const BrcbRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: unsupported data type (16- and 32-bit types)");
  d::CheckAligned("Brcb", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Brcb", "src0", src0.GetPhyAddr(), simnpuLoc);
  if (repeatTime == 0) return;
  if (static_cast<uint64_t>(repeatTime) * 8 > src0.GetSize()) {
    d::CheckFail(simnpuLoc, "Brcb: %u repeats read %u elements but src0 has %u", repeatTime, repeatTime * 8u,
                 src0.GetSize());
  }
  const uint64_t last = (static_cast<uint64_t>(repeatTime - 1) * repeatParams.dstRepStride + 7u * repeatParams.dstBlkStride) * 32u + 32u;
  if (last > dst.GetLength()) {
    d::CheckFail(simnpuLoc, "Brcb: the destination reaches byte %llu but dst has %u bytes",
                 static_cast<unsigned long long>(last), dst.GetLength());
  }
  std::vector<T> vals(src0.GetPhyAddr(), src0.GetPhyAddr() + repeatTime * 8u);
  uint8_t* o = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  constexpr uint32_t kEpb = 32 / sizeof(T);
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      T* blk = reinterpret_cast<T*>(o + (static_cast<uint64_t>(r) * repeatParams.dstRepStride + b * repeatParams.dstBlkStride) * 32u);
      for (uint32_t k = 0; k < kEpb; ++k) blk[k] = vals[r * 8 + b];
    }
  }
}

template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& firstValue,
                           uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsVecArith<T>, "CreateVecIndex: unsupported data type (half, float, int16_t, int32_t)");
  if (!d::CheckCount("CreateVecIndex", static_cast<int32_t>(count), simnpuLoc, dst)) return;
  T* o = dst.GetPhyAddr();
  if constexpr (::simnpu::ascendc::fp::IsHalfLike<T>::value) {
    const float f = static_cast<float>(firstValue);
    for (uint32_t i = 0; i < count; ++i) o[i] = T(f + static_cast<float>(i));
  } else {
    for (uint32_t i = 0; i < count; ++i) o[i] = static_cast<T>(firstValue + static_cast<T>(i));
  }
}

template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(sizeof(T) == 2, "Transpose: the 16x16 form supports 2-byte types (half, int16_t, uint16_t)");
  d::CheckAligned("Transpose", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::CheckAligned("Transpose", "src", src.GetPhyAddr(), simnpuLoc);
  if (dst.GetSize() < 256 || src.GetSize() < 256) {
    d::CheckFail(simnpuLoc, "Transpose: dst and src need 256 elements (16 x 16), they have %u and %u", dst.GetSize(),
                 src.GetSize());
  }
  T tmp[256];
  const T* s = src.GetPhyAddr();
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t j = 0; j < 16; ++j) tmp[j * 16 + i] = s[i * 16 + j];
  }
  std::memcpy(dst.GetPhyAddr(), tmp, sizeof tmp);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_GATHER_H_
