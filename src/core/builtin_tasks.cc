// Built-in tasks (see builtin_tasks.h).
#include "core/builtin_tasks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/overflow.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "sim/memory_path.h"

namespace simnpu::core {
namespace {

constexpr size_t kChunk = 1u << 20;  // bytes reduced per read/compute/write round

uint32_t F2U(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float U2F(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <typename T>
T IntOp(int kind, T a, T b) {
  switch (kind) {
    case kReduceSum: {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));  // wraps
    }
    case kReduceMax: return std::max(a, b);
    case kReduceMin: return std::min(a, b);
    default: return b;  // EQUAL: the source element is stored
  }
}

float FloatOp(int kind, float a, float b) {
  switch (kind) {
    case kReduceSum: return a + b;
    case kReduceMax: return b > a ? b : a;
    case kReduceMin: return b < a ? b : a;
    default: return b;
  }
}

// Rounds a float result to the element type; *over set when it is not finite
// there (in SATURATION mode it is then clamped).
uint32_t RoundFloat(Elem t, float r, bool saturate, bool* over) {
  if (t == Elem::kF32) {
    if (!std::isfinite(r)) {
      *over = true;
      if (saturate) overflow::SaturateFloat(&r);
    }
    return F2U(r);
  }
  uint16_t h = t == Elem::kF16 ? FloatToHalf(r) : FloatToBf16(r);
  const bool finite = t == Elem::kF16 ? (h & 0x7C00u) != 0x7C00u : (h & 0x7F80u) != 0x7F80u;
  if (!finite) {
    *over = true;
    if (saturate) {
      const bool nan = t == Elem::kF16 ? (h & 0x3FFu) != 0 : (h & 0x7Fu) != 0;
      const uint16_t max = t == Elem::kF16 ? 0x7BFFu : 0x7F7Fu;
      h = nan ? 0 : static_cast<uint16_t>((h & 0x8000u) | max);
    }
  }
  return h;
}

// Reduces n bytes of a into a (b the source). Returns whether a float result overflowed.
bool ReduceChunk(Elem t, int kind, uint8_t* a, const uint8_t* b, size_t n, bool saturate) {
  bool over = false;
  switch (t) {
    case Elem::kF32:
      for (size_t i = 0; i + 4 <= n; i += 4) {
        float r = FloatOp(kind, Load<float>(a + i), Load<float>(b + i));
        Store<uint32_t>(a + i, RoundFloat(t, r, saturate, &over));
      }
      break;
    case Elem::kF16:
    case Elem::kBf16:
      for (size_t i = 0; i + 2 <= n; i += 2) {
        const uint16_t x = Load<uint16_t>(a + i), y = Load<uint16_t>(b + i);
        const float fx = t == Elem::kF16 ? HalfToFloat(x) : Bf16ToFloat(x);
        const float fy = t == Elem::kF16 ? HalfToFloat(y) : Bf16ToFloat(y);
        Store<uint16_t>(a + i, static_cast<uint16_t>(RoundFloat(t, FloatOp(kind, fx, fy), saturate, &over)));
      }
      break;
    case Elem::kI8:
      for (size_t i = 0; i < n; ++i) Store<int8_t>(a + i, IntOp<int8_t>(kind, Load<int8_t>(a + i), Load<int8_t>(b + i)));
      break;
    case Elem::kU8:
      for (size_t i = 0; i < n; ++i) a[i] = IntOp<uint8_t>(kind, a[i], b[i]);
      break;
    case Elem::kI16:
      for (size_t i = 0; i + 2 <= n; i += 2)
        Store<int16_t>(a + i, IntOp<int16_t>(kind, Load<int16_t>(a + i), Load<int16_t>(b + i)));
      break;
    case Elem::kU16:
      for (size_t i = 0; i + 2 <= n; i += 2)
        Store<uint16_t>(a + i, IntOp<uint16_t>(kind, Load<uint16_t>(a + i), Load<uint16_t>(b + i)));
      break;
    case Elem::kI32:
      for (size_t i = 0; i + 4 <= n; i += 4)
        Store<int32_t>(a + i, IntOp<int32_t>(kind, Load<int32_t>(a + i), Load<int32_t>(b + i)));
      break;
    case Elem::kU32:
      for (size_t i = 0; i + 4 <= n; i += 4)
        Store<uint32_t>(a + i, IntOp<uint32_t>(kind, Load<uint32_t>(a + i), Load<uint32_t>(b + i)));
      break;
    case Elem::kI4:
      for (size_t i = 0; i < n; ++i) {
        uint8_t out = 0;
        for (int half = 0; half < 2; ++half) {
          const int sh = half * 4;
          int x = (a[i] >> sh) & 0xF, y = (b[i] >> sh) & 0xF;
          x = x >= 8 ? x - 16 : x;
          y = y >= 8 ? y - 16 : y;
          int r = kind == kReduceSum ? x + y : kind == kReduceMax ? std::max(x, y) : kind == kReduceMin ? std::min(x, y) : y;
          out = static_cast<uint8_t>(out | ((static_cast<unsigned>(r) & 0xFu) << sh));  // sum wraps in 4 bits
        }
        a[i] = out;
      }
      break;
    default:
      break;
  }
  return over;
}

// --- random numbers ---

constexpr uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;

// Streams 32-bit words of Philox output from a 128-bit counter.
class PhiloxStream {
 public:
  PhiloxStream(uint64_t seed, uint64_t ctr_lo, uint64_t ctr_hi)
      : key_{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}, lo_(ctr_lo), hi_(ctr_hi) {}
  uint32_t Next() {
    if (pos_ == 4) {
      block_ = Philox4x32({static_cast<uint32_t>(lo_), static_cast<uint32_t>(lo_ >> 32), static_cast<uint32_t>(hi_),
                           static_cast<uint32_t>(hi_ >> 32)},
                          key_);
      if (++lo_ == 0) ++hi_;
      pos_ = 0;
    }
    return block_[pos_++];
  }
  // The counter after the last block used (what the task writes back).
  uint64_t lo() const { return lo_; }
  uint64_t hi() const { return hi_; }

 private:
  std::array<uint32_t, 2> key_;
  uint64_t lo_, hi_;
  std::array<uint32_t, 4> block_{};
  int pos_ = 4;
};

// Uniform in [0, 1) with 24 random bits (float) or 53 (double).
double Uniform53(PhiloxStream& g) {
  const uint64_t hi = g.Next() >> 5, lo = g.Next() >> 6;  // 27 + 26 bits
  return static_cast<double>((hi << 26) | lo) * 0x1.0p-53;
}

// Standard normal by Box-Muller; uses both outputs.
class Normal {
 public:
  double Next(PhiloxStream& g) {
    if (have_) {
      have_ = false;
      return spare_;
    }
    const double u1 = 1.0 - Uniform53(g);  // (0, 1]
    const double u2 = Uniform53(g);
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double th = 6.283185307179586476925286766559 * u2;
    spare_ = r * std::sin(th);
    have_ = true;
    return r * std::cos(th);
  }

 private:
  bool have_ = false;
  double spare_ = 0;
};

int ReadParamBytes(int phys, const RandomParam& p, size_t width, uint64_t* out) {
  *out = 0;
  if (!p.is_addr) {
    uint64_t v = p.raw;
    if (p.size < 8) v &= (1ull << (8 * p.size)) - 1;
    *out = v;
    return 0;
  }
  uint64_t v = 0;
  Status st = sim::DeviceRead(phys, &v, reinterpret_cast<const void*>(p.raw), width, sim::AccessCause::kCopy);
  *out = v;
  return st.code();
}

// A parameter as a number of the task's element type.
int ParamValue(int phys, const RandomParam& p, Elem t, double* d, int64_t* i, uint64_t* u) {
  uint64_t bits = 0;
  if (int rc = ReadParamBytes(phys, p, ElemBits(t) / 8, &bits)) return rc;
  *d = 0;
  *i = 0;
  *u = 0;
  switch (t) {
    case Elem::kF32: *d = U2F(static_cast<uint32_t>(bits)); break;
    case Elem::kF16: *d = HalfToFloat(static_cast<uint16_t>(bits)); break;
    case Elem::kBf16: *d = Bf16ToFloat(static_cast<uint16_t>(bits)); break;
    case Elem::kI32: *i = static_cast<int32_t>(bits); break;
    case Elem::kU32: *u = static_cast<uint32_t>(bits); break;
    case Elem::kI64: *i = static_cast<int64_t>(bits); break;
    case Elem::kU64: *u = bits; break;
    default: break;
  }
  return 0;
}

void StoreFloat(uint8_t* p, Elem t, double v) {
  if (t == Elem::kF32) Store<float>(p, static_cast<float>(v));
  else if (t == Elem::kF16) Store<uint16_t>(p, FloatToHalf(static_cast<float>(v)));
  else Store<uint16_t>(p, FloatToBf16(static_cast<float>(v)));
}

}  // namespace

size_t ElemBits(Elem e) {
  switch (e) {
    case Elem::kF32: case Elem::kI32: case Elem::kU32: return 32;
    case Elem::kF16: case Elem::kBf16: case Elem::kI16: case Elem::kU16: return 16;
    case Elem::kI8: case Elem::kU8: return 8;
    case Elem::kI64: case Elem::kU64: return 64;
    case Elem::kI4: return 4;
  }
  return 8;
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] += kPhiloxW0;
      k[1] += kPhiloxW1;
    }
    const uint64_t p0 = static_cast<uint64_t>(kPhiloxM0) * c[0];
    const uint64_t p1 = static_cast<uint64_t>(kPhiloxM1) * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
  }
  return c;
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
  if (exp == 0x1F) return U2F(sign | 0x7F800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return U2F(sign);
    // subnormal: value = man * 2^-24
    const float v = static_cast<float>(man) * 0x1.0p-24f;
    return sign ? -v : v;
  }
  return U2F(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t FloatToHalf(float f) {
  const uint32_t u = F2U(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7FFFFFFFu;
  if (abs > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);  // NaN
  if (abs >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to >= 65520: inf
  if (abs < 0x38800000u) {  // below the smallest normal half (2^-14): subnormal or zero
    const float a = U2F(abs);
    const float scaled = a * 0x1.0p24f;  // in units of 2^-24, exact
    const float r = std::nearbyint(scaled);  // round to nearest even (default mode)
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(r));
  }
  // normal: round the 23-bit mantissa to 10 bits, nearest even
  uint32_t v = abs - (112u << 23);
  const uint32_t rest = v & 0x1FFFu;
  v >>= 13;
  if (rest > 0x1000u || (rest == 0x1000u && (v & 1u))) ++v;
  return static_cast<uint16_t>(sign | v);
}

float Bf16ToFloat(uint16_t b) { return U2F(static_cast<uint32_t>(b) << 16); }

uint16_t FloatToBf16(float f) {
  uint32_t u = F2U(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

int ReduceTask::Run(ExecContext& ctx) {
  const bool saturate = ctx.stream && overflow::StreamMode(ctx.stream->id()) == overflow::kModeSaturation;
  std::vector<uint8_t> a(static_cast<size_t>(std::min<uint64_t>(bytes_, kChunk)));
  std::vector<uint8_t> b(a.size());
  bool over = false;
  for (uint64_t off = 0; off < bytes_; off += kChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, bytes_ - off));
    uint8_t* d = static_cast<uint8_t*>(dst_) + off;
    const uint8_t* s = static_cast<const uint8_t*>(src_) + off;
    Status st = sim::DeviceRead(ctx.phys_id, a.data(), d, n, sim::AccessCause::kCopy);
    if (st.ok()) st = sim::DeviceRead(ctx.phys_id, b.data(), s, n, sim::AccessCause::kCopy);
    if (!st.ok()) {
      failure_message = "reduce: " + st.message();
      return st.code();
    }
    over |= ReduceChunk(type_, kind_, a.data(), b.data(), n, saturate);
    st = sim::DeviceWrite(ctx.phys_id, d, a.data(), n, sim::AccessCause::kCopy);
    if (!st.ok()) {
      failure_message = "reduce: " + st.message();
      return st.code();
    }
  }
  if (over && ctx.stream) overflow::Raise(ctx.stream->id(), ctx.phys_id);
  return 0;
}

int RandomTask::Run(ExecContext& ctx) {
  const int phys = ctx.phys_id;
  uint64_t seed = 0, num = 0;
  int rc = ReadParamBytes(phys, s_.seed, 8, &seed);
  if (!rc) rc = ReadParamBytes(phys, s_.num, 8, &num);
  uint64_t counter[2] = {0, 0};
  if (!rc) rc = sim::DeviceRead(phys, counter, s_.counter, sizeof counter, sim::AccessCause::kCopy).code();
  double d0 = 0, d1 = 0;
  int64_t i0 = 0, i1 = 0;
  uint64_t u0 = 0, u1 = 0;
  if (!rc) rc = ParamValue(phys, s_.p0, s_.type, &d0, &i0, &u0);
  if (!rc && s_.func != 0) rc = ParamValue(phys, s_.p1, s_.type, &d1, &i1, &u1);
  if (rc) {
    failure_message = "random number task: a parameter could not be read from device memory";
    return rc;
  }
  PhiloxStream g(seed, counter[0], counter[1]);
  const size_t width = ElemBits(s_.type) / 8;
  std::vector<uint8_t> out;
  if (s_.func == 0) {  // dropout bitmask: bit i (LSB first) = 1 keeps element i
    out.assign(static_cast<size_t>((num + 7) / 8), 0);
    for (uint64_t k = 0; k < num; ++k) {
      const double u = static_cast<double>(g.Next()) * 0x1.0p-32;
      if (u >= d0) out[k / 8] = static_cast<uint8_t>(out[k / 8] | (1u << (k % 8)));
    }
  } else {
    out.assign(static_cast<size_t>(num) * width, 0);
    Normal normal;
    for (uint64_t k = 0; k < num; ++k) {
      uint8_t* p = out.data() + k * width;
      if (s_.func == 1) {  // uniform in [min, max)
        switch (s_.type) {
          case Elem::kI32: case Elem::kI64: {
            const uint64_t span = static_cast<uint64_t>(i1) - static_cast<uint64_t>(i0);
            const uint64_t x = (static_cast<uint64_t>(g.Next()) << 32) | g.Next();
            const int64_t v = static_cast<int64_t>(static_cast<uint64_t>(i0) + (span ? x % span : 0));
            if (s_.type == Elem::kI32) Store<int32_t>(p, static_cast<int32_t>(v));
            else Store<int64_t>(p, v);
            break;
          }
          case Elem::kU32: case Elem::kU64: {
            const uint64_t span = u1 - u0;
            const uint64_t x = (static_cast<uint64_t>(g.Next()) << 32) | g.Next();
            const uint64_t v = u0 + (span ? x % span : 0);
            if (s_.type == Elem::kU32) Store<uint32_t>(p, static_cast<uint32_t>(v));
            else Store<uint64_t>(p, v);
            break;
          }
          default:
            StoreFloat(p, s_.type, d0 + Uniform53(g) * (d1 - d0));
        }
      } else {  // normal, truncated normal (|z| <= 2, redrawn otherwise)
        double z = normal.Next(g);
        if (s_.func == 3)
          while (std::fabs(z) > 2.0) z = normal.Next(g);
        StoreFloat(p, s_.type, d0 + d1 * z);
      }
    }
  }
  Status st = out.empty() ? Status() : sim::DeviceWrite(phys, s_.result, out.data(), out.size(), sim::AccessCause::kCopy);
  const uint64_t next[2] = {g.lo(), g.hi()};
  if (st.ok()) st = sim::DeviceWrite(phys, s_.counter, next, sizeof next, sim::AccessCause::kCopy);
  if (!st.ok()) {
    failure_message = "random number task: " + st.message();
    return st.code();
  }
  return 0;
}

int OverflowStatusTask::Run(ExecContext& ctx) {
  if (reset_) {
    overflow::Reset(ctx.phys_id);
    return 0;
  }
  uint8_t buf[64] = {};
  const uint32_t flag = overflow::Status(ctx.phys_id);
  std::memcpy(buf, &flag, sizeof flag);
  Status st = sim::DeviceWrite(ctx.phys_id, out_, buf, sizeof buf, sim::AccessCause::kCopy);
  if (!st.ok()) failure_message = "overflow status: " + st.message();
  return st.code();
}

}  // namespace simnpu::core
