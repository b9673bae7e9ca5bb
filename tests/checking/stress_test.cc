// Stress: host threads x streams x managed memory. Each thread, on its own
// stream, allocates managed buffers of 1-3 blocks, fills them from the host,
// gives random advice, prefetches them to the device or the host, launches
// an increment kernel a random number of times, copies them to page-locked
// host memory and device memory, frees them, and checks the checksums: every
// element must be its fill value plus the number of launches (nothing lost,
// nothing doubled). Bounded by SIMNPU_STRESS_SECONDS (default 3; the long
// form is a few minutes by hand, see README).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "api/api_test_util.h"
#include "simnpu/kernel_abi.h"

const simnpu_kernel_table* StressKernelTable();

namespace {

double Seconds() {
  const char* v = std::getenv("SIMNPU_STRESS_SECONDS");
  return v ? std::atof(v) : 3.0;
}

constexpr size_t kBlock = 2u << 20;

// A failed call: counted, and said (which call, which code, which message).
bool Bad(aclError e, const char* what, int thread) {
  if (e == ACL_SUCCESS) return false;
  ADD_FAILURE() << "thread " << thread << ": " << what << " returned " << e << ": " << aclGetRecentErrMsg();
  return true;
}

TEST(StressTest, ThreadsStreamsManagedMemory) {
  ACL_OK(aclrtSetDevice(0));
  simnpu_inproc_image img{SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, StressKernelTable()};
  aclrtBinHandle bin = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &bin));
  aclrtFuncHandle fn = nullptr;
  ACL_OK(aclrtBinaryGetFunction(bin, "st_incr", &fn));
  aclrtContext ctx = nullptr;
  ACL_OK(aclrtGetCurrentContext(&ctx));

  const int threads = 4;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds());
  std::atomic<long> rounds{0}, launches{0}, bytes_checked{0}, failures{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    ts.emplace_back([&, t] {
      if (Bad(aclrtSetCurrentContext(ctx), "aclrtSetCurrentContext", t)) {
        ++failures;
        return;
      }
      aclrtStream s = nullptr;
      if (Bad(aclrtCreateStream(&s), "aclrtCreateStream", t)) {
        ++failures;
        return;
      }
      std::mt19937 rng(1234u + static_cast<unsigned>(t));
      void* pinned = nullptr;
      void* dev = nullptr;
      (void)aclrtMallocHost(&pinned, 3 * kBlock);
      (void)aclrtMalloc(&dev, 3 * kBlock, ACL_MEM_MALLOC_HUGE_FIRST);
      while (std::chrono::steady_clock::now() < deadline && failures.load() == 0) {
        const size_t blocks = 1 + rng() % 3;
        const size_t bytes = blocks * kBlock;
        const uint32_t n = static_cast<uint32_t>(bytes / 4);
        int32_t* m = nullptr;
        if (Bad(aclrtMemAllocManaged(reinterpret_cast<void**>(&m), bytes, ACL_RT_MEM_ATTACH_GLOBAL), "aclrtMemAllocManaged", t)) {
          ++failures;
          break;
        }
        const int32_t base = static_cast<int32_t>(rng() % 1000);
        for (uint32_t i = 0; i < n; ++i) m[i] = base + static_cast<int32_t>(i % 977);
        auto loc = [&](bool dev_side) {
          return dev_side ? aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_DEVICE, 0}
                          : aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_HOST, 0};
        };
        const int advice = static_cast<int>(rng() % 6);
        aclError e = aclrtMemManagedAdvise(m, bytes, static_cast<aclrtMemManagedAdviseType>(advice), loc(rng() & 1));
        if (e != ACL_ERROR_RT_PARAM_INVALID && Bad(e, "aclrtMemManagedAdvise", t)) ++failures;  // (a refused preferred location is fine)
        if (rng() & 1) (void)aclrtMemManagedPrefetchAsync(m, bytes, loc(rng() & 1), 0, s);
        const int k = static_cast<int>(rng() % 4);
        for (int i = 0; i < k; ++i) {
          struct {
            void* x;
            uint64_t n;
          } a{m, n};
          if (Bad(aclrtLaunchKernelWithHostArgs(fn, 1 + rng() % 8, s, nullptr, &a, sizeof a, nullptr, 0), "aclrtLaunchKernelWithHostArgs", t))
            ++failures;
          ++launches;
        }
        if (rng() & 1) (void)aclrtMemManagedPrefetchAsync(m, bytes, loc(rng() & 1), 0, s);
        if (Bad(aclrtMemcpyAsync(dev, 3 * kBlock, m, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s), "aclrtMemcpyAsync D2D", t)) ++failures;
        if (Bad(aclrtMemcpyAsync(pinned, 3 * kBlock, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s), "aclrtMemcpyAsync D2H", t)) ++failures;
        if (Bad(aclrtSynchronizeStream(s), "aclrtSynchronizeStream", t)) ++failures;
        const int32_t* p = static_cast<const int32_t*>(pinned);
        for (uint32_t i = 0; i < n; ++i) {
          const int32_t want = base + static_cast<int32_t>(i % 977) + k;
          if (m[i] != want || p[i] != want) {
            ++failures;
            ADD_FAILURE() << "thread " << t << " element " << i << ": managed " << m[i] << ", copy " << p[i]
                          << ", expected " << want;
            break;
          }
        }
        bytes_checked += static_cast<long>(bytes);
        if (Bad(aclrtFree(m), "aclrtFree", t)) ++failures;
        ++rounds;
      }
      (void)aclrtFree(dev);
      (void)aclrtFreeHost(pinned);
      (void)aclrtDestroyStream(s);
    });
  }
  for (auto& th : ts) th.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_GT(rounds.load(), 0);
  std::printf("[stress] %.1f s: %ld rounds, %ld launches, %.1f MiB checked, 0 lost\n", Seconds(), rounds.load(),
              launches.load(), static_cast<double>(bytes_checked.load()) / (1 << 20));
  ACL_OK(aclrtBinaryUnLoad(bin));
  ACL_OK(aclrtResetDeviceForce(0));
}

// The range a free hands back may be allocated again by another thread at
// once: the allocation map must have forgotten the old allocation by then
// (a new allocation that "overlaps" a freed one was a 507000 here).
TEST(StressTest, FreedRangesAreReusableAtOnceByOtherThreads) {
  ACL_OK(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  ACL_OK(aclrtGetCurrentContext(&ctx));
  std::atomic<long> failures{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&, t] {
      if (Bad(aclrtSetCurrentContext(ctx), "aclrtSetCurrentContext", t)) return void(++failures);
      for (int i = 0; i < 400 && failures.load() == 0; ++i) {
        void* m = nullptr;
        void* d = nullptr;
        void* h = nullptr;
        if (Bad(aclrtMemAllocManaged(&m, kBlock, ACL_RT_MEM_ATTACH_GLOBAL), "aclrtMemAllocManaged", t)) ++failures;
        if (Bad(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc", t)) ++failures;
        if (Bad(aclrtMallocHost(&h, 4096), "aclrtMallocHost", t)) ++failures;
        if (m && Bad(aclrtFree(m), "aclrtFree managed", t)) ++failures;
        if (d && Bad(aclrtFree(d), "aclrtFree", t)) ++failures;
        if (h && Bad(aclrtFreeHost(h), "aclrtFreeHost", t)) ++failures;
      }
    });
  }
  for (auto& th : ts) th.join();
  EXPECT_EQ(0, failures.load());
  ACL_OK(aclrtResetDeviceForce(0));
}

}  // namespace
