// Host threads write managed memory while device copies and fills run over
// the same blocks (other pages of them); afterwards every byte is checked.
// Migrations triggered by the device must never lose a concurrent host write.
#include <atomic>
#include <chrono>
#include <thread>

#include "uvm_fixture.h"

using namespace uvmtest;

TEST_F(UvmTest, HostWritesDuringDeviceTrafficAreNeverLost) {
  const size_t blocks = 2, n = blocks * kBlock;
  char* p = Alloc(n);
  std::memset(p, 0, n);
  // Pages are split by index: even pages belong to the host writers, odd
  // pages to the device. Both sides hammer the same blocks.
  std::atomic<bool> stop{false};
  std::atomic<int> ready{0};
  const int kWriters = 2, kRounds = 6;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      ready++;
      unsigned v = 1;
      while (!stop.load()) {
        for (size_t page = static_cast<size_t>(w) * 2; page < n / kPage; page += 2 * kWriters) {
          volatile char* q = p + page * kPage;
          for (size_t i = 0; i < kPage; i += 512) q[i] = static_cast<char>(v);
        }
        ++v;
      }
      // final, known value
      for (size_t page = static_cast<size_t>(w) * 2; page < n / kPage; page += 2 * kWriters)
        std::memset(p + page * kPage, 100 + w, kPage);
    });
  }
  while (ready.load() < kWriters) std::this_thread::yield();
  for (int r = 0; r < kRounds; ++r) {
    for (size_t page = 1; page < n / kPage; page += 2)
      ASSERT_EQ(aclrtMemsetAsync(p + page * kPage, kPage, r, kPage, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  stop = true;
  for (auto& t : writers) t.join();
  for (size_t page = 0; page < n / kPage; ++page) {
    char want = (page % 2) ? static_cast<char>(kRounds - 1) : static_cast<char>(100 + (page / 2) % kWriters);
    for (size_t i = 0; i < kPage; ++i) ASSERT_EQ(p[page * kPage + i], want) << "page " << page << " byte " << i;
  }
  simnpu_uvm_counters c = Counters();
  EXPECT_GT(c.host_faults, 0u);
  EXPECT_GT(c.device_faults, 0u);
}

TEST_F(UvmTest, ManyThreadsFaultTheSameBlockOnce) {
  char* p = Alloc(kBlock);
  DeviceFill(p, kBlock, 7);
  simnpu_uvm_reset_counters();
  std::vector<std::thread> ts;
  std::atomic<int> sum{0};
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] { sum += p[t * 4096 * 50]; });
  for (auto& t : ts) t.join();
  EXPECT_EQ(sum.load(), 8 * 7);
  // Concurrent faults on one block are served by one migration.
  EXPECT_EQ(Counters().pages_d2h, 512u);
}

// Range queries and advice racing with the free of their range
// either succeed or report an invalid range; they never touch a freed block.
TEST_F(UvmTest, RangeCallsRacingAFreeNeverCrash) {
  std::atomic<char*> cur{nullptr};
  std::atomic<bool> stop{false};
  std::atomic<long> calls{0};
  aclrtContext ctx = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  std::thread caller([&] {
    EXPECT_EQ(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
    std::vector<uint32_t> res(1024);
    int32_t rm = 0;
    while (!stop.load()) {
      char* p = cur.load();
      if (!p) continue;
      int rc = simnpu_uvm_query_residency(p, 2 * kBlock, res.data(), res.size());
      EXPECT_TRUE(rc == 0 || rc == ACL_ERROR_RT_PARAM_INVALID) << rc;
      aclError e = aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * kBlock, &rm, 4);
      EXPECT_TRUE(e == ACL_SUCCESS || e == ACL_ERROR_RT_PARAM_INVALID) << e;
      e = aclrtMemManagedAdvise(p, 2 * kBlock, ACL_MEM_ADVISE_SET_ACCESSED_BY, Dev(0));
      EXPECT_TRUE(e == ACL_SUCCESS || e == ACL_ERROR_RT_PARAM_INVALID) << e;
      ++calls;
      std::this_thread::yield();  // let the freer's exclusive lock in
    }
  });
  // Bounded in time as well as in rounds: sanitizer builds are much slower.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  for (int i = 0; i < 1000 && std::chrono::steady_clock::now() < deadline; ++i) {
    void* p = nullptr;
    aclError e = aclrtMemAllocManaged(&p, 2 * kBlock, ACL_RT_MEM_ATTACH_GLOBAL);
    EXPECT_EQ(e, ACL_SUCCESS);
    if (e != ACL_SUCCESS) break;
    cur.store(static_cast<char*>(p));
    std::this_thread::yield();
    cur.store(nullptr);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  stop = true;
  caller.join();
  EXPECT_GT(calls.load(), 0);
}
