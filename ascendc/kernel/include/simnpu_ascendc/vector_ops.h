// simnpu Ascend C model: count-based vector APIs (the "first n elements"
// forms): binary, scalar, unary ops and Duplicate. count 0 is a no-op; a
// count beyond an operand's LocalTensor fails the block.
#ifndef SIMNPU_ASCENDC_VECTOR_OPS_H_
#define SIMNPU_ASCENDC_VECTOR_OPS_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
struct TypeIdentity {
  using type = T;
};

// Element types of the count-form arithmetic APIs: the A2/A3 set, plus the
// extra types the 950 pages list for the count forms.
template <typename T>
constexpr bool kIsVecArith = std::is_same<T, half>::value || std::is_same<T, float>::value ||
                             std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value
#if __NPU_ARCH__ == 3510
                             || std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                             std::is_same<T, uint16_t>::value || std::is_same<T, uint32_t>::value ||
                             std::is_same<T, bfloat16_t>::value || std::is_same<T, int64_t>::value ||
                             std::is_same<T, uint64_t>::value
#endif
    ;
template <typename T>
constexpr bool kIsVecFloat = std::is_same<T, half>::value || std::is_same<T, float>::value;

// Validates count against the operands (and their 32-byte start alignment);
// returns false for a no-op (count 0).
template <typename T>
inline bool CheckCount(const char* api, int32_t count, const SrcLoc& loc, const AscendC::LocalTensor<T>& dst) {
  CheckAligned(api, "dst", dst.GetPhyAddr(), loc);
  if (__builtin_expect(count <= 0, 0)) {
    if (count < 0) CheckFail(loc, "%s: count %d is negative", api, count);
    return false;
  }
  if (__builtin_expect(static_cast<uint32_t>(count) > dst.GetSize(), 0)) {
    CheckFail(loc, "%s: count %d exceeds the destination LocalTensor (%u elements)", api, count, dst.GetSize());
  }
  return true;
}
template <typename T, typename U, typename... R>
inline bool CheckCount(const char* api, int32_t count, const SrcLoc& loc, const AscendC::LocalTensor<T>& dst,
                       const AscendC::LocalTensor<U>& src, const R&... rest) {
  if (!CheckCount(api, count, loc, dst, rest...)) return false;
  CheckAligned(api, "src", src.GetPhyAddr(), loc);
  if (__builtin_expect(static_cast<uint32_t>(count) > src.GetSize(), 0)) {
    CheckFail(loc, "%s: count %d exceeds a source LocalTensor (%u elements)", api, count, src.GetSize());
  }
  return true;
}

template <typename T>
inline uint16_t* H(const AscendC::LocalTensor<T>& t) {
  return reinterpret_cast<uint16_t*>(t.GetPhyAddr());
}

template <int Op, typename T>
inline void Binary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                   const AscendC::LocalTensor<T>& src1, int32_t count, const SrcLoc& loc) {
  if (!CheckCount(api, count, loc, dst, src0, src1)) return;
  const size_t n = static_cast<uint32_t>(count);  // count > 0 here (CheckCount)
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfBinary<Op>(H(dst), H(src0), H(src1), n);
  } else if constexpr (std::is_same<T, bfloat16_t>::value) {
    T* d = dst.GetPhyAddr();
    const T* a = src0.GetPhyAddr();
    const T* b = src1.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) d[i] = T(simd::ScalarBin<Op>(static_cast<float>(a[i]), static_cast<float>(b[i])));
  } else {
    simd::BinaryLoop<Op>(dst.GetPhyAddr(), src0.GetPhyAddr(), src1.GetPhyAddr(), n);
  }
}

template <int Op, typename T>
inline void BinaryScalar(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         T scalar, int32_t count, const SrcLoc& loc) {
  if (!CheckCount(api, count, loc, dst, src)) return;
  const size_t n = static_cast<uint32_t>(count);  // count > 0 here (CheckCount)
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfBinaryScalar<Op>(H(dst), H(src), static_cast<float>(scalar), n);
  } else {
    simd::BinaryScalarLoop<Op>(dst.GetPhyAddr(), src.GetPhyAddr(), scalar, n);
  }
}

template <int Op, typename T>
inline void Unary(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                  int32_t count, const SrcLoc& loc) {
  if (!CheckCount(api, count, loc, dst, src)) return;
  const size_t n = static_cast<uint32_t>(count);  // count > 0 here (CheckCount)
  if constexpr (std::is_same<T, half>::value) {
    simd::HalfUnary<Op>(H(dst), H(src), n);
  } else if constexpr (std::is_same<T, float>::value) {
    simd::FloatUnaryLoop<Op>(dst.GetPhyAddr(), src.GetPhyAddr(), n);
  } else {
    // integer Abs / Relu
    T* d = dst.GetPhyAddr();
    const T* s = src.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) {
      if constexpr (Op == simd::kAbs) {
        d[i] = s[i] < 0 ? static_cast<T>(0u - static_cast<typename std::make_unsigned<T>::type>(s[i])) : s[i];
      } else {
        d[i] = s[i] > 0 ? s[i] : T(0);
      }
    }
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#define SIMNPU_ASCENDC_BINARY_API(Name, OpId, Check, What)                                                   \
  template <typename T>                                                                                     \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                   const LocalTensor<T>& src1Local, const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {         \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");         \
    ::simnpu::ascendc::detail::Binary<OpId>(#Name, dstLocal, src0Local, src1Local, count, simnpuLoc);       \
  }

#define SIMNPU_ASCENDC_SCALAR_API(Name, OpId, Check, What)                                                      \
  template <typename T, bool isSetMask = true>                                                                 \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                             \
                   const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,               \
                   const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {                                           \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");            \
    const int32_t n = isSetMask ? count                                                                        \
                                : static_cast<int32_t>(::simnpu::ascendc::detail::CountFromRegister(#Name, simnpuLoc)); \
    ::simnpu::ascendc::detail::BinaryScalar<OpId>(#Name, dstLocal, srcLocal, scalarValue, n, simnpuLoc);       \
  }

#define SIMNPU_ASCENDC_UNARY_API(Name, OpId, Check, What)                                                    \
  template <typename T, bool isReuseSource = false>                                                         \
  inline void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t& count,    \
                   SIMNPU_ASCENDC_LOC_PARAM) {                                                               \
    static_assert(::simnpu::ascendc::detail::Check<T>, #Name ": unsupported data type (" What ")");         \
    ::simnpu::ascendc::detail::Unary<OpId>(#Name, dstLocal, srcLocal, count, simnpuLoc);                    \
  }

namespace simnpu {
namespace ascendc {
namespace detail {
template <typename T>
constexpr bool kIsVecArithNoInt16Div = kIsVecFloat<T>;
template <typename T>
constexpr bool kIsReluType = kIsVecFloat<T> || std::is_same<T, int32_t>::value;
template <typename T>
constexpr bool kIsAbsType = kIsVecFloat<T> || std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value;
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

SIMNPU_ASCENDC_BINARY_API(Add, ::simnpu::ascendc::simd::kAdd, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_BINARY_API(Sub, ::simnpu::ascendc::simd::kSub, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_BINARY_API(Mul, ::simnpu::ascendc::simd::kMul, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_BINARY_API(Div, ::simnpu::ascendc::simd::kDiv, kIsVecArithNoInt16Div, "half, float")
SIMNPU_ASCENDC_BINARY_API(Max, ::simnpu::ascendc::simd::kMax, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_BINARY_API(Min, ::simnpu::ascendc::simd::kMin, kIsVecArith, "half, float, int16_t, int32_t")

SIMNPU_ASCENDC_SCALAR_API(Adds, ::simnpu::ascendc::simd::kAdd, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_SCALAR_API(Muls, ::simnpu::ascendc::simd::kMul, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_SCALAR_API(Maxs, ::simnpu::ascendc::simd::kMax, kIsVecArith, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_SCALAR_API(Mins, ::simnpu::ascendc::simd::kMin, kIsVecArith, "half, float, int16_t, int32_t")

SIMNPU_ASCENDC_UNARY_API(Exp, ::simnpu::ascendc::simd::kExp, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_UNARY_API(Ln, ::simnpu::ascendc::simd::kLn, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_UNARY_API(Sqrt, ::simnpu::ascendc::simd::kSqrt, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_UNARY_API(Rsqrt, ::simnpu::ascendc::simd::kRsqrt, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_UNARY_API(Reciprocal, ::simnpu::ascendc::simd::kRec, kIsVecFloat, "half, float")
SIMNPU_ASCENDC_UNARY_API(Abs, ::simnpu::ascendc::simd::kAbs, kIsAbsType, "half, float, int16_t, int32_t")
SIMNPU_ASCENDC_UNARY_API(Relu, ::simnpu::ascendc::simd::kRelu, kIsReluType, "half, float, int32_t")

// dst = src >= 0 ? src : src * scalar
template <typename T, bool isSetMask = true>
inline void LeakyRelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                      const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,
                      const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsVecFloat<T>, "LeakyRelu: unsupported data type (half, float)");
  if (!d::CheckCount("LeakyRelu", count, simnpuLoc, dstLocal, srcLocal)) return;
  const size_t n = static_cast<uint32_t>(count);  // count > 0 here (CheckCount)
  if constexpr (std::is_same<T, half>::value) {
    ::simnpu::ascendc::simd::HalfLeakyReluPortable(d::H(dstLocal), d::H(srcLocal), static_cast<float>(scalarValue), n);
  } else {
    float* o = dstLocal.GetPhyAddr();
    const float* s = srcLocal.GetPhyAddr();
    for (size_t i = 0; i < n; ++i) o[i] = s[i] >= 0.0f ? s[i] : s[i] * scalarValue;
  }
}

// dst[0, count) = scalar
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dstLocal, const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type& scalarValue,
                      const int32_t& count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsVecArith<T> || std::is_same<T, uint16_t>::value || std::is_same<T, uint32_t>::value ||
                    std::is_same<T, bfloat16_t>::value
#if __NPU_ARCH__ == 3510
                    || std::is_same<T, bool>::value || std::is_same<T, int8_t>::value ||
                    std::is_same<T, uint8_t>::value || std::is_same<T, int64_t>::value ||
                    std::is_same<T, uint64_t>::value || std::is_same<T, fp8_e4m3fn_t>::value ||
                    std::is_same<T, fp8_e5m2_t>::value || std::is_same<T, fp8_e8m0_t>::value ||
                    std::is_same<T, hifloat8_t>::value
#endif
                ,
                "Duplicate: unsupported data type");
  const int32_t n = isSetMask ? count : static_cast<int32_t>(d::CountFromRegister("Duplicate", simnpuLoc));
  if (!d::CheckCount("Duplicate", n, simnpuLoc, dstLocal)) return;
  T* o = dstLocal.GetPhyAddr();
  const T v = scalarValue;
  for (int32_t i = 0; i < n; ++i) o[i] = v;
}

}  // namespace AscendC

#undef SIMNPU_ASCENDC_BINARY_API
#undef SIMNPU_ASCENDC_SCALAR_API
#undef SIMNPU_ASCENDC_UNARY_API

#endif  // SIMNPU_ASCENDC_VECTOR_OPS_H_
