// The advanced Ascend C API against numpy golden data (gen_golden.py), its
// rules (exact failure messages), the DMA atomics across blocks on threads,
// and multi-core synchronisation without a runtime that supports it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ascendc_advanced/adv_kernels.h"
#include "ascendc_model/harness.h"

using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

const std::string kDir = SIMNPU_ADVANCED_GOLDEN_DIR;

struct AdvCase {
  std::string name;
  uint32_t op = 0, n = 0, p[4] = {0, 0, 0, 0}, in_bytes = 0, out_bytes = 0;
  std::string dtypes;
  double tol = 0;
};
void PrintTo(const AdvCase& c, std::ostream* os) { *os << c.name; }

std::vector<AdvCase> Cases() {
  std::vector<AdvCase> out;
  std::ifstream f(kDir + "/manifest.txt");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    std::istringstream s(line);
    AdvCase c;
    s >> c.name >> c.op >> c.n >> c.p[0] >> c.p[1] >> c.p[2] >> c.p[3] >> c.in_bytes >> c.out_bytes >> c.dtypes >> c.tol;
    out.push_back(c);
  }
  return out;
}

std::vector<uint8_t> Load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

double ValueAt(const std::string& ty, const uint8_t* p) {
  if (ty == "f32") {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  half h;
  std::memcpy(&h, p, 2);
  return static_cast<float>(h);
}

class AdvGolden : public ::testing::TestWithParam<AdvCase> {};

TEST_P(AdvGolden, MatchesNumpy) {
  const AdvCase& c = GetParam();
  std::vector<uint8_t> in[4];
  for (int i = 0; i < 4; ++i) in[i] = Load(kDir + "/" + c.name + ".in" + std::to_string(i));
  const std::vector<uint8_t> expect = Load(kDir + "/" + c.name + ".out");
  ASSERT_EQ(expect.size(), c.out_bytes);
  std::vector<uint8_t> out(c.out_bytes, 0xee);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<adv_case>(1, in[0].data(), in[1].data(), in[2].data(), in[3].data(), out.data(), c.op, c.in_bytes,
                            c.out_bytes, c.n, c.p[0], c.p[1], c.p[2], c.p[3]),
            0)
      << r.FirstError();
  std::vector<std::string> types;
  std::stringstream ts(c.dtypes);
  for (std::string t; std::getline(ts, t, ':');) types.push_back(t);
  ASSERT_EQ(types.size(), 3u);
  const size_t seg = c.out_bytes / 3;
  for (size_t s = 0; s < 3; ++s) {
    const std::string& ty = types[s];
    const bool fp = ty == "f32" || ty == "f16";
    const size_t es = ty == "f32" ? 4 : 2;
    for (size_t i = s * seg; i < (s + 1) * seg;) {
      if (!fp || c.tol == 0) {
        ASSERT_EQ(out[i], expect[i]) << c.name << ": segment " << s << " byte " << i - s * seg;
        ++i;
        continue;
      }
      const double got = ValueAt(ty, &out[i]), want = ValueAt(ty, &expect[i]);
      if (!(std::isnan(got) && std::isnan(want))) {
        ASSERT_LE(std::fabs(got - want), c.tol * std::max(1.0, std::fabs(want)))
            << c.name << ": segment " << s << " element " << (i - s * seg) / es << " got " << got << " want " << want;
      }
      i += es;
    }
  }
}

std::string CaseName(const ::testing::TestParamInfo<AdvCase>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Numpy, AdvGolden, ::testing::ValuesIn(Cases()), CaseName);

// ---- rules: each misuse fails the block with its message
std::string Misuse(uint32_t which) {
  FakeServices svc;
  Runner r(&svc);
  const int rc = r.Run<adv_misuse>(1, which);
  EXPECT_EQ(rc, SIMNPU_BLOCK_CHECK_FAILED);
  const std::string e = r.FirstError();
  const size_t k = e.find("] ", e.rfind("]["));  // after the [file:line][func] prefix
  return k == std::string::npos ? e : e.substr(k + 2);
}

TEST(AdvRules, CountBeyondTensor) {
  EXPECT_EQ(Misuse(0), "Sigmoid: count 2048 exceeds the destination LocalTensor (1024 elements)");
}
TEST(AdvRules, SoftMaxRowsNotAligned) {
  EXPECT_EQ(Misuse(1),
            "SoftMax: srcK (12) * sizeof(T) must be a multiple of 32 bytes (the last axis is 32-byte aligned)");
}
TEST(AdvRules, SoftMaxSumTooSmall) {
  EXPECT_EQ(Misuse(2), "SoftMax: sumTensor needs 128 elements, its LocalTensor has 64");
}
TEST(AdvRules, LayerNormGammaTooShort) {
  EXPECT_EQ(Misuse(3), "LayerNorm: gamma needs 128 elements, its LocalTensor has 64");
}
TEST(AdvRules, UnalignedOperand) {
  const std::string m = Misuse(4);
  EXPECT_NE(m.find("Erf"), std::string::npos) << m;
  EXPECT_NE(m.find("src"), std::string::npos) << m;
}
TEST(AdvRules, CumSumInnerNotAligned) {
  EXPECT_EQ(Misuse(5), "CumSum: inner (6) * sizeof(T) must be a multiple of 32 bytes");
}

TEST(AdvRules, PadLeftOnAlignedWidth) {
  EXPECT_EQ(Misuse(6), "Pad: leftPad must be 0 when the width (16) is 32-byte aligned (only right padding)");
}
TEST(AdvRules, UnPadRightPadTooLarge) {
  EXPECT_EQ(Misuse(7), "UnPad: rightPad (8) must be in [1, 7] (less than 32 bytes of the element type)");
}
TEST(AdvRules, FillOnVectorBuffer) {
  EXPECT_EQ(Misuse(8), "Fill: dst is in VECCALC; the positions are A1, B1, A2 and B2 (use Duplicate for the vector buffers)");
}
TEST(AdvRules, PadWiderThanAligned) {
  EXPECT_EQ(Misuse(9), "Pad: leftPad (2) + srcWidth (5) + rightPad (2) = 9 exceeds the 32-byte aligned width 8");
}
TEST(AdvRules, FillBeyondTensor) {
  EXPECT_EQ(Misuse(10), "Fill: 2 repeats of 128 bytes (160 apart) reach byte 288, dst has 256 bytes");
}
TEST(AdvRules, FillA2Unaligned) {
  EXPECT_EQ(Misuse(11), "Fill: dst starts at offset 32 of A2, which is not 512-byte aligned");
}

TEST(AdvRules, TopKKAboveN) { EXPECT_EQ(Misuse(12), "TopK: k (20) must be in [1, n = 17]"); }
TEST(AdvRules, TopKSmallModeInner) {
  EXPECT_EQ(Misuse(13), "TopK: topKInfo.inner (64) must be 32 in the Small mode (TOPK_NSMALL)");
}

TEST(AdvRules, LayerNormRstdRLength) {
  EXPECT_EQ(Misuse(14), "LayerNorm: rLength (40) must be in [1, rLengthWithPadding = 32]");
}

TEST(AdvRules, GatherbOffsetNotABlock) {
  EXPECT_EQ(Misuse(15), "Gatherb: offset[5] = 40 bytes is not a multiple of 32");
}
TEST(AdvRules, ScatterOutsideDst) {
  EXPECT_EQ(Misuse(16), "Scatter: dstBaseAddr + dstOffset[3] = 4096 bytes is outside dst (4096 bytes)");
}

// ---- Fill / InitConstValue: every byte of the 4096-byte tensor
std::vector<uint8_t> FillCase(uint32_t which) {
  std::vector<uint8_t> out(4096, 0);
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<adv_fill>(1, out.data(), which), 0) << r.FirstError();
  return out;
}
template <typename T>
void ExpectFilled(const std::vector<uint8_t>& got, T v, const std::vector<std::pair<size_t, size_t>>& ranges) {
  std::vector<uint8_t> want(4096, 0xA5);
  for (const auto& r : ranges) {
    for (size_t b = r.first; b < r.second; b += sizeof(T)) std::memcpy(&want[b], &v, sizeof(T));
  }
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "byte " << i;
}
TEST(AdvFill, A1BlocksAndGap) { ExpectFilled(FillCase(0), 5.0f, {{0, 96}, {128, 224}}); }
TEST(AdvFill, B2RepeatsOnly) { ExpectFilled(FillCase(1), half(2.5f), {{0, 1536}}); }
TEST(AdvFill, A2BlocksAndGap) { ExpectFilled(FillCase(2), int32_t{-7}, {{0, 1024}, {1536, 2560}}); }
TEST(AdvFill, B1OneRepeat) { ExpectFilled(FillCase(3), uint16_t{0xBEEF}, {{0, 160}}); }

}  // namespace
