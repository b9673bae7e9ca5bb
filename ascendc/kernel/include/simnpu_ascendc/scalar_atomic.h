// simnpu Ascend C model: the scalar atomics on one global-memory element:
// AtomicAdd / AtomicMax / AtomicMin / AtomicExch / AtomicCas (address,
// value[s]) -> the value the element held before the operation.
//
// The pages list them for the newest SOC (int32/uint32/int64/uint64/float
// for add, max and min; uint32/uint64 for exch and cas). The model offers
// them on every SOC, as lock-free CPU atomics on the element (blocks run on
// several threads, so concurrent updates from different blocks are never
// lost). The address must lie inside a device allocation, like any other GM
// access; an unsupported element type is a compile-time error.
#ifndef SIMNPU_ASCENDC_SCALAR_ATOMIC_H_
#define SIMNPU_ASCENDC_SCALAR_ATOMIC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsScalarAtomicArith = std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value ||
                                      std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value ||
                                      std::is_same<T, float>::value;
template <typename T>
constexpr bool kIsScalarAtomicSwap = std::is_same<T, uint32_t>::value || std::is_same<T, uint64_t>::value;

template <typename T>
inline T* ScalarAtomicAddr(const char* api, __gm__ T* address, const SrcLoc& loc) {
  if (address == nullptr) CheckFail(loc, "%s: the address is a null pointer", api);
  GmTouch(address, sizeof(T), SIMNPU_ACCESS_READ | SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC, loc);
  return reinterpret_cast<T*>(address);
}

// Read-modify-write with a compare-exchange loop (float has no fetch_add
// builtin of its own); op(old) gives the new value.
template <typename T, typename Op>
inline T ScalarAtomicUpdate(T* p, Op op) {
  T old;
  __atomic_load(p, &old, __ATOMIC_SEQ_CST);
  for (;;) {
    const T next = op(old);
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline T AtomicAdd(__gm__ T* address, T value, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScalarAtomicArith<T>, "AtomicAdd: unsupported data type (int32_t, uint32_t, int64_t, uint64_t, float)");
  T* p = d::ScalarAtomicAddr("AtomicAdd", address, simnpuLoc);
  if constexpr (std::is_integral<T>::value) {
    return __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);  // wraps, as integer adds of the NPU do
  } else {
    return d::ScalarAtomicUpdate(p, [value](T v) { return v + value; });
  }
}
template <typename T>
inline T AtomicMax(__gm__ T* address, T value, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScalarAtomicArith<T>, "AtomicMax: unsupported data type (int32_t, uint32_t, int64_t, uint64_t, float)");
  T* p = d::ScalarAtomicAddr("AtomicMax", address, simnpuLoc);
  return d::ScalarAtomicUpdate(p, [value](T v) { return value > v ? value : v; });
}
template <typename T>
inline T AtomicMin(__gm__ T* address, T value, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScalarAtomicArith<T>, "AtomicMin: unsupported data type (int32_t, uint32_t, int64_t, uint64_t, float)");
  T* p = d::ScalarAtomicAddr("AtomicMin", address, simnpuLoc);
  return d::ScalarAtomicUpdate(p, [value](T v) { return value < v ? value : v; });
}
template <typename T>
inline T AtomicExch(__gm__ T* address, T value, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScalarAtomicSwap<T>, "AtomicExch: unsupported data type (uint32_t, uint64_t)");
  T* p = d::ScalarAtomicAddr("AtomicExch", address, simnpuLoc);
  return __atomic_exchange_n(p, value, __ATOMIC_SEQ_CST);
}
// Stores value2 when the element equals value1; returns the element's old value either way.
template <typename T>
inline T AtomicCas(__gm__ T* address, T value1, T value2, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsScalarAtomicSwap<T>, "AtomicCas: unsupported data type (uint32_t, uint64_t)");
  T* p = d::ScalarAtomicAddr("AtomicCas", address, simnpuLoc);
  T expected = value1;
  __atomic_compare_exchange_n(p, &expected, value2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expected;
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_SCALAR_ATOMIC_H_
