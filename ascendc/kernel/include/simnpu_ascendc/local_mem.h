// simnpu Ascend C model: LocalMemAllocator, the bump allocator of static
// tensor programming. Each Alloc places a tensor at the current address of
// one local memory and moves the address on by the tensor's bytes rounded up
// to 32; nothing is ever freed. Tensors must fit in the memory (the UB size
// of the SOC, or the documented L1/L0/bias/fixpipe sizes): an Alloc past the
// end fails the block with the sizes in the message.
//
// The devkit forbids mixing LocalMemAllocator with TPipe (both carve the
// same memory from address 0); constructing an allocator for the UB while
// the block has a TPipe is reported once per call site. Per block, no locking.
#ifndef SIMNPU_ASCENDC_LOCAL_MEM_H_
#define SIMNPU_ASCENDC_LOCAL_MEM_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kSiteAllocatorWithPipe = 3;

SIMNPU_ASCENDC_COLD inline void AllocatorWithPipe(const SrcLoc& loc) {
  if (FirstTimeAtSite(loc, kSiteAllocatorWithPipe)) {
    Diagnostic(2, loc,
               "LocalMemAllocator created while the block has a TPipe: both hand out the unified buffer from address 0, "
               "so their tensors overlap (the devkit does not allow mixing them)");
  }
}

// Reserves bytes at *cur in memory m; returns the address.
SIMNPU_ASCENDC_NOINLINE inline uint32_t AllocatorTake(int m, uint32_t* cur, uint64_t elems, uint64_t bytes,
                                                      const char* type_name, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "LocalMemAllocator::Alloc called outside of a kernel block");
  const size_t cap = MemSize(c, m);
  const uint64_t addr = *cur;
  if (addr + bytes > cap) {
    CheckFail(loc,
              "LocalMemAllocator::Alloc: %llu elements of %s (%llu bytes) at address %llu overflow the %s (%zu bytes, "
              "%llu bytes left)",
              static_cast<unsigned long long>(elems), type_name, static_cast<unsigned long long>(bytes),
              static_cast<unsigned long long>(addr), MemName(m), cap,
              static_cast<unsigned long long>(cap > addr ? cap - addr : 0));
  }
  *cur = static_cast<uint32_t>((addr + bytes + 31u) & ~uint64_t{31});
  return static_cast<uint32_t>(addr);
}

template <typename T>
SIMNPU_ASCENDC_HIDDEN inline const char* TypeName() {
  if constexpr (std::is_same<T, half>::value) return "half";
  if constexpr (std::is_same<T, bfloat16_t>::value) return "bfloat16_t";
  if constexpr (std::is_same<T, float>::value) return "float";
  if constexpr (std::is_same<T, double>::value) return "double";
  if constexpr (std::is_same<T, int8_t>::value) return "int8_t";
  if constexpr (std::is_same<T, uint8_t>::value) return "uint8_t";
  if constexpr (std::is_same<T, int16_t>::value) return "int16_t";
  if constexpr (std::is_same<T, uint16_t>::value) return "uint16_t";
  if constexpr (std::is_same<T, int32_t>::value) return "int32_t";
  if constexpr (std::is_same<T, uint32_t>::value) return "uint32_t";
  if constexpr (std::is_same<T, int64_t>::value) return "int64_t";
  if constexpr (std::is_same<T, uint64_t>::value) return "uint64_t";
  if constexpr (std::is_same<T, bool>::value) return "bool";
  if constexpr (std::is_same<T, AscendC::int4b_t>::value) return "int4b_t";
  if constexpr (std::is_same<T, fp8_e4m3fn_t>::value) return "fp8_e4m3fn_t";
  if constexpr (std::is_same<T, fp8_e5m2_t>::value) return "fp8_e5m2_t";
  if constexpr (std::is_same<T, fp8_e8m0_t>::value) return "fp8_e8m0_t";
  if constexpr (std::is_same<T, hifloat8_t>::value) return "hifloat8_t";
  if constexpr (std::is_same<T, fp4x2_e2m1_t>::value) return "fp4x2_e2m1_t";
  if constexpr (std::is_same<T, fp4x2_e1m2_t>::value) return "fp4x2_e1m2_t";
  return "element";
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX, "LocalMemAllocator: hard must be a local memory");

 public:
  LocalMemAllocator(SIMNPU_ASCENDC_LOC_PARAM) {
    ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
    if (hard == Hardware::UB && c != nullptr && c->pipe != nullptr) ::simnpu::ascendc::detail::AllocatorWithPipe(simnpuLoc);
  }

  uint32_t GetCurAddr() const { return cur_; }

  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(SIMNPU_ASCENDC_LOC_PARAM) {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, simnpuLoc);
  }
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(SIMNPU_ASCENDC_LOC_PARAM) {
    static_assert(GetPhyType(pos) == hard, "LocalMemAllocator::Alloc: the position is not in this allocator's memory");
    return Take<DataType>(pos, tileSize, simnpuLoc);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize, SIMNPU_ASCENDC_LOC_PARAM) {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, simnpuLoc);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize, SIMNPU_ASCENDC_LOC_PARAM) {
    static_assert(GetPhyType(pos) == hard, "LocalMemAllocator::Alloc: the position is not in this allocator's memory");
    return Take<DataType>(pos, tileSize, simnpuLoc);
  }

 private:
  template <class DataType>
  LocalTensor<DataType> Take(TPosition pos, uint32_t tileSize, const ::simnpu::ascendc::SrcLoc& loc) {
    namespace d = ::simnpu::ascendc::detail;
    const uint64_t bytes = d::BytesOf<DataType>(tileSize);
    const uint32_t addr = d::AllocatorTake(static_cast<int>(hard), &cur_, tileSize, bytes, d::TypeName<DataType>(), loc);
    return LocalTensor<DataType>(pos, addr, tileSize, loc);
  }

  uint32_t cur_ = 0;
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_LOCAL_MEM_H_
