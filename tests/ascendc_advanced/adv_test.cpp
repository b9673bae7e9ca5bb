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

}  // namespace
