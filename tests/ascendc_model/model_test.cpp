// Ascend C model: kernels driven through RunBlock with a fake services table.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "ascendc_model/harness.h"
#include "ascendc_model/kernels.h"

using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

float HalfToF(uint16_t h) { return static_cast<float>(static_cast<_Float16>(__builtin_bit_cast(_Float16, h))); }
uint16_t FToHalf(float f) { return __builtin_bit_cast(uint16_t, static_cast<_Float16>(f)); }
GM_ADDR G(void* p) { return static_cast<GM_ADDR>(p); }

struct AddCase {
  uint32_t total;
  uint32_t tile;
  int64_t blocks;
};

class AscModelVectorAdd : public ::testing::TestWithParam<AddCase> {};

TEST_P(AscModelVectorAdd, HalfMatchesFloatThenRound) {
  const AddCase c = GetParam();
  std::mt19937 rng(c.total + c.tile);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<uint16_t> x(c.total), y(c.total), z(c.total, 0xffff);
  for (uint32_t i = 0; i < c.total; ++i) {
    x[i] = FToHalf(dist(rng));
    y[i] = FToHalf(dist(rng));
  }
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<vadd_half>(c.blocks, G(x.data()), G(y.data()), G(z.data()), c.total, c.tile), 0) << r.FirstError();
  for (uint32_t i = 0; i < c.total; ++i) {
    ASSERT_EQ(z[i], FToHalf(HalfToF(x[i]) + HalfToF(y[i]))) << "i=" << i;
  }
  EXPECT_EQ(svc.reads.load(), 0);  // no managed window: direct copies
  EXPECT_TRUE(svc.diags.empty());
}

TEST_P(AscModelVectorAdd, FloatExact) {
  const AddCase c = GetParam();
  std::vector<float> x(c.total), y(c.total), z(c.total, -1.0f);
  for (uint32_t i = 0; i < c.total; ++i) {
    x[i] = static_cast<float>(i) * 0.25f;
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.RunThreads<vadd_float>(2, c.blocks, G(x.data()), G(y.data()), G(z.data()), c.total, c.tile), 0)
      << r.FirstError();
  for (uint32_t i = 0; i < c.total; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << "i=" << i;
  ASSERT_EQ(r.RunThreads<vmul_float>(2, c.blocks, G(x.data()), G(y.data()), G(z.data()), c.total, c.tile), 0);
  for (uint32_t i = 0; i < c.total; ++i) ASSERT_EQ(z[i], x[i] * y[i]) << "i=" << i;
}

INSTANTIATE_TEST_SUITE_P(Tiles, AscModelVectorAdd,
                         ::testing::Values(AddCase{8 * 2048, 128, 8}, AddCase{16384, 64, 1}, AddCase{4096, 16, 4},
                                           AddCase{96 * 1024, 4096, 3}, AddCase{48 * 256, 256, 48},
                                           AddCase{64 * 1008, 1008, 2}));

TEST(AscModelReduce, FloatOrderIsTreeThenSequential) {
  for (uint32_t n : {1u, 7u, 64u, 65u, 200u, 1000u}) {
    std::vector<float> x(1024, 0.0f);
    std::mt19937 rng(n);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (uint32_t i = 0; i < n; ++i) x[i] = dist(rng) * std::ldexp(1.0f, static_cast<int>(i % 20));
    std::vector<float> out(32, 0.0f);
    FakeServices svc;
    Runner r(&svc);
    ASSERT_EQ(r.Run<reduce_float>(1, G(x.data()), G(out.data()), n), 0) << r.FirstError();
    // reference: adjacent-pair tree inside each 64-element repeat, repeats summed in order
    float acc = 0.0f;
    for (uint32_t base = 0; base < n; base += 64) {
      std::vector<float> t(x.begin() + base, x.begin() + std::min(n, base + 64));
      while (t.size() > 1) {
        std::vector<float> u;
        for (size_t i = 0; i + 1 < t.size(); i += 2) u.push_back(t[i] + t[i + 1]);
        if (t.size() % 2) u.push_back(t.back());
        t = u;
      }
      acc = base == 0 ? t[0] : acc + t[0];
    }
    EXPECT_EQ(out[0], acc) << "n=" << n;
    const auto mx = std::max_element(x.begin(), x.begin() + n);
    EXPECT_EQ(out[1], *mx);
    uint32_t idx;
    std::memcpy(&idx, &out[2], 4);
    EXPECT_EQ(idx, static_cast<uint32_t>(mx - x.begin()));
    EXPECT_EQ(out[3], *std::min_element(x.begin(), x.begin() + n));
  }
}

TEST(AscModelReduce, HalfSaturatesLikeTheDocumentedExample) {
  std::vector<uint16_t> x = {FToHalf(60000), FToHalf(60000), FToHalf(-30000), FToHalf(100)};
  x.resize(16, 0);
  std::vector<uint16_t> out(48, 0);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<reduce_half>(1, G(x.data()), G(out.data()), 4u), 0) << r.FirstError();
  // 60000+60000 saturates to 65504; -30000+100 = -29904 in half; 65504-29904 =
  // 35600 ties to 35584 in half (the documentation's 35604 is the exact-value sketch)
  EXPECT_EQ(HalfToF(out[0]), 35584.0f);
  EXPECT_EQ(HalfToF(out[1]), 60000.0f);
  EXPECT_EQ(out[2], 0);  // index of the first max
  EXPECT_EQ(HalfToF(out[3]), -30000.0f);
}

TEST(AscModelReduce, CountZeroIsNoOp) {
  std::vector<float> x(64, 1.0f), out(32, 7.0f);
  FakeServices svc;
  Runner r(&svc);
  // with n = 0 the DataCopy copies nothing and the reductions leave dst alone
  ASSERT_EQ(r.Run<reduce_float>(1, G(x.data()), G(out.data()), 0u), 0) << r.FirstError();
}

TEST(AscModelParams, ScalarIntFloatStructValues) {
  std::vector<double> out(12, -1);
  TilingData t{16384, 8, 0.5f, 3};
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<scalar_params>(1, G(out.data()), int32_t{-7}, 2.5f, half(0.333f), int64_t{1} << 40, uint8_t{200}, true,
                                 TestMode::kB, 1e100, t, bfloat16_t(3.0f)),
            0)
      << r.FirstError();
  EXPECT_EQ(out[0], -7);
  EXPECT_EQ(out[1], 2.5);
  EXPECT_EQ(out[2], static_cast<double>(HalfToF(FToHalf(0.333f))));
  EXPECT_EQ(out[3], std::ldexp(1.0, 40));
  EXPECT_EQ(out[4], 200);
  EXPECT_EQ(out[5], 1);
  EXPECT_EQ(out[6], 7);
  EXPECT_EQ(out[7], 1e100);
  EXPECT_EQ(out[8], 16384);
  EXPECT_EQ(out[9], 8000.5 + 300);
  EXPECT_EQ(out[10], 3.0);
}

TEST(AscModelParams, DescriptorsForEveryKind) {
  using KP = ::simnpu::ascendc::KernelParams<scalar_params>;
  static_assert(KP::count == 11, "11 parameters");
  const simnpu_param_desc* d = KP::descs();
  const simnpu_param_desc expect[] = {
      {8, 8, SIMNPU_PARAM_POINTER}, {4, 4, SIMNPU_PARAM_INT},   {4, 4, SIMNPU_PARAM_FLOAT},
      {2, 2, SIMNPU_PARAM_FLOAT},   {8, 8, SIMNPU_PARAM_INT},   {1, 1, SIMNPU_PARAM_INT},
      {1, 1, SIMNPU_PARAM_INT},     {4, 4, SIMNPU_PARAM_INT},   {8, 8, SIMNPU_PARAM_FLOAT},
      {sizeof(TilingData), alignof(TilingData), SIMNPU_PARAM_STRUCT}, {2, 2, SIMNPU_PARAM_FLOAT}};
  for (int i = 0; i < 11; ++i) {
    EXPECT_EQ(d[i].size, expect[i].size) << i;
    EXPECT_EQ(d[i].align, expect[i].align) << i;
    EXPECT_EQ(d[i].kind, expect[i].kind) << i;
  }
  EXPECT_EQ(::simnpu::ascendc::KernelParams<trap_kernel>::count, 0u);
  EXPECT_EQ(::simnpu::ascendc::KernelParams<vadd_half>::count, 5u);
}

TEST(AscModelPrintf, FormatsAndFlushesOncePerBlock) {
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<print_kernel>(2, int32_t{5}), 0) << r.FirstError();
  ASSERT_EQ(svc.prints.size(), 2u);  // one piece per block
  const std::string expect0 =
      "block 0 of 2: v=5 i=-5 u=42 x=ff\n"
      "ld=-1234567890123 lu=1234567890123 lld=-5 llu=18446744073709551615\n"
      "f=1.500000 half=2.25 bf=3.0 s=str c=Z pct=% w=[    7] p=0x1234\n"
      "legacy 1\n";
  EXPECT_EQ(svc.prints[0], expect0);
  EXPECT_NE(svc.prints[1].find("block 1 of 2"), std::string::npos);
}

TEST(AscModelPrintf, CapsAt32KiBWithNote) {
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<print_flood>(1, uint32_t{2000}), 0);
  ASSERT_EQ(svc.prints.size(), 1u);
  const std::string& s = svc.prints[0];
  EXPECT_GT(s.size(), 32768u);
  EXPECT_LT(s.size(), 32768u + 200u);
  EXPECT_NE(s.find("exceeded 32768 bytes"), std::string::npos);
  EXPECT_EQ(s.compare(0, 10, "line 00000"), 0);
}

TEST(AscModelFailure, TrapFailsBlockAndStillFlushesPrintf) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<trap_kernel>(1), SIMNPU_BLOCK_TRAP);
  EXPECT_EQ(svc.AllPrinted(), "before trap\n");
  const std::string e = r.errors[0];
  EXPECT_EQ(e.rfind("[ERROR][Block_0][AIV_0][kernels.cpp:", 0), 0u) << e;
  EXPECT_NE(e.find("[trap_kernel]"), std::string::npos) << e;
  EXPECT_NE(e.find("trap"), std::string::npos);
}

TEST(AscModelFailure, AssertTraps) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<assert_kernel>(1, int32_t{5}), 0);
  EXPECT_EQ(r.Run<assert_kernel>(1, int32_t{0}), SIMNPU_BLOCK_TRAP);
  EXPECT_NE(r.errors[0].find("v > 0"), std::string::npos) << r.errors[0];
  EXPECT_EQ(r.Run<assert_kernel>(1, int32_t{500}), SIMNPU_BLOCK_TRAP);
  EXPECT_NE(svc.AllPrinted().find("v is 500"), std::string::npos) << svc.AllPrinted();
}

TEST(AscModelFailure, UnexpectedExceptionIsCaught) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<throw_kernel>(1), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("exception"), std::string::npos);
}

TEST(AscModelFailure, UbOverflow) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<ub_overflow>(1, uint32_t{196608}, uint32_t{1}), 0) << r.FirstError();  // exactly the UB
  EXPECT_EQ(r.Run<ub_overflow>(1, uint32_t{196600}, uint32_t{1}), 0) << r.FirstError();  // rounds up to 196608
  EXPECT_EQ(r.Run<ub_overflow>(1, uint32_t{98305}, uint32_t{2}), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("overflow"), std::string::npos) << r.errors[0];
  EXPECT_EQ(r.Run<ub_overflow>(1, uint32_t{64}, uint32_t{65}), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("out of range"), std::string::npos) << r.errors[0];
}

TEST(AscModelDataCopy, RoundsDownTo32BytesWithOneDiagnosticPerSite) {
  std::vector<float> x(1024), y(1024, -1.0f);
  std::iota(x.begin(), x.end(), 1.0f);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<copy_count>(3, G(x.data()), G(y.data()), uint32_t{13}), 0) << r.FirstError();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[i], x[i]);  // 52 bytes -> 32 bytes
  for (int i = 8; i < 16; ++i) EXPECT_EQ(y[i], -1.0f);
  // two call sites (GM->UB and UB->GM), each reported once despite 3 blocks
  ASSERT_EQ(svc.diags.size(), 2u);
  EXPECT_EQ(svc.diags[0].first, 2);
  EXPECT_NE(svc.diags[0].second.find("only 32 bytes"), std::string::npos) << svc.diags[0].second;
  EXPECT_NE(svc.diags[0].second.find("[WARNING][Block_0][AIV_0][kernels.cpp:"), std::string::npos);
  // 7 floats = 28 bytes -> nothing at all; same sites, no new diagnostics
  std::fill(y.begin(), y.end(), -1.0f);
  ASSERT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{7}), 0);
  EXPECT_EQ(y[0], -1.0f);
  EXPECT_EQ(svc.diags.size(), 2u);
  // aligned counts are copied fully
  ASSERT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{1024}), 0);
  EXPECT_EQ(x, y);
}

TEST(AscModelDataCopy, StrictModeFails) {
  std::vector<float> x(1024), y(1024);
  FakeServices svc;
  Runner r(&svc);
  r.flags = SIMNPU_ENV_FLAG_STRICT_DATACOPY;
  EXPECT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{13}), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("not a multiple of 32"), std::string::npos) << r.errors[0];
  EXPECT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{16}), 0);
}

TEST(AscModelDataCopy, LocalTensorTooSmallFails) {
  std::vector<float> x(1024);
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<copy_too_small>(1, G(x.data())), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("do not fit"), std::string::npos) << r.errors[0];
}

TEST(AscModelDataCopy, StridedFormsMoveEveryBlock) {
  struct Case {
    uint32_t cnt, len, src, gap, dst;
  } cases[] = {{3, 2, 1, 2, 3}, {4, 1, 0, 0, 0}, {5, 3, 2, 0, 0}, {1, 4, 7, 7, 7}, {6, 2, 0, 1, 0}, {0, 2, 1, 1, 1},
               {2, 0, 1, 1, 1}, {64, 1, 0, 1, 0}};
  std::vector<float> x(8192);
  std::iota(x.begin(), x.end(), 1.0f);
  for (const Case& c : cases) {
    std::vector<float> y(8192, -1.0f), want(8192, -1.0f);
    for (uint32_t i = 0; i < c.cnt; ++i) {
      for (uint32_t j = 0; j < c.len * 8; ++j) want[i * (c.len + c.dst) * 8 + j] = x[i * (c.len + c.src) * 8 + j];
    }
    FakeServices svc;
    Runner r(&svc);
    ASSERT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), c.cnt, c.len, c.src, c.gap, c.dst), 0)
        << c.cnt << "x" << c.len << " " << r.FirstError();
    EXPECT_EQ(y, want) << c.cnt << "x" << c.len << " strides " << c.src << "/" << c.gap << "/" << c.dst;
  }
}

TEST(AscModelDataCopy, StridedLocalTooSmallFails) {
  std::vector<float> x(8192), y(8192);
  FakeServices svc;
  Runner r(&svc);
  // 63 * 9 * 32 + 256 = 18400 bytes into the 16 KiB buffer a
  EXPECT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 64u, 8u, 0u, 1u, 0u), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("DataCopy GM->UB destination"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("do not fit"), std::string::npos) << r.errors[0];
  // 40 blocks of 256 bytes fit a (16 KiB) but not b (8 KiB)
  EXPECT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 40u, 8u, 0u, 0u, 0u), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("DataCopy UB->UB destination"), std::string::npos) << r.errors[0];
  // exactly b
  EXPECT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 32u, 8u, 0u, 0u, 0u), 0) << r.FirstError();
}

TEST(AscModelDataCopy, UnalignedSitesReportOnceEachAcrossThreads) {
  std::vector<float> x(64, 1.0f);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.RunThreads<unaligned_sites>(4, 64, G(x.data())), 0) << r.FirstError();
  ASSERT_EQ(r.RunThreads<unaligned_sites>(3, 16, G(x.data())), 0) << r.FirstError();
  ASSERT_EQ(svc.diags.size(), 12u);  // twelve sites, each reported once
  std::set<std::string> lines;
  for (const auto& d : svc.diags) {
    const size_t at = d.second.find("[kernels.cpp:");
    ASSERT_NE(at, std::string::npos) << d.second;
    lines.insert(d.second.substr(at, d.second.find(']', at) - at));
  }
  EXPECT_EQ(lines.size(), 12u);
}

TEST(AscModelQueue, MisuseFailsWithDiagnostic) {
  FakeServices svc;
  Runner r(&svc);
  const char* expect[] = {"DeQue on an empty", "no free buffer", "too many outstanding", "double free",
                          "TPipe::InitBuffer was not called"};
  for (int which = 0; which < 5; ++which) {
    EXPECT_EQ(r.Run<queue_misuse>(1, int32_t{which}), SIMNPU_BLOCK_CHECK_FAILED) << which;
    EXPECT_NE(r.errors[0].find(expect[which]), std::string::npos) << r.errors[0];
  }
  EXPECT_EQ(r.Run<queue_misuse>(1, int32_t{5}), 0) << r.FirstError();
}

TEST(AscModelSync, SetFlagWaitFlagPairing) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<flag_kernel>(1, int32_t{0}), 0) << r.FirstError();
  EXPECT_TRUE(svc.diags.empty());
  EXPECT_EQ(r.Run<flag_kernel>(1, int32_t{1}), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.errors[0].find("WaitFlag<V_MTE3>(0) without a matching SetFlag"), std::string::npos) << r.errors[0];
  EXPECT_EQ(r.Run<flag_kernel>(1, int32_t{2}), 0);
  ASSERT_EQ(svc.diags.size(), 1u);
  EXPECT_NE(svc.diags[0].second.find("SetFlag<S_MTE3>(3)"), std::string::npos) << svc.diags[0].second;
  EXPECT_EQ(r.Run<flag_kernel>(1, int32_t{3}), 0) << r.FirstError();
}

TEST(AscModelManaged, WindowAddressesGoThroughServices) {
  const uint32_t total = 4096, tile = 256;
  std::vector<float> x(total, 1.5f), y(total, 2.0f), z(total, 0.0f);
  FakeServices svc;
  Runner r(&svc);
  // the window covers x and z only
  r.managed_base = reinterpret_cast<uintptr_t>(x.data());
  r.managed_size = total * sizeof(float);
  ASSERT_EQ(r.Run<vadd_float>(4, G(x.data()), G(y.data()), G(z.data()), total, tile), 0) << r.FirstError();
  for (float v : z) ASSERT_EQ(v, 3.5f);
  EXPECT_EQ(svc.reads.load(), static_cast<int>(total / tile));  // x tiles only
  EXPECT_EQ(svc.read_bytes.load(), total * sizeof(float));
  EXPECT_EQ(svc.writes.load(), 0);
  r.managed_base = reinterpret_cast<uintptr_t>(z.data());
  svc.reads = 0;
  ASSERT_EQ(r.Run<vadd_float>(4, G(x.data()), G(y.data()), G(z.data()), total, tile), 0);
  EXPECT_EQ(svc.reads.load(), 0);
  EXPECT_EQ(svc.writes.load(), static_cast<int>(total / tile));
  // scalar GetValue/SetValue
  svc.reads = 0;
  svc.writes = 0;
  r.managed_base = reinterpret_cast<uintptr_t>(x.data());
  ASSERT_EQ(r.Run<scalar_gm>(1, G(x.data()), G(y.data()), uint32_t{10}), 0);
  EXPECT_EQ(svc.reads.load(), 10);
  EXPECT_EQ(svc.writes.load(), 0);
  EXPECT_EQ(y[9], 3.0f);
}

TEST(AscModelManaged, CopyStraddlingTheWindowIsSplit) {
  std::vector<float> x(1024), y(1024, 0.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  FakeServices svc;
  Runner r(&svc);
  r.managed_base = reinterpret_cast<uintptr_t>(x.data() + 100);
  r.managed_size = 50 * sizeof(float);
  ASSERT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{1024}), 0);
  EXPECT_EQ(x, y);
  EXPECT_EQ(svc.reads.load(), 1);
  EXPECT_EQ(svc.read_bytes.load(), 50 * sizeof(float));
}

TEST(AscModelManaged, StridedCopyWithoutGapsIsOneServiceCall) {
  std::vector<float> x(8192), y(8192, 0.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  FakeServices svc;
  Runner r(&svc);
  r.managed_base = reinterpret_cast<uintptr_t>(x.data());
  r.managed_size = x.size() * sizeof(float);
  // 16 blocks back to back: one gm_read of the whole range
  ASSERT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 16u, 2u, 0u, 0u, 0u), 0) << r.FirstError();
  EXPECT_EQ(svc.reads.load(), 1);
  EXPECT_EQ(svc.read_bytes.load(), 16u * 64u);
  EXPECT_TRUE(std::equal(y.begin(), y.begin() + 16 * 16, x.begin()));
  // with a source stride: one read per block
  svc.reads = 0;
  svc.read_bytes = 0;
  ASSERT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 16u, 2u, 1u, 0u, 0u), 0) << r.FirstError();
  EXPECT_EQ(svc.reads.load(), 16);
  EXPECT_EQ(svc.read_bytes.load(), 16u * 64u);
  // the same for writes
  r.managed_base = reinterpret_cast<uintptr_t>(y.data());
  ASSERT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 16u, 2u, 0u, 0u, 0u), 0) << r.FirstError();
  EXPECT_EQ(svc.writes.load(), 1);
  EXPECT_EQ(svc.write_bytes.load(), 16u * 64u);
  ASSERT_EQ(r.Run<strided_copy>(1, G(x.data()), G(y.data()), 16u, 2u, 0u, 0u, 2u), 0) << r.FirstError();
  EXPECT_EQ(svc.writes.load(), 1 + 16);
}

TEST(AscModelManaged, FaultFailsTheBlock) {
  std::vector<float> x(1024), y(1024);
  FakeServices svc;
  svc.fail_rc = 507015;
  Runner r(&svc);
  r.managed_base = reinterpret_cast<uintptr_t>(x.data());
  r.managed_size = x.size() * sizeof(float);
  EXPECT_EQ(r.Run<copy_count>(1, G(x.data()), G(y.data()), uint32_t{64}), SIMNPU_BLOCK_GM_FAULT);
  EXPECT_NE(r.errors[0].find("507015"), std::string::npos) << r.errors[0];
}

TEST(AscModelVectorOps, FloatOpsMatchScalarReference) {
  const uint32_t n = 200;
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = (static_cast<float>(i) - 60.0f) * 0.37f;
  const float s = 1.75f;
  for (int op = 0; op <= 16; ++op) {
    std::vector<float> y(n, 12345.0f);
    FakeServices svc;
    Runner r(&svc);
    ASSERT_EQ(r.Run<unary_float>(1, G(x.data()), G(y.data()), n, int32_t{op}, s), 0) << op << r.FirstError();
    const uint32_t m = (op >= 9 && op <= 12) ? n - 8 : n;
    for (uint32_t i = 0; i < m; ++i) {
      const float a = x[i];
      const float b = i + 8 < n ? x[i + 8] : 0.0f;
      float e = 0;
      switch (op) {
        case 0: e = std::exp(a); break;
        case 1: e = std::log(a); break;
        case 2: e = std::fabs(a); break;
        case 3: e = std::sqrt(a); break;
        case 4: e = a > 0 ? a : 0; break;
        case 5: e = a + s; break;
        case 6: e = a * s; break;
        case 7: e = a > s ? a : s; break;
        case 8: e = a < s ? a : s; break;
        case 9: e = a - b; break;
        case 10: e = a / b; break;
        case 11: e = a > b ? a : b; break;
        case 12: e = a < b ? a : b; break;
        case 13: e = s; break;
        case 14: e = 1.0f / a; break;
        case 15: e = 1.0f / std::sqrt(a); break;
        case 16: e = a >= 0 ? a : a * s; break;
      }
      if (std::isnan(e)) {
        ASSERT_TRUE(std::isnan(y[i])) << op << " " << i;
      } else {
        ASSERT_EQ(y[i], e) << "op " << op << " i " << i;
      }
    }
  }
}

TEST(AscModelVectorOps, HalfOpsAreFloatThenRoundOnce) {
  const uint32_t n = 256;
  std::vector<uint16_t> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = FToHalf((static_cast<float>(i) - 100.0f) * 0.73f);
  const float s = 1.75f;
  for (int op = 0; op <= 16; ++op) {
    std::vector<uint16_t> y(n, 0x7777);
    FakeServices svc;
    Runner r(&svc);
    ASSERT_EQ(r.Run<unary_half>(1, G(x.data()), G(y.data()), n, int32_t{op}, s), 0) << op << r.FirstError();
    const uint32_t m = (op >= 9 && op <= 12) ? n - 16 : n;
    for (uint32_t i = 0; i < m; ++i) {
      const float a = HalfToF(x[i]);
      const float b = HalfToF(x[i + 16 < n ? i + 16 : i]);
      float e = 0;
      switch (op) {
        case 0: e = std::exp(a); break;
        case 1: e = std::log(a); break;
        case 2: e = std::fabs(a); break;
        case 3: e = std::sqrt(a); break;
        case 4: e = a > 0 ? a : 0; break;
        case 5: e = a + s; break;
        case 6: e = a * s; break;
        case 7: e = a > s ? a : s; break;
        case 8: e = a < s ? a : s; break;
        case 9: e = a - b; break;
        case 10: e = a / b; break;
        case 11: e = a > b ? a : b; break;
        case 12: e = a < b ? a : b; break;
        case 13: e = s; break;
        case 14: e = 1.0f / a; break;
        case 15: e = 1.0f / std::sqrt(a); break;
        case 16: e = a >= 0 ? a : a * s; break;
      }
      if (std::isnan(e)) {
        ASSERT_TRUE(std::isnan(HalfToF(y[i]))) << op << " " << i;
      } else {
        ASSERT_EQ(y[i], FToHalf(e)) << "op " << op << " i " << i << " a " << a;
      }
    }
  }
}

TEST(AscModelCast, FloatToHalfAndIntWithRoundModes) {
  const uint32_t n = 64;
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = (static_cast<float>(i) - 32.0f) * 0.75f + 0.000123f * (i % 3);
  x[0] = 2.5f;
  x[1] = -2.5f;
  x[2] = 1.0009765625f + 0.00048828125f;  // exactly between two halves
  x[3] = 70000.0f;
  x[4] = 3e9f;
  x[5] = -3e9f;
  for (int mode = 0; mode <= 6; ++mode) {
    std::vector<uint16_t> yh(n);
    std::vector<int32_t> yi(n);
    FakeServices svc;
    Runner r(&svc);
    ASSERT_EQ(r.Run<cast_kernel>(1, G(x.data()), G(yh.data()), G(yi.data()), n, int32_t{mode}), 0) << r.FirstError();
    for (uint32_t i = 0; i < n; ++i) {
      const double v = x[i];
      double ei = 0;
      switch (mode) {
        case 2: ei = std::floor(v); break;
        case 3: ei = std::ceil(v); break;
        case 4: ei = std::round(v); break;
        case 5: ei = std::trunc(v); break;
        default: ei = std::nearbyint(v); break;
      }
      ei = std::min(std::max(ei, -2147483648.0), 2147483647.0);
      EXPECT_EQ(yi[i], static_cast<int32_t>(ei)) << "mode " << mode << " x " << v;
      const float h = HalfToF(yh[i]);
      if (mode == 0 || mode == 1) {
        EXPECT_EQ(yh[i], FToHalf(x[i])) << i;
      } else if (std::isfinite(h)) {
        const bool down = mode == 2 || (mode == 5 && v > 0);
        const bool up = mode == 3 || (mode == 5 && v < 0);
        if (down) {
          EXPECT_LE(h, v) << "mode " << mode << " x " << v;
        }
        if (up) {
          EXPECT_GE(h, v) << "mode " << mode << " x " << v;
        }
        if ((mode == 4 || mode == 6) && std::fabs(v) <= 65504.0) {
          EXPECT_LE(std::fabs(h - v), std::fabs(v) * 0.001 + 1e-7) << v;
        }
      }
    }
    if (mode == 2) {
      EXPECT_EQ(HalfToF(yh[3]), 65504.0f);  // floor of 70000 saturates
    } else if (mode == 3) {
      EXPECT_TRUE(std::isinf(HalfToF(yh[3])));  // ceil overflows to inf
    } else if (mode == 4 || mode == 1) {
      EXPECT_EQ(yh[2], FToHalf(1.001953125f));  // the tie goes up: away, and to even (0x3c02)
    } else if (mode == 6) {
      EXPECT_EQ(yh[2] & 1u, 1u);  // round to odd
    }
  }
}

TEST(AscModelBuffers, TBufGetAndReinterpret) {
  const uint32_t n = 64;
  std::vector<float> x(n), y(n);
  std::iota(x.begin(), x.end(), 0.5f);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<tbuf_kernel>(1, G(x.data()), G(y.data()), n), 0) << r.FirstError();
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(y[i], x[i] * 3.0f);
}

TEST(AscModelMisc, CoreTypeGuardsAndBuiltins) {
  int32_t out[8] = {};
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<core_type_kernel>(1, G(out)), 0);
  EXPECT_EQ(out[0], 1);
  r.core_type = SIMNPU_KERNEL_AIC;
  ASSERT_EQ(r.Run<core_type_kernel>(1, G(out)), 0);
  EXPECT_EQ(out[0], 2);
  // A MIX block runs as one AIC and two AIV sub-cores, each seeing its own
  // type (issue 15): tests/ascendc_cube (Mix.*) covers the guards there.
  EXPECT_EQ(__NPU_ARCH__, 2201);
}

TEST(AscModelMisc, HalfTypeBasics) {
  half a = 1.5f;
  half b = 2;
  half c = a + b;  // half op half -> half
  static_assert(std::is_same<decltype(a + b), half>::value, "half + half is half");
  static_assert(std::is_same<decltype(a + 1.0f), float>::value, "half + float is float");
  EXPECT_EQ(static_cast<float>(c), 3.5f);
  c += 1;
  EXPECT_EQ(static_cast<float>(c), 4.5f);
  EXPECT_EQ((-c).val, 0xc480);
  EXPECT_TRUE(a < b);
  EXPECT_EQ(half(65520.0f).val, 0x7c00);
  EXPECT_EQ(half(1e-8).val, 0);
  EXPECT_EQ(half(1.0000001).val, 0x3c00);
  // double -> half rounds once: 1 + 2^-11 + 2^-40 rounds up (float would tie to even)
  EXPECT_EQ(half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).val, 0x3c01);
  EXPECT_EQ(bfloat16_t(1.00390625f).val, 0x3f80);  // tie to even
  EXPECT_EQ(bfloat16_t(1.01171875f).val, 0x3f82);  // tie to even, up
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(std::nanf("")))));
  EXPECT_EQ(block_idx, 0);
}

}  // namespace
