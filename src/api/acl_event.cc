// Event, notify and value write/wait entry points.
#include "dfx/trace/trace.h"
#include "api/acl_ipc_event.h"
#include "api/api_common.h"
#include "api/capture_hooks.h"
#include "api/copy_path.h"
#include "api/range_checks.h"
#include "core/basic_tasks.h"
#include "core/device_printf.h"
#include "core/runtime.h"
#include "platform/clock.h"

using namespace simnpu;

namespace {
constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                      ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                      ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

core::HandleRegistry<core::Notify>& Notifies() {
  static auto* r = new core::HandleRegistry<core::Notify>();
  return *r;
}

aclError CreateEvent(const char* func, aclrtEvent* event, uint32_t flag) {
  ACL_REQUIRE_NOT_NULL(event);
  if (flag & ~kKnownEventFlags)
    return api::BadParam(func, "flag", std::to_string(flag), "a combination of ACL_EVENT_* flags");
  if ((flag & ACL_EVENT_IPC) && flag != ACL_EVENT_IPC)
    return api::RtBadParam(func, "flag", std::to_string(flag), "ACL_EVENT_IPC must be used alone");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(func, ctx.status());
  auto e = std::make_shared<core::Event>(ctx.value()->device_id(), flag);
  core::Runtime::Get().events().Add(e);
  *event = e.get();
  return ACL_SUCCESS;
}

}  // namespace

namespace simnpu::api {
// The notify handles, for the IPC notify entry points (acl_ipc_event.cc).
core::HandleRegistry<core::Notify>& NotifyHandles() { return Notifies(); }
}  // namespace simnpu::api

namespace {
// An event handle argument: NULL -> 100000, not live -> 107017.
#define FIND_EVENT(var, handle) \
  ACL_REQUIRE_NOT_NULL(handle); \
  ACL_FIND_HANDLE(var, core::Runtime::Get().events(), handle, "event")
}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  SIMNPU_TRACE_API();
  return CreateEvent(__func__, event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
}
aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) { return CreateEvent(__func__, event, flag); }
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  aclError rc = CreateEvent(__func__, event, flag);
  if (rc == ACL_SUCCESS) {
    // only this call sets the mark, right after creation (nobody else holds the handle yet)
    auto e = core::Runtime::Get().events().Find(*event);
    if (e) e->set_created_ex();
  }
  return rc;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(event);
  if (!core::Runtime::Get().events().Remove(event)) return api::InvalidHandle(__func__, "event", event);
  return ACL_SUCCESS;  // queued tasks keep their own reference
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  SIMNPU_TRACE_API();
  FIND_EVENT(e, event);
  ACL_RESOLVE_STREAM(s, stream);
  if (aclError rc = api::RefuseIpcEventInGraph(__func__, e.get(), s.get())) return rc;
  if (aclError rc; api::CaptureRecordEvent(__func__, s.get(), e, false, &rc)) return rc;
  uint64_t gen = e->BeginRecord();
  s->Submit(std::make_unique<core::EventRecordTask>(e, gen));
  return ACL_SUCCESS;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  SIMNPU_TRACE_API();
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseIpcEvent(__func__, e.get())) return rc;
  ACL_RESOLVE_STREAM(s, stream);
  if (aclError rc; api::CaptureResetEvent(__func__, s.get(), e, &rc)) return rc;
  s->Submit(std::make_unique<core::EventResetTask>(e, e->recorded_gen()));
  return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(status);
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseIpcEvent(__func__, e.get())) return rc;
  if (aclError rc = api::RefuseCapturedEvent(__func__, e.get())) return rc;
  *status = e->IsComplete() ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  ACL_REQUIRE_NOT_NULL(status);
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseCapturedEvent(__func__, e.get())) return rc;
  // An event never recorded is not ready here (the real runtime's answer),
  // unlike aclrtQueryEvent, which reports it complete.
  const bool complete = e->recorded_gen() != 0 && e->IsComplete();
  *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

// COMPLETE when no stream wait on the event is queued or running (also when
// there never was one), NOT_READY while one is.
aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(status);
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseIpcEvent(__func__, e.get())) return rc;
  if (e->created_ex())
    return api::RtFail(__func__, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       std::string("event ") + api::Hex(e.get()) +
                           " was created with aclrtCreateEventExWithFlag; such events have no wait status "
                           "(create it with aclrtCreateEvent or aclrtCreateEventWithFlag)");
  *status = e->pending_waits() == 0 ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(eventId);
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseIpcEvent(__func__, e.get())) return rc;
  *eventId = e->id();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  SIMNPU_TRACE_API();
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseCapturedEvent(__func__, e.get())) return rc;
  e->WaitGen(e->recorded_gen(), -1);
  core::FlushDevicePrintf();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  SIMNPU_TRACE_API();
  if (timeout < -1)
    return api::RtBadParam(__func__, "timeout", std::to_string(timeout), "must be -1 (forever) or >= 0 ms");
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseCapturedEvent(__func__, e.get())) return rc;
  const bool done = e->WaitGen(e->recorded_gen(), timeout);
  core::FlushDevicePrintf();
  if (!done)
    return api::RtFail(__func__, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                       "the event did not complete within " + std::to_string(timeout) + " ms");
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  ACL_REQUIRE_NOT_NULL(ms);
  FIND_EVENT(a, startEvent);
  FIND_EVENT(b, endEvent);
  if (aclError rc = api::RefuseIpcEvent(__func__, a.get())) return rc;
  if (aclError rc = api::RefuseIpcEvent(__func__, b.get())) return rc;
  if (!a->HasCompletedRecord() || !b->HasCompletedRecord())
    return api::RtFail(__func__, ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                       "both events must have been recorded and completed");
  *ms = static_cast<float>(static_cast<double>(static_cast<int64_t>(b->timestamp_ns() - a->timestamp_ns())) / 1e6);
  return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  ACL_REQUIRE_NOT_NULL(timestamp);
  FIND_EVENT(e, event);
  if (aclError rc = api::RefuseIpcEvent(__func__, e.get())) return rc;
  if (!e->HasCompletedRecord())
    return api::RtFail(__func__, ACL_ERROR_RT_EVENT_NOT_COMPLETE, "the event has no completed record");
  *timestamp = e->timestamp_ns() / (1000000000ull / platform::kSysCntHz);
  return ACL_SUCCESS;
}

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY)
    return api::BadParam(__func__, "flag", std::to_string(flag), "ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  auto n = std::make_shared<core::Notify>(ctx.value()->device_id(), flag);
  Notifies().Add(n);
  *notify = n.get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  if (!Notifies().Remove(notify)) return api::InvalidHandle(__func__, "notify", notify);
  return ACL_SUCCESS;
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_FIND_HANDLE(n, Notifies(), notify, "notify");
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::NotifyRecordTask>(n));
  return ACL_SUCCESS;
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_FIND_HANDLE(n, Notifies(), notify, "notify");
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::NotifyWaitTask>(n, timeout));
  return ACL_SUCCESS;
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devAddr);
  if (reinterpret_cast<uintptr_t>(devAddr) % 8)
    return api::RtBadParam(__func__, "devAddr", api::Hex(devAddr), "must be 8-byte aligned");
  if (flag != 0) return api::RtBadParam(__func__, "flag", std::to_string(flag), "must be 0");
  if (aclError e = api::CheckValueWord(__func__, devAddr)) return e;
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::ValueWriteTask>(static_cast<uint64_t*>(devAddr), value));
  return ACL_SUCCESS;
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devAddr);
  if (reinterpret_cast<uintptr_t>(devAddr) % 8)
    return api::RtBadParam(__func__, "devAddr", api::Hex(devAddr), "must be 8-byte aligned");
  if (flag >= 4)
    return api::RtBadParam(__func__, "flag", std::to_string(flag), "must be ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR");
  if (aclError e = api::CheckValueWord(__func__, devAddr)) return e;
  ACL_RESOLVE_STREAM(s, stream);
  s->Submit(std::make_unique<core::ValueWaitTask>(static_cast<const uint64_t*>(devAddr), value, flag));
  return ACL_SUCCESS;
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  ACL_REQUIRE_NOT_NULL(taskId);
  *taskId = core::ThreadLastTaskId();
  return ACL_SUCCESS;
}

}  // extern "C"
