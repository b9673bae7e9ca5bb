// Exception information for failed device tasks (aclrtSetExceptionInfoCallback
// and the aclrtGet*FromExceptionInfo getters).
#ifndef SIMNPU_CORE_EXCEPTION_INFO_H_
#define SIMNPU_CORE_EXCEPTION_INFO_H_

#include <cstdint>

namespace simnpu::core {
class Stream;
class Task;

// What a kernel task exposes about itself when it fails.
struct KernelFailureDetail {
  void* args = nullptr;        // the launch's argument block
  uint32_t args_len = 0;
  void* func_handle = nullptr; // aclrtFuncHandle of the kernel
};

// Implemented by kernel tasks (loader) so the reporter can read the details.
class KernelFailureSource {
 public:
  virtual ~KernelFailureSource() = default;
  virtual KernelFailureDetail failure_detail() const = 0;
};

using ExceptionCallback = void (*)(void* info);
void SetExceptionCallback(ExceptionCallback cb);
// Called on the stream worker after a kernel task failed.
void ReportTaskException(Stream* stream, Task* task, int code);

}  // namespace simnpu::core

// The layout behind the opaque aclrtExceptionInfo.
struct rtExceptionInfo {
  uint32_t taskid;
  uint32_t streamid;
  uint32_t tid;
  uint32_t deviceid;
  uint32_t retcode;
  void* args;
  uint32_t args_len;
  void* func_handle;
};

#endif  // SIMNPU_CORE_EXCEPTION_INFO_H_
