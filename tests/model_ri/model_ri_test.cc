// Capture, replay, task update, conditional tasks and external events of
// model runtime instances (acl-api-ext.md §5.2-5.4).
#include <atomic>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "api/api_test_util.h"

namespace {

using apitest::Seq;
using apitest::SleepMs;
using apitest::TakeErrMsg;

class ModelRiTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s_));
  }
  void TearDown() override {
    (void)aclmdlRICaptureEnd(s_, &scratch_);
    apitest::DeviceTest::TearDown();
  }
  // n bytes of device memory, zeroed.
  void* DevAlloc(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemset(p, n, 0, n));
    return p;
  }
  template <typename T>
  std::vector<T> Read(const void* dev, size_t count) {
    std::vector<T> out(count);
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(out.data(), count * sizeof(T), dev, count * sizeof(T),
                                       ACL_MEMCPY_DEVICE_TO_HOST));
    return out;
  }
  uint64_t ReadWord(const void* dev) { return Read<uint64_t>(dev, 1)[0]; }
  void WriteWord(void* dev, uint64_t v) {
    ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  }

  aclrtStream s_ = nullptr;
  aclmdlRI scratch_ = nullptr;
};

// Captured tasks do not run; each execution runs them all, in order, and a
// copy reads its (page-locked) source as it is at execution time.
TEST_F(ModelRiTest, CaptureRecordsAndReplayReadsBuffersAtExecution) {
  void* dst = DevAlloc(64);
  void* host = nullptr;
  ACL_OK(aclrtMallocHost(&host, 64));
  std::memset(host, 0x11, 64);
  Seq seq;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtMemsetAsync(dst, 64, 0x7f, 64, s_));
  ACL_OK(aclrtMemcpyAsync(dst, 64, host, 32, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  ACL_OK(seq.Append(s_, 1));
  ACL_OK(seq.Append(s_, 2));
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI during = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(s_, &st, &during));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, st);
  EXPECT_NE(nullptr, during);
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  EXPECT_EQ(during, m);
  ACL_OK(aclmdlRICaptureGetInfo(s_, &st, nullptr));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, st);
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(0u, seq.size());              // recorded, not run
  EXPECT_EQ(0, Read<uint8_t>(dst, 64)[0]);

  for (int run = 0; run < 3; ++run) {
    std::memset(host, 0x20 + run, 64);
    ACL_OK(aclmdlRIExecuteAsync(m, s_));
    ACL_OK(aclrtSynchronizeStream(s_));
    auto d = Read<uint8_t>(dst, 64);
    for (int i = 0; i < 32; ++i) ASSERT_EQ(0x20 + run, d[i]) << run << " " << i;
    for (int i = 32; i < 64; ++i) ASSERT_EQ(0x7f, d[i]) << run << " " << i;
  }
  EXPECT_EQ((std::vector<int>{1, 2, 1, 2, 1, 2}), seq.Get());
  ACL_OK(aclmdlRIDestroy(m));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtFreeHost(host));
  ACL_OK(aclrtFree(dst));
}

// A pageable source is not copied at capture time either (the stream records).
TEST_F(ModelRiTest, PageableSourceIsReadAtEachExecution) {
  void* dst = DevAlloc(16);
  std::vector<uint8_t> src(16, 1);
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtMemcpyAsync(dst, 16, src.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  src.assign(16, 9);
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(std::vector<uint8_t>(16, 9), Read<uint8_t>(dst, 16));
  ACL_OK(aclmdlRIDestroy(m));
  // In a GLOBAL capture the same copy is an unsafe call.
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
            aclrtMemcpyAsync(dst, 16, src.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, s_));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));
}

TEST_F(ModelRiTest, CaptureArgumentChecks) {
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICaptureBegin(s_, static_cast<aclmdlRICaptureMode>(3)));
  aclrtStream def = nullptr;
  ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
  EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(s_, &m));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureEnd(s_, nullptr));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureGetInfo(s_, nullptr, nullptr));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  // A model still capturing cannot run; a capturing stream cannot run one.
  aclmdlRI cur = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(s_, nullptr, &cur));
  aclrtStream other = nullptr;
  ACL_OK(aclrtCreateStream(&other));
  EXPECT_EQ(ACL_ERROR_RT_MODEL_EXECUTE, aclmdlRIExecuteAsync(cur, other));
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRIExecuteAsync(m, other));
  aclmdlRI m2 = nullptr;
  ACL_OK(aclmdlRICaptureEnd(other, &m2));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(nullptr, s_));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroy(nullptr));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(m, 0));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecute(m, -2));
  ACL_OK(aclmdlRIExecute(m, -1));
  ACL_OK(aclmdlRIExecute(m, 1000));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclmdlRIDestroy(m2));
}

// Synchronising a capturing stream is illegal and invalidates the capture.
TEST_F(ModelRiTest, SynchronizeDuringCaptureInvalidates) {
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(s_));
  EXPECT_NE(std::string::npos, TakeErrMsg().find("being captured"));
  aclrtStreamStatus ss;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtStreamQuery(s_, &ss));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeDevice());
  aclmdlRICaptureStatus st;
  ACL_OK(aclmdlRICaptureGetInfo(s_, &st, nullptr));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, st);
  aclmdlRI m = reinterpret_cast<aclmdlRI>(1);
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));
  EXPECT_EQ(nullptr, m);
  ACL_OK(aclrtSynchronizeStream(s_));  // an ordinary stream again
}

// GLOBAL: unsafe calls fail in every thread (unless it switched to RELAXED);
// THREAD_LOCAL: only in the capturing thread; RELAXED: allowed and immediate.
TEST_F(ModelRiTest, CaptureModesRestrictUnsafeCalls) {
  void* dev = DevAlloc(8);
  uint64_t v = 5;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  aclError other_rc = -1;
  std::thread([&] {
    aclrtSetDevice(0);
    other_rc = aclrtMemset(dev, 8, 1, 8);
  }).join();
  EXPECT_EQ(ACL_SUCCESS, other_rc);  // another thread may
  // The capturing thread switches itself to RELAXED: the copy runs now.
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, mode);  // the default
  ACL_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(5u, ReadWord(dev));
  ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, mode);
  EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, aclrtMemset(dev, 8, 0, 8));
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));

  // GLOBAL forbids another thread too.
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  std::thread([&] {
    aclrtSetDevice(0);
    other_rc = aclrtMemset(dev, 8, 1, 8);
  }).join();
  EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, other_rc);
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));

  // RELAXED capture: the capturing thread may copy synchronously.
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  v = 7;
  ACL_OK(aclrtMemcpy(dev, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_EQ(7u, ReadWord(dev));
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclmdlRIDestroy(m));
  aclmdlRICaptureMode bad = static_cast<aclmdlRICaptureMode>(9);
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICaptureThreadExchangeMode(&bad));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(nullptr));
}

TEST_F(ModelRiTest, EndOnAnotherThread) {
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclError rc = -1;
  aclmdlRI m = nullptr;
  std::thread([&] { rc = aclmdlRICaptureEnd(s_, &m); }).join();
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, rc);
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclmdlRIDestroy(m));
  // RELAXED captures may end anywhere.
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  std::thread([&] { rc = aclmdlRICaptureEnd(s_, &m); }).join();
  EXPECT_EQ(ACL_SUCCESS, rc);
  ACL_OK(aclmdlRIDestroy(m));
}

// Fork/join through events: the side stream joins the capture; replay
// keeps the order the events impose.
TEST_F(ModelRiTest, CrossStreamCaptureKeepsEventOrder) {
  aclrtStream side = nullptr;
  ACL_OK(aclrtCreateStream(&side));
  aclrtEvent fork = nullptr, join = nullptr;
  ACL_OK(aclrtCreateEvent(&fork));
  ACL_OK(aclrtCreateEvent(&join));
  Seq seq;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(seq.Append(s_, 1));
  ACL_OK(aclrtRecordEvent(fork, s_));
  ACL_OK(aclrtStreamWaitEvent(side, fork));  // side joins the capture
  aclmdlRICaptureStatus st;
  ACL_OK(aclmdlRICaptureGetInfo(side, &st, nullptr));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, st);
  ACL_OK(seq.Append(side, 2));
  ACL_OK(aclrtRecordEvent(join, side));
  ACL_OK(aclrtStreamWaitEvent(s_, join));
  ACL_OK(seq.Append(s_, 3));
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, aclmdlRICaptureEnd(side, &m));
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclmdlRICaptureGetInfo(side, &st, nullptr));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, st);
  ACL_OK(aclrtSynchronizeStream(side));
  EXPECT_EQ(0u, seq.size());
  for (int i = 0; i < 2; ++i) {
    ACL_OK(aclmdlRIExecuteAsync(m, s_));
    ACL_OK(aclrtSynchronizeStream(s_));
  }
  EXPECT_EQ((std::vector<int>{1, 2, 3, 1, 2, 3}), seq.Get());
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(ModelRiTest, SynchronizingACapturedEventInvalidates) {
  aclrtEvent e = nullptr;
  ACL_OK(aclrtCreateEvent(&e));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtRecordEvent(e, s_));
  EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtSynchronizeEvent(e));
  EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtSynchronizeEventWithTimeout(e, 10));
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclrtSynchronizeEvent(e));  // the capture is over
}

TEST_F(ModelRiTest, UnjoinedSideStreamFailsEnd) {
  aclrtStream side = nullptr;
  ACL_OK(aclrtCreateStream(&side));
  aclrtEvent fork = nullptr;
  ACL_OK(aclrtCreateEvent(&fork));
  Seq seq;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtRecordEvent(fork, s_));
  ACL_OK(aclrtStreamWaitEvent(side, fork));
  ACL_OK(seq.Append(side, 1));
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(s_, &m));
  EXPECT_EQ(nullptr, m);
  // Both streams run tasks again.
  ACL_OK(seq.Append(side, 5));
  ACL_OK(aclrtSynchronizeStream(side));
  EXPECT_EQ((std::vector<int>{5}), seq.Get());
}

// S40's pattern: the graph waits for an ACL_EVENT_EXTERNAL event recorded by
// the host after the launch, then resets it for the next execution.
TEST_F(ModelRiTest, ExternalEventWaitBlocksUntilRecordedAfterLaunch) {
  aclrtEvent ev = nullptr;
  ACL_OK(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL));
  aclrtStream upd = nullptr;
  ACL_OK(aclrtCreateStream(&upd));
  Seq seq;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtStreamWaitEvent(s_, ev));
  ACL_OK(aclrtResetEvent(ev, s_));
  ACL_OK(seq.Append(s_, 1));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  for (int run = 1; run <= 2; ++run) {
    ACL_OK(aclmdlRIExecuteAsync(m, s_));
    SleepMs(30);
    EXPECT_EQ(static_cast<size_t>(run - 1), seq.size()) << "the graph did not wait";
    aclrtStreamStatus ss;
    ACL_OK(aclrtStreamQuery(s_, &ss));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, ss);
    ACL_OK(aclrtRecordEvent(ev, upd));
    ACL_OK(aclrtSynchronizeStream(upd));
    ACL_OK(aclrtSynchronizeStream(s_));
    EXPECT_EQ(static_cast<size_t>(run), seq.size());
  }
  ACL_OK(aclmdlRIDestroy(m));
}

// S43: a graph records an external event on every execution; an outside
// stream waits for it. And the flag checks.
TEST_F(ModelRiTest, RecordAndWaitWithFlags) {
  aclrtEvent ev = nullptr;
  ACL_OK(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_SYNC));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(ev, s_, 2));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s_, ev, 0, 2));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(s_, ev, 5, ACL_EVENT_WAIT_EXTERNAL));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtRecordEventWithFlag(ev, s_, ACL_EVENT_RECORD_EXTERNAL));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtStreamWaitEventWithFlag(s_, ev, 0, ACL_EVENT_WAIT_EXTERNAL));
  // DEFAULT flags are the plain calls.
  ACL_OK(aclrtRecordEventWithFlag(ev, s_, ACL_EVENT_RECORD_DEFAULT));
  ACL_OK(aclrtStreamWaitEventWithFlag(s_, ev, 0, ACL_EVENT_WAIT_DEFAULT));
  ACL_OK(aclrtSynchronizeStream(s_));

  void* src = DevAlloc(32);
  void* dst = DevAlloc(32);
  std::vector<int32_t> in{1, 2, 3, 4, 5, 6, 7, 8}, out(8, 0);
  ACL_OK(aclrtMemcpy(src, 32, in.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtEvent ext = nullptr;
  ACL_OK(aclrtCreateEventExWithFlag(&ext, ACL_EVENT_SYNC));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtMemcpyAsync(dst, 32, src, 32, ACL_MEMCPY_DEVICE_TO_DEVICE, s_));
  ACL_OK(aclrtRecordEventWithFlag(ext, s_, ACL_EVENT_RECORD_EXTERNAL));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  aclrtStream outside = nullptr;
  ACL_OK(aclrtCreateStream(&outside));
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtStreamWaitEvent(outside, ext));
  ACL_OK(aclrtMemcpyAsync(out.data(), 32, dst, 32, ACL_MEMCPY_DEVICE_TO_HOST, outside));
  ACL_OK(aclrtSynchronizeStream(outside));
  EXPECT_EQ(in, out);

  // A second graph waits (EXTERNAL) for the record made by the first.
  void* dst2 = DevAlloc(32);
  ACL_OK(aclmdlRICaptureBegin(outside, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtStreamWaitEventWithFlag(outside, ext, 0, ACL_EVENT_WAIT_EXTERNAL));
  ACL_OK(aclrtMemcpyAsync(dst2, 32, dst, 32, ACL_MEMCPY_DEVICE_TO_DEVICE, outside));
  aclmdlRI m2 = nullptr;
  ACL_OK(aclmdlRICaptureEnd(outside, &m2));
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclmdlRIExecuteAsync(m2, outside));
  ACL_OK(aclrtSynchronizeStream(outside));
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(in, Read<int32_t>(dst2, 8));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclmdlRIDestroy(m2));
}

// Task groups: an update replaces the group's tasks for later executions;
// the count and types must match.
TEST_F(ModelRiTest, TaskGroupUpdate) {
  void* a = DevAlloc(16);
  void* b = DevAlloc(16);
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclrtTaskGrp grp = nullptr;
  EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpEnd(s_, &grp));
  ACL_OK(aclrtMemsetAsync(a, 16, 1, 16, s_));
  ACL_OK(aclmdlRICaptureTaskGrpBegin(s_));
  EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpBegin(s_));
  ACL_OK(aclrtMemsetAsync(b, 16, 2, 16, s_));
  ACL_OK(aclmdlRICaptureTaskGrpEnd(s_, &grp));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskGrpBegin(s_));
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(std::vector<uint8_t>(16, 2), Read<uint8_t>(b, 16));

  aclrtStream upd = nullptr;
  ACL_OK(aclrtCreateStream(&upd));
  ACL_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
  ACL_OK(aclrtMemsetAsync(b, 16, 9, 16, upd));
  ACL_OK(aclmdlRICaptureTaskUpdateEnd(upd));
  ACL_OK(aclrtSynchronizeStream(upd));
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(std::vector<uint8_t>(16, 9), Read<uint8_t>(b, 16));
  EXPECT_EQ(std::vector<uint8_t>(16, 1), Read<uint8_t>(a, 16));

  // Two tasks for a group of one: refused, the group keeps its task.
  ACL_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
  ACL_OK(aclrtMemsetAsync(b, 16, 3, 16, upd));
  ACL_OK(aclrtMemsetAsync(b, 16, 4, 16, upd));
  EXPECT_EQ(ACL_ERROR_RT_MODEL_UPDATE_FAILED, aclmdlRICaptureTaskUpdateEnd(upd));
  EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateEnd(upd));
  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  ACL_OK(aclrtSynchronizeStream(s_));
  EXPECT_EQ(std::vector<uint8_t>(16, 9), Read<uint8_t>(b, 16));
  // A capturing stream cannot update.
  ACL_OK(aclmdlRICaptureBegin(upd, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureTaskUpdateBegin(upd, grp));
  aclmdlRI m2 = nullptr;
  ACL_OK(aclmdlRICaptureEnd(upd, &m2));
  ACL_OK(aclmdlRIDestroy(m2));
  ACL_OK(aclmdlRIDestroy(m));
}

// Conditional tasks: IF picks a branch from the condition word; with
// ASSIGN_DEFAULT the word is reset at every launch.
class CondTest : public ModelRiTest {
 protected:
  // Captures a model with one conditional task of `type` with n branches;
  // branch i writes i+1 into *out_ (a memset of 8 bytes).
  aclmdlRI Make(aclmdlRICondTaskType type, uint32_t n, uint32_t def, aclmdlRICondHandleFlag flag,
                uint64_t** cond) {
    out_ = DevAlloc(8);
    aclrtStream sub = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtCreateStream(&sub));
    EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    aclmdlRI parent = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(s_, nullptr, &parent));
    aclmdlRICondHandle h = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclmdlRICondHandleCreate(parent, def, flag, &h));
    EXPECT_EQ(ACL_SUCCESS, aclmdlRICondHandleGetCondPtr(h, cond));
    std::vector<aclmdlRI> subs(n, nullptr);
    aclmdlRICondTaskParams p{h, type, n, subs.data()};
    EXPECT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, s_, 0));
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_NE(nullptr, subs[i]);
      EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(sub, subs[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
      EXPECT_EQ(ACL_SUCCESS, aclrtMemsetAsync(out_, 8, static_cast<int>(i + 1), 8, sub));
      if (type == ACL_MODEL_RI_COND_TYPE_WHILE) {  // the body ends the loop, and counts
        EXPECT_EQ(ACL_SUCCESS, aclrtMemsetAsync(*cond, 8, 0, 8, sub));
        EXPECT_EQ(ACL_SUCCESS, seq_.Append(sub, 1));
      }
      aclmdlRI ended = nullptr;
      EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(sub, &ended));
      EXPECT_EQ(subs[i], ended);
    }
    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(subs[0]));  // owned by the parent
    aclmdlRI m = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s_, &m));
    EXPECT_EQ(parent, m);
    return m;
  }
  uint8_t RunWith(aclmdlRI m, uint64_t* cond, uint64_t v) {
    WriteWord(cond, v);
    WriteWord(out_, 0);
    EXPECT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(m, s_));
    EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s_));
    return Read<uint8_t>(out_, 1)[0];
  }
  void* out_ = nullptr;
  Seq seq_;
};

TEST_F(CondTest, IfUserManagedValue) {
  uint64_t* cond = nullptr;
  aclmdlRI m = Make(ACL_MODEL_RI_COND_TYPE_IF, 2, 0, static_cast<aclmdlRICondHandleFlag>(0), &cond);
  EXPECT_EQ(1, RunWith(m, cond, 1));  // true: branch 0
  EXPECT_EQ(2, RunWith(m, cond, 0));  // false: branch 1
  EXPECT_EQ(1, RunWith(m, cond, 42));
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(CondTest, AssignDefaultOverridesHostValue) {
  uint64_t* cond = nullptr;
  aclmdlRI m = Make(ACL_MODEL_RI_COND_TYPE_IF, 2, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &cond);
  EXPECT_EQ(2, RunWith(m, cond, 1));  // reset to 0 at launch: the false branch
  EXPECT_EQ(2, RunWith(m, cond, 0));
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(CondTest, IfWithoutElse) {
  uint64_t* cond = nullptr;
  aclmdlRI m = Make(ACL_MODEL_RI_COND_TYPE_IF, 1, 0, static_cast<aclmdlRICondHandleFlag>(0), &cond);
  EXPECT_EQ(1, RunWith(m, cond, 1));
  EXPECT_EQ(0, RunWith(m, cond, 0));
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(CondTest, SwitchRunsTheIndexedBranch) {
  uint64_t* cond = nullptr;
  aclmdlRI m = Make(ACL_MODEL_RI_COND_TYPE_SWITCH, 3, 0, static_cast<aclmdlRICondHandleFlag>(0), &cond);
  EXPECT_EQ(1, RunWith(m, cond, 0));
  EXPECT_EQ(2, RunWith(m, cond, 1));
  EXPECT_EQ(3, RunWith(m, cond, 2));
  EXPECT_EQ(0, RunWith(m, cond, 3));  // out of range: no branch
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(CondTest, WhileRunsWhileNonZero) {
  uint64_t* cond = nullptr;
  aclmdlRI m = Make(ACL_MODEL_RI_COND_TYPE_WHILE, 1, 0, static_cast<aclmdlRICondHandleFlag>(0), &cond);
  EXPECT_EQ(1, RunWith(m, cond, 1));  // one iteration: the body clears the word
  EXPECT_EQ(1u, seq_.size());
  EXPECT_EQ(0, RunWith(m, cond, 0));  // checked before the first iteration
  EXPECT_EQ(1u, seq_.size());
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(ModelRiTest, CondArgumentChecks) {
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  aclmdlRI parent = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(s_, nullptr, &parent));
  aclmdlRICondHandle h = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
            aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(2), &h));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, nullptr));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleCreate(nullptr, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
  ACL_OK(aclmdlRICondHandleCreate(parent, 7, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
  uint64_t* ptr = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleGetCondPtr(h, nullptr));
  ACL_OK(aclmdlRICondHandleGetCondPtr(h, &ptr));
  EXPECT_EQ(7u, ReadWord(ptr));
  aclmdlRI subs[3] = {};
  aclmdlRICondTaskParams bad_if{h, ACL_MODEL_RI_COND_TYPE_IF, 3, subs};
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(bad_if, s_, 0));
  aclmdlRICondTaskParams bad_while{h, ACL_MODEL_RI_COND_TYPE_WHILE, 2, subs};
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(bad_while, s_, 0));
  aclmdlRICondTaskParams bad_switch{h, ACL_MODEL_RI_COND_TYPE_SWITCH, 0, subs};
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(bad_switch, s_, 0));
  aclmdlRICondTaskParams ok{h, ACL_MODEL_RI_COND_TYPE_IF, 1, subs};
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIAddCondTask(ok, nullptr, 0));
  aclrtStream other = nullptr;
  ACL_OK(aclrtCreateStream(&other));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRIAddCondTask(ok, other, 0));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(ModelRiTest, NameAndId) {
  aclmdlRI a = nullptr, b = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&a, 0));
  ACL_OK(aclmdlRIBuildBegin(&b, 0));
  uint32_t ia = 0, ib = 0;
  ACL_OK(aclmdlRIGetId(a, &ia));
  ACL_OK(aclmdlRIGetId(b, &ib));
  EXPECT_NE(ia, ib);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(a, nullptr));
  char buf[600];
  ACL_OK(aclmdlRIGetName(a, sizeof buf, buf));
  EXPECT_STREQ("", buf);  // never named
  ACL_OK(aclmdlRISetName(a, "first"));
  ACL_OK(aclmdlRISetName(a, "graph"));  // the last name wins
  ACL_OK(aclmdlRIGetName(a, sizeof buf, buf));
  EXPECT_STREQ("graph", buf);
  ACL_OK(aclmdlRIGetName(a, 3, buf));
  EXPECT_STREQ("gr", buf);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(a, 0, buf));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(a, nullptr));
  const std::string lng(700, 'x');
  ACL_OK(aclmdlRISetName(a, lng.c_str()));
  ACL_OK(aclmdlRIGetName(a, sizeof buf, buf));
  EXPECT_EQ(511u, std::strlen(buf));
  ACL_OK(aclmdlRIDestroy(a));
  ACL_OK(aclmdlRIDestroy(b));
}

TEST_F(ModelRiTest, StreamsAndTasks) {
  void* word = DevAlloc(8);
  aclrtEvent e = nullptr;
  ACL_OK(aclrtCreateEvent(&e));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtValueWrite(word, 1, 0, s_));
  ACL_OK(aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, s_));
  ACL_OK(aclrtRecordEvent(e, s_));
  ACL_OK(aclrtResetEvent(e, s_));
  ACL_OK(aclrtMemsetAsync(word, 8, 0, 8, s_));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  uint32_t ns = 0;
  ACL_OK(aclmdlRIGetStreams(m, nullptr, &ns));
  ASSERT_EQ(1u, ns);
  aclrtStream got = nullptr;
  uint32_t small = 0;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetStreams(m, &got, &small));
  ACL_OK(aclmdlRIGetStreams(m, &got, &ns));
  EXPECT_EQ(s_, got);
  uint32_t nt = 0;
  ACL_OK(aclmdlRIGetTasksByStream(got, nullptr, &nt));
  ASSERT_EQ(5u, nt);
  std::vector<aclmdlRITask> tasks(nt);
  ACL_OK(aclmdlRIGetTasksByStream(got, tasks.data(), &nt));
  std::vector<int> types;
  for (auto t : tasks) {
    aclmdlRITaskType ty;
    ACL_OK(aclmdlRITaskGetType(t, &ty));
    types.push_back(ty);
  }
  EXPECT_EQ((std::vector<int>{ACL_MODEL_RI_TASK_VALUE_WRITE, ACL_MODEL_RI_TASK_VALUE_WAIT,
                              ACL_MODEL_RI_TASK_EVENT_RECORD, ACL_MODEL_RI_TASK_EVENT_RESET,
                              ACL_MODEL_RI_TASK_DEFAULT}),
            types);
  aclmdlRITaskType ty;
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskGetType(reinterpret_cast<aclmdlRITask>(&ty), &ty));
  aclrtStream other = nullptr;
  ACL_OK(aclrtCreateStream(&other));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIGetTasksByStream(other, nullptr, &nt));
  ACL_OK(aclmdlRIDestroy(m));
}

TEST_F(ModelRiTest, DebugJsonPrintWritesOneObjectPerTask) {
  Seq seq;
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(seq.Append(s_, 1));
  ACL_OK(seq.Append(s_, 2));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  const std::string path = testing::TempDir() + "/modelRI.json";
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(m, nullptr, 0));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(m, path.c_str(), 2));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDebugJsonPrint(m, "/nonexistent-dir/x.json", 0));
  ACL_OK(aclmdlRIDebugJsonPrint(m, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  size_t count = 0;
  for (size_t p = text.find("\"ph\":\"X\""); p != std::string::npos; p = text.find("\"ph\":\"X\"", p + 1)) ++count;
  EXPECT_EQ(2u, count) << text;
  EXPECT_NE(std::string::npos, text.find("aclGraph"));
  EXPECT_EQ('[', text[0]);
  ACL_OK(aclmdlRIDestroy(m));
}

}  // namespace
