// Exception-info reporting for failed kernel tasks.
#include "core/exception_info.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "core/stream.h"
#include "core/task.h"

namespace simnpu::core {
namespace {
std::atomic<ExceptionCallback> g_cb{nullptr};
}

void SetExceptionCallback(ExceptionCallback cb) { g_cb.store(cb); }

void ReportTaskException(Stream* stream, Task* task, int code) {
  ExceptionCallback cb = g_cb.load();
  if (!cb) return;
  rtExceptionInfo info{};
  info.taskid = task->task_id;
  info.streamid = static_cast<uint32_t>(stream->id());
  info.tid = static_cast<uint32_t>(syscall(SYS_gettid));
  info.deviceid = static_cast<uint32_t>(stream->device_id());
  info.retcode = static_cast<uint32_t>(code);
  if (auto* src = dynamic_cast<KernelFailureSource*>(task)) {
    KernelFailureDetail d = src->failure_detail();
    info.args = d.args;
    info.args_len = d.args_len;
    info.func_handle = d.func_handle;
  }
  cb(&info);
}

}  // namespace simnpu::core
