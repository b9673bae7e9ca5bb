// simnpu Ascend C model: DataCopyPad (unaligned GM <-> UB copies with
// padding) and SetPadValue.
//
// A copy is blockCount bursts of blockLen bytes.
//  - GM -> UB: burst i is read at src + i * (blockLen + srcStride) bytes and
//    written at dst + i * (burst + dstStride * 32), where burst is
//    leftPadding + blockLen + rightPadding (elements of padding) rounded up to
//    32 bytes; the data lands after leftPadding elements.
//  - UB -> GM: burst i is read at src + i * (ceil32(blockLen) + srcStride * 32)
//    and written at dst + i * (blockLen + dstStride) bytes.
// Padding (GM -> UB, isPad = true): the pad elements get paddingValue, or the
// value of the last SetPadValue when paddingValue is 0 (the SetPadValue
// page's example pads with its register value while padParams keeps the
// default 0). isPad = false leaves the pad bytes as they were (undefined on
// the NPU). Every GM access goes through GmRead/GmWrite (the checked path).
#ifndef SIMNPU_ASCENDC_DATA_COPY_PAD_H_
#define SIMNPU_ASCENDC_DATA_COPY_PAD_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class PaddingMode : uint8_t { Normal = 0, Compact };

struct DataCopyExtParams {
  DataCopyExtParams() {}
#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102
  DataCopyExtParams(const uint16_t count, const uint32_t len, const int64_t srcStrideIn, const int64_t dstStrideIn,
                    const uint32_t rsvIn)
#else
  DataCopyExtParams(const uint16_t count, const uint32_t len, const uint32_t srcStrideIn, const uint32_t dstStrideIn,
                    const uint32_t rsvIn)
#endif
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {
  }
  uint16_t blockCount = DEFAULT_DATA_COPY_NBURST;
  uint32_t blockLen = 0;
#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102
  int64_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  int64_t dstStride = DEFAULT_DATA_COPY_STRIDE;
#else
  uint32_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
#endif
  uint32_t rsv = 0;
};

struct DataCopyPadParams {
  DataCopyPadParams() {}
  DataCopyPadParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                    const uint64_t padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() {}
  DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue, T padValue)
      : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue{};
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

struct PadSpec {
  bool is_pad = false;
  uint32_t left = 0, right = 0;  // elements
  uint64_t value_bits = 0;       // 0: use the SetPadValue register
};

template <typename T>
inline void GmToUbPad(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t count,
                      uint64_t len, uint64_t src_gap, uint64_t dst_gap_blocks, const PadSpec& pad, const SrcLoc& loc) {
  const char* api = "DataCopyPad GM->UB";
  CheckAligned(api, "dst", dst.GetPhyAddr(), loc);
  constexpr uint32_t s = sizeof(T);
  if ((pad.left + pad.right) * s > 32) {
    CheckFail(loc, "%s: leftPadding + rightPadding (%u + %u elements) exceed 32 bytes", api, pad.left, pad.right);
  }
  if (count == 0 || len == 0) return;
  const uint64_t burst = (pad.left * s + len + pad.right * s + 31u) & ~uint64_t{31};
  const uint64_t ub_step = burst + dst_gap_blocks * 32u;
  const uint64_t need = (count - 1u) * ub_step + burst;
  if (need > dst.GetLength()) {
    CheckFail(loc, "%s: %u bursts of %llu bytes (%llu with padding, 32-byte aligned) need %llu bytes of dst, it has %u",
              api, count, static_cast<unsigned long long>(len), static_cast<unsigned long long>(burst),
              static_cast<unsigned long long>(need), dst.GetLength());
  }
  uint64_t bits = pad.value_bits;
  if (bits == 0) bits = Regs(loc).pad_value;
  T pv;
  std::memcpy(&pv, &bits, s);
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint8_t* g = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t* o = d + i * ub_step;
    GmRead(o + pad.left * s, g + i * (len + src_gap), static_cast<size_t>(len), loc);
    if (pad.is_pad) {
      for (uint32_t k = 0; k < pad.left; ++k) std::memcpy(o + k * s, &pv, s);
      for (uint32_t k = 0; k < pad.right; ++k) std::memcpy(o + pad.left * s + len + k * s, &pv, s);
    }
  }
}

template <typename T>
inline void UbToGmPad(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                      uint64_t len, uint64_t src_gap_blocks, uint64_t dst_gap, const SrcLoc& loc) {
  const char* api = "DataCopyPad UB->GM";
  CheckAligned(api, "src", src.GetPhyAddr(), loc);
  if (count == 0 || len == 0) return;
  const uint64_t ub_step = ((len + 31u) & ~uint64_t{31}) + src_gap_blocks * 32u;
  const uint64_t need = (count - 1u) * ub_step + len;
  if (need > src.GetLength()) {
    CheckFail(loc, "%s: %u bursts of %llu bytes need %llu bytes of src, it has %u", api, count,
              static_cast<unsigned long long>(len), static_cast<unsigned long long>(need), src.GetLength());
  }
  const uint8_t* u = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  uint8_t* g = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  if (dst_gap == 0 && ub_step == len) {
    GmWriteDma(g, u, static_cast<size_t>(count * len), loc);
    return;
  }
  for (uint32_t i = 0; i < count; ++i) GmWriteDma(g + i * (len + dst_gap), u + i * ub_step, static_cast<size_t>(len), loc);
}

template <typename T>
inline uint64_t PadBits(const T& v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::Regs(simnpuLoc).pad_value = ::simnpu::ascendc::detail::PadBits(paddingValue);
}

template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                        const DataCopyPadExtParams<T>& padParams, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::PadSpec pad;
  pad.is_pad = padParams.isPad;
  pad.left = padParams.leftPadding;
  pad.right = padParams.rightPadding;
  pad.value_bits = ::simnpu::ascendc::detail::PadBits(padParams.paddingValue);
  ::simnpu::ascendc::detail::GmToUbPad(dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                                       static_cast<uint64_t>(dataCopyParams.srcStride),
                                       static_cast<uint64_t>(dataCopyParams.dstStride), pad, simnpuLoc);
}

template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& dataCopyParams,
                        const DataCopyPadParams& padParams, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::PadSpec pad;
  pad.is_pad = padParams.isPad;
  pad.left = padParams.leftPadding;
  pad.right = padParams.rightPadding;
  pad.value_bits = padParams.paddingValue;
  ::simnpu::ascendc::detail::GmToUbPad(dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                                       dataCopyParams.srcStride, dataCopyParams.dstStride, pad, simnpuLoc);
}

template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                        SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::UbToGmPad(dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                                       static_cast<uint64_t>(dataCopyParams.srcStride),
                                       static_cast<uint64_t>(dataCopyParams.dstStride), simnpuLoc);
}

template <typename T, PaddingMode mode = PaddingMode::Normal>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& dataCopyParams,
                        SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::UbToGmPad(dst, src, dataCopyParams.blockCount, dataCopyParams.blockLen,
                                       dataCopyParams.srcStride, dataCopyParams.dstStride, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_DATA_COPY_PAD_H_
