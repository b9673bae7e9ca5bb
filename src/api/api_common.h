// Helpers shared by the ACL entry points: argument checks that return the
// exact ACL codes and queue a message for aclGetRecentErrMsg, conversion of
// internal Status values (once, at this edge, under the error-manager code
// that matches the failure), and the lookups of handle arguments (streams,
// registries) with their 107017 report.
//
// Layering convention (acl-api.md §4.0): ACL-layer checks (NULL pointers,
// zero sizes, enums outside the accepted set) return ACL_ERROR_INVALID_PARAM
// (100000) and do NOT set the thread's last error; runtime-layer failures
// (107xxx, 207xxx, 507xxx) do.
#ifndef SIMNPU_API_API_COMMON_H_
#define SIMNPU_API_API_COMMON_H_

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "acl/acl.h"
#include "core/runtime.h"
#include "dfx/errors.h"
#include "platform/status.h"

namespace simnpu::api {

using dfx::ErrCode;
using dfx::LogModule;

inline bool IsRuntimeLayerCode(int code) {
  return code != 0 && (code / 1000) % 100 == 7;  // 107xxx, 207xxx, 507xxx
}

// ACL-layer: parameter `param` of `func` is NULL -> 100000.
inline aclError NullParam(const char* func, const char* param) {
  dfx::ReportErr(LogModule::kAscendcl, ErrCode::EH0008, {func, param});
  return ACL_ERROR_INVALID_PARAM;
}
// ACL-layer: parameter has a value outside the accepted set -> 100000.
inline aclError BadParam(const char* func, const char* param, const std::string& value,
                         const std::string& expected) {
  dfx::ReportErr(LogModule::kAscendcl, ErrCode::EH0007, {func, value, param, expected});
  return ACL_ERROR_INVALID_PARAM;
}
// Runtime-layer argument failure with an explicit code (usually 107000).
inline aclError RtBadParam(const char* func, const char* param, const std::string& value,
                           const std::string& reason, int code = ACL_ERROR_RT_PARAM_INVALID) {
  dfx::ReportErr(LogModule::kRuntime, ErrCode::EE1011, {func, value, param, reason});
  dfx::SetLastError(code);
  return code;
}
// The error-manager entry a runtime-layer failure is reported under, chosen
// by its code so the title says what went wrong (a context, a handle, memory,
// a timeout, a kernel) rather than "Invalid_Argument" for everything.
// `with_args`: the template takes {func, message}; otherwise the message is
// queued as "<func>: <message>" under the entry's title (its template wants
// arguments, e.g. a device id, that a Status does not carry).
struct RuntimeMessage {
  ErrCode code;
  bool with_args;
};
inline RuntimeMessage RuntimeMessageFor(int code) {
  switch (code) {
    case ACL_ERROR_RT_INVALID_DEVICEID: return {ErrCode::EE1002, false};
    case ACL_ERROR_RT_CONTEXT_NULL: return {ErrCode::EE1005, false};
    case ACL_ERROR_RT_INVALID_HANDLE: return {ErrCode::EE1006, false};
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT: return {ErrCode::EE1016, true};
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
    case ACL_ERROR_RT_RESOURCE_ALLOC_FAIL:
    case ACL_ERROR_RT_NO_EVENT_RESOURCE:
    case ACL_ERROR_RT_NO_STREAM_RESOURCE:
    case ACL_ERROR_RT_NO_NOTIFY_RESOURCE:
    case ACL_ERROR_RT_NO_MODEL_RESOURCE:
    case ACL_ERROR_RT_NO_CDQ_RESOURCE:
    case ACL_ERROR_RT_OVER_LIMIT:
    case ACL_ERROR_RT_DEVICE_OOM: return {ErrCode::EE1007, true};
    case ACL_ERROR_RT_WAIT_TIMEOUT:
    case ACL_ERROR_RT_TASK_TIMEOUT:
    case ACL_ERROR_RT_TIMEOUT:
    case ACL_ERROR_RT_REPORT_TIMEOUT:
    case ACL_ERROR_RT_AICORE_TIMEOUT:
    case ACL_ERROR_RT_AICPU_TIMEOUT:
    case ACL_ERROR_RT_VECTOR_CORE_TIMEOUT:
    case ACL_ERROR_RT_STREAM_SYNC_TIMEOUT:
    case ACL_ERROR_RT_EVENT_SYNC_TIMEOUT:
    case ACL_ERROR_RT_FFTS_PLUS_TIMEOUT: return {ErrCode::EE1008, true};
    case ACL_ERROR_RT_AICORE_EXCEPTION:
    case ACL_ERROR_RT_AICORE_TRAP_EXCEPTION:
    case ACL_ERROR_RT_AICPU_EXCEPTION:
    case ACL_ERROR_RT_VECTOR_CORE_EXCEPTION:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION:
    case ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW:
    case ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW:
    case ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW:
    case ACL_ERROR_RT_FFTS_PLUS_EXCEPTION:
    case ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION: return {ErrCode::ED0002, false};
    case ACL_ERROR_RT_INTERNAL_ERROR: return {ErrCode::EE9999, false};
    default: return {ErrCode::EE1001, true};  // argument and usage errors (107000 ...)
  }
}

// Converts a failed Status into its code; queues its message; records the
// last error for runtime-layer codes unless `record` is false.
inline aclError Fail(const char* func, const Status& st, bool record = true) {
  if (st.ok()) return ACL_SUCCESS;
  const int code = st.code();
  if (!IsRuntimeLayerCode(code)) {
    dfx::ReportErrText(LogModule::kAscendcl, ErrCode::EH0012, std::string(func) + ": " + st.message());
    return code;
  }
  const RuntimeMessage m = RuntimeMessageFor(code);
  if (m.with_args)
    dfx::ReportErr(LogModule::kRuntime, m.code, {func, st.message()});
  else
    dfx::ReportErrText(LogModule::kRuntime, m.code, std::string(func) + ": " + st.message());
  if (record) dfx::SetLastError(code);
  return code;
}
// A runtime-layer failure with a plain code and message.
inline aclError RtFail(const char* func, int code, const std::string& msg, bool record = true) {
  return Fail(func, Status(code, msg), record);
}
// "Not supported" for declared functions simnpu does not implement.
inline aclError NotSupported(const char* func, const std::string& reason) {
  dfx::ReportErr(LogModule::kRuntime, ErrCode::EE1016, {func, reason});
  dfx::SetLastError(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

// The integer value of an enum argument without loading it as the enum type
// (callers may pass any 32-bit value; loading an out-of-range enum is UB).
template <typename E>
inline int RawEnum(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "enum arguments are int-sized");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

inline std::string Hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// 107017 for a handle argument that names no live object of kind `what`
// ("event", "stream", ...).
inline aclError InvalidHandle(const char* func, const char* what, const void* h) {
  dfx::ReportErr(LogModule::kRuntime, ErrCode::EE1006, {func, what, Hex(h)});
  dfx::SetLastError(ACL_ERROR_RT_INVALID_HANDLE);
  return ACL_ERROR_RT_INVALID_HANDLE;
}

// A stream handle argument: a live stream, or NULL for the current context's
// default stream. Without a current context a NULL handle fails with 107002,
// or with `null_code` when the function documents another code for it.
inline aclError ResolveStream(const char* func, std::shared_ptr<core::Stream>* out, void* h,
                              int null_code = 0) {
  auto s = core::Runtime::Get().ResolveStream(h);
  if (s.ok()) {
    *out = std::move(s.value());
    return ACL_SUCCESS;
  }
  if (h == nullptr && null_code != 0)
    return RtFail(func, null_code, "no stream given and no current context to take its default stream from");
  if (s.status().code() == ACL_ERROR_RT_INVALID_HANDLE) return InvalidHandle(func, "stream", h);
  return Fail(func, s.status());
}

// Runtime (user-visible) id of the device that owns simulated device `phys`,
// or `none` when no runtime device has it open.
inline int LogicalDeviceId(int phys, int none) {
  core::Device* d = core::Runtime::Get().DeviceForPhys(phys);
  return d ? d->id() : none;
}

}  // namespace simnpu::api

#define ACL_REQUIRE_NOT_NULL(p) \
  do {                          \
    if ((p) == nullptr) return ::simnpu::api::NullParam(__func__, #p); \
  } while (0)

// Declares std::shared_ptr<core::Stream> var for stream handle h (NULL = the
// default stream of the current context); returns the failure code if h is
// not usable. Optional third argument: the code for a NULL h without a
// current context (see api::ResolveStream).
#define ACL_RESOLVE_STREAM(var, ...)                                              \
  std::shared_ptr<::simnpu::core::Stream> var;                                    \
  if (aclError var##_rc = ::simnpu::api::ResolveStream(__func__, &var, __VA_ARGS__)) \
  return var##_rc

// Declares var = registry.Find(h); returns 107017 (naming the handle kind
// `what`) when h is not live. registry: anything with Find(h) returning a
// pointer-like value that is false for an unknown handle.
#define ACL_FIND_HANDLE(var, registry, h, what)                    \
  auto var = (registry).Find(h);                                    \
  if (!var) return ::simnpu::api::InvalidHandle(__func__, what, h)

#define ACL_REQUIRE_OK(expr)                                   \
  do {                                                         \
    ::simnpu::Status _s = (expr);                              \
    if (!_s.ok()) return ::simnpu::api::Fail(__func__, _s);    \
  } while (0)

#endif  // SIMNPU_API_API_COMMON_H_
