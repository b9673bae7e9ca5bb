// simnpu Ascend C model: the DMA atomic unit: SetAtomicAdd / SetAtomicMax /
// SetAtomicMin<T>, SetAtomicType<T>, SetAtomicNone / DisableDmaAtomic.
//
// While a mode is set, every transfer from local memory to global memory
// (DataCopy, DataCopyPad) is an element-wise read-modify-write of the GM
// contents with the data moved, in the type set (int8_t, int16_t, half,
// bfloat16_t, int32_t, float; half and bfloat16 added in float and rounded
// once). Scalar GlobalTensor::SetValue is not a DMA transfer and stays a
// plain store. All atomic transfers of the process are serialised by one
// lock (blocks run on several threads: two blocks adding to one element
// never lose an update). Integer adds wrap. The mode is per block (a
// block starts with none) and InitSocState clears it.
//
// BlockContext::atomic_mode: 0 none, else op | type << 8 (the enums below).
#ifndef SIMNPU_ASCENDC_ATOMIC_H_
#define SIMNPU_ASCENDC_ATOMIC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

enum AtomicOp : uint32_t { kAtomicNone = 0, kAtomicAdd = 1, kAtomicMax = 2, kAtomicMin = 3 };
enum AtomicType : uint32_t { kAtF32 = 0, kAtF16, kAtBf16, kAtI8, kAtI16, kAtI32 };

template <typename T>
constexpr uint32_t AtomicTypeOf() {
  static_assert(std::is_same<T, float>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
                    std::is_same<T, int8_t>::value || std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value,
                "atomic operations: unsupported data type (int8_t, int16_t, half, bfloat16_t, int32_t, float)");
  return std::is_same<T, float>::value ? kAtF32
         : std::is_same<T, half>::value ? kAtF16
         : std::is_same<T, bfloat16_t>::value ? kAtBf16
         : std::is_same<T, int8_t>::value ? kAtI8
         : std::is_same<T, int16_t>::value ? kAtI16
                                           : kAtI32;
}

template <typename T, typename C>
inline T Combine(uint32_t op, T old, T v) {
  if (op == kAtomicAdd) {
    if constexpr (std::is_integral<T>::value) {
      using U = typename std::make_unsigned<T>::type;
      return static_cast<T>(static_cast<U>(static_cast<U>(old) + static_cast<U>(v)));
    } else {
      return T(static_cast<C>(old) + static_cast<C>(v));
    }
  }
  const C a = static_cast<C>(old), b = static_cast<C>(v);
  if (op == kAtomicMax) return b > a ? v : old;
  return b < a ? v : old;
}

template <typename T, typename C>
inline void CombineAll(uint32_t op, uint8_t* cur, const uint8_t* src, size_t n) {
  const size_t k = n / sizeof(T);
  for (size_t i = 0; i < k; ++i) {
    T a, b;
    std::memcpy(&a, cur + i * sizeof(T), sizeof(T));
    std::memcpy(&b, src + i * sizeof(T), sizeof(T));
    a = Combine<T, C>(op, a, b);
    std::memcpy(cur + i * sizeof(T), &a, sizeof(T));
  }
}

SIMNPU_ASCENDC_HIDDEN inline std::mutex& AtomicMutex() {
  static std::mutex mu;
  return mu;
}

SIMNPU_ASCENDC_NOINLINE inline void AtomicGmWrite(BlockContext* c, void* gm, const void* src, size_t n, const SrcLoc& loc) {
  const uint32_t op = c->atomic_mode & 0xffu;
  const uint32_t ty = c->atomic_mode >> 8;
  static const size_t kSize[] = {4, 2, 2, 1, 2, 4};
  if (n % kSize[ty] != 0) {
    CheckFail(loc, "atomic DataCopy: %zu bytes is not a whole number of elements of the atomic type (%zu bytes)", n,
              kSize[ty]);
  }
  std::string cur(n, '\0');
  uint8_t* p = reinterpret_cast<uint8_t*>(&cur[0]);
  const uintptr_t a = reinterpret_cast<uintptr_t>(gm);
  // one checked access (an atomic update: never a race), then the raw moves
  GmCheck(c, a, n, SIMNPU_ACCESS_READ | SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC, loc);
  const bool managed = OverlapsManaged(c, a, n);
  std::lock_guard<std::mutex> lock(AtomicMutex());
  if (managed) {
    GmTransferSlow(c, false, a, p, n, loc);
  } else {
    std::memcpy(p, gm, n);
  }
  const uint8_t* s = static_cast<const uint8_t*>(src);
  switch (ty) {
    case kAtF32: CombineAll<float, float>(op, p, s, n); break;
    case kAtF16: CombineAll<half, float>(op, p, s, n); break;
    case kAtBf16: CombineAll<bfloat16_t, float>(op, p, s, n); break;
    case kAtI8: CombineAll<int8_t, int32_t>(op, p, s, n); break;
    case kAtI16: CombineAll<int16_t, int32_t>(op, p, s, n); break;
    default: CombineAll<int32_t, int64_t>(op, p, s, n); break;
  }
  if (managed) {
    GmTransferSlow(c, true, a, p, n, loc);
  } else {
    std::memcpy(gm, p, n);
  }
}

// local memory -> GM by the DMA engine (DataCopy): atomic when a mode is set.
inline void GmWriteDma(void* gm_dst, const void* src, size_t n, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (__builtin_expect(c != nullptr && c->atomic_mode != 0, 0)) {
    if (n != 0) AtomicGmWrite(c, gm_dst, src, n, loc);
    return;
  }
  GmWrite(gm_dst, src, n, loc);
}

inline void SetAtomic(uint32_t op, uint32_t type) {
  BlockContext* c = tls_ctx;
  if (c != nullptr) c->atomic_mode = op == kAtomicNone ? 0u : (op | (type << 8));
}
inline void ResetAtomicState() { SetAtomic(kAtomicNone, 0); }
SIMNPU_ASCENDC_SOC_STATE_RESET(ResetAtomicState);

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline void SetAtomicAdd() {
  namespace d = ::simnpu::ascendc::detail;
  d::SetAtomic(d::kAtomicAdd, d::AtomicTypeOf<T>());
}
template <typename T>
inline void SetAtomicMax() {
  namespace d = ::simnpu::ascendc::detail;
  d::SetAtomic(d::kAtomicMax, d::AtomicTypeOf<T>());
}
template <typename T>
inline void SetAtomicMin() {
  namespace d = ::simnpu::ascendc::detail;
  d::SetAtomic(d::kAtomicMin, d::AtomicTypeOf<T>());
}
// Changes the type of the mode set (no effect when none is set).
template <typename T>
inline void SetAtomicType() {
  namespace d = ::simnpu::ascendc::detail;
  d::BlockContext* c = d::tls_ctx;
  if (c != nullptr && c->atomic_mode != 0) d::SetAtomic(c->atomic_mode & 0xffu, d::AtomicTypeOf<T>());
}
inline void DisableDmaAtomic() { ::simnpu::ascendc::detail::ResetAtomicState(); }
inline void SetAtomicNone() { ::simnpu::ascendc::detail::ResetAtomicState(); }

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ATOMIC_H_
