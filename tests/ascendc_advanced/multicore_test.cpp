// DMA atomics (SetAtomicAdd/Max/Min/Type, DisableDmaAtomic) from many blocks
// on several threads, the cache-control and cycle APIs, and SyncAll / IBWait
// under a runtime without multi-core synchronisation (the fake services of
// the harness): a clear failure, and a no-op for a single block. SyncAll
// with the real runtime: tests/asc_toolchain/project/multicore.asc.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ascendc_model/harness.h"

using namespace AscendC;
using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

constexpr uint32_t kN = 256;

// Each block adds (block + 1) * i to out[i] (float), takes the max of
// block-dependent int32 values into out2, and (after DisableDmaAtomic) a
// plain copy into out3 from block 0 only.
extern "C" __global__ __aicore__ void mc_atomics(GM_ADDR out, GM_ADDR out2, GM_ADDR out3) {
  const int64_t b = GetBlockIdx();
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> f = ub.Alloc<float, kN>();
  LocalTensor<int32_t> k = ub.Alloc<int32_t, kN>();
  for (uint32_t i = 0; i < kN; ++i) {
    f.SetValue(i, static_cast<float>((b + 1) * i));
    k.SetValue(i, static_cast<int32_t>((b * 7 + i * 3) % 50) - 20);
  }
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), kN);
  GlobalTensor<int32_t> g2, g3;
  g2.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out2), kN);
  g3.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out3), kN);
  SetAtomicAdd<float>();
  DataCopy(g, f, kN);
  SetAtomicMax<int8_t>();
  SetAtomicType<int32_t>();  // the real type of the max
  DataCopy(g2, k, kN);
  DisableDmaAtomic();
  if (b == 0) DataCopy(g3, k, kN);
}

TEST(AdvAtomics, AddAndMaxAcrossBlocksOnThreads) {
  std::vector<float> out(kN, 0.5f);
  std::vector<int32_t> out2(kN, -1000), out3(kN, 7);
  FakeServices svc;
  Runner r(&svc);
  constexpr int kBlocks = 16;
  ASSERT_EQ(r.RunThreads<mc_atomics>(4, kBlocks, reinterpret_cast<uint8_t*>(out.data()),
                                      reinterpret_cast<uint8_t*>(out2.data()), reinterpret_cast<uint8_t*>(out3.data())),
            0)
      << r.FirstError();
  for (uint32_t i = 0; i < kN; ++i) {
    float want = 0.5f;
    int32_t mx = -1000;
    // float adds of integers below 2^24: exact in any order
    for (int b = 0; b < kBlocks; ++b) {
      want += static_cast<float>((b + 1) * i);
      const int32_t v = static_cast<int32_t>((b * 7 + i * 3) % 50) - 20;
      mx = v > mx ? v : mx;
    }
    ASSERT_EQ(out[i], want) << i;
    ASSERT_EQ(out2[i], mx) << i;
    ASSERT_EQ(out3[i], static_cast<int32_t>((i * 3) % 50) - 20) << i;
  }
}

// half min, then InitSocState clears the mode: the next copy is plain.
extern "C" __global__ __aicore__ void mc_atomic_min_reset(GM_ADDR out) {
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> h = ub.Alloc<half, 16>();
  for (uint32_t i = 0; i < 16; ++i) h.SetValue(i, half(static_cast<float>(i) - 8.0f));
  GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out), 32);
  SetAtomicMin<half>();
  DataCopy(g, h, 16);
  InitSocState();
  DataCopy(g[16], h, 16);
}

TEST(AdvAtomics, HalfMinThenInitSocStateClears) {
  std::vector<half> out(32, half(0.0f));
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mc_atomic_min_reset>(1, reinterpret_cast<uint8_t*>(out.data())), 0) << r.FirstError();
  for (uint32_t i = 0; i < 16; ++i) {
    const float v = static_cast<float>(i) - 8.0f;
    EXPECT_EQ(static_cast<float>(out[i]), v < 0.0f ? v : 0.0f) << i;
    EXPECT_EQ(static_cast<float>(out[16 + i]), v) << i;
  }
}

extern "C" __global__ __aicore__ void mc_sync(GM_ADDR out) {
  *reinterpret_cast<__gm__ int32_t*>(out) = 1;
  SyncAll();
  *reinterpret_cast<__gm__ int32_t*>(out) = 2;
}

TEST(AdvSync, SyncAllSingleBlockIsANoOp) {
  int32_t v = 0;
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mc_sync>(1, reinterpret_cast<uint8_t*>(&v)), 0) << r.FirstError();
  EXPECT_EQ(v, 2);
}

TEST(AdvSync, SyncAllNeedsARuntimeThatRunsBlocksAtOnce) {
  int32_t v = 0;
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<mc_sync>(2, reinterpret_cast<uint8_t*>(&v)), SIMNPU_BLOCK_CHECK_FAILED);
  EXPECT_NE(r.FirstError().find("SyncAll: the runtime running this kernel cannot run its blocks at once"),
            std::string::npos)
      << r.FirstError();
}

extern "C" __global__ __aicore__ void mc_misc(GM_ADDR out) {
  __gm__ int64_t* o = reinterpret_cast<__gm__ int64_t*>(out);
  const int64_t c0 = GetSystemCycle();
  volatile double x = 0;
  for (int i = 0; i < 200000; ++i) x = x + 1.0;
  const int64_t c1 = GetSystemCycle();
  o[0] = c1 - c0;
  GlobalTensor<int64_t> g;
  g.SetGlobalBuffer(o, 4);
  DataCacheCleanAndInvalid<int64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
  WriteGmByPassDCache<int64_t>(o + 1, 1234567890123ll);
  o[2] = ReadGmByPassDCache<int64_t>(o + 1) + 1;
}

TEST(AdvSync, CycleCounterAndCacheBypass) {
  int64_t v[4] = {0, 0, 0, 0};
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<mc_misc>(1, reinterpret_cast<uint8_t*>(v)), 0) << r.FirstError();
  EXPECT_GT(v[0], 0);
  EXPECT_EQ(v[1], 1234567890123ll);
  EXPECT_EQ(v[2], 1234567890124ll);
}

}  // namespace
