// The device quick start as a CANN user writes it: tensors on device memory,
// aclnnAdd with an alpha scalar, synchronize, copy back, print. Built against
// the staged install exactly as the CANN samples are (CMakeLists.txt here),
// with -Wall -Werror. Prints "result[i] = v" lines and exits 0 on success.
// With the argument "graph" the add is captured into a task graph
// (aclmdlRICaptureBegin/End) and the graph is executed instead.
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK_RET(cond, what)                         \
  do {                                                \
    if (!(cond)) {                                    \
      std::printf("[ERROR] %s failed\n", what);       \
      return 1;                                       \
    }                                                 \
  } while (0)

static int CreateTensor(const std::vector<float>& host, const std::vector<int64_t>& shape, void** dev,
                        aclTensor** tensor) {
  const size_t bytes = host.size() * sizeof(float);
  if (aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
  if (aclrtMemcpy(*dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
  *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                            shape.size(), *dev);
  return *tensor == nullptr ? 1 : 0;
}

int main(int argc, char** argv) {
  const bool graph = argc > 1 && std::strcmp(argv[1], "graph") == 0;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = nullptr;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  const std::vector<int64_t> shape = {4, 2};
  std::vector<float> self = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<float> other = {1, 1, 1, 2, 2, 2, 3, 3};
  std::vector<float> out(8, 0.0f);
  void* selfDev = nullptr;
  void* otherDev = nullptr;
  void* outDev = nullptr;
  aclTensor* selfT = nullptr;
  aclTensor* otherT = nullptr;
  aclTensor* outT = nullptr;
  CHECK_RET(CreateTensor(self, shape, &selfDev, &selfT) == 0, "self tensor");
  CHECK_RET(CreateTensor(other, shape, &otherDev, &otherT) == 0, "other tensor");
  CHECK_RET(CreateTensor(out, shape, &outDev, &outT) == 0, "out tensor");
  float alphaValue = 1.2f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  CHECK_RET(alpha != nullptr, "aclCreateScalar");

  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnAddGetWorkspaceSize(selfT, otherT, alpha, outT, &workspaceSize, &executor) == ACLNN_SUCCESS,
            "aclnnAddGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "workspace");
  }
  aclmdlRI model = nullptr;
  if (graph) {
    CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  }
  CHECK_RET(aclnnAdd(workspace, workspaceSize, executor, stream) == ACLNN_SUCCESS, "aclnnAdd");
  if (graph) {
    CHECK_RET(aclmdlRICaptureEnd(stream, &model) == ACL_SUCCESS, "aclmdlRICaptureEnd");
    CHECK_RET(aclmdlRIExecuteAsync(model, stream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
  }
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  if (graph) {
    CHECK_RET(aclmdlRIDestroy(model) == ACL_SUCCESS, "aclmdlRIDestroy");
  }
  CHECK_RET(aclrtMemcpy(out.data(), out.size() * sizeof(float), outDev, out.size() * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
            "aclrtMemcpy");
  for (size_t i = 0; i < out.size(); ++i) std::printf("result[%zu] = %f\n", i, out[i]);

  aclDestroyTensor(selfT);
  aclDestroyTensor(otherT);
  aclDestroyTensor(outT);
  aclDestroyScalar(alpha);
  aclrtFree(selfDev);
  aclrtFree(otherDev);
  aclrtFree(outDev);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
