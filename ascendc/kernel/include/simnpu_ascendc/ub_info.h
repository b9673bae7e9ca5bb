// simnpu Ascend C model: the unified-buffer size queries.
//   GetUBSizeInBytes()  the UB size of the architecture being compiled for, a
//                       compile-time constant: 196608 (dav-2201), 253952
//                       (dav-3510, dav-3002), 262144 (dav-2002, dav-1001);
//   GetRuntimeUBSize()  the UB size of the core running the block (what the
//                       runtime gives the block: the SOC's size); outside a
//                       block, the compile-time size.
// AscendCUtils::SetOverflow(0/1): the saturation mode switch the Where page's
// example brackets its computation with; the model computes without it (it
// is accepted and has no effect on data).
#ifndef SIMNPU_ASCENDC_UB_INFO_H_
#define SIMNPU_ASCENDC_UB_INFO_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

__aicore__ constexpr inline uint32_t GetUBSizeInBytes() {
#if __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 3002
  return 253952u;
#elif __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001
  return 262144u;
#else
  return 196608u;
#endif
}

inline uint32_t GetRuntimeUBSize() {
  const ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
  if (c == nullptr || c->ub_size == 0) return GetUBSizeInBytes();
  return static_cast<uint32_t>(c->ub_size);
}

struct AscendCUtils {
  static inline void SetOverflow(uint64_t ctrlValue) { (void)ctrlValue; }
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_UB_INFO_H_
