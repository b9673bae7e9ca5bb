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
  union {  // srcGap is the newer name of srcStride
    uint16_t srcGap = 0;
    uint16_t srcStride;
  };
  union {  // dstGap is the newer name of dstStride
    uint16_t dstGap = 0;
    uint16_t dstStride;
  };
  DataCopyParams() {}
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

enum class CopyDir { kGmToLocal, kLocalToGm, kLocalToLocal };

// The strided DataCopy forms: blockCount blocks of blockLen x 32 bytes, block
// i read at src + i * (blockLen + srcStride) * 32 and written at
// dst + i * (blockLen + dstStride) * 32. dst_local / src_local are the local
// sides (null for the GM side), checked to hold every block; dst_what /
// src_what name them in the failure. With both strides 0 the blocks are back
// to back on both sides and move in one copy (one gm_read / gm_write instead
// of one per block on managed memory), except a local->local copy whose
// destination starts inside its source, which keeps the block order.
template <CopyDir D, typename T>
inline void StridedCopy(void* dst, const void* src, const AscendC::DataCopyParams& p,
                        const AscendC::LocalTensor<T>* dst_local, const char* dst_what,
                        const AscendC::LocalTensor<T>* src_local, const char* src_what, const SrcLoc& loc) {
  const size_t len = static_cast<size_t>(p.blockLen) * 32u;
  const size_t dst_step = len + static_cast<size_t>(p.dstStride) * 32u;
  const size_t src_step = len + static_cast<size_t>(p.srcStride) * 32u;
  if (p.blockCount == 0 || len == 0) return;
  const size_t last = static_cast<size_t>(p.blockCount) - 1u;
  if (dst_local != nullptr) CheckLocalFits(*dst_local, (last * dst_step + len) / sizeof(T), dst_what, loc);
  if (src_local != nullptr) CheckLocalFits(*src_local, (last * src_step + len) / sizeof(T), src_what, loc);
  uint8_t* d = static_cast<uint8_t*>(dst);
  const uint8_t* s = static_cast<const uint8_t*>(src);
  auto move = [&loc](uint8_t* to, const uint8_t* from, size_t n) {
    if constexpr (D == CopyDir::kGmToLocal) {
      GmRead(to, from, n, loc);
    } else if constexpr (D == CopyDir::kLocalToGm) {
      GmWriteDma(to, from, n, loc);
    } else {
      std::memmove(to, from, n);
    }
  };
  if (p.srcStride == 0 && p.dstStride == 0) {
    const size_t total = static_cast<size_t>(p.blockCount) * len;
    const bool ordered = D == CopyDir::kLocalToLocal && d > s && d < s + total;
    if (!ordered) {
      move(d, s, total);
      return;
    }
  }
  for (size_t i = 0; i <= last; ++i) move(d + i * dst_step, s + i * src_step, len);
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
  d::GmWriteDma(dstGlobal.GetPhyAddr(), srcLocal.GetPhyAddr(), bytes, simnpuLoc);
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
  d::StridedCopy<d::CopyDir::kGmToLocal, T>(dstLocal.GetPhyAddr(), srcGlobal.GetPhyAddr(), p, &dstLocal,
                                            "DataCopy GM->UB destination", nullptr, nullptr, simnpuLoc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::StridedCopy<d::CopyDir::kLocalToGm, T>(dstGlobal.GetPhyAddr(), srcLocal.GetPhyAddr(), p, nullptr, nullptr,
                                            &srcLocal, "DataCopy UB->GM source", simnpuLoc);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::StridedCopy<d::CopyDir::kLocalToLocal, T>(dstLocal.GetPhyAddr(), srcLocal.GetPhyAddr(), p, &dstLocal,
                                               "DataCopy UB->UB destination", &srcLocal, "DataCopy UB->UB source",
                                               simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_DATA_COPY_H_
