// Mmad with fp8 inputs as the A5 (__NPU_ARCH__ 3510) cube unit takes them:
// fp8_e4m3fn_t / fp8_e5m2_t in every pairing and hifloat8_t x hifloat8_t,
// accumulated in float in ascending k (the products of 8-bit floats are
// exact in fp32), compared bit for bit. Built with -D__NPU_ARCH__=3510.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "../ascendc_model/harness.h"
#include "kernel_operator.h"

namespace {

constexpr int M = 32, N = 32, K = 64;  // k: two 32-element c0 blocks

float Val(int i, int k, int salt) { return static_cast<float>(((i * 7 + k * 3 + salt) % 29) - 14) / 4.0f; }

template <typename AT, typename BT>
void Fp8Kernel(GM_ADDR out) {
  using namespace AscendC;
  constexpr int c0 = 32;
  LocalTensor<AT> a(TPosition::A2, 0, M * K);
  LocalTensor<BT> b(TPosition::B2, 0, K * N);
  LocalTensor<float> c(TPosition::CO1, 0, M * N);
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) a.SetValue(((i / 16) * (K / c0) + k / c0) * 16 * c0 + (i % 16) * c0 + k % c0, AT(Val(i, k, 1)));
  }
  for (int k = 0; k < K; ++k) {
    for (int j = 0; j < N; ++j) b.SetValue(((k / c0) * (N / 16) + j / 16) * c0 * 16 + (j % 16) * c0 + k % c0, BT(Val(k, j, 5)));
  }
  Mmad(c, a, b, MmadParams(M, N, K, false, 0, false, false, false));
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), M * N);
  Fixpipe<float, float>(g, c, FixpipeParamsV220(N, M, M, N, false));
}

template <typename AT, typename BT>
void Check() {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  std::vector<float> out(M * N, -1.0f);
  ASSERT_EQ((r.Run<&Fp8Kernel<AT, BT>>(1, reinterpret_cast<GM_ADDR>(out.data()))), 0) << r.FirstError();
  int nonzero = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc = acc + static_cast<float>(AT(Val(i, k, 1))) * static_cast<float>(BT(Val(k, j, 5)));
      ASSERT_EQ(out[i * N + j], acc) << i << "," << j;
      nonzero += acc != 0.0f;
    }
  }
  EXPECT_GT(nonzero, M * N / 2);
}

TEST(CubeFp8, MmadPairs) {
  Check<fp8_e4m3fn_t, fp8_e4m3fn_t>();
  Check<fp8_e5m2_t, fp8_e5m2_t>();
  Check<fp8_e4m3fn_t, fp8_e5m2_t>();
  Check<fp8_e5m2_t, fp8_e4m3fn_t>();
  Check<hifloat8_t, hifloat8_t>();
}

}  // namespace
