// Stream entry points.
#include <cstring>

#include "dfx/trace/trace.h"
#include "api/acl_ipc_event.h"
#include "api/api_common.h"
#include "api/capture_hooks.h"
#include "core/basic_tasks.h"
#include "core/mem_pool.h"
#include "core/runtime.h"

using namespace simnpu;

namespace {
constexpr uint32_t kKnownStreamFlags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC |
                                       ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                                       ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
constexpr size_t kMaxUserStreams = 1984;

// Stream config handles handed out by aclrtCreateStreamConfigHandle (a
// destroyed, foreign or never-created handle is 107017, not a double free).
core::HandleRegistry<aclrtStreamConfigHandle>& ConfigHandles() {
  static auto* r = new core::HandleRegistry<aclrtStreamConfigHandle>();
  return *r;
}

aclError CreateStream(const char* func, aclrtStream* stream, uint32_t priority, uint32_t flag) {
  ACL_REQUIRE_NOT_NULL(stream);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(func, ctx.status());
  if (priority > 7)
    return api::RtBadParam(func, "priority", std::to_string(priority), "must be in [0, 7]");
  int dev = ctx.value()->device_id();
  size_t n = core::Runtime::Get().streams().Select([dev](const core::Stream& s) {
    return s.device_id() == dev && !s.is_default();
  }).size();
  if (n >= kMaxUserStreams)
    return api::RtFail(func, ACL_ERROR_RT_NO_STREAM_RESOURCE,
                       "device " + std::to_string(dev) + " already has " + std::to_string(n) + " streams");
  auto s = ctx.value()->CreateStream(priority, flag & kKnownStreamFlags);
  *stream = s.get();
  return ACL_SUCCESS;
}

// force (aclrtDestroyStreamForce, acl-api.md §4.4: "does not wait"): queued
// kernels, copies and host functions still run (S16/S20 destroy the stream
// right after a launch and expect the kernel's output), but a wait on an
// event, notify or value gives up, the tasks behind it are discarded, and
// the call waits at most SIMNPU_DRAIN_TIMEOUT_MS for the rest.
aclError DestroyStream(const char* func, aclrtStream stream, bool force) {
  ACL_REQUIRE_NOT_NULL(stream);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(func, ctx.status());
  auto s = core::Runtime::Get().streams().Find(stream);
  if (!s || !ctx.value()->OwnsStream(s.get()))
    return api::RtFail(func, ACL_ERROR_RT_STREAM_CONTEXT,
                       "stream " + api::Hex(stream) + " does not belong to the current context");
  if (s->is_default())
    return api::RtBadParam(func, "stream", api::Hex(stream), "the default stream cannot be destroyed");
  ctx.value()->RemoveStream(s.get(), force);  // drains submitted work first
  return ACL_SUCCESS;
}
}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) { return CreateStream(__func__, stream, 0, 0); }

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  SIMNPU_TRACE_API();
  return CreateStream(__func__, stream, priority, flag);
}

aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void) {
  auto h = std::make_shared<aclrtStreamConfigHandle>();
  std::memset(h.get(), 0, sizeof *h);
  ConfigHandles().Add(h);
  return h.get();
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle) {
  ACL_REQUIRE_NOT_NULL(handle);
  if (!ConfigHandles().Remove(handle)) return api::InvalidHandle(__func__, "stream config handle", handle);
  return ACL_SUCCESS;
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
                                 const void* attrValue, size_t valueSize) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(attrValue);
  ACL_FIND_HANDLE(live, ConfigHandles(), handle, "stream config handle");
  switch (api::RawEnum(attr)) {
    case ACL_RT_STREAM_WORK_ADDR_PTR:
      if (valueSize != sizeof(void*)) return api::BadParam(__func__, "valueSize", std::to_string(valueSize), "8");
      std::memcpy(&handle->workptr, attrValue, sizeof(void*));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_WORK_SIZE:
      if (valueSize != sizeof(size_t)) return api::BadParam(__func__, "valueSize", std::to_string(valueSize), "8");
      std::memcpy(&handle->workSize, attrValue, sizeof(size_t));
      return ACL_SUCCESS;
    case ACL_RT_STREAM_FLAG:
      // Both a 4-byte flag word and a size_t are accepted.
      if (valueSize == sizeof(uint32_t)) {
        uint32_t v;
        std::memcpy(&v, attrValue, 4);
        handle->flag = v;
      } else if (valueSize == sizeof(size_t)) {
        std::memcpy(&handle->flag, attrValue, sizeof(size_t));
      } else {
        return api::BadParam(__func__, "valueSize", std::to_string(valueSize), "4 or 8");
      }
      return ACL_SUCCESS;
    case ACL_RT_STREAM_PRIORITY: {
      if (valueSize != sizeof(uint32_t)) return api::BadParam(__func__, "valueSize", std::to_string(valueSize), "4");
      uint32_t p;
      std::memcpy(&p, attrValue, 4);
      if (p > 7) return api::BadParam(__func__, "priority", std::to_string(p), "[0, 7]");
      handle->priority = p;
      return ACL_SUCCESS;
    }
    default:
      return api::BadParam(__func__, "attr", std::to_string(api::RawEnum(attr)), "an aclrtStreamConfigAttr value");
  }
}

aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(stream);
  std::shared_ptr<aclrtStreamConfigHandle> live;
  if (handle != nullptr) {
    live = ConfigHandles().Find(handle);
    if (!live) return api::InvalidHandle(__func__, "stream config handle", handle);
  }
  uint32_t prio = handle ? handle->priority : 0;
  uint32_t flag = handle ? static_cast<uint32_t>(handle->flag) : 0;
  return CreateStream(__func__, stream, prio, flag);
}

aclError aclrtDestroyStream(aclrtStream stream) { return DestroyStream(__func__, stream, false); }
aclError aclrtDestroyStreamForce(aclrtStream stream) { return DestroyStream(__func__, stream, true); }

aclError aclrtSynchronizeStream(aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_RESOLVE_STREAM(s, stream);
  if (aclError e = api::RefuseCapturedStream(__func__, s.get())) return e;
  int rc = s->Synchronize(-1);
  core::MemPools::Get().OnSynchronize();  // pools give memory above their release threshold back
  if (rc) return api::RtFail(__func__, rc, s->TakeFailureMessage());
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  SIMNPU_TRACE_API();
  if (timeout < -1)
    return api::RtBadParam(__func__, "timeout", std::to_string(timeout), "must be -1 (forever) or >= 0 ms");
  ACL_RESOLVE_STREAM(s, stream);
  if (aclError e = api::RefuseCapturedStream(__func__, s.get())) return e;
  int rc = s->Synchronize(timeout);
  if (rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
    return api::RtFail(__func__, rc, "stream " + std::to_string(s->id()) + " did not finish within " +
                                         std::to_string(timeout) + " ms");
  if (rc) return api::RtFail(__func__, rc, s->TakeFailureMessage());
  return ACL_SUCCESS;
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(status);
  ACL_RESOLVE_STREAM(s, stream);
  if (aclError e = api::RefuseCapturedStream(__func__, s.get())) return e;
  *status = s->idle() ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

static aclError WaitEvent(const char* func, aclrtStream stream, aclrtEvent event, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(event);
  auto e = core::Runtime::Get().events().Find(event);
  if (!e) return api::InvalidHandle(func, "event", event);
  std::shared_ptr<core::Stream> s;
  if (aclError rc = api::ResolveStream(func, &s, stream)) return rc;
  if (aclError rc = api::RefuseIpcEventInGraph(func, e.get(), s.get())) return rc;
  if (aclError rc; api::CaptureWaitEvent(func, s.get(), e, timeout, false, &rc)) return rc;
  uint64_t gen = e->recorded_gen();
  s->Submit(std::make_unique<core::EventWaitTask>(e, gen, timeout));
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  SIMNPU_TRACE_API();
  return WaitEvent(__func__, stream, event, -1);
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  SIMNPU_TRACE_API();
  if (timeout < 0)
    return api::RtBadParam(__func__, "timeout", std::to_string(timeout), "must be >= 0 ms (0 waits forever)");
  return WaitEvent(__func__, stream, event, timeout == 0 ? -1 : timeout);
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  ACL_RESOLVE_STREAM(s, stream);
  if (s->flags() & ACL_STREAM_DEVICE_USE_ONLY)
    return api::NotSupported(__func__, "streams created with ACL_STREAM_DEVICE_USE_ONLY have no failure mode");
  s->set_failure_mode(mode & 1);
  return ACL_SUCCESS;
}

// Stop: the next synchronize fails with 507000 (acl-api.md §4.4, S26: "a
// 507000-class code"); abort: 107023, or the code of the kernel that was
// failing when the abort came (S26: 507035).
aclError aclrtStreamStop(aclrtStream stream) {
  ACL_RESOLVE_STREAM(s, stream);
  s->DiscardQueued(ACL_ERROR_RT_INTERNAL_ERROR);
  return ACL_SUCCESS;
}

aclError aclrtStreamAbort(aclrtStream stream) {
  ACL_RESOLVE_STREAM(s, stream);
  s->DiscardQueued(ACL_ERROR_RT_STREAM_ABORT);
  return ACL_SUCCESS;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
  ACL_REQUIRE_NOT_NULL(streamId);
  ACL_RESOLVE_STREAM(s, stream);
  *streamId = s->id();
  return ACL_SUCCESS;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
  ACL_REQUIRE_NOT_NULL(flags);
  ACL_RESOLVE_STREAM(s, stream);
  *flags = s->flags();
  return ACL_SUCCESS;
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority) {
  ACL_REQUIRE_NOT_NULL(priority);
  ACL_RESOLVE_STREAM(s, stream);
  *priority = s->priority();
  return ACL_SUCCESS;
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args) {
  ACL_REQUIRE_NOT_NULL(regName);
  core::Runtime::Get().RegisterStreamStateCallback(
      regName, reinterpret_cast<core::Runtime::StreamStateCb>(callback), args);
  return ACL_SUCCESS;
}

}  // extern "C"
