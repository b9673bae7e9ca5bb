// Vector API of the Ascend C model against numpy golden data (gen_golden.py):
// every case runs the vec_case kernel through RunBlock and must reproduce the
// numpy destination byte for byte.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ascendc_model/harness.h"
#include "ascendc_vector/golden.h"
#include "ascendc_vector/vec_kernels.h"

using simnpu_test::FakeServices;
using simnpu_test::GoldenCase;
using simnpu_test::Runner;

namespace {

const std::string kDir = SIMNPU_VECTOR_GOLDEN_DIR;

std::vector<GoldenCase> Cases() {
  static const std::vector<GoldenCase> cases = simnpu_test::LoadManifest(kDir);
  return cases;
}

class VecGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(VecGolden, MatchesNumpy) {
  const GoldenCase& c = GetParam();
  std::vector<uint8_t> in[4];
  for (int i = 0; i < 4; ++i) in[i] = simnpu_test::LoadBytes(kDir + "/" + c.name + ".in" + std::to_string(i));
  const std::vector<uint8_t> expect = simnpu_test::LoadBytes(kDir + "/" + c.name + ".out");
  ASSERT_EQ(in[0].size(), c.in_bytes);
  ASSERT_EQ(expect.size(), c.out_bytes);
  std::vector<uint8_t> out(c.out_bytes, 0xee);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<vec_case>(1, in[0].data(), in[1].data(), in[2].data(), in[3].data(), out.data(), c.op, c.in_bytes,
                            c.out_bytes, c.n, c.p[0], c.p[1], c.p[2], c.p[3]),
            0)
      << r.FirstError();
  for (size_t i = 0; i < out.size(); ++i) {
    ASSERT_EQ(out[i], expect[i]) << c.name << ": byte " << i << " of " << out.size();
  }
}

std::string CaseName(const ::testing::TestParamInfo<GoldenCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Numpy, VecGolden, ::testing::ValuesIn(Cases()), CaseName);

}  // namespace
