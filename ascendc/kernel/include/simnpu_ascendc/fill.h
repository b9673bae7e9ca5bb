// simnpu Ascend C model: Fill / InitConstValue: set a LocalTensor of the
// matrix buffers (A1/B1: L1; A2: L0A; B2: L0B) to one value.
//
// InitConstValueParams { repeatTimes, blockNum, dstGap, initValue }: repeat
// r fills blockNum blocks starting at r * (blockNum + dstGap) blocks, a
// block being 32 bytes in A1/B1 and 512 bytes in A2/B2. With blockNum 0
// (the two-value constructor: repeatTimes and initValue only) each repeat
// fills 512 bytes and repeats follow one another, as the pages describe
// for that configuration. The start must be 32-byte (A1/B1) or 512-byte
// (A2/B2) aligned; every filled element must lie inside dst; other
// positions are refused (the vector unit's form is Duplicate).
#ifndef SIMNPU_ASCENDC_FILL_H_
#define SIMNPU_ASCENDC_FILL_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

template <typename T>
struct InitConstValueParams {
  InitConstValueParams() {}
  InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                       const T initValueIn)
      : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
  InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  void SetRepeatTimes(uint16_t v) { repeatTimes = v; }
  void SetBlockNum(uint16_t v) { blockNum = v; }
  void SetDstGap(uint16_t v) { dstGap = v; }
  void SetInitValue(T v) { initValue = v; }
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = T(0);
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsFillType = std::is_same<T, half>::value || std::is_same<T, int16_t>::value ||
                             std::is_same<T, uint16_t>::value || std::is_same<T, bfloat16_t>::value ||
                             std::is_same<T, float>::value || std::is_same<T, int32_t>::value ||
                             std::is_same<T, uint32_t>::value;

template <typename T>
inline void FillImpl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::InitConstValueParams<T>& p,
                     const SrcLoc& loc) {
  using AscendC::TPosition;
  const TPosition pos = dst.GetPosition();
  uint32_t blk = 0;
  if (pos == TPosition::A1 || pos == TPosition::B1) {
    blk = 32;
  } else if (pos == TPosition::A2 || pos == TPosition::B2) {
    blk = 512;
  } else {
    CheckFail(loc, "%s: dst is in %s; the positions are A1, B1, A2 and B2 (use Duplicate for the vector buffers)", api,
              PositionName(pos));
  }
  const uintptr_t a = reinterpret_cast<uintptr_t>(dst.GetPhyAddr());
  const uintptr_t base = reinterpret_cast<uintptr_t>(MemBase(tls_ctx, MemOf(pos)));
  if (((a - base) % blk) != 0) {
    CheckFail(loc, "%s: dst starts at offset %llu of %s, which is not %u-byte aligned", api,
              static_cast<unsigned long long>(a - base), PositionName(pos), blk);
  }
  const uint64_t per = p.blockNum == 0 ? 512u : static_cast<uint64_t>(p.blockNum) * blk;
  const uint64_t stride = p.blockNum == 0 ? 512u : (static_cast<uint64_t>(p.blockNum) + p.dstGap) * blk;
  if (p.repeatTimes == 0) return;
  const uint64_t end = (static_cast<uint64_t>(p.repeatTimes) - 1) * stride + per;
  if (end > dst.GetLength()) {
    CheckFail(loc, "%s: %u repeats of %llu bytes (%llu apart) reach byte %llu, dst has %u bytes", api, p.repeatTimes,
              static_cast<unsigned long long>(per), static_cast<unsigned long long>(stride),
              static_cast<unsigned long long>(end), dst.GetLength());
  }
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    T* o = reinterpret_cast<T*>(d + r * stride);
    for (uint64_t i = 0; i < per / sizeof(T); ++i) o[i] = p.initValue;
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsFillType<T>,
                "Fill: unsupported data type (half, int16_t, uint16_t, bfloat16_t, float, int32_t, uint32_t)");
  ::simnpu::ascendc::detail::FillImpl("Fill", dst, initConstValueParams, simnpuLoc);
}
template <typename T, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams,
                           SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsFillType<T>,
                "InitConstValue: unsupported data type (half, int16_t, uint16_t, bfloat16_t, float, int32_t, uint32_t)");
  ::simnpu::ascendc::detail::FillImpl("InitConstValue", dst, initConstValueParams, simnpuLoc);
}

// Fill of global memory (the page's form for initialising a GM workspace):
// the first size elements of gm become value, written by the calling block
// (a later DataCopy from UB must wait for it, MTE3 -> MTE2). half, float,
// bfloat16_t and the 16- and 32-bit integers.
template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsFillType<T>, "Fill: unsupported data type (half, int16_t, uint16_t, bfloat16_t, float, int32_t, uint32_t)");
  if (gmWorkspaceAddr.GetPhyAddr() == nullptr) d::CheckFail(simnpuLoc, "Fill: the GlobalTensor has no global buffer");
  if (gmWorkspaceAddr.GetSize() != 0 && size > gmWorkspaceAddr.GetSize()) {
    d::CheckFail(simnpuLoc, "Fill: %llu elements exceed the GlobalTensor (%llu elements)",
                 static_cast<unsigned long long>(size), static_cast<unsigned long long>(gmWorkspaceAddr.GetSize()));
  }
  if (size == 0) return;
  std::vector<T> v(static_cast<size_t>(size), value);
  d::GmWrite(gmWorkspaceAddr.GetPhyAddr(), v.data(), static_cast<size_t>(size) * sizeof(T), simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_FILL_H_
