// simnpu Ascend C model: GlobalTensor (a view of global memory) and
// LocalTensor (a view of a buffer in one of the block's local memories).
//
// Sizes count elements. The 4-bit types (int4b_t, fp4x2_*) pack two elements
// per byte: element 2k is the low nibble of byte k, and views ([] offsets)
// must start on a byte (even element offsets). The static-tensor constructor
// LocalTensor(pos, addr, tileSize) places a tensor at a byte address of the
// position's memory and checks the documented rules (32-byte alignment, the
// memory's size) with a clear message.
#ifndef SIMNPU_ASCENDC_TENSOR_H_
#define SIMNPU_ASCENDC_TENSOR_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

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
struct IsSupportedElem
    : std::integral_constant<bool, std::is_arithmetic<T>::value || fp::IsHalfLike<T>::value ||
                                       fp::IsMiniFloat<T>::value || std::is_same<T, AscendC::int4b_t>::value> {};

// Bytes of n elements of T (rounded up for the 4-bit types) and elements in n bytes.
template <typename T>
constexpr uint64_t BytesOf(uint64_t n) {
  return (n * fp::ElemBits<T>::value + 7u) / 8u;
}
template <typename T>
constexpr uint64_t ElemsIn(uint64_t bytes) {
  return bytes * 8u / fp::ElemBits<T>::value;
}

// 4-bit element access inside a byte array.
inline uint8_t GetNibble(const void* base, uint64_t i) {
  const uint8_t b = static_cast<const uint8_t*>(base)[i / 2];
  return static_cast<uint8_t>((i & 1u) != 0 ? b >> 4 : b & 0xfu);
}
inline void SetNibble(void* base, uint64_t i, uint8_t v) {
  uint8_t& b = static_cast<uint8_t*>(base)[i / 2];
  b = (i & 1u) != 0 ? static_cast<uint8_t>((b & 0x0fu) | ((v & 0xfu) << 4)) : static_cast<uint8_t>((b & 0xf0u) | (v & 0xfu));
}

[[noreturn]] SIMNPU_ASCENDC_COLD inline void OddNibbleView(const char* what, uint64_t offset, const SrcLoc& loc) {
  CheckFail(loc, "%s[%llu]: a view of a 4-bit tensor must start on a byte (even element offset)", what,
            static_cast<unsigned long long>(offset));
}

// The byte address of a static tensor (LocalTensor(pos, addr, tileSize)) in
// its memory, checked against the rules of the constructor's page.
SIMNPU_ASCENDC_NOINLINE inline uint8_t* StaticTensorAddr(AscendC::TPosition pos, uint32_t addr, uint64_t bytes,
                                                        const SrcLoc& loc) {
  const int m = MemOf(pos);
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "LocalTensor(%s, %u, ...) constructed outside of a kernel block", PositionName(pos), addr);
  if (pos == AscendC::TPosition::MAX || m == static_cast<int>(AscendC::Hardware::GM)) {
    CheckFail(loc, "LocalTensor(%s, %u, ...): position %s is not a local memory on arch %d", PositionName(pos), addr,
              PositionName(pos), __NPU_ARCH__);
  }
  if ((addr & 31u) != 0) {
    CheckFail(loc, "LocalTensor(%s, %u, ...): the start address must be 32-byte aligned (it is %u bytes past a 32-byte boundary)",
              PositionName(pos), addr, addr & 31u);
  }
  const size_t cap = MemSize(c, m);
  if (static_cast<uint64_t>(addr) + bytes > cap) {
    CheckFail(loc, "LocalTensor(%s, %u, ...): %llu bytes at address %u overflow the %s (%zu bytes)", PositionName(pos),
              addr, static_cast<unsigned long long>(bytes), addr, MemName(m), cap);
  }
  return MemBase(c, m) + addr;
}

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
  // Static tensor programming: tileSize elements at byte address addr of pos's memory.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, SIMNPU_ASCENDC_LOC_PARAM)
      : addr_(reinterpret_cast<T*>(::simnpu::ascendc::detail::StaticTensorAddr(
            pos, addr, ::simnpu::ascendc::detail::BytesOf<T>(tileSize), simnpuLoc))),
        size_(tileSize),
        pos_(pos) {}

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return static_cast<uint32_t>(::simnpu::ascendc::detail::BytesOf<T>(size_)); }
  void SetSize(uint32_t size) { size_ = size; }
  // Byte length of the view (the buffer length of the real API).
  void SetBufferLen(uint32_t dataLen) { size_ = static_cast<uint32_t>(::simnpu::ascendc::detail::ElemsIn<T>(dataLen)); }
  TPosition GetPosition() const { return pos_; }
  __ubuf__ T* GetPhyAddr() const { return addr_; }
  __ubuf__ T* GetPhyAddr(uint32_t offset) const { return Advance(offset); }

  LocalTensor operator[](uint32_t offset) const {
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      if ((offset & 1u) != 0) ::simnpu::ascendc::detail::OddNibbleView("LocalTensor", offset, ::simnpu::ascendc::SrcLoc::Here());
    }
    return LocalTensor(Advance(offset), offset <= size_ ? size_ - offset : 0u, pos_, slot_);
  }

  T GetValue(uint32_t offset, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckIndex(offset, "GetValue", simnpuLoc);
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      return T::FromBits(::simnpu::ascendc::detail::GetNibble(addr_, offset));
    } else {
      return addr_[offset];
    }
  }
  void SetValue(uint32_t offset, T value, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckIndex(offset, "SetValue", simnpuLoc);
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      ::simnpu::ascendc::detail::SetNibble(addr_, offset, value.ToBits());
    } else {
      addr_[offset] = value;
    }
  }
  T& operator()(uint32_t offset) const { return addr_[offset]; }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(reinterpret_cast<U*>(addr_),
                          static_cast<uint32_t>(::simnpu::ascendc::detail::ElemsIn<U>(GetLength())), pos_, slot_);
  }

  // Makes this tensor a view of src starting offset elements of src's type in.
  template <typename U>
  void SetAddrWithOffset(const LocalTensor<U>& src, uint32_t offset) {
    const LocalTensor<U> v = src[offset];
    addr_ = reinterpret_cast<T*>(v.GetPhyAddr());
    size_ = static_cast<uint32_t>(::simnpu::ascendc::detail::ElemsIn<T>(v.GetLength()));
    pos_ = v.GetPosition();
    slot_ = v.SimnpuSlot();
  }

  void SetUserTag(int32_t tag) { tag_ = tag; }
  int32_t GetUserTag() const { return tag_; }

  ::simnpu::ascendc::detail::BufSlot* SimnpuSlot() const { return slot_; }

 private:
  T* Advance(uint32_t offset) const {
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(addr_) + offset / 2);
    } else {
      return addr_ + offset;
    }
  }
  void CheckIndex(uint32_t offset, const char* what, const ::simnpu::ascendc::SrcLoc& loc) const {
    if (__builtin_expect(offset >= size_, 0)) {
      ::simnpu::ascendc::detail::CheckFail(loc, "LocalTensor::%s(%u): offset out of range (tensor has %u elements)",
                                           what, offset, size_);
    }
  }

  T* addr_ = nullptr;
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  int32_t tag_ = 0;
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
  __gm__ T* GetPhyAddr(uint64_t offset) const { return Advance(offset); }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor v;
    v.addr_ = Advance(offset);
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
  T* Advance(uint64_t offset) const {
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(addr_) + offset / 2);
    } else {
      return addr_ + offset;
    }
  }

  T* addr_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_TENSOR_H_
