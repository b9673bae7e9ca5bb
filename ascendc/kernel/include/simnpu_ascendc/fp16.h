// simnpu Ascend C model: IEEE binary16 `half` and `bfloat16_t` as 16-bit
// structs, with exact scalar conversions (round to nearest even by default,
// directed modes for Cast). Arithmetic is done in float and rounded once.
#ifndef SIMNPU_ASCENDC_FP16_H_
#define SIMNPU_ASCENDC_FP16_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace fp {

// Rounding directions used by the conversions.
enum Rnd : int { kRne = 0, kZero, kUp, kDown, kAway, kOdd };

constexpr uint32_t FloatBits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float BitsFloat(uint32_t u) { return __builtin_bit_cast(float, u); }
constexpr uint64_t DoubleBits(double d) { return __builtin_bit_cast(uint64_t, d); }

// binary16 -> binary32, exact. A NaN keeps its payload and becomes quiet
// (the same bits the F16C instruction produces).
constexpr float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) {
    return BitsFloat(sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x00400000u : 0u));
  }
  if (exp == 0) {
    if (man == 0) return BitsFloat(sign);
    // subnormal: man * 2^-24, exact in float
    const float v = static_cast<float>(man) * 5.9604644775390625e-8f;
    return sign != 0 ? -v : v;
  }
  return BitsFloat(sign | ((exp + 112u) << 23) | (man << 13));
}

// NaN binary32 -> binary16 NaN: sign, quiet bit, top 9 payload bits (F16C bits).
constexpr uint16_t NanFloatToHalf(uint32_t x) {
  return static_cast<uint16_t>(((x >> 16) & 0x8000u) | 0x7e00u | ((x >> 13) & 0x3ffu));
}

// binary32 -> binary16, round to nearest even, overflow to inf.
constexpr uint16_t FloatToHalfRne(float f) {
  const uint32_t x = FloatBits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {
    return ax == 0x7f800000u ? static_cast<uint16_t>(sign | 0x7c00u) : NanFloatToHalf(x);
  }
  if (ax >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520
  if (ax >= 0x38800000u) {                                               // normal half
    uint32_t r = ax - 0x38000000u;
    r += 0x0fffu + ((r >> 13) & 1u);
    return static_cast<uint16_t>(sign | (r >> 13));
  }
  if (ax <= 0x33000000u) return static_cast<uint16_t>(sign);  // <= 2^-25 ties to zero
  const uint32_t e = ax >> 23;                                 // 102 .. 112
  const uint32_t m = (ax & 0x7fffffu) | 0x800000u;
  const uint32_t s = 126u - e;                                 // 14 .. 24
  uint32_t q = m >> s;
  const uint32_t rem = m & ((1u << s) - 1u);
  const uint32_t halfway = 1u << (s - 1u);
  if (rem > halfway || (rem == halfway && (q & 1u) != 0)) ++q;
  return static_cast<uint16_t>(sign | q);
}

// Applies a rounding direction to a truncated magnitude q. cmp: -1 below
// half an ulp, 0 exactly half, 1 above; inexact: the remainder is nonzero.
constexpr uint64_t RoundMagnitude(uint64_t q, bool inexact, int cmp, bool negative, int mode) {
  if (!inexact) return q;
  switch (mode) {
    case kZero:
      return q;
    case kUp:
      return negative ? q : q + 1;
    case kDown:
      return negative ? q + 1 : q;
    case kAway:
      return cmp >= 0 ? q + 1 : q;
    case kOdd:
      return q | 1u;
    default:  // kRne
      return (cmp > 0 || (cmp == 0 && (q & 1u) != 0)) ? q + 1 : q;
  }
}

// Overflowed finite magnitude: inf or the largest finite value, by direction.
constexpr bool OverflowToInf(bool negative, int mode) {
  switch (mode) {
    case kZero:
    case kOdd:
      return false;
    case kUp:
      return !negative;
    case kDown:
      return negative;
    default:
      return true;
  }
}

// magnitude m * 2^e (m != 0, up to 63 bits) -> binary16 bits with a direction.
constexpr uint16_t MagnitudeToHalf(bool negative, uint64_t m, int e, int mode) {
  const uint16_t sign = negative ? 0x8000u : 0u;
  int msb = 63 - __builtin_clzll(m);
  const int E = msb + e;
  if (E > 15) {
    return static_cast<uint16_t>(sign | (OverflowToInf(negative, mode) ? 0x7c00u : 0x7bffu));
  }
  const int ec = E < -14 ? -14 : E;
  const int s = (ec - 10) - e;
  uint64_t q = 0;
  bool inexact = false;
  int cmp = -1;
  if (s <= 0) {
    q = m << (-s);
  } else if (s >= 64) {
    q = 0;
    inexact = true;
    cmp = -1;
  } else {
    q = m >> s;
    const uint64_t rem = m & ((uint64_t{1} << s) - 1u);
    const uint64_t halfway = uint64_t{1} << (s - 1);
    inexact = rem != 0;
    cmp = rem > halfway ? 1 : (rem == halfway ? 0 : -1);
  }
  q = RoundMagnitude(q, inexact, cmp, negative, mode);
  const uint64_t enc = (static_cast<uint64_t>(ec + 14) << 10) + q;
  if (enc >= 0x7c00u) {
    return static_cast<uint16_t>(sign | (OverflowToInf(negative, mode) ? 0x7c00u : 0x7bffu));
  }
  return static_cast<uint16_t>(sign | enc);
}

// binary32 -> binary16 with a rounding direction.
constexpr uint16_t FloatToHalf(float f, int mode) {
  if (mode == kRne) return FloatToHalfRne(f);
  const uint32_t x = FloatBits(f);
  const bool neg = (x >> 31) != 0;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {
    return ax == 0x7f800000u ? static_cast<uint16_t>((neg ? 0x8000u : 0u) | 0x7c00u) : NanFloatToHalf(x);
  }
  if (ax == 0) return static_cast<uint16_t>(neg ? 0x8000u : 0u);
  const uint32_t e = ax >> 23;
  const uint32_t man = ax & 0x7fffffu;
  if (e == 0) return MagnitudeToHalf(neg, man, -149, mode);
  return MagnitudeToHalf(neg, man | 0x800000u, static_cast<int>(e) - 150, mode);
}

// binary64 -> binary16, one rounding (no double rounding through float).
constexpr uint16_t DoubleToHalf(double d, int mode = kRne) {
  const uint64_t x = DoubleBits(d);
  const bool neg = (x >> 63) != 0;
  const uint64_t ax = x & 0x7fffffffffffffffull;
  const uint16_t sign = neg ? 0x8000u : 0u;
  if (ax >= 0x7ff0000000000000ull) {
    if (ax == 0x7ff0000000000000ull) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | 0x7e00u | ((ax >> 42) & 0x3ffu));
  }
  if (ax == 0) return sign;
  const uint64_t e = ax >> 52;
  const uint64_t man = ax & 0xfffffffffffffull;
  if (e == 0) return MagnitudeToHalf(neg, man, -1074, mode);
  return MagnitudeToHalf(neg, man | 0x10000000000000ull, static_cast<int>(e) - 1075, mode);
}

// bfloat16 <-> binary32.
constexpr float Bf16ToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

constexpr uint16_t FloatToBf16(float f, int mode = kRne) {
  const uint32_t x = FloatBits(f);
  const bool neg = (x >> 31) != 0;
  const uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);  // quiet NaN
  if (ax == 0x7f800000u) return static_cast<uint16_t>(x >> 16);
  if (mode == kRne) {
    return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
  }
  const uint32_t rem = ax & 0xffffu;
  const int cmp = rem > 0x8000u ? 1 : (rem == 0x8000u ? 0 : -1);
  uint64_t q = RoundMagnitude(ax >> 16, rem != 0, cmp, neg, mode);
  if (q >= 0x7f80u) q = OverflowToInf(neg, mode) ? 0x7f80u : 0x7f7fu;
  return static_cast<uint16_t>((neg ? 0x8000u : 0u) | q);
}

template <typename T>
constexpr uint16_t ToHalfBits(T v) {
  if constexpr (std::is_same<T, double>::value || std::is_same<T, long double>::value) {
    return DoubleToHalf(static_cast<double>(v));
  } else if constexpr (std::is_integral<T>::value && (sizeof(T) > 2)) {
    // values beyond 2^24 overflow half anyway; go through double for one rounding
    return DoubleToHalf(static_cast<double>(v));
  } else {
    return FloatToHalfRne(static_cast<float>(v));
  }
}

}  // namespace fp
}  // namespace ascendc
}  // namespace simnpu

// IEEE binary16. Trivially copyable 16-bit struct; converts implicitly to and
// from the arithmetic types. half op half gives half (computed in float and
// rounded once); mixed expressions promote to float.
struct half {
  uint16_t val;

  half() = default;
  template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
  constexpr half(U v) : val(::simnpu::ascendc::fp::ToHalfBits(v)) {}  // NOLINT(google-explicit-constructor)

  constexpr operator float() const { return ::simnpu::ascendc::fp::HalfToFloat(val); }  // NOLINT

  static constexpr half FromBits(uint16_t bits) {
    half h{};
    h.val = bits;
    return h;
  }
  constexpr uint16_t ToBits() const { return val; }

  constexpr half operator-() const { return FromBits(static_cast<uint16_t>(val ^ 0x8000u)); }
  constexpr half operator+() const { return *this; }

  template <typename U>
  half& operator+=(const U& o) { return *this = half(static_cast<float>(*this) + static_cast<float>(o)); }
  template <typename U>
  half& operator-=(const U& o) { return *this = half(static_cast<float>(*this) - static_cast<float>(o)); }
  template <typename U>
  half& operator*=(const U& o) { return *this = half(static_cast<float>(*this) * static_cast<float>(o)); }
  template <typename U>
  half& operator/=(const U& o) { return *this = half(static_cast<float>(*this) / static_cast<float>(o)); }
  half& operator++() { return *this += 1.0f; }
  half& operator--() { return *this -= 1.0f; }
  half operator++(int) { half t = *this; *this += 1.0f; return t; }
  half operator--(int) { half t = *this; *this -= 1.0f; return t; }
};

// bfloat16: 16-bit struct, round to nearest even from float.
struct bfloat16_t {
  uint16_t val;

  bfloat16_t() = default;
  template <typename U, typename std::enable_if<std::is_arithmetic<U>::value, int>::type = 0>
  constexpr bfloat16_t(U v)  // NOLINT(google-explicit-constructor)
      : val(::simnpu::ascendc::fp::FloatToBf16(static_cast<float>(v))) {}
  constexpr bfloat16_t(half h)  // NOLINT(google-explicit-constructor)
      : val(::simnpu::ascendc::fp::FloatToBf16(static_cast<float>(h))) {}

  constexpr operator float() const { return ::simnpu::ascendc::fp::Bf16ToFloat(val); }  // NOLINT

  static constexpr bfloat16_t FromBits(uint16_t bits) {
    bfloat16_t b{};
    b.val = bits;
    return b;
  }
  constexpr uint16_t ToBits() const { return val; }

  constexpr bfloat16_t operator-() const { return FromBits(static_cast<uint16_t>(val ^ 0x8000u)); }
  constexpr bfloat16_t operator+() const { return *this; }
  template <typename U>
  bfloat16_t& operator+=(const U& o) { return *this = bfloat16_t(static_cast<float>(*this) + static_cast<float>(o)); }
  template <typename U>
  bfloat16_t& operator-=(const U& o) { return *this = bfloat16_t(static_cast<float>(*this) - static_cast<float>(o)); }
  template <typename U>
  bfloat16_t& operator*=(const U& o) { return *this = bfloat16_t(static_cast<float>(*this) * static_cast<float>(o)); }
  template <typename U>
  bfloat16_t& operator/=(const U& o) { return *this = bfloat16_t(static_cast<float>(*this) / static_cast<float>(o)); }
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "half must be 16 bits");
static_assert(std::is_trivially_copyable<half>::value, "half must be trivially copyable");
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must be 16 bits");
static_assert(std::is_trivially_copyable<bfloat16_t>::value, "bfloat16_t must be trivially copyable");

namespace simnpu {
namespace ascendc {
namespace fp {
template <typename T>
struct IsHalfLike : std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value> {};
template <typename T>
using EnableIfSame16 = typename std::enable_if<IsHalfLike<T>::value, int>::type;
}  // namespace fp
}  // namespace ascendc
}  // namespace simnpu

// half op half -> half and bfloat16 op bfloat16 -> bfloat16 (exact type match
// only, so that half op float stays a float expression without ambiguity).
template <typename T, ::simnpu::ascendc::fp::EnableIfSame16<T> = 0>
constexpr T operator+(T a, T b) { return T(static_cast<float>(a) + static_cast<float>(b)); }
template <typename T, ::simnpu::ascendc::fp::EnableIfSame16<T> = 0>
constexpr T operator-(T a, T b) { return T(static_cast<float>(a) - static_cast<float>(b)); }
template <typename T, ::simnpu::ascendc::fp::EnableIfSame16<T> = 0>
constexpr T operator*(T a, T b) { return T(static_cast<float>(a) * static_cast<float>(b)); }
template <typename T, ::simnpu::ascendc::fp::EnableIfSame16<T> = 0>
constexpr T operator/(T a, T b) { return T(static_cast<float>(a) / static_cast<float>(b)); }

#endif  // SIMNPU_ASCENDC_FP16_H_
