// In-process tests of the Matmul API forms added for issue 15's leftovers:
// batch matmul (IterateBatch in the NORMAL layout with broadcast and a bias
// per batch, its host tiling SetBatchInfoForNormal), anti-quantised int8 B
// (SetAntiQuantScalar / SetAntiQuantVector) and the asynchronous Iterate
// (Iterate<false> + GetTensorC<false>, IterateAll<false> + WaitIterateAll).
// Results compared bit for bit with references accumulating in k order.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "../ascendc_model/harness.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::TPosition;

TCubeTiling MakeTiling(int M, int N, int K, bool bias, int baseM = 0, int baseN = 0,
                       matmul_tiling::DataType bt = matmul_tiling::DataType::DT_FLOAT16, int batchA = 0, int batchB = 0) {
  matmul_tiling::MatmulApiTiling t;
  t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
  t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, bt);
  t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
  if (batchA > 0) {
    EXPECT_EQ(t.SetBatchInfoForNormal(batchA, batchB, M, N, K), 0);
  } else {
    t.SetShape(M, N, K);
  }
  t.SetOrgShape(M, N, K);
  t.SetBias(bias);
  if (baseM > 0) t.SetFixSplit(baseM, baseN, -1);
  TCubeTiling out{};
  EXPECT_EQ(t.GetTiling(out), 0);
  return out;
}

std::vector<half> RandHalf(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<half> v(n);
  for (auto& x : v) x = half(static_cast<float>(static_cast<int>(g() % 2001) - 1000) / 500.0f);
  return v;
}

// C[M x N] = A[M x K] x B[K x N] (+ bias), fp32 accumulation in k order; B given as floats.
std::vector<float> Ref(const half* a, const float* b, const float* bias, int M, int N, int K) {
  std::vector<float> c(static_cast<size_t>(M) * N);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float acc = bias != nullptr ? bias[j] : 0.0f;
      for (int k = 0; k < K; ++k) acc = acc + static_cast<float>(a[static_cast<size_t>(i) * K + k]) * b[static_cast<size_t>(k) * N + j];
      c[static_cast<size_t>(i) * N + j] = acc;
    }
  }
  return c;
}

// ---- batch
struct BatchArgs {
  TCubeTiling tiling;
  uint32_t batchA, batchB, useSetBatchNum;
};

void BatchKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, BatchArgs args) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>;
  using BIAS = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<A, A, C, BIAS> mm;
  TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &args.tiling);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc, gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.SetBias(gbias);
  if (args.useSetBatchNum) {
    mm.SetBatchNum(static_cast<int32_t>(args.batchA), static_cast<int32_t>(args.batchB));
    mm.IterateBatch(gc, false, 0, false);
  } else {
    mm.IterateBatch(gc, args.batchA, args.batchB, false);
  }
  mm.End();
}

void RunBatch(int M, int N, int K, uint32_t batchA, uint32_t batchB, bool setBatchNum) {
  BatchArgs args{MakeTiling(M, N, K, true, 32, 32, matmul_tiling::DataType::DT_FLOAT16, batchA, batchB), batchA, batchB,
                 setBatchNum};
  EXPECT_EQ(args.tiling.ALayoutInfoB, static_cast<int32_t>(batchA));
  EXPECT_EQ(args.tiling.BLayoutInfoB, static_cast<int32_t>(batchB));
  EXPECT_EQ(args.tiling.BatchNum, static_cast<int32_t>(std::max(batchA, batchB)));
  const uint32_t batches = std::max(batchA, batchB);
  std::vector<half> a = RandHalf(static_cast<size_t>(batchA) * M * K, 3), b = RandHalf(static_cast<size_t>(batchB) * K * N, 4);
  std::vector<float> bias(static_cast<size_t>(batches) * N);
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = static_cast<float>(i % 11) - 5.0f;
  std::vector<float> c(static_cast<size_t>(batches) * M * N, -1.0f);
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  ASSERT_EQ(r.Run<&BatchKernel>(1, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                                reinterpret_cast<GM_ADDR>(bias.data()), reinterpret_cast<GM_ADDR>(c.data()), args),
            0)
      << r.FirstError();
  for (uint32_t i = 0; i < batches; ++i) {
    const half* ab = a.data() + static_cast<size_t>(i * batchA / batches) * M * K;
    const half* bb = b.data() + static_cast<size_t>(i * batchB / batches) * K * N;
    std::vector<float> bf(static_cast<size_t>(K) * N);
    for (size_t e = 0; e < bf.size(); ++e) bf[e] = static_cast<float>(bb[e]);
    const std::vector<float> want = Ref(ab, bf.data(), bias.data() + static_cast<size_t>(i) * N, M, N, K);
    EXPECT_EQ(std::memcmp(c.data() + static_cast<size_t>(i) * M * N, want.data(), want.size() * sizeof(float)), 0) << "batch " << i;
  }
}

TEST(MatmulBatch, NormalLayout) {
  RunBatch(48, 40, 64, 3, 3, false);
  RunBatch(32, 48, 32, 4, 1, false);  // B broadcast
  RunBatch(20, 36, 24, 1, 2, true);   // A broadcast, counts from SetBatchNum
}

void BatchBadCounts(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, BatchArgs args) {
  args.batchA = 3;
  args.batchB = 2;
  BatchKernel(a, b, bias, c, args);
}

TEST(MatmulBatch, Messages) {
  BatchArgs args{MakeTiling(16, 16, 16, false), 3, 2, 0};
  std::vector<half> a(16 * 16 * 3), b(16 * 16 * 2);
  std::vector<float> bias(64), c(16 * 16 * 3);
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  EXPECT_EQ(r.Run<&BatchBadCounts>(1, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                                   reinterpret_cast<GM_ADDR>(bias.data()), reinterpret_cast<GM_ADDR>(c.data()), args),
            SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Matmul::IterateBatch: batchA 3 and batchB 2: the smaller must divide the larger (broadcast)"),
            std::string::npos)
      << r.FirstError();
}

// ---- anti-quant: A half x B int8 -> float, B = half(half(b + offset) * scale)
struct AqArgs {
  TCubeTiling tiling;
  uint32_t vector;
};

void AntiQuantKernel(GM_ADDR a, GM_ADDR b, GM_ADDR params, GM_ADDR c, AqArgs args) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using B = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<A, B, C, C> mm;
  TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &args.tiling);
  GlobalTensor<half> ga, gp;
  GlobalTensor<int8_t> gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b));
  gp.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(params));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  const int N = args.tiling.N;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * N * sizeof(half));
  LocalTensor<half> off = buf.Get<half>();
  LocalTensor<half> scale = off[N];
  if (args.vector) {
    DataCopy(off, gp, static_cast<uint32_t>(2 * N));
    mm.SetAntiQuantVector(off, scale);
  } else {
    mm.SetAntiQuantScalar(gp.GetValue(0), gp.GetValue(1));
  }
  mm.IterateAll(gc);
  mm.End();
}

void RunAntiQuant(bool vector) {
  const int M = 32, N = 48, K = 64;
  AqArgs args{MakeTiling(M, N, K, false, 16, 32, matmul_tiling::DataType::DT_INT8), vector};
  std::vector<half> a = RandHalf(static_cast<size_t>(M) * K, 9);
  std::vector<int8_t> b(static_cast<size_t>(K) * N);
  std::mt19937 g(5);
  for (auto& v : b) v = static_cast<int8_t>(static_cast<int>(g() % 256) - 128);
  std::vector<half> params(2 * N);
  for (int j = 0; j < N; ++j) {
    params[j] = half(vector ? static_cast<float>(j % 7) - 3.5f : 2.0f);           // offset
    params[N + j] = half(vector ? 0.01f * static_cast<float>(j + 1) : 0.0371f);  // scale
  }
  std::vector<float> bq(b.size());
  for (int k = 0; k < K; ++k) {
    for (int j = 0; j < N; ++j) {
      const float off = static_cast<float>(params[vector ? j : 0]), sc = static_cast<float>(params[vector ? N + j : 1]);
      const half h(static_cast<float>(b[static_cast<size_t>(k) * N + j]) + off);
      bq[static_cast<size_t>(k) * N + j] = static_cast<float>(half(static_cast<float>(h) * sc));
    }
  }
  const std::vector<float> want = Ref(a.data(), bq.data(), nullptr, M, N, K);
  std::vector<float> c(static_cast<size_t>(M) * N, -1.0f);
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIV;
  ASSERT_EQ(r.Run<&AntiQuantKernel>(1, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                                    reinterpret_cast<GM_ADDR>(params.data()), reinterpret_cast<GM_ADDR>(c.data()), args),
            0)
      << r.FirstError();
  EXPECT_EQ(std::memcmp(c.data(), want.data(), c.size() * sizeof(float)), 0) << (vector ? "vector" : "scalar");
}

TEST(MatmulAntiQuant, ScalarAndVector) {
  RunAntiQuant(false);
  RunAntiQuant(true);
}

// ---- asynchronous Iterate: all blocks at Iterate<false>, taken one by one
struct AsyncArgs {
  TCubeTiling tiling;
  uint32_t mode;  // 0: Iterate<false> + GetTensorC<false> packed; 1: IterateAll<false>; 2: no workspace; 3: one GetTensorC too many
};

void AsyncKernel(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR c, AsyncArgs args) {
  using namespace AscendC;
  using A = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using C = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<A, A, C, C> mm;
  TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, nullptr, mm, &args.tiling);
  const TCubeTiling& t = args.tiling;
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc, gw;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  gw.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), static_cast<uint64_t>(t.M) * t.N);
  if (args.mode != 2) mm.SetWorkspace(gw);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  if (args.mode == 1) {
    mm.template IterateAll<false>(gc);
    mm.WaitIterateAll();
  } else {
    mm.template Iterate<false>();
    const int blocks = ((t.singleCoreM + t.baseM - 1) / t.baseM) * ((t.singleCoreN + t.baseN - 1) / t.baseN);
    for (int i = 0; i < blocks + (args.mode == 3 ? 1 : 0); ++i) {
      mm.template GetTensorC<false>(gc[static_cast<size_t>(i) * t.baseM * t.baseN], 0, true);
    }
  }
  mm.End();
}

TEST(MatmulAsync, IterateThenGetTensorC) {
  const int M = 64, N = 96, K = 48, bm = 32, bn = 32;
  AsyncArgs args{MakeTiling(M, N, K, false, bm, bn), 0};
  std::vector<half> a = RandHalf(static_cast<size_t>(M) * K, 1), b = RandHalf(static_cast<size_t>(K) * N, 2);
  std::vector<float> bf(b.size());
  for (size_t e = 0; e < b.size(); ++e) bf[e] = static_cast<float>(b[e]);
  const std::vector<float> want = Ref(a.data(), bf.data(), nullptr, M, N, K);
  std::vector<float> ws(static_cast<size_t>(M) * N), c(static_cast<size_t>(M) * N, -1.0f);
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIV;
  auto run = [&](uint32_t mode) {
    args.mode = mode;
    std::fill(c.begin(), c.end(), -1.0f);
    return r.Run<&AsyncKernel>(1, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                               reinterpret_cast<GM_ADDR>(ws.data()), reinterpret_cast<GM_ADDR>(c.data()), args);
  };
  ASSERT_EQ(run(0), 0) << r.FirstError();
  // packed blocks in iterate order (M first): block q = (mi, ni) with mi = q % 2, ni = q / 2
  for (int q = 0; q < 6; ++q) {
    const int mi = q % 2, ni = q / 2;
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) {
        ASSERT_EQ(c[static_cast<size_t>(q) * bm * bn + i * bn + j], want[static_cast<size_t>(mi * bm + i) * N + ni * bn + j])
            << q << " " << i << "," << j;
      }
    }
  }
  ASSERT_EQ(run(1), 0) << r.FirstError();
  EXPECT_EQ(std::memcmp(c.data(), want.data(), c.size() * sizeof(float)), 0);
  EXPECT_EQ(run(2), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Matmul::Iterate<false>: SetWorkspace must be called first"), std::string::npos) << r.FirstError();
  EXPECT_EQ(run(3), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Matmul::GetTensorC<false>: no asynchronously computed block is left (call Iterate<false> first; it computes 6 blocks)"),
            std::string::npos)
      << r.FirstError();
}

}  // namespace
