// In-process tests of the Matmul high-level API and its host tiling: the
// kernel reads a tiling made by MultiCoreMatmulTiling, each block computes
// its singleCoreM x singleCoreN part (tails by SetTail) through Iterate /
// GetTensorC or IterateAll; results are compared bit for bit with the
// documented accumulation order (bias, then k ascending in fp32).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "../ascendc_model/harness.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

namespace {

struct Args {
  TCubeTiling tiling;
  uint32_t transA, transB, iterate, bias;
};

template <typename AT, typename CT, const auto& CFG>
void MmApiKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, Args args) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, AT>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, CT>;
  using LT = typename std::conditional<std::is_same<AT, int8_t>::value, int32_t, float>::type;
  using BIAS = MatmulType<TPosition::GM, CubeFormat::ND, LT>;
  Matmul<A, A, C, BIAS, CFG> mm;
  TPipe pipe;
  const TCubeTiling& t = args.tiling;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &args.tiling);
  const int blk = static_cast<int>(GetBlockIdx());
  if (blk >= t.usedCoreNum) return;
  const int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
  const int mi = blk % mBlocks, ni = blk / mBlocks;
  const int tailM = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
  const int tailN = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
  GlobalTensor<AT> ga, gb;
  GlobalTensor<CT> gc;
  GlobalTensor<LT> gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ LT*>(bias));
  const size_t offA = args.transA ? static_cast<size_t>(mi) * t.singleCoreM : static_cast<size_t>(mi) * t.singleCoreM * t.Ka;
  const size_t offB = args.transB ? static_cast<size_t>(ni) * t.singleCoreN * t.Kb : static_cast<size_t>(ni) * t.singleCoreN;
  mm.SetTensorA(ga[offA], args.transA != 0);
  mm.SetTensorB(gb[offB], args.transB != 0);
  if (args.bias) mm.SetBias(gbias[ni * t.singleCoreN]);
  mm.SetTail(tailM, tailN);
  GlobalTensor<CT> out = gc[static_cast<size_t>(mi) * t.singleCoreM * t.N + static_cast<size_t>(ni) * t.singleCoreN];
  if (args.iterate) {
    while (mm.Iterate()) mm.GetTensorC(out);
  } else {
    mm.IterateAll(out);
  }
  mm.End();
}

template <typename AT, typename CT, const auto& CFG>
void RunCase(int M, int N, int K, int cores, bool transA, bool transB, bool iterate, bool bias) {
  using LT = typename std::conditional<std::is_same<AT, int8_t>::value, int32_t, float>::type;
  matmul_tiling::MultiCoreMatmulTiling tiling;
  const auto dt = std::is_same<AT, half>::value ? matmul_tiling::DataType::DT_FLOAT16
                  : std::is_same<AT, int8_t>::value ? matmul_tiling::DataType::DT_INT8 : matmul_tiling::DataType::DT_BF16;
  tiling.SetDim(cores);
  tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, transA);
  tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt, transB);
  tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                  std::is_same<LT, int32_t>::value ? matmul_tiling::DataType::DT_INT32 : matmul_tiling::DataType::DT_FLOAT);
  tiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  tiling.SetShape(M, N, K);
  tiling.SetOrgShape(M, N, K);
  tiling.SetBias(bias);
  Args args{};
  ASSERT_EQ(tiling.GetTiling(args.tiling), 0);
  args.transA = transA;
  args.transB = transB;
  args.iterate = iterate;
  args.bias = bias;
  std::mt19937 g(M * 7 + N);
  std::vector<AT> a(static_cast<size_t>(M) * K), b(static_cast<size_t>(K) * N);
  for (auto& v : a) v = std::is_same<AT, int8_t>::value ? AT(int(g() % 256) - 128) : AT(float(int(g() % 2001) - 1000) / 500.0f);
  for (auto& v : b) v = std::is_same<AT, int8_t>::value ? AT(int(g() % 256) - 128) : AT(float(int(g() % 2001) - 1000) / 500.0f);
  std::vector<LT> bs(N);
  for (int j = 0; j < N; ++j) bs[j] = LT(j % 5);
  std::vector<CT> c(static_cast<size_t>(M) * N), want(c.size());
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      LT acc = bias ? bs[j] : LT{};
      for (int k = 0; k < K; ++k) {
        const AT av = transA ? a[static_cast<size_t>(k) * M + i] : a[static_cast<size_t>(i) * K + k];
        const AT bv = transB ? b[static_cast<size_t>(j) * K + k] : b[static_cast<size_t>(k) * N + j];
        if constexpr (std::is_same<LT, int32_t>::value) {
          acc += int32_t(av) * int32_t(bv);
        } else {
          acc = acc + float(av) * float(bv);
        }
      }
      want[static_cast<size_t>(i) * N + j] = CT(acc);
    }
  }
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  ASSERT_EQ((r.RunThreads<&MmApiKernel<AT, CT, CFG>>(2, cores, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                                                     reinterpret_cast<GM_ADDR>(bs.data()), reinterpret_cast<GM_ADDR>(c.data()), args)),
            0)
      << r.FirstError();
  EXPECT_EQ(std::memcmp(c.data(), want.data(), c.size() * sizeof(CT)), 0)
      << M << "x" << N << "x" << K << " cores " << cores << " used " << args.tiling.usedCoreNum;
}

TEST(MatmulApi, HalfNormalMultiCore) {
  RunCase<half, float, AscendC::CFG_NORM>(256, 384, 128, 8, false, false, true, true);
  RunCase<half, float, AscendC::CFG_NORM>(100, 70, 90, 4, false, false, false, false);
  RunCase<half, float, AscendC::CFG_NORM>(64, 96, 80, 2, true, true, true, true);
}
TEST(MatmulApi, OtherConfigsAndTypes) {
  RunCase<half, float, AscendC::CFG_MDL>(128, 256, 256, 4, false, true, false, true);
  RunCase<half, float, AscendC::MM_CFG_BB>(256, 256, 64, 4, false, false, true, false);
  RunCase<half, float, AscendC::CFG_IBSHARE_NORM>(96, 64, 64, 2, false, false, true, false);
  RunCase<int8_t, int32_t, AscendC::CFG_NORM>(64, 128, 96, 4, false, false, true, true);
  RunCase<bfloat16_t, float, AscendC::CFG_NORM>(48, 64, 128, 2, false, false, false, true);
}

// A in NZ (GM), C written in NZ
void NzKernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::NZ, half>;
  using B = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using C = MatmulType<TPosition::GM, CubeFormat::NZ, float>;
  Matmul<A, B, C> mm;
  REGIST_MATMUL_OBJ(nullptr, nullptr, mm, &t);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.IterateAll(gc);
  mm.End();
}

TEST(MatmulApi, NzInputAndOutput) {
  const int M = 48, N = 32, K = 64;
  matmul_tiling::MatmulApiTiling tiling;
  tiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::NZ, matmul_tiling::DataType::DT_FLOAT16);
  tiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  tiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::NZ, matmul_tiling::DataType::DT_FLOAT);
  tiling.SetShape(M, N, K);
  tiling.SetFixSplit(32, 16, 32);  // several base blocks
  TCubeTiling t;
  ASSERT_EQ(tiling.GetTiling(t), 0);
  EXPECT_EQ(t.baseM, 32);
  std::vector<half> a(M * K), anz(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i) a[i] = half(float((i * 37) % 17 - 8) / 8.0f);
  for (int i = 0; i < K * N; ++i) b[i] = half(float((i * 11) % 13 - 6) / 4.0f);
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) anz[(k / 16) * M * 16 + i * 16 + k % 16] = a[i * K + k];
  }
  std::vector<float> cnz(M * N, -1.0f), want(M * N);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc = acc + float(a[i * K + k]) * float(b[k * N + j]);
      want[(j / 16) * M * 16 + i * 16 + j % 16] = acc;
    }
  }
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  ASSERT_EQ(r.Run<&NzKernel>(1, reinterpret_cast<GM_ADDR>(anz.data()), reinterpret_cast<GM_ADDR>(b.data()),
                             reinterpret_cast<GM_ADDR>(cnz.data()), t),
            0)
      << r.FirstError();
  EXPECT_EQ(std::memcmp(cnz.data(), want.data(), want.size() * 4), 0);
}

void NoInit(GM_ADDR c) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<A, A, C> mm;
  GlobalTensor<float> gc;
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.IterateAll(gc);
}

TEST(MatmulApi, MisuseMessages) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  float c[4];
  EXPECT_EQ(r.Run<&NoInit>(1, reinterpret_cast<GM_ADDR>(c)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Matmul::Iterate: the object was not initialised (REGIST_MATMUL_OBJ / Init)"),
            std::string::npos)
      << r.FirstError();
}

TEST(MatmulTiling, HostAndKernelForms) {
  matmul_tiling::MultiCoreMatmulTiling t;
  t.SetDim(8);
  t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  ASSERT_EQ(t.SetShape(512, 1024, 256), 0);
  t.SetOrgShape(512, 1024, 256);
  t.SetBias(true);
  optiling::TCubeTiling host;
  TCubeTiling kern;
  ASSERT_EQ(t.GetTiling(host), 0);
  ASSERT_EQ(t.GetTiling(kern), 0);
  EXPECT_EQ(kern.usedCoreNum, 8);
  EXPECT_EQ(kern.singleCoreM * 2, 512);
  EXPECT_EQ(kern.singleCoreN * 4, 1024);
  EXPECT_EQ(kern.singleCoreK, 256);
  EXPECT_EQ(kern.baseM, 128);
  EXPECT_EQ(kern.baseN, 128);
  EXPECT_EQ(kern.baseK, 64);
  EXPECT_EQ(kern.isBias, 1);
  EXPECT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  std::vector<uint8_t> saved(host.GetDataSize());
  host.SaveToBuffer(saved.data(), saved.size());
  EXPECT_EQ(std::memcmp(saved.data(), &kern, sizeof kern), 0);
  int32_t dim = 0, md = 0, nd = 0;
  t.GetCoreNum(dim, md, nd);
  EXPECT_EQ(dim, 8);
  EXPECT_EQ(md * nd, 8);
  matmul_tiling::MatmulApiTiling bad;
  EXPECT_EQ(bad.GetTiling(kern), -1);  // no types, no shape
}

}  // namespace
