// simnpu Ascend C model: TPosition, GlobalTensor (a view of global memory)
// and LocalTensor (a view of a buffer in the block's unified buffer).
#ifndef SIMNPU_ASCENDC_TENSOR_H_
#define SIMNPU_ASCENDC_TENSOR_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

inline int64_t GetBlockIdx() { return ::block_idx; }
inline int64_t GetBlockNum() { return ::block_num; }
inline int64_t GetSubBlockIdx() { return 0; }
inline int64_t GetTaskRation() { return 1; }

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

SIMNPU_ASCENDC_HIDDEN inline const char* PositionName(AscendC::TPosition p) {
  static const char* const kNames[] = {"GM",  "A1",     "A2",     "B1",      "B2",   "C1",        "C2",
                                       "CO1", "CO2",    "VECIN",  "VECOUT",  "VECCALC", "SPM", "TSCM",
                                       "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  const unsigned i = static_cast<unsigned>(p);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

// One buffer owned by a queue.
struct BufSlot {
  const void* owner = nullptr;  // the TQueBind that carved it
  uint8_t* addr = nullptr;
  uint32_t len = 0;             // bytes
  uint8_t state = 0;            // BufState
  uint8_t pos = 0;              // TPosition
};
enum BufState : uint8_t { kBufFree = 0, kBufAllocated, kBufEnqueued, kBufDequeued };

template <typename T>
struct IsSupportedElem : std::integral_constant<bool, std::is_arithmetic<T>::value || fp::IsHalfLike<T>::value> {};

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  LocalTensor() = default;
  LocalTensor(T* addr, uint32_t size, TPosition pos, ::simnpu::ascendc::detail::BufSlot* slot)
      : addr_(addr), size_(size), pos_(pos), slot_(slot) {}

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * static_cast<uint32_t>(sizeof(T)); }
  void SetSize(uint32_t size) { size_ = size; }
  TPosition GetPosition() const { return pos_; }
  __ubuf__ T* GetPhyAddr() const { return addr_; }
  __ubuf__ T* GetPhyAddr(uint32_t offset) const { return addr_ + offset; }

  LocalTensor operator[](uint32_t offset) const {
    return LocalTensor(addr_ + offset, offset <= size_ ? size_ - offset : 0u, pos_, slot_);
  }

  T GetValue(uint32_t offset, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckIndex(offset, "GetValue", simnpuLoc);
    return addr_[offset];
  }
  void SetValue(uint32_t offset, T value, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckIndex(offset, "SetValue", simnpuLoc);
    addr_[offset] = value;
  }
  T& operator()(uint32_t offset) const { return addr_[offset]; }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(size_ * sizeof(T) / sizeof(U)), pos_,
                          slot_);
  }

  ::simnpu::ascendc::detail::BufSlot* SimnpuSlot() const { return slot_; }

 private:
  void CheckIndex(uint32_t offset, const char* what, const ::simnpu::ascendc::SrcLoc& loc) const {
    if (__builtin_expect(offset >= size_, 0)) {
      ::simnpu::ascendc::detail::CheckFail(loc, "LocalTensor::%s(%u): offset out of range (tensor has %u elements)",
                                           what, offset, size_);
    }
  }

  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  ::simnpu::ascendc::detail::BufSlot* slot_ = nullptr;
};

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    addr_ = buffer;
    size_ = bufferSize;
  }
  void SetGlobalBuffer(__gm__ T* buffer) {
    addr_ = buffer;
    size_ = 0;
  }

  uint64_t GetSize() const { return size_; }
  __gm__ T* GetPhyAddr() const { return addr_; }
  __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor v;
    v.addr_ = addr_ + offset;
    v.size_ = offset <= size_ ? size_ - offset : 0;
    return v;
  }

  T GetValue(uint64_t offset, SIMNPU_ASCENDC_LOC_PARAM) const {
    T v;
    ::simnpu::ascendc::detail::GmRead(&v, addr_ + offset, sizeof(T), simnpuLoc);
    return v;
  }
  void SetValue(uint64_t offset, T value, SIMNPU_ASCENDC_LOC_PARAM) const {
    ::simnpu::ascendc::detail::GmWrite(addr_ + offset, &value, sizeof(T), simnpuLoc);
  }
  // Direct reference; bypasses the managed-memory routing (plain pointer
  // access), but the memory check sees it (as a read: the direction of a
  // reference is not known).
  __gm__ T& operator()(uint64_t offset, SIMNPU_ASCENDC_LOC_PARAM) const {
    ::simnpu::ascendc::detail::GmTouch(addr_ + offset, sizeof(T), SIMNPU_ACCESS_READ, simnpuLoc);
    return addr_[offset];
  }

  // L2 cache hints have no effect in the model.
  template <typename M>
  void SetL2CacheHint(M /*mode*/) {}

 private:
  T* addr_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_TENSOR_H_
