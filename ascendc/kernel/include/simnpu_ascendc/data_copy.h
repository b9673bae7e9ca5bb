// simnpu Ascend C model: DataCopy between global memory and local buffers.
// Contiguous copies follow the NPU's 32-byte rule: count*sizeof(T) is rounded
// down to a multiple of 32 bytes (possibly 0) with a one-time diagnostic per
// call site, or the block fails when env->flags has SIMNPU_ENV_FLAG_STRICT_DATACOPY.
#ifndef SIMNPU_ASCENDC_DATA_COPY_H_
#define SIMNPU_ASCENDC_DATA_COPY_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

// Strided copy description; all fields are in 32-byte blocks except blockCount.
struct DataCopyParams {
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kSiteDataCopy32 = 1;

SIMNPU_ASCENDC_COLD inline size_t DataCopyUnaligned(size_t bytes, uint32_t count, size_t elem, const char* dir,
                                                    const SrcLoc& loc) {
  const size_t rounded = bytes & ~size_t{31};
  BlockContext* c = tls_ctx;
  if (c != nullptr && (c->flags & SIMNPU_ENV_FLAG_STRICT_DATACOPY) != 0) {
    CheckFail(loc,
              "DataCopy %s: %u elements x %zu bytes = %zu bytes is not a multiple of 32 bytes (strict DataCopy mode)",
              dir, count, elem, bytes);
  }
  if (FirstTimeAtSite(loc, kSiteDataCopy32)) {
    Diagnostic(2, loc,
               "DataCopy %s: %u elements x %zu bytes = %zu bytes is not a multiple of 32 bytes; the NPU copies only "
               "%zu bytes (reported once per call site; use DataCopyPad for unaligned lengths)",
               dir, count, elem, bytes, rounded);
  }
  return rounded;
}

// Bytes actually moved by a contiguous DataCopy of count elements.
template <typename T>
inline size_t DataCopyBytes(uint32_t count, const char* dir, const SrcLoc& loc) {
  const size_t bytes = static_cast<size_t>(count) * sizeof(T);
  if (__builtin_expect((bytes & 31u) != 0, 0)) return DataCopyUnaligned(bytes, count, sizeof(T), dir, loc);
  return bytes;
}

template <typename T>
inline void CheckLocalFits(const AscendC::LocalTensor<T>& t, uint64_t elems, const char* what, const SrcLoc& loc) {
  if (__builtin_expect(elems > t.GetSize(), 0)) {
    CheckFail(loc, "%s: %llu elements do not fit in the LocalTensor (%u elements, %u bytes)", what,
              static_cast<unsigned long long>(elems), t.GetSize(), t.GetLength());
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// GM -> local (MTE2).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const uint32_t count,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckLocalFits(dstLocal, count, "DataCopy GM->UB destination", simnpuLoc);
  const size_t bytes = d::DataCopyBytes<T>(count, "GM->UB", simnpuLoc);
  d::GmRead(dstLocal.GetPhyAddr(), srcGlobal.GetPhyAddr(), bytes, simnpuLoc);
}

// local -> GM (MTE3).
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const uint32_t count,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckLocalFits(srcLocal, count, "DataCopy UB->GM source", simnpuLoc);
  const size_t bytes = d::DataCopyBytes<T>(count, "UB->GM", simnpuLoc);
  d::GmWrite(dstGlobal.GetPhyAddr(), srcLocal.GetPhyAddr(), bytes, simnpuLoc);
}

// local -> local.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t count,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckLocalFits(dstLocal, count, "DataCopy UB->UB destination", simnpuLoc);
  d::CheckLocalFits(srcLocal, count, "DataCopy UB->UB source", simnpuLoc);
  const size_t bytes = d::DataCopyBytes<T>(count, "UB->UB", simnpuLoc);
  std::memmove(dstLocal.GetPhyAddr(), srcLocal.GetPhyAddr(), bytes);
}

// Strided forms: blockCount blocks of blockLen x 32 bytes, with gaps of
// srcStride / dstStride x 32 bytes between consecutive blocks.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const size_t len = static_cast<size_t>(p.blockLen) * 32u;
  const size_t dst_step = len + static_cast<size_t>(p.dstStride) * 32u;
  const size_t src_step = len + static_cast<size_t>(p.srcStride) * 32u;
  if (p.blockCount == 0 || len == 0) return;
  d::CheckLocalFits(dstLocal, ((p.blockCount - 1u) * dst_step + len) / sizeof(T), "DataCopy GM->UB destination",
                    simnpuLoc);
  uint8_t* dst = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  const uint8_t* src = reinterpret_cast<const uint8_t*>(srcGlobal.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) d::GmRead(dst + i * dst_step, src + i * src_step, len, simnpuLoc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const size_t len = static_cast<size_t>(p.blockLen) * 32u;
  const size_t dst_step = len + static_cast<size_t>(p.dstStride) * 32u;
  const size_t src_step = len + static_cast<size_t>(p.srcStride) * 32u;
  if (p.blockCount == 0 || len == 0) return;
  d::CheckLocalFits(srcLocal, ((p.blockCount - 1u) * src_step + len) / sizeof(T), "DataCopy UB->GM source", simnpuLoc);
  uint8_t* dst = reinterpret_cast<uint8_t*>(dstGlobal.GetPhyAddr());
  const uint8_t* src = reinterpret_cast<const uint8_t*>(srcLocal.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) d::GmWrite(dst + i * dst_step, src + i * src_step, len, simnpuLoc);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const size_t len = static_cast<size_t>(p.blockLen) * 32u;
  const size_t dst_step = len + static_cast<size_t>(p.dstStride) * 32u;
  const size_t src_step = len + static_cast<size_t>(p.srcStride) * 32u;
  if (p.blockCount == 0 || len == 0) return;
  d::CheckLocalFits(dstLocal, ((p.blockCount - 1u) * dst_step + len) / sizeof(T), "DataCopy UB->UB destination",
                    simnpuLoc);
  d::CheckLocalFits(srcLocal, ((p.blockCount - 1u) * src_step + len) / sizeof(T), "DataCopy UB->UB source", simnpuLoc);
  uint8_t* dst = reinterpret_cast<uint8_t*>(dstLocal.GetPhyAddr());
  const uint8_t* src = reinterpret_cast<const uint8_t*>(srcLocal.GetPhyAddr());
  for (uint32_t i = 0; i < p.blockCount; ++i) std::memmove(dst + i * dst_step, src + i * src_step, len);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_DATA_COPY_H_
