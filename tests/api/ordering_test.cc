// Ordering guarantees, made deterministic with gates (host functions that
// block their stream until the test opens them):
//  - tasks on one stream run in submission order;
//  - tasks on different streams run concurrently;
//  - aclrtStreamWaitEvent makes stream B wait for a record on stream A;
//  - a synchronous aclrtMemcpy/aclrtMemset is ordered after device work
//    already submitted (acl-api.md §9 item 10);
//  - destroying a stream, resetting a device and aclFinalize drain the work
//    submitted before them.
// "Has not happened yet" checks give the runtime a short grace period; they
// can only pass wrongly, never fail wrongly, on a slow machine.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "api_test_util.h"

namespace {

using apitest::ClearErrorState;
using apitest::Gate;
using apitest::Seq;
using apitest::SleepMs;
using apitest::WaitUntil;

constexpr int kGraceMs = 30;

class ApiOrderingTest : public apitest::DeviceTest {};

TEST_F(ApiOrderingTest, OneStreamRunsInOrder) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  for (int i = 0; i < 50; ++i) ASSERT_EQ(ACL_SUCCESS, seq.Append(s, i));
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_EQ(0u, seq.size());  // nothing overtakes the blocked task
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<int> want(50);
  for (int i = 0; i < 50; ++i) want[i] = i;
  EXPECT_EQ(want, seq.Get());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, CopiesAndHostFunctionsShareTheStreamOrder) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  // Page-locked destinations: copies into pageable memory would (correctly)
  // not return before they are done, and the gate is opened on this thread.
  void *pb = nullptr, *pc = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pb, 4096));
  ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost(&pc, 4096));
  std::memset(pb, 0, 4096);
  std::memset(pc, 0, 4096);
  auto* b = static_cast<unsigned char*>(pb);
  auto* c = static_cast<unsigned char*>(pc);
  std::vector<unsigned char> a(4096, 0xA1);
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dev, 4096, a.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(b, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(dev, 4096, 0x3C, 4096, s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(c, 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_EQ(0, b[0]);
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(std::vector<unsigned char>(4096, 0xA1), std::vector<unsigned char>(b, b + 4096));
  EXPECT_EQ(std::vector<unsigned char>(4096, 0x3C), std::vector<unsigned char>(c, c + 4096));
  EXPECT_ACL_OK(aclrtFreeHost(pb));
  EXPECT_ACL_OK(aclrtFreeHost(pc));
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, DifferentStreamsRunConcurrently) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(a, 1));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(b, 2));
  // b completes while a is blocked.
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_EQ((std::vector<int>{2}), seq.Get());
  aclrtStreamStatus st;
  EXPECT_ACL_OK(aclrtStreamQuery(a, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
  // The default stream is independent of a as well.
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 3));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ((std::vector<int>{2, 3}), seq.Get());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_EQ((std::vector<int>{2, 3, 1}), seq.Get());
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiOrderingTest, TwoBlockedStreamsAreBothRunning) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(b));
  // Both host functions are inside the gate at the same time.
  EXPECT_TRUE(gate.WaitEntered(2));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiOrderingTest, StreamWaitEventOrdersStreams) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(a, 1));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, a));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(a, 3));  // after the record: not waited for
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(b, e));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(b, 2));
  EXPECT_ACL(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, aclrtSynchronizeStreamWithTimeout(b, kGraceMs));
  EXPECT_EQ(0u, seq.size());
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  std::vector<int> got = seq.Get();
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(1, got[0]);  // a's task before the record ran before b's task
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_EQ(3u, seq.size());
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiOrderingTest, StreamWaitEventUsesTheLatestRecordAtCallTime) {
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, a));
  ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(a));
  ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(b, e));  // waits for the completed record
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(a));
  ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e, a));  // a later record does not matter to b
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(b, 5000));
  gate.Open();
  EXPECT_ACL_OK(aclrtSynchronizeStream(a));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(a));
  EXPECT_ACL_OK(aclrtDestroyStream(b));
}

TEST_F(ApiOrderingTest, StreamWaitEventArguments) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEvent(s, nullptr));
  aclrtEvent e = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e));
  EXPECT_ACL(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamWaitEventWithTimeout(s, e, -1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(nullptr, e));  // default stream
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtDestroyEvent(e));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, SynchronousMemcpyWaitsForSubmittedWork) {
  aclrtContext ctx = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  constexpr size_t kN = 1 << 16;
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(dev, kN, 0, kN));
  std::vector<unsigned char> pattern(kN);
  for (size_t i = 0; i < kN; ++i) pattern[i] = static_cast<unsigned char>(i * 7 + 1);
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dev, kN, pattern.data(), kN, ACL_MEMCPY_HOST_TO_DEVICE, s));

  std::vector<unsigned char> out(kN, 0xEE);
  std::atomic<bool> done{false};
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(ctx));
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, dev, kN, ACL_MEMCPY_DEVICE_TO_HOST));
    done.store(true);
  });
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_FALSE(done.load());  // the copy waits for the blocked stream
  gate.Open();
  t.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ(pattern, out);
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, SynchronousDeviceToDeviceCopyAfterUserStreamWork) {
  // S20's shape: async work on a user stream, then a synchronous D2D copy
  // without a stream synchronize in between.
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  constexpr size_t kN = 8192;
  void *d1 = nullptr, *d2 = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d1, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d2, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(d1, kN, 0x5A, kN, s));
  std::thread opener([&] {
    gate.WaitEntered();
    SleepMs(kGraceMs);
    gate.Open();
  });
  EXPECT_ACL_OK(aclrtMemcpy(d2, kN, d1, kN, ACL_MEMCPY_DEVICE_TO_DEVICE));
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, d2, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  opener.join();
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x5A), out);
  EXPECT_ACL_OK(aclrtFree(d1));
  EXPECT_ACL_OK(aclrtFree(d2));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, SynchronousMemsetWaitsForSubmittedWork) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  constexpr size_t kN = 4096;
  void* dev = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, kN, ACL_MEM_MALLOC_HUGE_FIRST));
  Gate gate;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(dev, kN, 0x11, kN, s));
  std::thread opener([&] {
    gate.WaitEntered();
    SleepMs(kGraceMs);
    gate.Open();
  });
  // Must land after the queued 0x11 fill.
  EXPECT_ACL_OK(aclrtMemset(dev, kN, 0x22, kN));
  opener.join();
  std::vector<unsigned char> out(kN);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), kN, dev, kN, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(std::vector<unsigned char>(kN, 0x22), out);
  EXPECT_ACL_OK(aclrtFree(dev));
  EXPECT_ACL_OK(aclrtDestroyStream(s));
}

TEST_F(ApiOrderingTest, DestroyStreamDrainsSubmittedWork) {
  aclrtContext ctx = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  std::atomic<bool> done{false};
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(ctx));
    EXPECT_ACL_OK(aclrtDestroyStream(s));
    done.store(true);
  });
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_FALSE(done.load());
  gate.Open();
  t.join();
  EXPECT_EQ((std::vector<int>{1}), seq.Get());
}

TEST_F(ApiOrderingTest, DestroyStreamForceLetsSubmittedWorkRun) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  std::thread opener([&] {
    gate.WaitEntered();
    SleepMs(kGraceMs);
    gate.Open();
  });
  EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
  opener.join();
  EXPECT_TRUE(WaitUntil([&] { return seq.size() == 1; }));
}

TEST_F(ApiOrderingTest, ResetDeviceDrainsSubmittedWork) {
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(nullptr, 2));
  std::atomic<bool> done{false};
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtResetDeviceForce(0));
    done.store(true);
  });
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_FALSE(done.load());
  gate.Open();
  t.join();
  std::vector<int> got = seq.Get();
  std::sort(got.begin(), got.end());
  EXPECT_EQ((std::vector<int>{1, 2}), got);
}

TEST_F(ApiOrderingTest, FinalizeDrainsSubmittedWork) {
  ASSERT_EQ(ACL_SUCCESS, aclInit(nullptr));
  aclrtStream s = nullptr;
  ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  Gate gate;
  Seq seq;
  ASSERT_EQ(ACL_SUCCESS, gate.Enqueue(s));
  ASSERT_EQ(ACL_SUCCESS, seq.Append(s, 1));
  std::atomic<bool> done{false};
  std::thread t([&] {
    EXPECT_ACL_OK(aclFinalize());
    done.store(true);
  });
  ASSERT_TRUE(gate.WaitEntered());
  SleepMs(kGraceMs);
  EXPECT_FALSE(done.load());
  gate.Open();
  t.join();
  EXPECT_EQ((std::vector<int>{1}), seq.Get());
}

TEST_F(ApiOrderingTest, HostFunctionsOnManyStreamsAllRun) {
  constexpr int kStreams = 8, kTasks = 100;
  std::vector<aclrtStream> ss(kStreams);
  std::vector<Seq> seqs(kStreams);
  for (auto& s : ss) ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
  for (int t = 0; t < kTasks; ++t)
    for (int i = 0; i < kStreams; ++i) ASSERT_EQ(ACL_SUCCESS, seqs[i].Append(ss[i], t));
  std::vector<int> want(kTasks);
  for (int t = 0; t < kTasks; ++t) want[t] = t;
  for (int i = 0; i < kStreams; ++i) {
    EXPECT_ACL_OK(aclrtSynchronizeStream(ss[i]));
    EXPECT_EQ(want, seqs[i].Get());
    EXPECT_ACL_OK(aclrtDestroyStream(ss[i]));
  }
}

}  // namespace
