// In-process tests of the basic cube API (LoadData, Mmad, Fixpipe, the
// cube formats) and the mixed-kernel sub-cores (CrossCoreSetFlag/WaitFlag),
// driven through RunBlock with the model harness. Results are compared byte
// for byte with a reference that accumulates in the documented order (k
// ascending, one fp32 rounding per addition); rule violations with their
// messages. The numpy-golden .asc programs are in project/.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../ascendc_model/harness.h"
#include "cube_kernels.h"

namespace {

using cube_test::MmArgs;

template <typename AT, typename LT, typename CT>
void MmKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, MmArgs t) {
  cube_test::CubeMatmul<AT, LT, CT>(a, b, bias, c, t);
}

float Tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x0fffu + ((u >> 13) & 1u);
  u &= ~0x1fffu;
  std::memcpy(&x, &u, 4);
  return x;
}

template <typename AT>
std::vector<AT> Random(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::vector<AT> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral<AT>::value) {
      x = static_cast<AT>(static_cast<int>(g() % 256) - (std::is_signed<AT>::value ? 128 : 0));
    } else {
      x = static_cast<AT>(std::uniform_real_distribution<float>(-2.0f, 2.0f)(g));
    }
  }
  return v;
}

template <typename AT, typename LT>
std::vector<LT> Reference(const std::vector<AT>& a, const std::vector<AT>& b, const std::vector<LT>& bias, const MmArgs& t) {
  std::vector<LT> c(static_cast<size_t>(t.m) * t.n);
  for (uint32_t i = 0; i < t.m; ++i) {
    for (uint32_t j = 0; j < t.n; ++j) {
      LT acc = t.bias ? bias[j] : LT{};
      for (uint32_t k = 0; k < t.k; ++k) {
        const AT av = a[static_cast<size_t>(i) * t.k + k];
        const AT bv = t.b_trans ? b[static_cast<size_t>(j) * t.k + k] : b[static_cast<size_t>(k) * t.n + j];
        if constexpr (std::is_integral<LT>::value) {
          acc = static_cast<LT>(static_cast<uint32_t>(acc) + static_cast<uint32_t>(int32_t(av) * int32_t(bv)));
        } else if constexpr (std::is_same<AT, float>::value) {
          const float prod = t.hf32 ? Tf32(av) * Tf32(bv) : av * bv;
          acc = acc + prod;
        } else {
          acc = acc + static_cast<float>(av) * static_cast<float>(bv);
        }
      }
      c[static_cast<size_t>(i) * t.n + j] = acc;
    }
  }
  return c;
}

template <typename AT, typename LT, typename CT>
std::string RunMm(const MmArgs& t, std::vector<CT>* out, std::vector<LT>* ref_acc, uint32_t seed = 1) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  std::vector<AT> a = Random<AT>(static_cast<size_t>(t.m) * t.k, seed);
  std::vector<AT> b = Random<AT>(static_cast<size_t>(t.k) * t.n, seed + 1);
  std::vector<LT> bias(t.n);
  for (uint32_t j = 0; j < t.n; ++j) bias[j] = static_cast<LT>(static_cast<int>(j % 7) - 3);
  out->assign(static_cast<size_t>(t.m) * t.n, CT{});
  const int rc = r.Run<&MmKernel<AT, LT, CT>>(1, reinterpret_cast<GM_ADDR>(a.data()), reinterpret_cast<GM_ADDR>(b.data()),
                                             reinterpret_cast<GM_ADDR>(bias.data()), reinterpret_cast<GM_ADDR>(out->data()), t);
  *ref_acc = Reference<AT, LT>(a, b, bias, t);
  return rc == 0 ? std::string() : r.FirstError();
}

template <typename T>
bool SameBytes(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

TEST(CubeBasic, HalfToFloatBitExact) {
  for (MmArgs t : {MmArgs{32, 48, 64, 0, 1, 0, 0, 1.0f, 0}, MmArgs{17, 20, 40, 0, 1, 0, 0, 1.0f, 0},
                   MmArgs{64, 64, 256, 0, 4, 0, 0, 1.0f, 0}, MmArgs{16, 32, 48, 1, 3, 0, 0, 1.0f, 0},
                   MmArgs{40, 24, 32, 0, 1, 0, 0, 1.0f, 1}, MmArgs{33, 18, 80, 0, 1, 1, 0, 1.0f, 1}}) {
    std::vector<float> c, ref;
    ASSERT_EQ((RunMm<half, float, float>(t, &c, &ref)), "") << t.m << "x" << t.n << "x" << t.k;
    if (t.relu) {
      for (float& v : ref) v = v < 0 ? 0.0f : v;
    }
    EXPECT_TRUE(SameBytes(c, ref)) << t.m << "x" << t.n << "x" << t.k << " split " << t.split_k;
  }
}

TEST(CubeBasic, Bf16AndTf32BitExact) {
  std::vector<float> c, ref;
  MmArgs t{32, 32, 64, 0, 2, 0, 0, 1.0f, 1};
  ASSERT_EQ((RunMm<bfloat16_t, float, float>(t, &c, &ref)), "");
  EXPECT_TRUE(SameBytes(c, ref));
  MmArgs f{24, 16, 40, 1, 1, 0, 0, 1.0f, 0, 0};
  ASSERT_EQ((RunMm<float, float, float>(f, &c, &ref)), "");
  EXPECT_TRUE(SameBytes(c, ref));
  MmArgs h{24, 16, 40, 1, 2, 0, 0, 1.0f, 1, 1};  // HF32 mode
  std::vector<float> c2, ref2;
  ASSERT_EQ((RunMm<float, float, float>(h, &c2, &ref2)), "");
  EXPECT_TRUE(SameBytes(c2, ref2));
  EXPECT_FALSE(SameBytes(c, c2));
}

TEST(CubeBasic, Int8ToInt32Exact) {
  for (MmArgs t : {MmArgs{32, 32, 64, 0, 1, 0, 0, 1.0f, 0}, MmArgs{20, 40, 70, 0, 1, 0, 0, 1.0f, 1},
                   MmArgs{16, 48, 96, 1, 3, 0, 0, 1.0f, 0}}) {
    std::vector<int32_t> c, ref;
    ASSERT_EQ((RunMm<int8_t, int32_t, int32_t>(t, &c, &ref)), "") << t.m << "x" << t.n << "x" << t.k;
    EXPECT_TRUE(SameBytes(c, ref)) << t.m << "x" << t.n << "x" << t.k;
  }
}

TEST(CubeFixpipe, QuantModes) {
  // float -> half (F322F16) with ReLU
  {
    MmArgs t{32, 32, 32, 0, 1, 1, F322F16, 1.0f, 0};
    std::vector<half> c;
    std::vector<float> ref;
    ASSERT_EQ((RunMm<half, float, half>(t, &c, &ref)), "");
    for (size_t i = 0; i < c.size(); ++i) {
      const half want = half(ref[i] < 0 ? 0.0f : ref[i]);
      ASSERT_EQ(c[i].val, want.val) << i;
    }
  }
  // int32 -> half (DEQF16, scale 0.25)
  {
    MmArgs t{16, 32, 64, 0, 1, 0, DEQF16, 0.25f, 0};
    std::vector<half> c;
    std::vector<int32_t> ref;
    ASSERT_EQ((RunMm<int8_t, int32_t, half>(t, &c, &ref)), "");
    for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i].val, half(static_cast<float>(ref[i]) * 0.25f).val) << i;
  }
  // int32 -> int8 (REQ8, scale 1/64, saturating)
  {
    MmArgs t{16, 32, 64, 0, 1, 0, REQ8, 1.0f / 64, 0};
    std::vector<int8_t> c;
    std::vector<int32_t> ref;
    ASSERT_EQ((RunMm<int8_t, int32_t, int8_t>(t, &c, &ref)), "");
    for (size_t i = 0; i < c.size(); ++i) {
      float v = std::nearbyint(static_cast<float>(ref[i]) / 64.0f);
      v = v > 127 ? 127 : (v < -128 ? -128 : v);
      ASSERT_EQ(c[i], static_cast<int8_t>(v)) << i;
    }
  }
  // a mode that does not fit the types fails with a message
  {
    MmArgs t{16, 16, 16, 0, 1, 0, REQ8, 1.0f, 0};
    std::vector<half> c;
    std::vector<float> ref;
    const std::string e = RunMm<half, float, half>(t, &c, &ref);
    EXPECT_NE(e.find("Fixpipe: quantPre 7 does not convert a 4-byte float accumulator"), std::string::npos) << e;
  }
}

// int4 x int4 -> int32 from L0A/L0B filled element by element (one fractal
// each: A 16 x 64 row-major, B 64 x 16 column-major), then Fixpipe in NZ.
void Int4Kernel(GM_ADDR out) {
  using namespace AscendC;
  LocalTensor<int4b_t> a(TPosition::A2, 0, 1024);
  LocalTensor<int4b_t> b(TPosition::B2, 0, 1024);
  LocalTensor<int32_t> c(TPosition::CO1, 0, 256);
  for (int i = 0; i < 16; ++i) {
    for (int k = 0; k < 64; ++k) a.SetValue(i * 64 + k, int4b_t((i * 3 + k) % 16 - 8));
  }
  for (int k = 0; k < 64; ++k) {
    for (int j = 0; j < 16; ++j) b.SetValue(j * 64 + k, int4b_t((k * 5 + j * 7) % 16 - 8));
  }
  Mmad(c, a, b, MmadParams(16, 16, 64, false, 0, false, false, false));
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 256);
  Fixpipe<int32_t, int32_t, CFG_NZ>(g, c, FixpipeParamsV220(16, 16, 16, 16, false));
}

TEST(CubeBasic, Int4AndNzOutput) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  std::vector<int32_t> out(256, -1);
  ASSERT_EQ(r.Run<&Int4Kernel>(1, reinterpret_cast<GM_ADDR>(out.data())), 0) << r.FirstError();
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      int32_t acc = 0;
      for (int k = 0; k < 64; ++k) acc += ((i * 3 + k) % 16 - 8) * ((k * 5 + j * 7) % 16 - 8);
      ASSERT_EQ(out[i * 16 + j], acc) << i << "," << j;  // one 16 x 16 NZ fractal is row-major
    }
  }
}

// ---- rules
void WrongPosition(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> a(TPosition::A1, 0, 256);
  LocalTensor<half> b(TPosition::B2, 0, 256);
  LocalTensor<float> c(TPosition::CO1, 0, 256);
  Mmad(c, a, b, MmadParams(16, 16, 16, false, 0, false, false, false));
}
void TooSmall(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> a(TPosition::A2, 0, 256);
  LocalTensor<half> b(TPosition::B2, 0, 256);
  LocalTensor<float> c(TPosition::CO1, 0, 256);
  Mmad(c, a, b, MmadParams(16, 16, 32, false, 0, false, false, false));
}
void L0AOverflow(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> a(TPosition::A2, 65536 - 512, 512);
  (void)a;
}
void Unaligned(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> a1(TPosition::A1, 0, 1024);
  LocalTensor<half> a2(TPosition::A2, 0, 1024);
  LoadData(a2[16], a1, LoadData2DParams(0, 1, 0, 0, 0, false, 0));
}

template <auto Fn>
std::string Fails() {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  const int rc = r.Run<Fn>(1, static_cast<GM_ADDR>(nullptr));
  EXPECT_EQ(rc, SIMNPU_BLOCK_CHECK_FAILED);
  return r.FirstError();
}

TEST(CubeRules, Messages) {
  EXPECT_NE(Fails<&WrongPosition>().find("Mmad: fm (A matrix) is in position A1 (L1 buffer); it must be in the L0A buffer"),
            std::string::npos);
  EXPECT_NE(Fails<&TooSmall>().find("Mmad: fm (A matrix) needs 1024 bytes but the LocalTensor has 512 bytes"),
            std::string::npos);
  EXPECT_NE(Fails<&L0AOverflow>().find("overflow the L0A buffer (65536 bytes)"), std::string::npos);
  EXPECT_NE(Fails<&Unaligned>().find("LoadData(LoadData2DParams): the destination starts at byte 32 of the L0A buffer, which is not 512-byte aligned"),
            std::string::npos);
}

// ---- mixed kernels: sub-cores and cross-core flags
void MixKernel(GM_ADDR out) {
  using namespace AscendC;
  __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
  const int64_t blk = GetBlockIdx();
  if ASCEND_IS_AIC {
    o[blk * 4 + 0] = 100 + static_cast<int32_t>(blk);  // "cube result"
    CrossCoreSetFlag<2, PIPE_FIX>(3);
    CrossCoreWaitFlag(4);  // both AIVs done
    o[blk * 4 + 3] = o[blk * 4 + 1] + o[blk * 4 + 2];
  } else {
    CrossCoreWaitFlag(3);
    const int64_t sub = GetSubBlockIdx();
    o[(blk / 2) * 4 + 1 + sub] = o[(blk / 2) * 4] * 10 + static_cast<int32_t>(sub) + (GetTaskRation() == 2 ? 0 : 1000);
    CrossCoreSetFlag<1, PIPE_MTE3>(5);
    CrossCoreWaitFlag(5);  // both AIVs reached here
    CrossCoreSetFlag<2, PIPE_MTE3>(4);
  }
}

TEST(Mix, SubCoresAndFlags) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_MIX;
  std::vector<int32_t> out(4 * 4, -1);
  ASSERT_EQ(r.Run<&MixKernel>(4, reinterpret_cast<GM_ADDR>(out.data())), 0) << r.FirstError();
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(out[b * 4 + 0], 100 + b);
    EXPECT_EQ(out[b * 4 + 1], (100 + b) * 10);
    EXPECT_EQ(out[b * 4 + 2], (100 + b) * 10 + 1);
    EXPECT_EQ(out[b * 4 + 3], 2 * (100 + b) * 10 + 1);
  }
}

void MixHang(GM_ADDR) {
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(7);  // nobody sets it
  }
}
void NotMix(GM_ADDR) { AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(1); }

TEST(Mix, HangAndMisuse) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_MIX;
  EXPECT_EQ(r.Run<&MixHang>(1, static_cast<GM_ADDR>(nullptr)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("CrossCoreWaitFlag(7) on the AIV"), std::string::npos) << r.FirstError();
  EXPECT_NE(r.FirstError().find("would wait forever"), std::string::npos);
  r.core_type = SIMNPU_KERNEL_AIV;
  EXPECT_EQ(r.Run<&NotMix>(1, static_cast<GM_ADDR>(nullptr)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("CrossCoreSetFlag<2>(1) in a block of an AIV kernel"), std::string::npos) << r.FirstError();
}

// ---- cross-core mode 0 (one block: the barrier over the launch is the
// block's own cores; several blocks: project/cross_mode0.asc)
void Mode0Mix(GM_ADDR out) {
  using namespace AscendC;
  __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
  if ASCEND_IS_AIV {
    const int64_t sub = GetSubBlockIdx();
    o[sub] = 10 + static_cast<int32_t>(sub);
    CrossCoreSetFlag<0, PIPE_MTE3>(6);  // returns once both AIVs have set it
    CrossCoreWaitFlag(6);
    o[2 + sub] = o[1 - sub];  // the other AIV's write before its set
  }
}
void Mode0Aiv(GM_ADDR out) {
  using namespace AscendC;
  __gm__ int32_t* o = reinterpret_cast<__gm__ int32_t*>(out);
  CrossCoreSetFlag<0, PIPE_MTE3>(2);
  CrossCoreSetFlag<0, PIPE_MTE3>(2);
  CrossCoreWaitFlag(2);
  CrossCoreWaitFlag(2);
  o[0] = 1;
  CrossCoreWaitFlag(2);  // no set left
  o[0] = 2;
}
void Mode0BothTypes(GM_ADDR) {
  using namespace AscendC;
  if ASCEND_IS_AIV {
    CrossCoreSetFlag<0, PIPE_MTE3>(1);
    CrossCoreWaitFlag(1);
    CrossCoreSetFlag<2, PIPE_MTE3>(2);
  } else {
    CrossCoreWaitFlag(2);
    CrossCoreSetFlag<0, PIPE_FIX>(1);
  }
}
void Mode0Lonely(GM_ADDR) {
  using namespace AscendC;
  if ASCEND_IS_AIV {
    if (GetSubBlockIdx() == 0) CrossCoreSetFlag<0, PIPE_MTE3>(9);
  }
}

TEST(Mix, Mode0AllCoresOfAType) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_MIX;
  std::vector<int32_t> out(4, -1);
  ASSERT_EQ(r.Run<&Mode0Mix>(1, reinterpret_cast<GM_ADDR>(out.data())), 0) << r.FirstError();
  EXPECT_EQ(out, (std::vector<int32_t>{10, 11, 11, 10}));
  r.core_type = SIMNPU_KERNEL_AIV;
  EXPECT_EQ(r.Run<&Mode0Aiv>(1, reinterpret_cast<GM_ADDR>(out.data())), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_EQ(out[0], 1);
  EXPECT_NE(r.FirstError().find("CrossCoreWaitFlag(2) on the AIV would wait forever: outside a MIX kernel only the core's own "
                                "CrossCoreSetFlag<0>(2) can count on it"),
            std::string::npos)
      << r.FirstError();
  r.core_type = SIMNPU_KERNEL_MIX;
  EXPECT_EQ(r.Run<&Mode0BothTypes>(1, static_cast<GM_ADDR>(nullptr)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("CrossCoreSetFlag<0>(1): the AIC and the AIVs of a MIX kernel both use mode 0"), std::string::npos)
      << r.FirstError();
  EXPECT_EQ(r.Run<&Mode0Lonely>(1, static_cast<GM_ADDR>(nullptr)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("CrossCoreSetFlag<0>(9) on AIV 0 would wait forever"), std::string::npos) << r.FirstError();
}

// ---- Fixpipe with ndNum > 1: two 16 x 24 NZ matrices in L0C (each two
// fractal columns of 16 rows, srcStride 16), 2048 bytes apart, written to
// GM as ND matrices 520 elements apart with rows of 32 elements.
void FixpipeNdKernel(GM_ADDR out) {
  using namespace AscendC;
  LocalTensor<float> c(TPosition::CO1, 0, 2 * 512);
  for (int nd = 0; nd < 2; ++nd) {
    for (int r = 0; r < 16; ++r) {
      for (int col = 0; col < 32; ++col) {
        c.SetValue(nd * 512 + (col / 16) * 256 + r * 16 + col % 16, static_cast<float>(nd * 1000 + r * 32 + col));
      }
    }
  }
  GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out), 1040);
  FixpipeParamsV220 p(24, 16, 16, 32, false);
  p.quantPre = F322F16;
  p.ndNum = 2;
  p.srcNdStride = 2;  // 2 x 1024 bytes = 512 floats
  p.dstNdStride = 520;
  Fixpipe<half, float, CFG_ROW_MAJOR>(g, c, p);
}
void FixpipeNdNz(GM_ADDR out) {
  using namespace AscendC;
  LocalTensor<float> c(TPosition::CO1, 0, 512);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 512);
  FixpipeParamsV220 p(16, 16, 16, 16, false);
  p.ndNum = 2;
  p.srcNdStride = 1;
  p.dstNdStride = 256;
  Fixpipe<float, float, CFG_NZ>(g, c, p);
}
void FixpipeNdZeroStride(GM_ADDR out) {
  using namespace AscendC;
  LocalTensor<float> c(TPosition::CO1, 0, 512);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 512);
  FixpipeParamsV220 p(16, 16, 16, 16, false);
  p.ndNum = 3;
  p.srcNdStride = 0;
  p.dstNdStride = 256;
  Fixpipe<float, float>(g, c, p);
}

TEST(CubeFixpipe, NdNumMatrices) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  std::vector<half> out(1040, half(-1.0f));
  ASSERT_EQ(r.Run<&FixpipeNdKernel>(1, reinterpret_cast<GM_ADDR>(out.data())), 0) << r.FirstError();
  for (int i = 0; i < 1040; ++i) {
    const int nd = i / 520, rem = i % 520, row = rem / 32, col = rem % 32;
    const bool written = row < 16 && col < 24;
    const float want = written ? static_cast<float>(nd * 1000 + row * 32 + col) : -1.0f;
    ASSERT_EQ(out[i].val, half(want).val) << i;
  }
  std::vector<float> buf(512);
  EXPECT_EQ(r.Run<&FixpipeNdNz>(1, reinterpret_cast<GM_ADDR>(buf.data())), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Fixpipe: ndNum 2 > 1 needs the NZ -> ND conversion (CFG_ROW_MAJOR)"), std::string::npos)
      << r.FirstError();
  EXPECT_EQ(r.Run<&FixpipeNdZeroStride>(1, reinterpret_cast<GM_ADDR>(buf.data())), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("Fixpipe: srcNdStride 0 out of range [1, 512] (units of 1024 bytes) with ndNum 3"),
            std::string::npos)
      << r.FirstError();
}

}  // namespace
