// The flow of sample S38 (label/0_simple_label, acl-api-ext.md §5.6), written
// from the reference's flow table: a built model whose label stream switches
// to label 1 by an index in device memory. Prints the branch that ran.
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"

#define CHECK(expr)                                                       \
  do {                                                                    \
    aclError e_ = (expr);                                                 \
    if (e_ != ACL_SUCCESS) {                                              \
      std::printf("FAILED %s -> %d\n", #expr, static_cast<int>(e_));      \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main() {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx = nullptr;
  CHECK(aclrtCreateContext(&ctx, 0));
  aclrtStream labelStream = nullptr, executeStream = nullptr;
  CHECK(aclrtCreateStreamWithConfig(&labelStream, 0, ACL_STREAM_PERSISTENT));
  CHECK(aclrtCreateStream(&executeStream));
  aclmdlRI model = nullptr;
  CHECK(aclmdlRIBuildBegin(&model, 0));
  CHECK(aclmdlRIBindStream(model, labelStream, 0));
  void* index = nullptr;
  void* branch = nullptr;
  CHECK(aclrtMalloc(&index, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&branch, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t hostIndex = 1;
  CHECK(aclrtMemcpy(index, sizeof hostIndex, &hostIndex, sizeof hostIndex, ACL_MEMCPY_HOST_TO_DEVICE));
  aclrtLabel labels[2] = {nullptr, nullptr};
  CHECK(aclrtCreateLabel(&labels[0]));
  CHECK(aclrtCreateLabel(&labels[1]));
  aclrtLabelList list = nullptr;
  CHECK(aclrtCreateLabelList(labels, 2, &list));
  CHECK(aclrtSwitchLabelByIndex(index, 2, list, labelStream));
  static const uint32_t kBranch0 = 0, kBranch1 = 1;
  CHECK(aclrtSetLabel(labels[0], labelStream));
  CHECK(aclrtMemcpyAsync(branch, sizeof(uint32_t), &kBranch0, sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE, labelStream));
  CHECK(aclmdlRIEndTask(model, labelStream));
  CHECK(aclrtSetLabel(labels[1], labelStream));
  CHECK(aclrtMemcpyAsync(branch, sizeof(uint32_t), &kBranch1, sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE, labelStream));
  CHECK(aclmdlRIEndTask(model, labelStream));
  CHECK(aclmdlRIBuildEnd(model, nullptr));
  CHECK(aclmdlRIExecuteAsync(model, executeStream));
  CHECK(aclrtSynchronizeStream(executeStream));
  uint32_t ran = 99;
  CHECK(aclrtMemcpy(&ran, sizeof ran, branch, sizeof ran, ACL_MEMCPY_DEVICE_TO_HOST));
  std::printf("Switch label executed successfully with branch index %u.\n", ran);
  CHECK(aclmdlRIUnbindStream(model, labelStream));
  CHECK(aclmdlRIDestroy(model));
  CHECK(aclrtDestroyLabelList(list));
  CHECK(aclrtDestroyLabel(labels[0]));
  CHECK(aclrtDestroyLabel(labels[1]));
  CHECK(aclrtFree(index));
  CHECK(aclrtFree(branch));
  CHECK(aclrtDestroyStream(labelStream));
  CHECK(aclrtDestroyStream(executeStream));
  CHECK(aclrtDestroyContext(ctx));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("RESULT PASS\n");
  return 0;
}
