// simnpu Ascend C model: the 8- and 4-bit element types of the newest devkit
// (fp8_e4m3fn_t, fp8_e5m2_t, fp8_e8m0_t, hifloat8_t, fp4x2_e2m1_t,
// fp4x2_e1m2_t, AscendC::int4b_t) with exact decoding to float and encoding
// from double with every RoundMode direction.
//
// Encoding works the same way for every small format: the non-negative
// finite values of the format are listed once (a constexpr table of at most
// 128 entries, ascending), the two neighbours of |x| are found by binary
// search, and the rounding direction picks one; what happens above the
// largest finite value depends on the format (inf for e5m2 and hifloat8,
// saturation for the formats without inf). Decisions where the pages are
// silent are in docs/ascendc-vector.md ("Low-precision types").
//
// Sub-byte types (the fp4 pairs and int4b_t) hold one 4-bit element in the
// low nibble of a byte when used as a scalar; in a LocalTensor/GlobalTensor
// two elements share a byte (element 2k in the low nibble, 2k+1 in the high
// nibble) and sizes count elements (see ElemBits in tensor.h).
#ifndef SIMNPU_ASCENDC_FP8_H_
#define SIMNPU_ASCENDC_FP8_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <limits>

namespace simnpu {
namespace ascendc {
namespace fp {

// Formats known to the table encoder.
enum SmallFormat : int { kE4M3 = 0, kE5M2, kE8M0, kHiF8, kE2M1, kE1M2, kSmallFormats };

// Decoding of one code (sign included) to float; NaN codes give a quiet NaN.
constexpr float MiniDecode(int fmt, uint32_t code) {
  const float nan = __builtin_nanf("");
  switch (fmt) {
    case kE4M3: {  // 1.4.3, bias 7, no inf, S.1111.111 = NaN
      const bool neg = (code & 0x80u) != 0;
      const uint32_t e = (code >> 3) & 0xfu;
      const uint32_t m = code & 7u;
      if (e == 15 && m == 7) return nan;
      float v = e == 0 ? static_cast<float>(m) * 0.001953125f  // m/8 * 2^-6
                       : __builtin_ldexpf(1.0f + static_cast<float>(m) / 8.0f, static_cast<int>(e) - 7);
      return neg ? -v : v;
    }
    case kE5M2: {  // 1.5.2, bias 15, IEEE inf/NaN
      const bool neg = (code & 0x80u) != 0;
      const uint32_t e = (code >> 2) & 0x1fu;
      const uint32_t m = code & 3u;
      if (e == 31) return m != 0 ? nan : (neg ? -__builtin_inff() : __builtin_inff());
      float v = e == 0 ? static_cast<float>(m) * 1.52587890625e-05f  // m/4 * 2^-14
                       : __builtin_ldexpf(1.0f + static_cast<float>(m) / 4.0f, static_cast<int>(e) - 15);
      return neg ? -v : v;
    }
    case kE8M0:  // unsigned power of two 2^(e-127); 0xFF = NaN
      return (code & 0xffu) == 0xffu ? nan : __builtin_ldexpf(1.0f, static_cast<int>(code & 0xffu) - 127);
    case kHiF8: {  // sign, dot prefix (exponent width), sign-magnitude exponent, mantissa
      const bool neg = (code & 0x80u) != 0;
      const uint32_t c = code & 0x7fu;
      if ((code & 0xffu) == 0x80u) return nan;
      if (c == 0) return neg ? -0.0f : 0.0f;
      if (c == 0x6fu) return neg ? -__builtin_inff() : __builtin_inff();
      float v = 0.0f;
      if ((c & 0x78u) == 0) {  // dot 0000: denormal 2^(m-23)
        v = __builtin_ldexpf(1.0f, static_cast<int>(c & 7u) - 23);
      } else if ((c & 0x78u) == 0x08u) {  // dot 0001: exponent 0, 3 mantissa bits
        v = 1.0f + static_cast<float>(c & 7u) / 8.0f;
      } else if ((c & 0x70u) == 0x10u) {  // dot 001: exponent +-1, 3 mantissa bits
        const int e = (c & 0x08u) != 0 ? -1 : 1;
        v = __builtin_ldexpf(1.0f + static_cast<float>(c & 7u) / 8.0f, e);
      } else {  // dot 01/10/11: exponent width 2/3/4, mantissa 3/2/1
        const int ew = static_cast<int>((c >> 5) & 3u) + 1;
        const int mw = 5 - ew;
        const uint32_t em = c & 0x1fu;
        const int esign = (em >> 4) != 0 ? -1 : 1;
        const int emag = (1 << (ew - 1)) + static_cast<int>((em & 0x0fu) >> mw);
        const uint32_t m = em & ((1u << mw) - 1u);
        v = __builtin_ldexpf(1.0f + static_cast<float>(m) / static_cast<float>(1u << mw), esign * emag);
      }
      return neg ? -v : v;
    }
    case kE2M1: {  // 1.2.1, bias 1: 0 0.5 1 1.5 2 3 4 6
      const bool neg = (code & 0x8u) != 0;
      const uint32_t e = (code >> 1) & 3u;
      const uint32_t m = code & 1u;
      float v = e == 0 ? static_cast<float>(m) * 0.5f : __builtin_ldexpf(1.0f + static_cast<float>(m) / 2.0f, static_cast<int>(e) - 1);
      return neg ? -v : v;
    }
    case kE1M2: {  // 1.1.2, bias 1: 0 .25 .5 .75 1 1.25 1.5 1.75
      const bool neg = (code & 0x8u) != 0;
      const uint32_t e = (code >> 2) & 1u;
      const uint32_t m = code & 3u;
      float v = e == 0 ? static_cast<float>(m) * 0.25f : 1.0f + static_cast<float>(m) / 4.0f;
      return neg ? -v : v;
    }
    default:
      return nan;
  }
}

// Table of a format: positive finite codes sorted by value.
struct MiniTable {
  float value[128];
  uint8_t code[128];
  int count;
  uint8_t sign_bit;   // 0x80 or 0x08; 0 for unsigned e8m0
  uint8_t nan_code;   // 0 when the format has no NaN
  uint8_t inf_code;   // positive inf code, 0 when the format has no inf
  bool saturate;      // finite overflow saturates (no inf in the format)
};

constexpr MiniTable BuildMiniTable(int fmt) {
  MiniTable t{};
  uint32_t ncodes = 128;
  switch (fmt) {
    case kE4M3: t.sign_bit = 0x80; t.nan_code = 0x7f; t.inf_code = 0; t.saturate = true; break;
    case kE5M2: t.sign_bit = 0x80; t.nan_code = 0x7f; t.inf_code = 0x7c; t.saturate = false; break;
    case kE8M0: t.sign_bit = 0; t.nan_code = 0xff; t.inf_code = 0; t.saturate = true; ncodes = 256; break;
    case kHiF8: t.sign_bit = 0x80; t.nan_code = 0x80; t.inf_code = 0x6f; t.saturate = false; break;
    case kE2M1: t.sign_bit = 0x08; t.nan_code = 0; t.inf_code = 0; t.saturate = true; ncodes = 8; break;
    default: t.sign_bit = 0x08; t.nan_code = 0; t.inf_code = 0; t.saturate = true; ncodes = 8; break;
  }
  int n = 0;
  for (uint32_t c = 0; c < ncodes; ++c) {
    const float v = MiniDecode(fmt, c);
    if (v != v || v == __builtin_inff()) continue;
    if (n >= 128) break;  // e8m0 has 255 finite codes; the table keeps the lower 128 (see MiniEncode)
    // insertion sort: tables are tiny and built at compile time
    int i = n;
    while (i > 0 && t.value[i - 1] > v) {
      t.value[i] = t.value[i - 1];
      t.code[i] = t.code[i - 1];
      --i;
    }
    t.value[i] = v;
    t.code[i] = static_cast<uint8_t>(c);
    ++n;
  }
  t.count = n;
  return t;
}

SIMNPU_ASCENDC_HIDDEN inline const MiniTable& MiniTableOf(int fmt) {
  static constexpr MiniTable kTables[kSmallFormats] = {BuildMiniTable(kE4M3), BuildMiniTable(kE5M2),
                                                       BuildMiniTable(kE8M0), BuildMiniTable(kHiF8),
                                                       BuildMiniTable(kE2M1), BuildMiniTable(kE1M2)};
  return kTables[fmt];
}

// e8m0: the exponent of a power of two; values are rounded in the log domain
// by the direction (nearest: ties between 2^k and 2^(k+1) at 1.5 * 2^k go up).
inline uint8_t EncodeE8M0(double x, int mode) {
  if (!(x == x) || x == __builtin_inf() || x == -__builtin_inf()) return 0xff;
  if (x <= 0) return 0;  // no sign and no zero: the smallest code, 2^-127
  int e = 0;
  const double m = __builtin_frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  int k = e - 1;                            // x = (2m) * 2^k, 2m in [1, 2)
  const bool exact = m == 0.5;
  if (!exact) {
    switch (mode) {
      case kUp: k += 1; break;
      case kDown: case kZero: break;
      case kOdd: if (((k + 127) & 1) == 0) k += 1; break;
      default: if (2 * m >= 1.5) k += 1; break;  // nearest (ties away in the log-linear sense)
    }
  }
  const int b = k + 127;
  if (b < 0) return 0;
  if (b > 254) return 254;
  return static_cast<uint8_t>(b);
}

// x -> code of the format with a rounding direction (kRne ties to even code).
inline uint8_t MiniEncode(int fmt, double x, int mode) {
  if (fmt == kE8M0) return EncodeE8M0(x, mode);
  const MiniTable& t = MiniTableOf(fmt);
  if (!(x == x)) return t.nan_code != 0 ? t.nan_code : 0;
  const bool neg = x < 0 || (x == 0 && __builtin_signbit(x));
  const double a = neg ? -x : x;
  const uint8_t sign = neg ? t.sign_bit : 0;
  const double top = t.value[t.count - 1];
  auto overflow = [&]() -> uint8_t {
    const bool to_inf = !t.saturate && OverflowToInf(neg, mode);
    if (to_inf) return static_cast<uint8_t>(sign | t.inf_code);
    return static_cast<uint8_t>(sign | t.code[t.count - 1]);
  };
  if (a == __builtin_inf()) return t.saturate ? static_cast<uint8_t>(sign | t.code[t.count - 1]) : overflow();
  if (a > top) {
    // beyond the largest finite value: the nearest modes round back to it
    // up to half a step above (the step below the top value); directions
    // toward the value keep it.
    const double step = top - t.value[t.count - 2];
    if (mode == kRne || mode == kAway) {
      if (a < top + step / 2 || (a == top + step / 2 && mode == kRne && (t.code[t.count - 1] & 1u) == 0)) {
        return static_cast<uint8_t>(sign | t.code[t.count - 1]);
      }
      return overflow();
    }
    return overflow();
  }
  // binary search: lo = last value <= a
  int lo = 0, hi = t.count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (t.value[mid] <= a) lo = mid; else hi = mid - 1;
  }
  if (t.value[lo] == a) return static_cast<uint8_t>(sign | t.code[lo]);
  const int up = lo + 1;  // exists since a <= top
  const double dl = a - t.value[lo];
  const double du = t.value[up] - a;
  int pick = lo;
  switch (mode) {
    case kZero: pick = lo; break;
    case kUp: pick = neg ? lo : up; break;
    case kDown: pick = neg ? up : lo; break;
    case kAway: pick = dl < du ? lo : up; break;
    case kOdd: pick = (t.code[lo] & 1u) != 0 ? lo : up; break;
    default: pick = dl < du ? lo : (du < dl ? up : ((t.code[lo] & 1u) == 0 ? lo : up)); break;
  }
  if (t.value[pick] == 0.0f && t.sign_bit == 0) return 0;
  return static_cast<uint8_t>(sign | t.code[pick]);
}

}  // namespace fp
}  // namespace ascendc
}  // namespace simnpu

// A small float type: 8-bit storage, implicit conversion to float, explicit
// conversion from the arithmetic types with round to nearest even.
#define SIMNPU_ASCENDC_MINIFLOAT(Name, Fmt, Mask)                                                             \
  struct Name {                                                                                              \
    uint8_t val;                                                                                             \
    Name() = default;                                                                                        \
    template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>              \
    Name(U v) /* NOLINT(google-explicit-constructor) */                                                      \
        : val(::simnpu::ascendc::fp::MiniEncode(Fmt, static_cast<double>(v), ::simnpu::ascendc::fp::kRne)) {} \
    Name(half v) /* NOLINT */                                                                               \
        : val(::simnpu::ascendc::fp::MiniEncode(Fmt, static_cast<float>(v), ::simnpu::ascendc::fp::kRne)) {} \
    Name(bfloat16_t v) /* NOLINT */                                                                         \
        : val(::simnpu::ascendc::fp::MiniEncode(Fmt, static_cast<float>(v), ::simnpu::ascendc::fp::kRne)) {} \
    operator float() const { return ::simnpu::ascendc::fp::MiniDecode(Fmt, val & (Mask)); } /* NOLINT */    \
    static constexpr Name FromBits(uint8_t bits) {                                                           \
      Name r{};                                                                                              \
      r.val = static_cast<uint8_t>(bits & (Mask));                                                           \
      return r;                                                                                              \
    }                                                                                                        \
    constexpr uint8_t ToBits() const { return val; }                                                         \
  };

SIMNPU_ASCENDC_MINIFLOAT(fp8_e4m3fn_t, ::simnpu::ascendc::fp::kE4M3, 0xffu)
SIMNPU_ASCENDC_MINIFLOAT(fp8_e5m2_t, ::simnpu::ascendc::fp::kE5M2, 0xffu)
SIMNPU_ASCENDC_MINIFLOAT(fp8_e8m0_t, ::simnpu::ascendc::fp::kE8M0, 0xffu)
SIMNPU_ASCENDC_MINIFLOAT(hifloat8_t, ::simnpu::ascendc::fp::kHiF8, 0xffu)
// One fp4 element in the low nibble (two per byte in tensors).
SIMNPU_ASCENDC_MINIFLOAT(fp4x2_e2m1_t, ::simnpu::ascendc::fp::kE2M1, 0x0fu)
SIMNPU_ASCENDC_MINIFLOAT(fp4x2_e1m2_t, ::simnpu::ascendc::fp::kE1M2, 0x0fu)

#undef SIMNPU_ASCENDC_MINIFLOAT

namespace AscendC {

// Signed 4-bit integer: one element in the low nibble (two per byte in tensors).
struct int4b_t {
  uint8_t val;
  int4b_t() = default;
  template <typename U, typename std::enable_if<std::is_integral<U>::value, int>::type = 0>
  constexpr int4b_t(U v) : val(static_cast<uint8_t>(static_cast<uint32_t>(v < -8 ? -8 : (v > 7 ? 7 : v)) & 0xfu)) {}  // NOLINT
  constexpr operator int() const { return (val & 0x8u) != 0 ? static_cast<int>(val & 0xfu) - 16 : static_cast<int>(val & 0xfu); }  // NOLINT
  static constexpr int4b_t FromBits(uint8_t bits) {
    int4b_t r{};
    r.val = static_cast<uint8_t>(bits & 0xfu);
    return r;
  }
  constexpr uint8_t ToBits() const { return val; }
};

}  // namespace AscendC

static_assert(sizeof(fp8_e4m3fn_t) == 1 && sizeof(hifloat8_t) == 1 && sizeof(fp4x2_e2m1_t) == 1, "8-bit types");
static_assert(std::is_trivially_copyable<fp8_e5m2_t>::value, "fp8 types must be trivially copyable");

namespace simnpu {
namespace ascendc {
namespace fp {

template <typename T>
struct IsMiniFloat
    : std::integral_constant<bool, std::is_same<T, fp8_e4m3fn_t>::value || std::is_same<T, fp8_e5m2_t>::value ||
                                       std::is_same<T, fp8_e8m0_t>::value || std::is_same<T, hifloat8_t>::value ||
                                       std::is_same<T, fp4x2_e2m1_t>::value || std::is_same<T, fp4x2_e1m2_t>::value> {};

// Element width in bits (4 for the packed types).
template <typename T>
struct ElemBits : std::integral_constant<uint32_t, static_cast<uint32_t>(sizeof(T) * 8)> {};
template <>
struct ElemBits<fp4x2_e2m1_t> : std::integral_constant<uint32_t, 4> {};
template <>
struct ElemBits<fp4x2_e1m2_t> : std::integral_constant<uint32_t, 4> {};
template <>
struct ElemBits<AscendC::int4b_t> : std::integral_constant<uint32_t, 4> {};

template <typename T>
constexpr bool kIsHalfByte = ElemBits<T>::value == 4;

template <typename T>
constexpr int MiniFormatOf() {
  if constexpr (std::is_same<T, fp8_e4m3fn_t>::value) return kE4M3;
  if constexpr (std::is_same<T, fp8_e5m2_t>::value) return kE5M2;
  if constexpr (std::is_same<T, fp8_e8m0_t>::value) return kE8M0;
  if constexpr (std::is_same<T, hifloat8_t>::value) return kHiF8;
  if constexpr (std::is_same<T, fp4x2_e2m1_t>::value) return kE2M1;
  if constexpr (std::is_same<T, fp4x2_e1m2_t>::value) return kE1M2;
  return -1;
}

}  // namespace fp
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_FP8_H_
