// Ascend C model: half arithmetic is bit-exact with "compute in float, round
// once to nearest even" for every 16-bit input paired with a sample of the
// other operand, on both the F16C/AVX2 path and the portable path. The
// reference is g++'s own _Float16 conversion (libgcc), independent of the model.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "kernel_operator.h"

namespace {

namespace simd = ::simnpu::ascendc::simd;
namespace fp = ::simnpu::ascendc::fp;

float RefToFloat(uint16_t h) { return static_cast<float>(__builtin_bit_cast(_Float16, h)); }
uint16_t RefToHalf(float f) { return __builtin_bit_cast(uint16_t, static_cast<_Float16>(f)); }
bool IsNanH(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

std::vector<uint16_t> SampleOperands() {
  std::vector<uint16_t> s = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x07ff, 0x3c00, 0xbc00, 0x3c01,
                             0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x3555, 0x5640, 0x0200,
                             0x1400, 0x6800, 0x4000, 0xc000, 0x3800, 0x0c00, 0x77ff, 0x7800};
  std::mt19937 rng(2201);
  for (int i = 0; i < 36; ++i) s.push_back(static_cast<uint16_t>(rng()));
  return s;
}

template <int Op>
float RefOp(float a, float b) {
  return simd::ScalarBin<Op>(a, b);
}

struct Mode {
  bool portable;
  const char* name;
};

class AscModelHalfExact : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override { simd::force_portable = GetParam().portable; }
  void TearDown() override { simd::force_portable = false; }

  template <int Op>
  void CheckAll(const char* name) {
    const std::vector<uint16_t> samples = SampleOperands();
    std::vector<uint16_t> a(65536), b(65536), d(65536);
    for (uint32_t i = 0; i < 65536; ++i) a[i] = static_cast<uint16_t>(i);
    uint64_t checked = 0;
    for (uint16_t s : samples) {
      std::fill(b.begin(), b.end(), s);
      for (int pass = 0; pass < 2; ++pass) {  // s as right and as left operand
        if (pass == 0) {
          simd::HalfBinary<Op>(d.data(), a.data(), b.data(), a.size());
        } else {
          simd::HalfBinary<Op>(d.data(), b.data(), a.data(), a.size());
        }
        for (uint32_t i = 0; i < 65536; ++i) {
          const float x = RefToFloat(pass == 0 ? a[i] : s);
          const float y = RefToFloat(pass == 0 ? s : a[i]);
          const uint16_t want = RefToHalf(RefOp<Op>(x, y));
          if (IsNanH(want)) {
            ASSERT_TRUE(IsNanH(d[i])) << name << " " << std::hex << a[i] << " " << s;
          } else {
            ASSERT_EQ(d[i], want) << name << std::hex << " a=" << (pass == 0 ? a[i] : s)
                                  << " b=" << (pass == 0 ? s : a[i]);
          }
          ++checked;
        }
      }
      // scalar-operand form
      simd::HalfBinaryScalar<Op>(d.data(), a.data(), RefToFloat(s), a.size());
      for (uint32_t i = 0; i < 65536; ++i) {
        const uint16_t want = RefToHalf(RefOp<Op>(RefToFloat(a[i]), RefToFloat(s)));
        if (IsNanH(want)) {
          ASSERT_TRUE(IsNanH(d[i]));
        } else {
          ASSERT_EQ(d[i], want) << name << " scalar " << std::hex << a[i] << " " << s;
        }
      }
    }
    EXPECT_EQ(checked, 2ull * 65536 * samples.size());
  }
};

TEST_P(AscModelHalfExact, Add) { CheckAll<simd::kAdd>("add"); }
TEST_P(AscModelHalfExact, Sub) { CheckAll<simd::kSub>("sub"); }
TEST_P(AscModelHalfExact, Mul) { CheckAll<simd::kMul>("mul"); }
TEST_P(AscModelHalfExact, Div) { CheckAll<simd::kDiv>("div"); }
TEST_P(AscModelHalfExact, MaxMin) {
  CheckAll<simd::kMax>("max");
  CheckAll<simd::kMin>("min");
}

TEST_P(AscModelHalfExact, ConversionsAllHalves) {
  std::vector<uint16_t> h(65536), back(65536);
  std::vector<float> f(65536);
  for (uint32_t i = 0; i < 65536; ++i) h[i] = static_cast<uint16_t>(i);
  simd::HalfToFloatArray(f.data(), h.data(), h.size());
  for (uint32_t i = 0; i < 65536; ++i) {
    if (IsNanH(h[i])) {
      ASSERT_TRUE(std::isnan(f[i]));
      // payload kept and quieted, like F16C
      ASSERT_EQ(fp::FloatBits(f[i]), ((i & 0x8000u) << 16) | 0x7fc00000u | ((i & 0x3ffu) << 13));
    } else {
      ASSERT_EQ(fp::FloatBits(f[i]), fp::FloatBits(RefToFloat(h[i]))) << i;
    }
  }
  simd::FloatToHalfArray(back.data(), f.data(), f.size());
  for (uint32_t i = 0; i < 65536; ++i) {
    if (IsNanH(h[i])) {
      ASSERT_EQ(back[i], h[i] | 0x0200u) << i;
    } else {
      ASSERT_EQ(back[i], h[i]) << i;
    }
  }
}

TEST_P(AscModelHalfExact, FloatToHalfSampledFloats) {
  // every float whose low 9 mantissa bits are 0, 1, 0xff, 0x100 or 0x1ff, plus rounding boundaries
  std::vector<float> f;
  for (uint32_t hi = 0; hi < (1u << 23); ++hi) {
    for (uint32_t lo : {0u, 1u, 0xffu, 0x100u, 0x1ffu}) f.push_back(fp::BitsFloat((hi << 9) | lo));
  }
  std::vector<uint16_t> h(f.size());
  simd::FloatToHalfArray(h.data(), f.data(), f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    if (std::isnan(f[i])) {
      ASSERT_TRUE(IsNanH(h[i]));
      ASSERT_EQ(h[i], fp::NanFloatToHalf(fp::FloatBits(f[i])));
    } else {
      ASSERT_EQ(h[i], RefToHalf(f[i])) << std::hex << fp::FloatBits(f[i]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, AscModelHalfExact, ::testing::Values(Mode{false, "auto"}, Mode{true, "portable"}),
                         [](const ::testing::TestParamInfo<Mode>& i) { return std::string(i.param.name); });

TEST(AscModelHalfDirected, ModesBracketTheValue) {
  std::mt19937 rng(7);
  for (int k = 0; k < 2000000; ++k) {
    const float f = fp::BitsFloat(static_cast<uint32_t>(rng()));
    if (std::isnan(f)) continue;
    const double v = f;
    const uint16_t dn = fp::FloatToHalf(f, fp::kDown);
    const uint16_t up = fp::FloatToHalf(f, fp::kUp);
    const uint16_t tz = fp::FloatToHalf(f, fp::kZero);
    const uint16_t aw = fp::FloatToHalf(f, fp::kAway);
    const uint16_t od = fp::FloatToHalf(f, fp::kOdd);
    const double hd = RefToFloat(dn), hu = RefToFloat(up);
    ASSERT_LE(hd, v) << f;
    ASSERT_GE(hu, v) << f;
    if (hd == v) {
      ASSERT_EQ(hu, v);
    } else if (std::isfinite(hd) && std::isfinite(hu)) {
      // adjacent halves
      ASSERT_TRUE(dn + 1 == up || dn - 1 == up || (dn == 0x8000 && up == 0x0000) || (dn == 0x8000 && up == 0x0001) ||
                  (dn == 0x8001 && up == 0x0000) || (dn == 0x8001 && up == 0x8000))
          << std::hex << dn << " " << up;
    }
    ASSERT_EQ(tz, v >= 0 ? dn : up) << f;
    if (hd != v && std::isfinite(hd) && std::isfinite(hu)) {
      const double dl = v - hd, dh = hu - v;
      ASSERT_EQ(aw, dl < dh ? dn : (dh < dl ? up : (v < 0 ? dn : up))) << f;
      ASSERT_EQ(od & 1u, 1u) << f;
    }
  }
}

}  // namespace
