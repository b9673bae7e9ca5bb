// simnpu Ascend C model: bitwise element-wise APIs: And, Or (two tensors),
// Not, ShiftLeft and ShiftRight (by a scalar), in the count form and the
// high-dimension (mask + repeatTime + repeat parameters) form.
// ShiftRight is logical for unsigned and arithmetic for signed types; with
// roundEn (signed types) the last bit shifted out is added back (round half
// up). Shift counts beyond the type's width give 0 (or -1 for a negative
// signed value shifted right), which is what the 950 page states; the A2/A3
// pages limit the count to [0, width] and a larger one fails the block.
#ifndef SIMNPU_ASCENDC_VEC_LOGIC_H_
#define SIMNPU_ASCENDC_VEC_LOGIC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

enum LogicOp : int { kAnd = 0, kOr, kNot, kShl, kShr };

template <typename T>
constexpr bool kIsLogicType = std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value
#if __NPU_ARCH__ == 3510
                              || std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                              std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value ||
                              std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value
#endif
    ;
template <typename T>
constexpr bool kIsShiftType = std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                              std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value
#if __NPU_ARCH__ == 3510
                              || std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                              std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value
#endif
    ;

template <typename T>
inline T ShiftOne(T v, int op, int64_t s, bool round) {
  using U = typename std::make_unsigned<T>::type;
  constexpr int64_t kBits = static_cast<int64_t>(sizeof(T) * 8);
  if (op == kShl) return s >= kBits ? T(0) : static_cast<T>(static_cast<U>(static_cast<U>(v) << s));
  if (s == 0) return v;
  if constexpr (std::is_signed<T>::value) {
    const int64_t x = static_cast<int64_t>(v);
    if (s >= kBits) return x < 0 ? T(-1) : T(0);
    int64_t r = x >> s;  // arithmetic on GCC
    if (round) r += (x >> (s - 1)) & 1;
    return static_cast<T>(r);
  } else {
    return s >= kBits ? T(0) : static_cast<T>(static_cast<U>(v) >> s);
  }
}

template <int Op, typename T>
inline void LogicPacked(uint8_t* const* p, size_t n, int64_t shift, bool round) {
  T* d = reinterpret_cast<T*>(p[0]);
  const T* a = reinterpret_cast<const T*>(p[1]);
  if constexpr (Op == kAnd || Op == kOr) {
    const T* b = reinterpret_cast<const T*>(p[2]);
    using V = typename simd::Vec16<T>::type;
    constexpr size_t kL = 16 / sizeof(T);
    size_t i = 0;
    for (; i + kL <= n; i += kL) {
      V x, y;
      std::memcpy(&x, a + i, 16);
      std::memcpy(&y, b + i, 16);
      const V r = Op == kAnd ? (x & y) : (x | y);
      std::memcpy(d + i, &r, 16);
    }
    for (; i < n; ++i) d[i] = static_cast<T>(Op == kAnd ? (a[i] & b[i]) : (a[i] | b[i]));
  } else if constexpr (Op == kNot) {
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<T>(~a[i]);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = ShiftOne<T>(a[i], Op, shift, round);
  }
}

template <typename T>
inline int64_t CheckShift(const char* api, T s, const SrcLoc& loc) {
  const int64_t v = static_cast<int64_t>(s);
  if (v < 0) CheckFail(loc, "%s: the shift count %lld is negative", api, static_cast<long long>(v));
#if __NPU_ARCH__ != 3510
  if (v > static_cast<int64_t>(sizeof(T) * 8)) {
    CheckFail(loc, "%s: the shift count %lld is outside [0, %d] for a %d-bit type", api, static_cast<long long>(v),
              static_cast<int>(sizeof(T) * 8), static_cast<int>(sizeof(T) * 8));
  }
#endif
  return v;
}

template <int Op, typename T>
inline void LogicCount(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                       const AscendC::LocalTensor<T>* src1, int32_t count, int64_t shift, bool round,
                       const SrcLoc& loc) {
  if (src1 != nullptr) {
    if (!CheckCount(api, count, loc, dst, src0, *src1)) return;
  } else {
    if (!CheckCount(api, count, loc, dst, src0)) return;
  }
  uint8_t* p[3] = {reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), reinterpret_cast<uint8_t*>(src0.GetPhyAddr()),
                   src1 != nullptr ? reinterpret_cast<uint8_t*>(src1->GetPhyAddr()) : nullptr};
  LogicPacked<Op, T>(p, static_cast<size_t>(count), shift, round);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// ---- And / Or: dst = src0 & src1, src0 | src1.
#define SIMNPU_ASCENDC_LOGIC_BINARY(Name, OpId)                                                                 \
  template <typename T>                                                                                        \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                   const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {                                          \
    static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, #Name ": unsupported data type (int16_t, uint16_t)"); \
    ::simnpu::ascendc::detail::LogicCount<OpId, T>(#Name, dst, src0, &src1, count, 0, false, simnpuLoc);        \
  }                                                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                   const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,    \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                 \
    static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, #Name ": unsupported data type (int16_t, uint16_t)"); \
    ::simnpu::ascendc::detail::Level0Binary<T, isSetMask>(                                                      \
        #Name, dst, src0, src1, mask, 0, repeatTime, repeatParams, simnpuLoc,                                   \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::LogicPacked<OpId, T>(p, n, 0, false); });  \
  }                                                                                                            \
  template <typename T, bool isSetMask = true>                                                                 \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                   uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,            \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                 \
    static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, #Name ": unsupported data type (int16_t, uint16_t)"); \
    ::simnpu::ascendc::detail::Level0Binary<T, isSetMask>(                                                      \
        #Name, dst, src0, src1, nullptr, mask, repeatTime, repeatParams, simnpuLoc,                             \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::LogicPacked<OpId, T>(p, n, 0, false); });  \
  }

SIMNPU_ASCENDC_LOGIC_BINARY(And, ::simnpu::ascendc::detail::kAnd)
SIMNPU_ASCENDC_LOGIC_BINARY(Or, ::simnpu::ascendc::detail::kOr)
#undef SIMNPU_ASCENDC_LOGIC_BINARY

// ---- Not: dst = ~src.
template <typename T, bool isReuseSource = false>
inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, "Not: unsupported data type (int16_t, uint16_t)");
  ::simnpu::ascendc::detail::LogicCount<::simnpu::ascendc::detail::kNot, T>("Not", dst, src, nullptr, count, 0, false,
                                                                            simnpuLoc);
}
template <typename T, bool isSetMask = true>
inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
                const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, "Not: unsupported data type (int16_t, uint16_t)");
  ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(
      "Not", dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc, [](uint8_t* const* p, size_t n) {
        ::simnpu::ascendc::detail::LogicPacked<::simnpu::ascendc::detail::kNot, T>(p, n, 0, false);
      });
}
template <typename T, bool isSetMask = true>
inline void Not(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask, const uint8_t repeatTime,
                const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsLogicType<T>, "Not: unsupported data type (int16_t, uint16_t)");
  ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(
      "Not", dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc, [](uint8_t* const* p, size_t n) {
        ::simnpu::ascendc::detail::LogicPacked<::simnpu::ascendc::detail::kNot, T>(p, n, 0, false);
      });
}

// ---- ShiftLeft / ShiftRight by a scalar.
#define SIMNPU_ASCENDC_SHIFT(Name, OpId, RoundParam, RoundArg)                                                      \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,                   \
                   const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {                                               \
    namespace d = ::simnpu::ascendc::detail;                                                                       \
    static_assert(d::kIsShiftType<T>, #Name ": unsupported data type (int16_t, uint16_t, int32_t, uint32_t)");     \
    const int32_t n = isSetMask ? count : static_cast<int32_t>(d::CountFromRegister(#Name, simnpuLoc));            \
    const int64_t s = d::CheckShift<T>(#Name, scalarValue, simnpuLoc);                                             \
    d::LogicCount<OpId, T>(#Name, dst, src, nullptr, n, s, false, simnpuLoc);                                      \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,                   \
                   const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams RoundParam \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                     \
    namespace d = ::simnpu::ascendc::detail;                                                                       \
    static_assert(d::kIsShiftType<T>, #Name ": unsupported data type (int16_t, uint16_t, int32_t, uint32_t)");     \
    const int64_t s = d::CheckShift<T>(#Name, scalarValue, simnpuLoc);                                             \
    const bool r = RoundArg;                                                                                       \
    d::Level0Unary<T, T, isSetMask>(#Name, dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc,                 \
                                    [s, r](uint8_t* const* p, size_t n) { d::LogicPacked<OpId, T>(p, n, s, r); }); \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                           \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue, uint64_t mask,    \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams RoundParam SIMNPU_ASCENDC_LOC_PARAM) { \
    namespace d = ::simnpu::ascendc::detail;                                                                       \
    static_assert(d::kIsShiftType<T>, #Name ": unsupported data type (int16_t, uint16_t, int32_t, uint32_t)");     \
    const int64_t s = d::CheckShift<T>(#Name, scalarValue, simnpuLoc);                                             \
    const bool r = RoundArg;                                                                                       \
    d::Level0Unary<T, T, isSetMask>(#Name, dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc,           \
                                    [s, r](uint8_t* const* p, size_t n) { d::LogicPacked<OpId, T>(p, n, s, r); }); \
  }

#define SIMNPU_ASCENDC_NO_ROUND_PARAM ,
#define SIMNPU_ASCENDC_ROUND_PARAM , bool roundEn = false,
SIMNPU_ASCENDC_SHIFT(ShiftLeft, ::simnpu::ascendc::detail::kShl, SIMNPU_ASCENDC_NO_ROUND_PARAM, false)
SIMNPU_ASCENDC_SHIFT(ShiftRight, ::simnpu::ascendc::detail::kShr, SIMNPU_ASCENDC_ROUND_PARAM, roundEn)
#undef SIMNPU_ASCENDC_NO_ROUND_PARAM
#undef SIMNPU_ASCENDC_ROUND_PARAM
#undef SIMNPU_ASCENDC_SHIFT

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_LOGIC_H_
