// Device and host memory, copies and fills, host registration, pointer
// attributes (acl-api.md §4.6, §9 item 17).
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::OnOtherThread;
using apitest::TakeErrMsg;

class ApiMemoryTest : public apitest::DeviceTest {};

std::vector<unsigned char> Pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 131 + seed * 17 + (i >> 8)) & 0xff);
  return v;
}

// ---------------------------------------------------------------- malloc/free

TEST_F(ApiMemoryTest, MallocArguments) {
  void* p = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  OnOtherThread([] {
    void* q = nullptr;
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(nullptr, q);
    EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  });
}

TEST_F(ApiMemoryTest, MallocPoliciesAlignmentAndData) {
  const aclrtMemMallocPolicy policies[] = {
      ACL_MEM_MALLOC_HUGE_FIRST,
      ACL_MEM_MALLOC_HUGE_ONLY,
      ACL_MEM_MALLOC_NORMAL_ONLY,
      ACL_MEM_MALLOC_HUGE_FIRST_P2P,
      ACL_MEM_MALLOC_HUGE_ONLY_P2P,
      ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
      static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_HUGE_FIRST | 0x100),   // LOW_BAND_WIDTH
      static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_NORMAL_ONLY | 0x1000), // HIGH_BAND_WIDTH
  };
  for (aclrtMemMallocPolicy pol : policies) {
    for (size_t size : {size_t{1}, size_t{31}, size_t{64}, size_t{1000}, size_t{4096}, size_t{3u << 20}}) {
      void* p = nullptr;
      ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, size, pol)) << pol << " " << size;
      ASSERT_NE(nullptr, p);
      EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % 64) << pol << " " << size;
      auto in = Pattern(size, static_cast<unsigned>(size));
      std::vector<unsigned char> out(size);
      EXPECT_ACL_OK(aclrtMemcpy(p, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
      EXPECT_ACL_OK(aclrtMemcpy(out.data(), size, p, size, ACL_MEMCPY_DEVICE_TO_HOST));
      EXPECT_EQ(in, out);
      EXPECT_ACL_OK(aclrtFree(p));
    }
  }
}

TEST_F(ApiMemoryTest, AllocationsDoNotOverlap) {
  std::vector<std::pair<unsigned char*, size_t>> blocks;
  for (size_t i = 1; i <= 40; ++i) {
    void* p = nullptr;
    size_t n = i * 37;
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL_OK(aclrtMemset(p, n, static_cast<int32_t>(i), n));
    blocks.emplace_back(static_cast<unsigned char*>(p), n);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::vector<unsigned char> out(blocks[i].second);
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), out.size(), blocks[i].first, out.size(), ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_EQ(std::vector<unsigned char>(out.size(), static_cast<unsigned char>(i + 1)), out) << i;
  }
  for (auto& b : blocks) EXPECT_ACL_OK(aclrtFree(b.first));
}

TEST_F(ApiMemoryTest, FreeErrors) {
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtFree(nullptr));
  int on_stack = 0;
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(&on_stack));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  void* heap = std::malloc(64);
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(heap));
  std::free(heap);
  void* pinned = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pinned, 64));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(pinned));
  EXPECT_ACL_OK(aclrtFreeHost(pinned));
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(static_cast<char*>(p) + 64));  // not the start
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(p));  // twice
}

TEST_F(ApiMemoryTest, FreeNeedsNoContext) {
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  OnOtherThread([p] { EXPECT_ACL_OK(aclrtFree(p)); });
}

TEST_F(ApiMemoryTest, MallocHost) {
  void* h = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(nullptr, 64));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(&h, 0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(nullptr));
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&h, 10000));
  ASSERT_NE(nullptr, h);
  std::memset(h, 0xAB, 10000);  // ordinary host memory
  EXPECT_ACL_OK(aclrtFreeHost(h));
  // Host allocations need no context.
  OnOtherThread([] {
    void* x = nullptr;
    EXPECT_ACL_OK(aclrtMallocHost(&x, 128));
    EXPECT_ACL_OK(aclrtFreeHost(x));
  });
  int on_stack;
  EXPECT_NE(ACL_SUCCESS, aclrtFreeHost(&on_stack));
}

// ------------------------------------------------------------------- memset

TEST_F(ApiMemoryTest, Memset) {
  constexpr size_t kN = 5000;
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMemset(p, kN, 0x1234, kN));  // low byte only
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, p, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x34), out);
  EXPECT_ACL_OK(aclrtMemset(static_cast<char*>(p) + 100, kN - 100, 0, 50));
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, p, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kN; ++i) ASSERT_EQ((i >= 100 && i < 150) ? 0 : 0x34, out[i]) << i;
  EXPECT_ACL_OK(aclrtMemset(p, kN, 7, 0));  // count 0
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemset(nullptr, kN, 0, kN));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemset(p, 10, 0, 11));
  EXPECT_ACL_OK(aclrtFree(p));
}

TEST_F(ApiMemoryTest, MemsetAsync) {
  constexpr size_t kN = 3000;
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  void* p = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMemsetAsync(p, kN, 0x5F, kN, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, p, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x5F), out);
  EXPECT_ACL_OK(aclrtMemsetAsync(p, kN, 0x01, kN, nullptr));  // default stream
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, p, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x01), out);
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(nullptr, kN, 0, kN, s));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtMemsetAsync(p, 10, 0, 11, s));
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

// ------------------------------------------------------------------- memcpy

class ApiMemcpyTest : public apitest::DeviceTest {
 protected:
  static constexpr size_t kN = 70000;  // spans several pages, not a multiple of 32
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1_, kN, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d2_, kN, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pinned_, kN));
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s_));
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtFree(d1_));
    EXPECT_ACL_OK(aclrtFree(d2_));
    EXPECT_ACL_OK(aclrtFreeHost(pinned_));
    EXPECT_ACL_OK(aclrtDestroyStream(s_));
    apitest::DeviceTest::TearDown();
  }
  // Copies with aclrtMemcpy, or aclrtMemcpyAsync + synchronize.
  aclError Copy(bool async, void* dst, const void* src, aclrtMemcpyKind kind) {
    if (!async) return aclrtMemcpy(dst, kN, src, kN, kind);
    aclError rc = aclrtMemcpyAsync(dst, kN, src, kN, kind, s_);
    if (rc != ACL_SUCCESS) return rc;
    return aclrtSynchronizeStream(s_);
  }
  // Round trip host -> d1 -> d2 -> host (and pinned/host-to-host legs) with
  // the given kinds; checks every byte.
  void RoundTrip(bool async, aclrtMemcpyKind h2d, aclrtMemcpyKind d2d, aclrtMemcpyKind d2h,
                 aclrtMemcpyKind h2h) {
    auto in = Pattern(kN, h2d * 7 + d2d * 3 + d2h + (async ? 100 : 0));
    std::vector<unsigned char> host2(kN, 0), out(kN, 0);
    ASSERT_EQ(ACL_SUCCESS, Copy(async, host2.data(), in.data(), h2h)) << "H2H kind " << h2h;
    ASSERT_EQ(in, host2);
    ASSERT_EQ(ACL_SUCCESS, Copy(async, d1_, host2.data(), h2d)) << "H2D kind " << h2d;
    ASSERT_EQ(ACL_SUCCESS, Copy(async, d2_, d1_, d2d)) << "D2D kind " << d2d;
    ASSERT_EQ(ACL_SUCCESS, Copy(async, pinned_, d2_, d2h)) << "D2H kind " << d2h;
    ASSERT_EQ(ACL_SUCCESS, Copy(async, out.data(), pinned_, h2h)) << "H2H kind " << h2h;
    EXPECT_EQ(in, out);
  }
  void* d1_ = nullptr;
  void* d2_ = nullptr;
  void* pinned_ = nullptr;
  aclrtStream s_ = nullptr;
};

TEST_F(ApiMemcpyTest, ExplicitKinds) {
  RoundTrip(false, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_HOST_TO_HOST);
}

TEST_F(ApiMemcpyTest, ExplicitKindsAsync) {
  RoundTrip(true, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_HOST_TO_HOST);
}

TEST_F(ApiMemcpyTest, DefaultKindInfersTheDirection) {
  RoundTrip(false, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT);
}

TEST_F(ApiMemcpyTest, DefaultKindInfersTheDirectionAsync) {
  RoundTrip(true, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_DEFAULT);
}

TEST_F(ApiMemcpyTest, HostToBufToDevice) {
  RoundTrip(false, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_HOST_TO_HOST);
  RoundTrip(true, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
            ACL_MEMCPY_HOST_TO_HOST);
}

TEST_F(ApiMemcpyTest, HostToHostBetweenPlainBuffers) {
  // S12: kind 0 between two ordinary host buffers is a plain copy.
  std::vector<unsigned char> a = Pattern(kN, 9), b(kN, 0);
  EXPECT_ACL_OK(aclrtMemcpy(b.data(), kN, a.data(), kN, ACL_MEMCPY_HOST_TO_HOST));
  EXPECT_EQ(a, b);
  std::fill(b.begin(), b.end(), 0);
  EXPECT_ACL_OK(aclrtMemcpyAsync(b.data(), kN, a.data(), kN, ACL_MEMCPY_HOST_TO_HOST, s_));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(a, b);
}

TEST_F(ApiMemcpyTest, PartialCopiesAndOffsets) {
  auto in = Pattern(kN, 3);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(d1_, kN, 0, kN));
  // Copy 1000 bytes into the middle; destMax is the room left.
  EXPECT_ACL_OK(aclrtMemcpy(static_cast<char*>(d1_) + 333, kN - 333, in.data(), 1000, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  for (size_t i = 0; i < kN; ++i) {
    unsigned char want = (i >= 333 && i < 1333) ? in[i - 333] : 0;
    ASSERT_EQ(want, out[i]) << i;
  }
}

TEST_F(ApiMemcpyTest, ArgumentChecks) {
  std::vector<unsigned char> h(kN);
  for (bool async : {false, true}) {
    SCOPED_TRACE(async ? "async" : "sync");
    auto cp = [&](void* dst, size_t max, const void* src, size_t count, aclrtMemcpyKind kind) {
      return async ? aclrtMemcpyAsync(dst, max, src, count, kind, s_) : aclrtMemcpy(dst, max, src, count, kind);
    };
    ClearErrorState();
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(nullptr, kN, h.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(d1_, kN, nullptr, kN, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(d1_, kN, h.data(), kN, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(d1_, kN, d2_, kN, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(d1_, kN, d2_, kN, static_cast<aclrtMemcpyKind>(99)));
    EXPECT_ACL(ACL_ERROR_INVALID_PARAM, cp(d1_, kN, d2_, kN, static_cast<aclrtMemcpyKind>(-1)));
    EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_FALSE(TakeErrMsg().empty());
    EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, cp(d1_, 100, h.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_FALSE(TakeErrMsg().empty());
    // count 0 and dst == src succeed without copying.
    EXPECT_ACL_OK(cp(d1_, kN, h.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_ACL_OK(cp(d1_, 0, h.data(), 0, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_ACL_OK(cp(d1_, kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
    EXPECT_ACL_OK(cp(h.data(), kN, h.data(), kN, ACL_MEMCPY_HOST_TO_HOST));
    EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  }
}

TEST_F(ApiMemcpyTest, CopiesBetweenDevices) {
  // d1_ lives on device 0; copy it to device 1 memory.
  auto in = Pattern(kN, 21);
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(d1_, kN, in.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  void* other = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&other, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  // Device 1 needs peer access to device 0's memory (acl-api-ext.md 2.2).
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtMemcpy(other, kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ASSERT_EQ(ACL_SUCCESS, aclrtDeviceEnablePeerAccess(0, 0));
  EXPECT_ACL_OK(aclrtMemcpy(other, kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
  EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(0));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, other, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(in, out);
  EXPECT_ACL_OK(aclrtFree(other));
  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

// Pageable host memory (not from aclrtMallocHost, not registered): the
// asynchronous copy is performed synchronously with respect to the host
// buffer (acl-api.md §4.6), so the caller may reuse a source buffer as soon
// as the call returns, even while earlier work still holds the stream.
TEST_F(ApiMemcpyTest, AsyncFromPageableHostConsumesTheSourceAtOnce) {
  apitest::Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  std::thread opener([&] {
    gate.WaitEntered();
    apitest::SleepMs(30);
    gate.Open();
  });
  auto a = Pattern(kN, 1), b = Pattern(kN, 2);
  std::vector<unsigned char> src = a;
  EXPECT_ACL_OK(aclrtMemcpyAsync(d1_, kN, src.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  src = b;  // reuse right away
  opener.join();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(out == a) << "the copy read the source after aclrtMemcpyAsync returned";
}

TEST_F(ApiMemcpyTest, AsyncFromPageableHostSourceMayBeFreed) {
  auto a = Pattern(kN, 4);
  apitest::Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  std::thread opener([&] {
    gate.WaitEntered();
    apitest::SleepMs(30);
    gate.Open();
  });
  {
    std::vector<unsigned char> tmp = a;
    EXPECT_ACL_OK(aclrtMemcpyAsync(d1_, kN, tmp.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  }  // freed before the stream reaches the copy (ASan checks this)
  opener.join();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(out == a);
}

TEST_F(ApiMemcpyTest, AsyncToPageableHostIsCompleteOnReturn) {
  apitest::Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d1_, kN, 0x42, kN, s_));
  std::thread opener([&] {
    gate.WaitEntered();
    apitest::SleepMs(30);
    gate.Open();
  });
  std::vector<unsigned char> out(kN, 0);
  EXPECT_ACL_OK(aclrtMemcpyAsync(out.data(), kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_HOST, s_));
  EXPECT_TRUE(out == std::vector<unsigned char>(kN, 0x42)) << "D2H into pageable memory returned early";
  opener.join();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
}

// Page-locked memory: a real asynchronous copy that reads its source when
// the stream reaches it.
TEST_F(ApiMemcpyTest, AsyncWithPinnedHostIsDeferred) {
  auto a = Pattern(kN, 5), b = Pattern(kN, 6);
  std::memcpy(pinned_, a.data(), kN);
  apitest::Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s_));
  EXPECT_ACL_OK(aclrtMemcpyAsync(d1_, kN, pinned_, kN, ACL_MEMCPY_HOST_TO_DEVICE, s_));  // does not block
  std::memcpy(pinned_, b.data(), kN);
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s_));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d1_, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_TRUE(out == b);
}

TEST_F(ApiMemcpyTest, DeviceCopyNeedsAContext) {
  std::vector<unsigned char> h(kN);
  void* d = d1_;
  OnOtherThread([&] {
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtMemcpy(h.data(), kN, d, kN, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_ACL(ACL_ERROR_RT_CONTEXT_NULL, aclrtMemcpyAsync(h.data(), kN, d, kN, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
  });
}

// -------------------------------------------------------- host registration

TEST_F(ApiMemoryTest, HostRegister) {
  constexpr size_t kN = 8192;
  void* h = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&h, kN));
  ASSERT_EQ(ACL_SUCCESS, aclrtHostRegisterV2(h, kN, ACL_HOST_REG_MAPPED));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, aclrtHostRegisterV2(h, kN, ACL_HOST_REG_MAPPED));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  // Overlap from inside the range.
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
             aclrtHostRegisterV2(static_cast<char*>(h) + 4096, 16, ACL_HOST_REG_MAPPED));
  void* dp = nullptr;
  EXPECT_ACL_OK(aclrtHostGetDevicePointer(h, &dp, 0));
  EXPECT_NE(nullptr, dp);
  // The device pointer reaches the same bytes.
  std::memset(h, 0x66, kN);
  void* d = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtMemcpy(d, kN, dp, kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x66), out);
  EXPECT_ACL_OK(aclrtFree(d));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(h, &dp, 1));
  EXPECT_ACL_OK(aclrtHostUnregister(h));
  ClearErrorState();
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostUnregister(h));
  EXPECT_EQ(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostGetDevicePointer(h, &dp, 0));
  EXPECT_ACL_OK(aclrtFreeHost(h));
}

TEST_F(ApiMemoryTest, HostRegisterPlainMemory) {
  std::vector<unsigned char> buf(4096);
  EXPECT_ACL_OK(aclrtHostRegisterV2(buf.data(), buf.size(), ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED));
  void* dp = nullptr;
  EXPECT_ACL_OK(aclrtHostGetDevicePointer(buf.data(), &dp, 0));
  EXPECT_ACL_OK(aclrtHostUnregister(buf.data()));
}

TEST_F(ApiMemoryTest, HostRegisterArguments) {
  std::vector<unsigned char> buf(4096);
  void* dp = nullptr;
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(nullptr, 64, ACL_HOST_REG_MAPPED));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(buf.data(), 0, ACL_HOST_REG_MAPPED));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(nullptr, &dp, 0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(buf.data(), nullptr, 0));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtHostUnregister(nullptr));
  EXPECT_EQ(ACL_SUCCESS, aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtHostRegisterV2(buf.data(), buf.size(), 0));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtHostRegisterV2(buf.data(), buf.size(), 0x1));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtHostRegisterV2(buf.data(), buf.size(), ACL_HOST_REG_MAPPED | 0x100));
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostGetDevicePointer(buf.data(), &dp, 0));
  EXPECT_ACL(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostUnregister(buf.data()));
}

// ------------------------------------------------------- pointer attributes

TEST_F(ApiMemoryTest, PointerAttributes) {
  aclrtPtrAttributes a;
  void* d0 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d0, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  std::memset(&a, 0x7f, sizeof a);
  EXPECT_ACL_OK(aclrtPointerGetAttributes(d0, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type);
  EXPECT_EQ(0u, a.location.id);
  EXPECT_GT(a.pageSize, 0u);
  // Inside an allocation.
  EXPECT_ACL_OK(aclrtPointerGetAttributes(static_cast<char*>(d0) + 500, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type);

  ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
  void* d1 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_ACL_OK(aclrtPointerGetAttributes(d1, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type);
  EXPECT_EQ(1u, a.location.id);

  void* pinned = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pinned, 100));
  EXPECT_ACL_OK(aclrtPointerGetAttributes(pinned, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, a.location.type);

  std::vector<unsigned char> reg(8192);
  ASSERT_EQ(ACL_SUCCESS, aclrtHostRegisterV2(reg.data(), reg.size(), ACL_HOST_REG_MAPPED));
  EXPECT_ACL_OK(aclrtPointerGetAttributes(reg.data() + 10, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, a.location.type);
  EXPECT_ACL_OK(aclrtHostUnregister(reg.data()));

  void* plain = std::malloc(100);
  EXPECT_ACL_OK(aclrtPointerGetAttributes(plain, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, a.location.type);
  std::free(plain);

  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(nullptr, &a));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(d0, nullptr));
  EXPECT_ACL_OK(aclrtFreeHost(pinned));
  EXPECT_ACL_OK(aclrtFree(d0));
  EXPECT_ACL_OK(aclrtFree(d1));
}

}  // namespace
