// The 14a parts of the kernel model, in process (no runtime): kernels run
// through RunBlock with the fake services of tests/ascendc_model/harness.h.
// InitSocState and its hooks, kernel templates registered at their launch,
// the debug family's exact output, the GET_TILING_DATA macros and the type
// utilities.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ascendc_model/harness.h"

using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {
GM_ADDR G(void* p) { return static_cast<GM_ADDR>(p); }
}  // namespace

// ---- InitSocState and the reset hooks
namespace simnpu {
namespace ascendc {
namespace detail {
inline int g_test_resets = 0;
inline void TestSocReset() { ++g_test_resets; }
SIMNPU_ASCENDC_SOC_STATE_RESET(TestSocReset);
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

void SocStateKernel(GM_ADDR out) {
  const int before = ::simnpu::ascendc::detail::g_test_resets;
  AscendC::InitSocState();
  const int afterInit = ::simnpu::ascendc::detail::g_test_resets;
  AscendC::TPipe pipe;
  reinterpret_cast<int*>(out)[0] = afterInit - before;
  reinterpret_cast<int*>(out)[1] = ::simnpu::ascendc::detail::g_test_resets - afterInit;
}

TEST(AscSocState, InitSocStateAndTPipeRunTheHooks) {
  // registering the same hook again adds nothing
  EXPECT_TRUE(::simnpu::ascendc::detail::RegisterSocStateReset(&::simnpu::ascendc::detail::TestSocReset));
  const int host_before = ::simnpu::ascendc::detail::g_test_resets;
  AscendC::InitSocState();  // host code: no block context, the hooks still run
  EXPECT_EQ(::simnpu::ascendc::detail::g_test_resets, host_before + 1);
  FakeServices svc;
  Runner r(&svc);
  int out[2] = {-1, -1};
  ASSERT_EQ(r.Run<&SocStateKernel>(1, G(out)), 0) << r.FirstError();
  EXPECT_EQ(out[0], 1);  // InitSocState
  EXPECT_EQ(out[1], 1);  // the TPipe constructor
}

// ---- kernel templates
template <typename T, int N>
void ScaleTemplate(GM_ADDR data, T factor) {
  T* d = reinterpret_cast<T*>(data) + AscendC::GetBlockIdx() * N;
  for (int i = 0; i < N; ++i) d[i] = static_cast<T>(d[i] * factor);
}

constexpr auto kScaleF4 = &ScaleTemplate<float, 4>;
constexpr auto kScaleUm2 = &ScaleTemplate<unsigned int, -2>;

TEST(AscTemplateKernels, CanonicalNames) {
  const char* f4 = ::simnpu::ascendc::detail::KernelNameOf<kScaleF4>();
  EXPECT_STREQ(f4, "ScaleTemplate<float, 4>");
  EXPECT_STREQ(::simnpu::ascendc::detail::KernelNameOf<kScaleUm2>(), "ScaleTemplate<unsigned int, -2>");
  // one string per instantiation
  EXPECT_EQ(f4, ::simnpu::ascendc::detail::KernelNameOf<kScaleF4>());
}

TEST(AscTemplateKernels, RegisteredInTheImageTableOnce) {
  constexpr auto kScaleI3 = &ScaleTemplate<int32_t, 3>;
  (void)&::simnpu::ascendc::detail::TemplateKernelRegistration<kScaleI3, SIMNPU_KERNEL_AIC>;
  (void)&::simnpu::ascendc::detail::TemplateKernelRegistration<kScaleI3, SIMNPU_KERNEL_AIC>;
  const simnpu_kernel_table* t = ::simnpu::ascendc::ProcessKernelTable();
  ASSERT_NE(t, nullptr);
  int found = 0;
  const simnpu_kernel_desc* d = nullptr;
  for (uint32_t i = 0; i < t->kernel_count; ++i) {
    if (t->kernels[i].entry == reinterpret_cast<const void*>(&ScaleTemplate<int32_t, 3>)) {
      ++found;
      d = &t->kernels[i];
    }
  }
  ASSERT_EQ(found, 1);
  EXPECT_STREQ(d->name, "ScaleTemplate<int, 3>");
  EXPECT_EQ(d->kernel_type, static_cast<uint32_t>(SIMNPU_KERNEL_AIC));
  ASSERT_EQ(d->param_count, 2u);
  EXPECT_EQ(d->params[0].kind, static_cast<uint32_t>(SIMNPU_PARAM_POINTER));
  EXPECT_EQ(d->params[1].size, 4u);
  // the registered trampoline runs the instantiation
  FakeServices svc;
  Runner r(&svc);
  std::vector<int32_t> data = {1, 2, 3, 4, 5, 6};
  GM_ADDR p = G(data.data());
  int32_t factor = -3;
  void* argv[2] = {&p, &factor};
  ASSERT_EQ(r.RunRaw(d->run_block, 2, argv), 0) << r.FirstError();
  EXPECT_EQ(data, (std::vector<int32_t>{-3, -6, -9, -12, -15, -18}));
}

// ---- the debug family
void DumpKernel(GM_ADDR gm, uint32_t dumpSize) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  AscendC::LocalTensor<half> h = buf.GetWithOffset<half>(8, 0);
  AscendC::LocalTensor<int32_t> i32 = buf.GetWithOffset<int32_t>(4, 64);
  AscendC::LocalTensor<uint8_t> u8 = buf.GetWithOffset<uint8_t>(4, 96);
  for (int i = 0; i < 8; ++i) h.SetValue(i, static_cast<half>(1.5f * i));
  for (int i = 0; i < 4; ++i) i32.SetValue(i, -7 * i);
  for (int i = 0; i < 4; ++i) u8.SetValue(i, static_cast<uint8_t>(250 + i));
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(gm), 3);
  AscendC::DumpTensor(h, 1, dumpSize);
  AscendC::DumpTensor(i32, 2, 4);
  AscendC::DumpTensor(u8, 3, 2);
  AscendC::DumpTensor(g, 4, 3);
  AscendC::DumpAccChkPoint(i32, 9, 2, 2);
  asc_dump(i32.GetPhyAddr(), 10, 1);
}

TEST(AscDebug, DumpTensorOutput) {
  FakeServices svc;
  Runner r(&svc);
  float gm[3] = {0.5f, -1.0f, 2.25f};
  ASSERT_EQ(r.Run<&DumpKernel>(1, G(gm), 3u), 0) << r.FirstError();
  char gm_addr[32];
  std::snprintf(gm_addr, sizeof gm_addr, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(gm)));
  const std::string want =
      "DumpTensor: desc=1, addr=0, data_type=float16, position=UB, dump_size=3\n"
      "[0.000000, 1.500000, 3.000000]\n"
      "DumpTensor: desc=2, addr=64, data_type=int32, position=UB, dump_size=4\n"
      "[0, -7, -14, -21]\n"
      "DumpTensor: desc=3, addr=96, data_type=uint8, position=UB, dump_size=2\n"
      "[250, 251]\n"
      "DumpTensor: desc=4, addr=" + std::string(gm_addr) + ", data_type=float32, position=GM, dump_size=3\n"
      "[0.500000, -1.000000, 2.250000]\n"
      "DumpAccChkPoint: desc=9, addr=64, data_type=int32, position=UB, offset=2, dump_size=2\n"
      "[-14, -21]\n"
      "DumpTensor: desc=10, addr=64, data_type=int32, position=UB, dump_size=1\n"
      "[0]\n";
  EXPECT_EQ(svc.AllPrinted(), want);
  EXPECT_TRUE(svc.diags.empty());
}

TEST(AscDebug, DumpSizeBeyondTheTensorIsCutWithAWarning) {
  FakeServices svc;
  Runner r(&svc);
  float gm[3] = {};
  ASSERT_EQ(r.Run<&DumpKernel>(1, G(gm), 100u), 0) << r.FirstError();
  EXPECT_NE(svc.AllPrinted().find("position=UB, dump_size=8\n"), std::string::npos);
  ASSERT_EQ(svc.diags.size(), 1u);
  EXPECT_EQ(svc.diags[0].first, 2);
  EXPECT_NE(svc.diags[0].second.find("DumpTensor: dumpSize 100 is larger than the tensor (8 elements)"),
            std::string::npos)
      << svc.diags[0].second;
}

TEST(AscDebug, GlobalDumpReadsThroughTheCheckedPath) {
  FakeServices svc;
  Runner r(&svc);
  float gm[3] = {1.0f, 2.0f, 3.0f};
  r.managed_base = reinterpret_cast<uintptr_t>(gm);
  r.managed_size = sizeof gm;
  ASSERT_EQ(r.Run<&DumpKernel>(1, G(gm), 1u), 0) << r.FirstError();
  EXPECT_EQ(svc.reads.load(), 1);
  EXPECT_EQ(svc.read_bytes.load(), sizeof gm);
}

void AssertKernel(int x) {
  ASSERT(x != 0);
  ascendc_assert(x > 0);
  ascendc_assert(x > 3, "x is %d", x);
}

TEST(AscDebug, FailedAscendcAssertTrapsWithItsMessage) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<&AssertKernel>(1, 5), SIMNPU_BLOCK_OK);
  EXPECT_EQ(r.Run<&AssertKernel>(1, 1), SIMNPU_BLOCK_TRAP);
  const std::string printed = svc.AllPrinted();
  EXPECT_NE(printed.find("[ASSERT] model_test.cpp:"), std::string::npos) << printed;
  EXPECT_NE(printed.find(": Assertion `x > 3' failed. x is 1\n"), std::string::npos) << printed;
  EXPECT_NE(r.FirstError().find("Assertion `x > 3' failed. x is 1"), std::string::npos) << r.FirstError();
  EXPECT_EQ(r.Run<&AssertKernel>(1, 0), SIMNPU_BLOCK_TRAP);
  EXPECT_NE(r.FirstError().find("Assertion `x != 0' failed."), std::string::npos) << r.FirstError();
}

void LogKernel(int v) {
  KERNEL_LOG(KERNEL_WARN, "value %d is odd", v);
  KERNEL_LOG(KERNEL_ERROR, "plain");
}

TEST(AscDebug, KernelLogGoesToTheRuntimeLogOutsideCpuDebug) {
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<&LogKernel>(2, 7), 0);
  ASSERT_EQ(svc.diags.size(), 4u);
  int warn = 0, err = 0;
  for (const auto& d : svc.diags) {
    if (d.first == 2) {
      ++warn;
      EXPECT_NE(d.second.find("[WARNING][Block_"), std::string::npos) << d.second;
      EXPECT_NE(d.second.find("[LogKernel] value 7 is odd"), std::string::npos) << d.second;
    } else if (d.first == 3) {
      ++err;
      EXPECT_NE(d.second.find("] plain"), std::string::npos) << d.second;
    }
  }
  EXPECT_EQ(warn, 2);
  EXPECT_EQ(err, 2);
  EXPECT_EQ(svc.AllPrinted(), "");  // nothing in the printf output
}

// ---- tiling data read in kernels
struct KTiling {
  uint32_t n;
  float scale;
  uint64_t big;
  int16_t small[3];
};

void TilingKernel(GM_ADDR tiling, GM_ADDR out) {
  GET_TILING_DATA_WITH_STRUCT(KTiling, a, tiling);
  REGISTER_TILING_DEFAULT(KTiling);
  GET_TILING_DATA(b, tiling);
  GET_TILING_DATA_MEMBER(KTiling, big, c, tiling);
  GET_TILING_DATA_PTR_WITH_STRUCT(KTiling, p, tiling);
  int64_t* o = reinterpret_cast<int64_t*>(out);
  o[0] = a.n;
  o[1] = static_cast<int64_t>(b.scale * 4);
  o[2] = static_cast<int64_t>(c);
  o[3] = a.small[2] + b.small[0];
  o[4] = p->n;
}

TEST(AscTilingKernel, GetTilingDataMacros) {
  FakeServices svc;
  Runner r(&svc);
  KTiling t{};
  t.n = 77;
  t.scale = 2.5f;
  t.big = 1ull << 40;
  t.small[0] = -4;
  t.small[2] = 9;
  r.managed_base = reinterpret_cast<uintptr_t>(&t);
  r.managed_size = sizeof t;
  int64_t out[5] = {};
  ASSERT_EQ(r.Run<&TilingKernel>(1, G(&t), G(out)), 0) << r.FirstError();
  EXPECT_EQ(out[0], 77);
  EXPECT_EQ(out[1], 10);
  EXPECT_EQ(out[2], int64_t{1} << 40);
  EXPECT_EQ(out[3], 5);
  EXPECT_EQ(out[4], 77);
  // WITH_STRUCT and GET_TILING_DATA copy the struct, MEMBER one member,
  // all through the checked GM path (the pointer form reads directly)
  EXPECT_EQ(svc.reads.load(), 3);
  EXPECT_EQ(svc.read_bytes.load(), 2 * sizeof(KTiling) + sizeof(uint64_t));
}

// ---- type utilities
static_assert(AscendC::IsSameType<int, int>::value && !AscendC::IsSameType<int, const int>::value, "IsSameType");
static_assert(AscendC::Std::is_same_v<AscendC::Std::tuple_element_t<1, AscendC::Std::tuple<int, half>>, half>, "Std");
static_assert(std::is_same<decltype(AscendC::DivCeil(size_t{1}, 2)), size_t>::value, "DivCeil type");

TEST(AscTypeUtils, Arithmetic) {
  EXPECT_EQ(AscendC::DivCeil(size_t{129}, 128), 2u);
  EXPECT_EQ(AscendC::DivCeil(0u, 7u), 0u);
  EXPECT_EQ(AscendC::DivCeil(7, 0), 0);
  EXPECT_EQ(AscendC::AlignUp(1u, 32u), 32u);
  EXPECT_EQ(AscendC::AlignUp(64u, 32u), 64u);
  EXPECT_EQ(AscendC::AlignUp(5u, 0u), 0u);
  EXPECT_EQ(AscendC::AlignDown(31, 32), 0);
  EXPECT_EQ(AscendC::AlignDown(100, 0), 0);
  EXPECT_EQ(AscendC::CeilDivision(33, 32), 2);
  EXPECT_EQ(AscendC::Std::min(3, 4), 3);
  EXPECT_EQ(AscendC::Std::max(3, 4), 4);
}
