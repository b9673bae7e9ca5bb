// simnpu Ascend C model: the high-dimension (mask + repeatTime + repeat
// parameters) forms of the element-wise vector APIs whose count forms are in
// vector_ops.h: Add/Sub/Mul/Div/Max/Min (BinaryRepeatParams), Adds/Muls/
// Maxs/Mins/LeakyRelu (scalar, UnaryRepeatParams), Exp/Ln/Abs/Sqrt/Rsqrt/
// Reciprocal/Relu (UnaryRepeatParams) and Duplicate (block/repeat strides).
// All run on the repeat engine of vec_mask.h; results are the bits of the
// count forms (each element computed in float where the type is half and
// rounded once).
#ifndef SIMNPU_ASCENDC_VEC_LEVEL0_H_
#define SIMNPU_ASCENDC_VEC_LEVEL0_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

// Packed kernels: n elements, pointers into the engine's packed arrays.
template <int Op, typename T>
inline void BinaryPacked(uint8_t* const* p, size_t n) {
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfBinary<Op>(reinterpret_cast<uint16_t*>(p[0]), reinterpret_cast<const uint16_t*>(p[1]),
                         reinterpret_cast<const uint16_t*>(p[2]), n);
  } else if constexpr (std::is_same<T, bfloat16_t>::value) {
    T* d = reinterpret_cast<T*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    for (size_t i = 0; i < n; ++i) d[i] = T(simd::ScalarBin<Op>(static_cast<float>(a[i]), static_cast<float>(b[i])));
  } else {
    simd::BinaryLoop<Op>(reinterpret_cast<T*>(p[0]), reinterpret_cast<const T*>(p[1]), reinterpret_cast<const T*>(p[2]), n);
  }
}

template <int Op, typename T>
inline void ScalarPacked(uint8_t* const* p, size_t n, T s) {
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfBinaryScalar<Op>(reinterpret_cast<uint16_t*>(p[0]), reinterpret_cast<const uint16_t*>(p[1]),
                               static_cast<float>(s), n);
  } else if constexpr (std::is_same<T, bfloat16_t>::value) {
    T* d = reinterpret_cast<T*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    for (size_t i = 0; i < n; ++i) d[i] = T(simd::ScalarBin<Op>(static_cast<float>(a[i]), static_cast<float>(s)));
  } else {
    simd::BinaryScalarLoop<Op>(reinterpret_cast<T*>(p[0]), reinterpret_cast<const T*>(p[1]), s, n);
  }
}

template <int Op, typename T>
inline void UnaryPacked(uint8_t* const* p, size_t n) {
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfUnary<Op>(reinterpret_cast<uint16_t*>(p[0]), reinterpret_cast<const uint16_t*>(p[1]), n);
  } else if constexpr (std::is_same<T, float>::value) {
    simd::FloatUnaryLoop<Op>(reinterpret_cast<float*>(p[0]), reinterpret_cast<const float*>(p[1]), n);
  } else {
    T* d = reinterpret_cast<T*>(p[0]);
    const T* s = reinterpret_cast<const T*>(p[1]);
    for (size_t i = 0; i < n; ++i) {
      if constexpr (Op == simd::kAbs) {
        d[i] = s[i] < 0 ? static_cast<T>(0u - static_cast<typename std::make_unsigned<T>::type>(s[i])) : s[i];
      } else {
        d[i] = s[i] > 0 ? s[i] : T(0);
      }
    }
  }
}

template <typename T>
inline void LeakyReluPacked(uint8_t* const* p, size_t n, float alpha) {
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfLeakyReluPortable(reinterpret_cast<uint16_t*>(p[0]), reinterpret_cast<const uint16_t*>(p[1]), alpha, n);
  } else {
    float* d = reinterpret_cast<float*>(p[0]);
    const float* s = reinterpret_cast<const float*>(p[1]);
    for (size_t i = 0; i < n; ++i) d[i] = s[i] >= 0.0f ? s[i] : s[i] * alpha;
  }
}

template <typename T, bool kSetMask, typename Fn>
inline void Level0Binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                         const AscendC::LocalTensor<T>& src1, const uint64_t* mask_bits, uint64_t mask_len,
                         uint8_t repeat, const AscendC::BinaryRepeatParams& rp, const SrcLoc& loc, Fn&& fn) {
  RepeatPlan p;
  MakePlan(p, sizeof(T), mask_bits, mask_len, repeat, kSetMask, loc);
  Operand ops[3] = {MakeOperand(dst, rp.dstBlkStride, rp.dstRepStride, "dst"),
                    MakeOperand(src0, rp.src0BlkStride, rp.src0RepStride, "src0"),
                    MakeOperand(src1, rp.src1BlkStride, rp.src1RepStride, "src1")};
  for (Operand& o : ops) Prepare(api, o, p, loc);
  RunRepeats(p, ops, false, fn);
}

template <typename TD, typename TS, bool kSetMask, typename Fn>
inline void Level0Unary(const char* api, const AscendC::LocalTensor<TD>& dst, const AscendC::LocalTensor<TS>& src,
                        const uint64_t* mask_bits, uint64_t mask_len, uint8_t repeat,
                        const AscendC::UnaryRepeatParams& rp, const SrcLoc& loc, Fn&& fn) {
  RepeatPlan p;
  MakePlan(p, sizeof(TD) > sizeof(TS) ? sizeof(TD) : sizeof(TS), mask_bits, mask_len, repeat, kSetMask, loc);
  Operand ops[2] = {MakeOperand(dst, rp.dstBlkStride, rp.dstRepStride, "dst"),
                    MakeOperand(src, rp.srcBlkStride, rp.srcRepStride, "src")};
  for (Operand& o : ops) Prepare(api, o, p, loc);
  RunRepeats(p, ops, false, fn);
}

template <typename T, bool kSetMask>
inline void DuplicateL0(const AscendC::LocalTensor<T>& dst, T v, const uint64_t* bits, uint64_t len, uint8_t repeatTime,
                        uint16_t blk, uint8_t rep, const SrcLoc& loc) {
  RepeatPlan p;
  MakePlan(p, sizeof(T), bits, len, repeatTime, kSetMask, loc);
  Operand ops[1] = {MakeOperand(dst, blk, rep, "dst")};
  Prepare("Duplicate", ops[0], p, loc);
  RunRepeats(p, ops, false, [v](uint8_t* const* q, size_t n) {
    T* o = reinterpret_cast<T*>(q[0]);
    for (size_t i = 0; i < n; ++i) o[i] = v;
  });
}

template <typename T>
constexpr bool kIsLevel0Arith = std::is_same<T, half>::value || std::is_same<T, float>::value ||
                                std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value;

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#define SIMNPU_ASCENDC_L0_BINARY(Name, OpId, Check, What)                                                        \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,           \
                   const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,     \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    ::simnpu::ascendc::detail::Level0Binary<T, isSetMask>(                                                       \
        #Name, dst, src0, src1, mask, 0, repeatTime, repeatParams, simnpuLoc,                                    \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::BinaryPacked<OpId, T>(p, n); });            \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,           \
                   uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,             \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    ::simnpu::ascendc::detail::Level0Binary<T, isSetMask>(                                                       \
        #Name, dst, src0, src1, nullptr, mask, repeatTime, repeatParams, simnpuLoc,                              \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::BinaryPacked<OpId, T>(p, n); });            \
  }

#define SIMNPU_ASCENDC_L0_SCALAR(Name, OpId, Check, What)                                                        \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                        \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,                \
                   const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,      \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                                  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    const T s = scalarValue;                                                                                    \
    ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(                                                     \
        #Name, dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc,                                           \
        [s](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::ScalarPacked<OpId, T>(p, n, s); });        \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                        \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue, uint64_t mask, \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    const T s = scalarValue;                                                                                    \
    ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(                                                     \
        #Name, dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc,                                     \
        [s](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::ScalarPacked<OpId, T>(p, n, s); });        \
  }

#define SIMNPU_ASCENDC_L0_UNARY(Name, OpId, Check, What)                                                         \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                 \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(                                                     \
        #Name, dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc,                                           \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::UnaryPacked<OpId, T>(p, n); });             \
  }                                                                                                             \
  template <typename T, bool isSetMask = true>                                                                  \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                         \
                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {  \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");             \
    ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(                                                     \
        #Name, dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc,                                     \
        [](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::UnaryPacked<OpId, T>(p, n); });             \
  }

namespace AscendC {

SIMNPU_ASCENDC_L0_BINARY(Add, ::simnpu::ascendc::simd::kAdd, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_BINARY(Sub, ::simnpu::ascendc::simd::kSub, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_BINARY(Mul, ::simnpu::ascendc::simd::kMul, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_BINARY(Div, ::simnpu::ascendc::simd::kDiv, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_BINARY(Max, ::simnpu::ascendc::simd::kMax, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_BINARY(Min, ::simnpu::ascendc::simd::kMin, kIsLevel0Arith, "half, float, int16_t, int32_t")

SIMNPU_ASCENDC_L0_SCALAR(Adds, ::simnpu::ascendc::simd::kAdd, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_SCALAR(Muls, ::simnpu::ascendc::simd::kMul, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_SCALAR(Maxs, ::simnpu::ascendc::simd::kMax, kIsLevel0Arith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_SCALAR(Mins, ::simnpu::ascendc::simd::kMin, kIsLevel0Arith, "half, float, int16_t, int32_t")

SIMNPU_ASCENDC_L0_UNARY(Exp, ::simnpu::ascendc::simd::kExp, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_UNARY(Ln, ::simnpu::ascendc::simd::kLn, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_UNARY(Sqrt, ::simnpu::ascendc::simd::kSqrt, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_UNARY(Rsqrt, ::simnpu::ascendc::simd::kRsqrt, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_UNARY(Reciprocal, ::simnpu::ascendc::simd::kRec, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_L0_UNARY(Abs, ::simnpu::ascendc::simd::kAbs, kIsAbsType, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_L0_UNARY(Relu, ::simnpu::ascendc::simd::kRelu, kIsReluType, "half, float, int32_t")

template <typename T, bool isSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue, uint64_t mask,
                      const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsVecFloat<T>, "LeakyRelu: unsupported data type (half, float)");
  const float a = static_cast<float>(scalarValue);
  ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(
      "LeakyRelu", dst, src, nullptr, mask, repeatTime, repeatParams, simnpuLoc,
      [a](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::LeakyReluPacked<T>(p, n, a); });
}
template <typename T, bool isSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,
                      const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                      SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsVecFloat<T>, "LeakyRelu: unsupported data type (half, float)");
  const float a = static_cast<float>(scalarValue);
  ::simnpu::ascendc::detail::Level0Unary<T, T, isSetMask>(
      "LeakyRelu", dst, src, mask, 0, repeatTime, repeatParams, simnpuLoc,
      [a](uint8_t* const* p, size_t n) { ::simnpu::ascendc::detail::LeakyReluPacked<T>(p, n, a); });
}


template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue, uint64_t mask, const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::DuplicateL0<T, isSetMask>(dst, scalarValue, nullptr, mask, repeatTime, dstBlockStride, dstRepeatStride,
                                       simnpuLoc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue, const uint64_t mask[], const uint8_t repeatTime,
                      const uint16_t dstBlockStride, const uint8_t dstRepeatStride, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::DuplicateL0<T, isSetMask>(dst, scalarValue, mask, 0, repeatTime, dstBlockStride, dstRepeatStride,
                                       simnpuLoc);
}

}  // namespace AscendC

#undef SIMNPU_ASCENDC_L0_BINARY
#undef SIMNPU_ASCENDC_L0_SCALAR
#undef SIMNPU_ASCENDC_L0_UNARY

#endif  // SIMNPU_ASCENDC_VEC_LEVEL0_H_
