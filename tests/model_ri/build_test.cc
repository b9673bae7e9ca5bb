// Built model runtime instances: bind, end task, labels, switch and active
// streams (acl-api-ext.md §5.1, §5.5; the flows of samples S38 and S41).
#include <cstring>
#include <vector>

#include "api/api_test_util.h"

namespace {

using apitest::Seq;

class ModelBuildTest : public apitest::DeviceTest {
 protected:
  aclrtStream Persistent() {
    aclrtStream s = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    return s;
  }
  void* DevWord(uint32_t v) {
    void* p = nullptr;
    EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t w = v;
    EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(p, 8, &w, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    return p;
  }
  void Set(void* p, uint32_t v) {
    uint64_t w = v;
    ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(p, 8, &w, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  }
};

TEST_F(ModelBuildTest, BindChecks) {
  aclmdlRI m = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(nullptr, 0));
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream plain = nullptr;
  ACL_OK(aclrtCreateStream(&plain));
  aclrtStream p = Persistent();
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(m, nullptr, 0));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(nullptr, p, 0));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(m, plain, 0));  // not persistent
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(m, p, 5));      // unknown flag
  ACL_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(m, p, 0));  // bound twice
  aclmdlRI m2 = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m2, 0));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(m2, p, 0));  // one model per stream
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIEndTask(m2, p));        // bound to another model
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIEndTask(m, plain));     // not bound
  // A bound stream cannot run a model nor be captured; the model is not ready.
  EXPECT_EQ(ACL_ERROR_RT_MODEL_EXECUTE, aclmdlRIExecuteAsync(m, plain));
  EXPECT_EQ(ACL_ERROR_RT_STREAM_MODEL, aclmdlRICaptureBegin(p, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(m, reinterpret_cast<void*>(1)));
  ACL_OK(aclmdlRIEndTask(m, p));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBuildEnd(m, nullptr));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecuteAsync(m, p));  // bound stream
  ACL_OK(aclmdlRIExecuteAsync(m, plain));
  ACL_OK(aclrtSynchronizeStream(plain));
  ACL_OK(aclmdlRIUnbindStream(m, p));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIUnbindStream(m, p));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclmdlRIDestroy(m2));
  // A capture model binds no streams.
  aclrtStream c = nullptr;
  ACL_OK(aclrtCreateStream(&c));
  ACL_OK(aclmdlRICaptureBegin(c, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRI cm = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(c, nullptr, &cm));
  aclrtStream p2 = Persistent();
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBindStream(cm, p2, 0));
  ACL_OK(aclmdlRICaptureEnd(c, &cm));
  ACL_OK(aclmdlRIDestroy(cm));
}

// Tasks issued to a bound stream are recorded, re-read their pageable
// source on every execution, and run only when the model runs.
TEST_F(ModelBuildTest, BoundStreamRecords) {
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream p = Persistent();
  ACL_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
  void* dst = DevWord(0);
  std::vector<uint32_t> src{11, 0};
  ACL_OK(aclrtMemcpyAsync(dst, 8, src.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE, p));
  ACL_OK(aclmdlRIEndTask(m, p));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  ACL_OK(aclrtSynchronizeStream(p));
  uint64_t got = 1;
  ACL_OK(aclrtMemcpy(&got, 8, dst, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(0u, got);
  src[0] = 22;
  aclrtStream exec = nullptr;
  ACL_OK(aclrtCreateStream(&exec));
  ACL_OK(aclmdlRIExecuteAsync(m, exec));
  ACL_OK(aclrtSynchronizeStream(exec));
  ACL_OK(aclrtMemcpy(&got, 8, dst, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(22u, got);
  ACL_OK(aclmdlRIUnbindStream(m, p));
  ACL_OK(aclmdlRIDestroy(m));
}

// S38: SwitchLabelByIndex(ptr = 1) jumps to label 1; index beyond the list
// goes to the last label.
TEST_F(ModelBuildTest, SwitchLabelByIndex) {
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream p = Persistent();
  ACL_OK(aclmdlRIBindStream(m, p, 0));
  aclrtLabel l0 = nullptr, l1 = nullptr;
  ACL_OK(aclrtCreateLabel(&l0));
  ACL_OK(aclrtCreateLabel(&l1));
  aclrtLabel labels[2] = {l0, l1};
  aclrtLabelList list = nullptr;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateLabelList(labels, 0, &list));
  ACL_OK(aclrtCreateLabelList(labels, 2, &list));
  void* idx = DevWord(1);
  Seq seq;
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSwitchLabelByIndex(nullptr, 2, list, p));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSwitchLabelByIndex(idx, 0, list, p));
  ACL_OK(aclrtSwitchLabelByIndex(idx, 2, list, p));
  ACL_OK(aclrtSetLabel(l0, p));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSetLabel(l0, p));  // set once
  ACL_OK(seq.Append(p, 100));
  ACL_OK(aclmdlRIEndTask(m, p));
  ACL_OK(aclrtSetLabel(l1, p));
  ACL_OK(seq.Append(p, 101));
  ACL_OK(aclmdlRIEndTask(m, p));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  aclrtStream exec = nullptr;
  ACL_OK(aclrtCreateStream(&exec));
  for (uint32_t v : {1u, 0u, 7u}) {
    Set(idx, v);
    ACL_OK(aclmdlRIExecuteAsync(m, exec));
    ACL_OK(aclrtSynchronizeStream(exec));
  }
  EXPECT_EQ((std::vector<int>{101, 100, 101}), seq.Get());
  ACL_OK(aclmdlRIUnbindStream(m, p));
  ACL_OK(aclmdlRIDestroy(m));
  ACL_OK(aclrtDestroyLabelList(list));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyLabelList(list));
  ACL_OK(aclrtDestroyLabel(l0));
  ACL_OK(aclrtDestroyLabel(l1));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyLabel(l1));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtCreateLabel(nullptr));
}

// A label set on another model stream: the switch moves control there.
TEST_F(ModelBuildTest, LabelOnAnotherStream) {
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream a = Persistent(), b = Persistent();
  ACL_OK(aclmdlRIBindStream(m, a, ACL_MODEL_STREAM_FLAG_HEAD));
  ACL_OK(aclmdlRIBindStream(m, b, ACL_MODEL_STREAM_FLAG_DEFAULT));
  aclrtLabel l = nullptr;
  ACL_OK(aclrtCreateLabel(&l));
  aclrtLabelList list = nullptr;
  ACL_OK(aclrtCreateLabelList(&l, 1, &list));
  void* idx = DevWord(0);
  Seq seq;
  ACL_OK(seq.Append(a, 1));
  ACL_OK(aclrtSwitchLabelByIndex(idx, 1, list, a));
  ACL_OK(seq.Append(a, 2));  // skipped: control left stream a
  ACL_OK(seq.Append(b, 3));  // before the label: skipped
  ACL_OK(aclrtSetLabel(l, b));
  ACL_OK(seq.Append(b, 4));
  ACL_OK(aclmdlRIEndTask(m, b));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  aclrtStream exec = nullptr;
  ACL_OK(aclrtCreateStream(&exec));
  ACL_OK(aclmdlRIExecuteAsync(m, exec));
  ACL_OK(aclrtSynchronizeStream(exec));
  EXPECT_EQ((std::vector<int>{1, 4}), seq.Get());
  ACL_OK(aclmdlRIDestroy(m));
}

// A switch to a label never set in the model is refused at BuildEnd.
TEST_F(ModelBuildTest, UnsetLabelRefusedAtBuildEnd) {
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream p = Persistent();
  ACL_OK(aclmdlRIBindStream(m, p, 0));
  aclrtLabel l = nullptr;
  ACL_OK(aclrtCreateLabel(&l));
  aclrtLabelList list = nullptr;
  ACL_OK(aclrtCreateLabelList(&l, 1, &list));
  void* idx = DevWord(0);
  aclrtStream plain = nullptr;
  ACL_OK(aclrtCreateStream(&plain));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSwitchLabelByIndex(idx, 1, list, plain));  // not bound
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtSetLabel(l, plain));
  ACL_OK(aclrtSwitchLabelByIndex(idx, 1, list, p));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIBuildEnd(m, nullptr));
  ACL_OK(aclmdlRIDestroy(m));
}

// S41: five persistent streams; stream 1 switches to stream 3 when the
// selector is 1 and to stream 4 when it is 2; stream 4 activates stream 2;
// streams 2 and 3 activate the end stream.
TEST_F(ModelBuildTest, SwitchAndActiveStreams) {
  aclmdlRI m = nullptr;
  ACL_OK(aclmdlRIBuildBegin(&m, 0));
  aclrtStream s1 = Persistent(), s2 = Persistent(), s3 = Persistent(), s4 = Persistent(), end = Persistent();
  ACL_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
  for (aclrtStream s : {s2, s3, s4, end}) ACL_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_DEFAULT));
  void* sel = DevWord(1);
  void* one = nullptr;
  void* two = nullptr;
  one = DevWord(1);
  two = DevWord(2);
  Seq seq;
  ACL_OK(seq.Append(s1, 1));
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtSwitchStream(sel, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, s3, s4, s1));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID,
            aclrtSwitchStream(sel, static_cast<aclrtCondition>(6), one, ACL_RT_SWITCH_INT32, s3, nullptr, s1));
  ACL_OK(aclrtSwitchStream(sel, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, s3, nullptr, s1));
  ACL_OK(aclrtSwitchStream(sel, ACL_RT_EQUAL, two, ACL_RT_SWITCH_INT32, s4, nullptr, s1));
  ACL_OK(seq.Append(s1, 9));  // reached only when neither switch is taken
  ACL_OK(aclrtActiveStream(s2, s4));
  ACL_OK(seq.Append(s4, 4));
  ACL_OK(seq.Append(s2, 2));
  ACL_OK(aclrtActiveStream(end, s2));
  ACL_OK(seq.Append(s3, 3));
  ACL_OK(aclrtActiveStream(end, s3));
  ACL_OK(seq.Append(end, 5));
  ACL_OK(aclmdlRIEndTask(m, end));
  aclrtStream plain = nullptr;
  ACL_OK(aclrtCreateStream(&plain));
  EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtActiveStream(plain, s1));
  ACL_OK(aclmdlRIBuildEnd(m, nullptr));
  aclrtStream exec = nullptr;
  ACL_OK(aclrtCreateStream(&exec));
  ACL_OK(aclmdlRIExecuteAsync(m, exec));
  ACL_OK(aclrtSynchronizeStream(exec));
  EXPECT_EQ((std::vector<int>{1, 3, 5}), seq.Get());
  Set(sel, 2);
  ACL_OK(aclmdlRIExecuteAsync(m, exec));
  ACL_OK(aclrtSynchronizeStream(exec));
  EXPECT_EQ((std::vector<int>{1, 3, 5, 1, 4, 2, 5}), seq.Get());
  Set(sel, 0);
  ACL_OK(aclmdlRIExecute(m, -1));
  EXPECT_EQ((std::vector<int>{1, 3, 5, 1, 4, 2, 5, 1, 9}), seq.Get());
  ACL_OK(aclmdlRIDestroy(m));
}

}  // namespace
