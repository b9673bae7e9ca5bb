// Editing a finished model runtime instance (acl-api-ext.md §5.1 row
// "introspection and editing"): task sequence ids, task disable applied by
// aclmdlRIUpdate, destroy callbacks, aclmdlRIDebugPrint; and the event
// queries that a capture forbids (§5.2 capture semantics).
#include <cstring>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "simnpu/kernel_abi.h"

const simnpu_kernel_table* ModelEditKernelTable();

namespace {

using apitest::TakeErrMsg;

class ModelEditTest : public apitest::DeviceTest {
 protected:
  void SetUp() override {
    apitest::DeviceTest::SetUp();
    ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s_));
  }
  void TearDown() override {
    aclmdlRI scratch = nullptr;
    (void)aclmdlRICaptureEnd(s_, &scratch);
    apitest::DeviceTest::TearDown();
  }
  void* DevAlloc(size_t n) {
    void* p = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_EQ(ACL_SUCCESS, aclrtMemset(p, n, 0, n));
    return p;
  }
  uint64_t ReadWord(const void* dev) {
    uint64_t v = 0;
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(&v, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  }
  void Zero(void* dev) { ASSERT_EQ(ACL_SUCCESS, aclrtMemset(dev, 8, 0, 8)); }
  // The tasks recorded from stream s (the newest model recorded from it).
  std::vector<aclmdlRITask> Tasks(aclrtStream s) {
    uint32_t n = 0;
    EXPECT_EQ(ACL_SUCCESS, aclmdlRIGetTasksByStream(s, nullptr, &n));
    std::vector<aclmdlRITask> t(n);
    EXPECT_EQ(ACL_SUCCESS, aclmdlRIGetTasksByStream(s, t.data(), &n));
    return t;
  }
  void Run(aclmdlRI m) {
    ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(m, s_));
    ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s_));
  }

  aclrtStream s_ = nullptr;
};

// Three value writes captured: sequence ids follow the recording order.
TEST_F(ModelEditTest, TaskSeqIdIsThePositionInItsStream) {
  void* w = DevAlloc(24);
  auto* a = static_cast<uint8_t*>(w);
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int i = 0; i < 3; ++i) ACL_OK(aclrtValueWrite(a + 8 * i, 10 + i, 0, s_));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  auto tasks = Tasks(s_);
  ASSERT_EQ(3u, tasks.size());
  for (uint32_t i = 0; i < 3; ++i) {
    uint32_t id = 99;
    ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &id));
    EXPECT_EQ(i, id);
  }
  uint32_t id = 0;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetSeqId(nullptr, &id));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetSeqId(tasks[0], nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskGetSeqId(reinterpret_cast<aclmdlRITask>(&id), &id));
  EXPECT_FALSE(TakeErrMsg().empty());
  ACL_OK(aclmdlRIDestroy(m));
  // The model is gone: so are its tasks.
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskGetSeqId(tasks[0], &id));
  ACL_OK(aclrtFree(w));
}

// A disabled task keeps running until aclmdlRIUpdate; after it, every
// execution skips the task and runs the others.
TEST_F(ModelEditTest, DisabledTaskIsSkippedAfterUpdate) {
  void* w = DevAlloc(24);
  auto* a = static_cast<uint8_t*>(w);
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  for (int i = 0; i < 3; ++i) ACL_OK(aclrtValueWrite(a + 8 * i, 10 + i, 0, s_));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  auto tasks = Tasks(s_);
  ASSERT_EQ(3u, tasks.size());
  ACL_OK(aclmdlRITaskDisable(tasks[1]));
  Run(m);  // not updated yet: all three run
  EXPECT_EQ(10u, ReadWord(a));
  EXPECT_EQ(11u, ReadWord(a + 8));
  EXPECT_EQ(12u, ReadWord(a + 16));
  ACL_OK(aclmdlRIUpdate(m));
  for (int rep = 0; rep < 2; ++rep) {
    for (int i = 0; i < 3; ++i) Zero(a + 8 * i);
    Run(m);
    EXPECT_EQ(10u, ReadWord(a));
    EXPECT_EQ(0u, ReadWord(a + 8));
    EXPECT_EQ(12u, ReadWord(a + 16));
  }
  // Still listed (the task exists; it is only not scheduled).
  EXPECT_EQ(3u, Tasks(s_).size());
  testing::internal::CaptureStdout();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const aclError printed = aclmdlRIDebugPrint(m);
#pragma GCC diagnostic pop
  const std::string out = testing::internal::GetCapturedStdout();
  ACL_OK(printed);
  EXPECT_NE(std::string::npos, out.find("1 stream(s)")) << out;
  EXPECT_NE(std::string::npos, out.find("3 task(s)")) << out;
  EXPECT_NE(std::string::npos, out.find("task 1: value_write (disabled)")) << out;
  EXPECT_NE(std::string::npos, out.find("task 2: value_write\n")) << out;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskDisable(nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskDisable(reinterpret_cast<aclmdlRITask>(w)));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIUpdate(nullptr));
  EXPECT_FALSE(TakeErrMsg().empty());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugPrint(nullptr));
#pragma GCC diagnostic pop
  ACL_OK(aclmdlRIDestroy(m));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIUpdate(m));
  EXPECT_FALSE(TakeErrMsg().empty());
  ACL_OK(aclrtFree(w));
}

// A built model: the same edit works on a bound stream's tasks.
TEST_F(ModelEditTest, DisableInABuiltModel) {
  void* w = DevAlloc(16);
  auto* a = static_cast<uint8_t*>(w);
  aclrtStream ps = nullptr;
  ACL_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  ACL_OK(aclmdlRIBindStream(m, ps, ACL_MODEL_STREAM_FLAG_HEAD));
  ACL_OK(aclrtValueWrite(a, 5, 0, ps));
  ACL_OK(aclrtValueWrite(a + 8, 6, 0, ps));
  ACL_OK(aclmdlRIEndTask(m, ps));
  // Not finished yet: no edit.
  auto early = Tasks(ps);
  ASSERT_EQ(3u, early.size());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskDisable(early[0]));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIUpdate(m));
  EXPECT_FALSE(TakeErrMsg().empty());
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  ACL_OK(aclmdlRITaskDisable(early[0]));
  ACL_OK(aclmdlRIUpdate(m));
  Run(m);
  EXPECT_EQ(0u, ReadWord(a));
  EXPECT_EQ(6u, ReadWord(a + 8));
  ACL_OK(aclmdlRIUnbindStream(m, ps));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtDestroyStream(ps));
  ACL_OK(aclrtFree(w));
}

std::vector<std::string>* g_calls = nullptr;
void CbA(void* d) { g_calls->push_back(std::string("A:") + static_cast<const char*>(d)); }
void CbB(void* d) { g_calls->push_back(std::string("B:") + (d ? static_cast<const char*>(d) : "null")); }

// Destroy callbacks run once, in registration order, when the model is
// destroyed; an unregistered function is not called.
TEST_F(ModelEditTest, DestroyCallbacksRunOnceInOrder) {
  std::vector<std::string> calls;
  g_calls = &calls;
  static char one[] = "1", two[] = "2";
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRI m = nullptr;
  aclmdlRICaptureStatus st;
  ACL_OK(aclmdlRICaptureGetInfo(s_, &st, &m));
  ACL_OK(aclmdlRIDestroyRegisterCallback(m, CbA, one));  // during capture
  aclmdlRI ended = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &ended));
  ASSERT_EQ(m, ended);
  ACL_OK(aclmdlRIDestroyRegisterCallback(m, CbB, nullptr));
  ACL_OK(aclmdlRIDestroyRegisterCallback(m, CbA, two));
  ACL_OK(aclmdlRIDestroyRegisterCallback(m, CbB, two));
  ACL_OK(aclmdlRIDestroyUnregisterCallback(m, CbB));  // both CbB registrations
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroyUnregisterCallback(m, CbB));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroyRegisterCallback(m, nullptr, one));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroyRegisterCallback(nullptr, CbA, one));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroyUnregisterCallback(m, nullptr));
  EXPECT_TRUE(calls.empty());
  ACL_OK(aclmdlRIDestroy(m));
  EXPECT_EQ((std::vector<std::string>{"A:1", "A:2"}), calls);
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRIDestroyRegisterCallback(m, CbA, one));
  EXPECT_EQ(2u, calls.size());
  g_calls = nullptr;
}

// A capture that fails discards its model: the callbacks registered on it
// during the capture run then.
TEST_F(ModelEditTest, DestroyCallbacksRunWhenAFailedCaptureDiscardsTheModel) {
  std::vector<std::string> calls;
  g_calls = &calls;
  static char x[] = "x";
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(s_, nullptr, &m));
  ACL_OK(aclmdlRIDestroyRegisterCallback(m, CbA, x));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(s_));  // invalidates the capture
  aclmdlRI ended = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &ended));
  EXPECT_EQ(nullptr, ended);
  EXPECT_EQ((std::vector<std::string>{"A:x"}), calls);
  g_calls = nullptr;
}

// Querying an event recorded inside a capture in progress is refused with
// 107028 and invalidates the capture, like synchronising it; outside a
// capture both queries work.
TEST_F(ModelEditTest, QueryingACapturedEventIsRefused) {
  aclrtEvent e = nullptr;
  ACL_OK(aclrtCreateEvent(&e));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtRecordEvent(e, s_));
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEventStatus(e, &rs));
  EXPECT_NE(std::string::npos, TakeErrMsg().find("querying"));
  aclrtEventStatus qs = ACL_EVENT_STATUS_COMPLETE;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, aclrtQueryEvent(e, &qs));
#pragma GCC diagnostic pop
  EXPECT_FALSE(TakeErrMsg().empty());
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ACL_OK(aclmdlRICaptureGetInfo(s_, &st, nullptr));
  EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, st);
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, aclmdlRICaptureEnd(s_, &m));
  TakeErrMsg();
  // No capture any more: the same event can be recorded and queried.
  ACL_OK(aclrtRecordEvent(e, s_));
  ACL_OK(aclrtSynchronizeStream(s_));
  ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, rs);
  // An event recorded outside a capture may be queried while another stream captures.
  aclrtStream other = nullptr;
  ACL_OK(aclrtCreateStream(&other));
  ACL_OK(aclmdlRICaptureBegin(other, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, rs);
  ACL_OK(aclmdlRICaptureEnd(other, &m));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtDestroyStream(other));
  ACL_OK(aclrtDestroyEvent(e));
}

// Kernel task parameters: GetParams reports what the launch recorded;
// SetParams (new arguments and block count) is pending until aclmdlRIUpdate,
// then every execution launches with the new parameters.
TEST_F(ModelEditTest, KernelTaskParamsAreReadAndReplacedAtUpdate) {
  simnpu_inproc_image img{SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, ModelEditKernelTable()};
  aclrtBinHandle bin = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &bin));
  aclrtFuncHandle fn = nullptr;
  ACL_OK(aclrtBinaryGetFunction(bin, "me_mark", &fn));
  auto* z = static_cast<int32_t*>(DevAlloc(64 * 4));
  struct Args {
    void* z;
    uint32_t v;
  } args{z, 7};
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtLaunchKernelWithHostArgs(fn, 2, s_, nullptr, &args, sizeof args, nullptr, 0));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  auto tasks = Tasks(s_);
  ASSERT_EQ(1u, tasks.size());
  aclmdlRITaskParams p;
  std::memset(&p, 0xAB, sizeof p);
  ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
  EXPECT_EQ(ACL_MODEL_RI_TASK_KERNEL, p.type);
  EXPECT_EQ(nullptr, p.taskGrp);
  EXPECT_EQ(fn, p.kernelTaskParams.funcHandle);
  EXPECT_EQ(nullptr, p.kernelTaskParams.cfg);
  EXPECT_EQ(0u, p.kernelTaskParams.isHostArgs);
  EXPECT_EQ(2u, p.kernelTaskParams.numBlocks);
  ASSERT_EQ(sizeof args, p.kernelTaskParams.argsSize);
  EXPECT_EQ(0, std::memcmp(&args, p.kernelTaskParams.args, sizeof args));
  auto read = [&](int n) {
    std::vector<int32_t> v(n);
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(v.data(), n * 4, z, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    return v;
  };
  Run(m);
  EXPECT_EQ((std::vector<int32_t>{7, 8, 0, 0, 0}), read(5));

  Args next{z, 100};
  p.kernelTaskParams.args = &next;
  p.kernelTaskParams.argsSize = sizeof next;
  p.kernelTaskParams.numBlocks = 4;
  ACL_OK(aclmdlRITaskSetParams(tasks[0], &p));
  next.v = 555;  // the arguments were copied by SetParams
  aclmdlRITaskParams q;
  ACL_OK(aclmdlRITaskGetParams(tasks[0], &q));
  EXPECT_EQ(4u, q.kernelTaskParams.numBlocks);  // the pending parameters
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(z, 256, 0, 256));
  Run(m);  // not updated yet
  EXPECT_EQ((std::vector<int32_t>{7, 8, 0, 0, 0}), read(5));
  ACL_OK(aclmdlRIUpdate(m));
  for (int rep = 0; rep < 2; ++rep) {
    ASSERT_EQ(ACL_SUCCESS, aclrtMemset(z, 256, 0, 256));
    Run(m);
    EXPECT_EQ((std::vector<int32_t>{100, 101, 102, 103, 0}), read(5));
  }

  // Bad parameters change nothing.
  aclmdlRITaskParams bad = q;
  bad.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskSetParams(tasks[0], &bad));
  EXPECT_FALSE(TakeErrMsg().empty());
  bad = q;
  bad.kernelTaskParams.funcHandle = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[0], &bad));
  EXPECT_FALSE(TakeErrMsg().empty());
  bad = q;
  bad.kernelTaskParams.numBlocks = 0;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[0], &bad));
  EXPECT_FALSE(TakeErrMsg().empty());
  bad = q;
  bad.kernelTaskParams.funcHandle = reinterpret_cast<aclrtFuncHandle>(z);
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskSetParams(tasks[0], &bad));
  EXPECT_FALSE(TakeErrMsg().empty());
  bad = q;
  bad.kernelTaskParams.argsSize = 1 << 20;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskSetParams(tasks[0], &bad));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[0], nullptr));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetParams(tasks[0], nullptr));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclmdlRITaskGetParams(reinterpret_cast<aclmdlRITask>(z), &q));
  ACL_OK(aclmdlRIUpdate(m));
  ASSERT_EQ(ACL_SUCCESS, aclrtMemset(z, 256, 0, 256));
  Run(m);
  EXPECT_EQ((std::vector<int32_t>{100, 101, 102, 103, 0}), read(5));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtFree(z));
  ACL_OK(aclrtBinaryUnLoad(bin));
}

// Value tasks report and take new parameters; event tasks report theirs
// (event, its flags, record/wait flag) and refuse new ones; a task in a
// task group reports the group.
TEST_F(ModelEditTest, ValueAndEventTaskParams) {
  auto* w = static_cast<uint8_t*>(DevAlloc(16));
  aclrtEvent e = nullptr;
  ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclmdlRICaptureTaskGrpBegin(s_));
  ACL_OK(aclrtValueWrite(w, 5, 0, s_));
  aclrtTaskGrp grp = nullptr;
  ACL_OK(aclmdlRICaptureTaskGrpEnd(s_, &grp));
  ACL_OK(aclrtRecordEvent(e, s_));
  ACL_OK(aclrtStreamWaitEvent(s_, e));
  ACL_OK(aclrtResetEvent(e, s_));
  ACL_OK(aclrtValueWait(w, 5, ACL_STREAM_WAIT_VALUE_EQ, s_));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &m));
  auto tasks = Tasks(s_);
  ASSERT_EQ(5u, tasks.size());
  aclmdlRITaskParams p;
  ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
  EXPECT_EQ(ACL_MODEL_RI_TASK_VALUE_WRITE, p.type);
  EXPECT_EQ(grp, p.taskGrp);
  EXPECT_EQ(w, p.valueWriteTaskParams.devAddr);
  EXPECT_EQ(5u, p.valueWriteTaskParams.value);
  ACL_OK(aclmdlRITaskGetParams(tasks[1], &p));
  EXPECT_EQ(ACL_MODEL_RI_TASK_EVENT_RECORD, p.type);
  EXPECT_EQ(nullptr, p.taskGrp);
  EXPECT_EQ(e, p.eventRecordTaskParams.event);
  EXPECT_EQ(static_cast<uint32_t>(ACL_EVENT_SYNC), p.eventRecordTaskParams.eventFlag);
  EXPECT_EQ(static_cast<uint32_t>(ACL_EVENT_RECORD_DEFAULT), p.eventRecordTaskParams.recordFlag);
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskSetParams(tasks[1], &p));
  EXPECT_FALSE(TakeErrMsg().empty());
  ACL_OK(aclmdlRITaskGetParams(tasks[2], &p));
  EXPECT_EQ(ACL_MODEL_RI_TASK_EVENT_WAIT, p.type);
  EXPECT_EQ(e, p.eventWaitTaskParams.event);
  EXPECT_EQ(static_cast<uint32_t>(ACL_EVENT_WAIT_DEFAULT), p.eventWaitTaskParams.waitFlag);
  ACL_OK(aclmdlRITaskGetParams(tasks[3], &p));
  EXPECT_EQ(ACL_MODEL_RI_TASK_EVENT_RESET, p.type);
  EXPECT_EQ(e, p.eventResetTaskParams.event);
  EXPECT_EQ(0u, p.eventResetTaskParams.resetFlag);
  aclmdlRITaskParams wait;
  ACL_OK(aclmdlRITaskGetParams(tasks[4], &wait));
  EXPECT_EQ(ACL_MODEL_RI_TASK_VALUE_WAIT, wait.type);
  EXPECT_EQ(w, wait.valueWaitTaskParams.devAddr);
  EXPECT_EQ(5u, wait.valueWaitTaskParams.value);
  EXPECT_EQ(static_cast<uint32_t>(ACL_STREAM_WAIT_VALUE_EQ), wait.valueWaitTaskParams.flag);
  Run(m);
  EXPECT_EQ(5u, ReadWord(w));
  // Write 9 into the second word, and wait for it there.
  ACL_OK(aclmdlRITaskGetParams(tasks[0], &p));
  p.valueWriteTaskParams.devAddr = w + 8;
  p.valueWriteTaskParams.value = 9;
  ACL_OK(aclmdlRITaskSetParams(tasks[0], &p));
  wait.valueWaitTaskParams.devAddr = w + 8;
  wait.valueWaitTaskParams.value = 9;
  ACL_OK(aclmdlRITaskSetParams(tasks[4], &wait));
  aclmdlRITaskParams bad = wait;
  bad.valueWaitTaskParams.flag = 4;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskSetParams(tasks[4], &bad));
  bad = wait;
  bad.valueWaitTaskParams.devAddr = w + 4;
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRITaskSetParams(tasks[4], &bad));
  bad.valueWaitTaskParams.devAddr = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[4], &bad));
  TakeErrMsg();
  ACL_OK(aclmdlRIUpdate(m));
  Zero(w);
  Run(m);
  EXPECT_EQ(0u, ReadWord(w));
  EXPECT_EQ(9u, ReadWord(w + 8));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtDestroyEvent(e));
  ACL_OK(aclrtFree(w));
}

// aclmdlRIAbort stops the execution in progress at its next task: the
// model is held in a value wait, aborted, then released; the task after the
// wait does not run, the stream reports 507023, and the next execution runs
// in full. Captured models are refused; with nothing running it is a no-op.
TEST_F(ModelEditTest, AbortStopsTheRunningExecutionOnly) {
  auto* w = static_cast<uint8_t*>(DevAlloc(24));
  void* started = w;
  void* go = w + 8;
  void* out = w + 16;
  aclrtStream ps = nullptr;
  ACL_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  ACL_OK(aclmdlRIBindStream(m, ps, ACL_MODEL_STREAM_FLAG_HEAD));
  ACL_OK(aclrtValueWrite(started, 1, 0, ps));
  ACL_OK(aclrtValueWait(go, 1, ACL_STREAM_WAIT_VALUE_EQ, ps));
  ACL_OK(aclrtValueWrite(out, 7, 0, ps));
  ACL_OK(aclmdlRIEndTask(m, ps));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  ACL_OK(aclmdlRIAbort(m));  // not running: nothing happens

  ACL_OK(aclmdlRIExecuteAsync(m, s_));
  // A synchronous copy would wait behind the blocked model, so the host
  // watches and releases the words directly (device memory is host memory
  // in this process).
  while (__atomic_load_n(static_cast<uint64_t*>(started), __ATOMIC_ACQUIRE) != 1) apitest::SleepMs(1);
  ACL_OK(aclmdlRIAbort(m));
  __atomic_store_n(static_cast<uint64_t*>(go), uint64_t{1}, __ATOMIC_RELEASE);
  EXPECT_EQ(ACL_ERROR_RT_MODEL_ABORT_NORMAL, aclrtSynchronizeStream(s_));
  EXPECT_FALSE(TakeErrMsg().empty());
  EXPECT_EQ(0u, ReadWord(out));

  Zero(started);
  Run(m);  // runs in full (go is still 1)
  EXPECT_EQ(1u, ReadWord(started));
  EXPECT_EQ(7u, ReadWord(out));

  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIAbort(nullptr));
  ACL_OK(aclmdlRICaptureBegin(s_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtValueWrite(out, 8, 0, s_));
  aclmdlRI cm = nullptr;
  ACL_OK(aclmdlRICaptureEnd(s_, &cm));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAbort(cm));
  EXPECT_FALSE(TakeErrMsg().empty());
  ACL_OK(aclmdlRIDestroy(cm));
  ACL_OK(aclmdlRIUnbindStream(m, ps));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtDestroyStream(ps));
  ACL_OK(aclrtFree(w));
}

}  // namespace
