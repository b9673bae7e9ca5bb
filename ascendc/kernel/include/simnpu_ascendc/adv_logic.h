// simnpu Ascend C model: the advanced logical, bitwise and selection ops of
// the 950 pages: LogicalAnd / LogicalOr / LogicalXor (bool result; a source
// element is true when non-zero), LogicalNot, BitwiseAnd / BitwiseOr /
// BitwiseXor / BitwiseNot (integer types), Where (dst = condition ? src0 :
// src1, each source a LocalTensor or a scalar). Compiled on every
// architecture (the model has no reason to refuse them), exact.
#ifndef SIMNPU_ASCENDC_ADV_LOGIC_H_
#define SIMNPU_ASCENDC_ADV_LOGIC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename U>
inline bool Truth(const U& v) {
  if constexpr (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != U(0);
  }
}

template <typename T>
constexpr bool kIsBitwiseType = std::is_integral<T>::value && !std::is_same<T, bool>::value;

template <typename T>
struct IsLocalTensor : std::false_type {};
template <typename T>
struct IsLocalTensor<AscendC::LocalTensor<T>> : std::true_type {};

template <typename T, typename S>
inline T WhereValue(const S& s, uint32_t i) {
  if constexpr (IsLocalTensor<S>::value) {
    return s.GetPhyAddr()[i];
  } else {
    return static_cast<T>(s);
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

#define SIMNPU_ADV_LOGIC_CONFIG(Cfg, Default) \
  struct Cfg {                                \
    bool isReuseSource;                       \
  };                                          \
  constexpr Cfg Default = {false};

SIMNPU_ADV_LOGIC_CONFIG(LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG)
SIMNPU_ADV_LOGIC_CONFIG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG)
#undef SIMNPU_ADV_LOGIC_CONFIG

#define SIMNPU_ADV_LOGICAL2(Name, Cfg, Default, EXPR)                                                         \
  template <const Cfg& config = Default, typename T, typename U>                                             \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,          \
                   const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {                                          \
    namespace d = ::simnpu::ascendc::detail;                                                                  \
    static_assert(std::is_same<T, bool>::value, #Name ": the destination type is bool");                      \
    if (!d::CheckCount(#Name, static_cast<int32_t>(count), simnpuLoc, dst, src0, src1)) return;               \
    for (uint32_t i = 0; i < count; ++i) {                                                                    \
      const bool a = d::Truth(src0.GetPhyAddr()[i]), b = d::Truth(src1.GetPhyAddr()[i]);                      \
      dst.GetPhyAddr()[i] = (EXPR);                                                                           \
    }                                                                                                         \
  }
SIMNPU_ADV_LOGICAL2(LogicalAnd, LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG, a && b)
SIMNPU_ADV_LOGICAL2(LogicalOr, LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG, a || b)
SIMNPU_ADV_LOGICAL2(LogicalXor, LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG, a != b)
#undef SIMNPU_ADV_LOGICAL2

template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
inline void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                       SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<T, bool>::value, "LogicalNot: the destination type is bool");
  if (!d::CheckCount("LogicalNot", static_cast<int32_t>(count), simnpuLoc, dst, src)) return;
  for (uint32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = !d::Truth(src.GetPhyAddr()[i]);
}

#define SIMNPU_ADV_BITWISE2(Name, Cfg, Default, OP)                                                           \
  template <const Cfg& config = Default, typename T>                                                         \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,          \
                   const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {                                          \
    namespace d = ::simnpu::ascendc::detail;                                                                  \
    static_assert(d::kIsBitwiseType<T>, #Name ": unsupported data type (8- to 64-bit integers)");             \
    if (!d::CheckCount(#Name, static_cast<int32_t>(count), simnpuLoc, dst, src0, src1)) return;               \
    for (uint32_t i = 0; i < count; ++i) {                                                                    \
      dst.GetPhyAddr()[i] = static_cast<T>(src0.GetPhyAddr()[i] OP src1.GetPhyAddr()[i]);                     \
    }                                                                                                         \
  }
SIMNPU_ADV_BITWISE2(BitwiseAnd, BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG, &)
SIMNPU_ADV_BITWISE2(BitwiseOr, BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG, |)
SIMNPU_ADV_BITWISE2(BitwiseXor, BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG, ^)
#undef SIMNPU_ADV_BITWISE2

// Xor (the advanced bitwise exclusive or of int16_t / uint16_t tensors):
// dst = src0 ^ src1 over count elements (all of dst without count); the
// temporary buffer is accepted and not needed.
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value,
                "Xor: unsupported data type (int16_t, uint16_t)");
  (void)sharedTmpBuffer;
  if (!d::CheckCount("Xor", static_cast<int32_t>(count), simnpuLoc, dst, src0, src1)) return;
  T* o = dst.GetPhyAddr();
  const T* a = src0.GetPhyAddr();
  const T* b = src1.GetPhyAddr();
  for (uint32_t i = 0; i < count; ++i) o[i] = static_cast<T>(a[i] ^ b[i]);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  Xor<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>(), count, simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>& sharedTmpBuffer, SIMNPU_ASCENDC_LOC_PARAM) {
  Xor<T, isReuseSource>(dst, src0, src1, sharedTmpBuffer, dst.GetSize(), simnpuLoc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                SIMNPU_ASCENDC_LOC_PARAM) {
  Xor<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>(), dst.GetSize(), simnpuLoc);
}

template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
inline void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                       SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsBitwiseType<T>, "BitwiseNot: unsupported data type (8- to 64-bit integers)");
  if (!d::CheckCount("BitwiseNot", static_cast<int32_t>(count), simnpuLoc, dst, src)) return;
  for (uint32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = static_cast<T>(~src.GetPhyAddr()[i]);
}

template <typename T, typename U, typename S, typename V>
inline void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& condition,
                  const uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<V, bool>::value, "Where: the condition type is bool");
  if (!d::CheckCount("Where", static_cast<int32_t>(count), simnpuLoc, dst, condition)) return;
  if constexpr (d::IsLocalTensor<U>::value) d::NeedElems("Where", "src0", src0, count, simnpuLoc);
  if constexpr (d::IsLocalTensor<S>::value) d::NeedElems("Where", "src1", src1, count, simnpuLoc);
  for (uint32_t i = 0; i < count; ++i) {
    dst.GetPhyAddr()[i] = condition.GetPhyAddr()[i] ? d::WhereValue<T>(src0, i) : d::WhereValue<T>(src1, i);
  }
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_LOGIC_H_
