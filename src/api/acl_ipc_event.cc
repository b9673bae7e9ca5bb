// IPC event and IPC notify entry points. The shared state is a registry slot
// (sim/registry.h) whose words an IpcSignal (core/ipc_signal.h) drives; the
// local event or notify object is attached to it on export or import.
//
// Lifetime decision (the reference is silent): an exported event's or
// notify's slot lives until its exporter exits (or dies: then every wait on
// it is released), so an importer never holds a word another export reuses.
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "api/acl_ipc_event.h"
#include "api/api_common.h"
#include "core/basic_tasks.h"
#include "core/ipc_signal.h"
#include "core/peer_access.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "platform/shm_dir.h"
#include "sim/registry.h"
#include "sim/soc.h"

using namespace simnpu;

namespace simnpu::api {
core::HandleRegistry<core::Notify>& NotifyHandles();  // acl_event.cc
}

namespace {

bool FamilyIn(std::initializer_list<const char*> fams) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  if (!soc) return false;
  for (const char* f : fams)
    if (std::strcmp(soc->family, f) == 0) return true;
  return false;
}
bool HasIpcEvent() { return FamilyIn({"A2", "A3", "950", "350"}); }
bool HasIpcNotify() { return !FamilyIn({"310B"}); }

aclError NoFeature(const char* func, const char* feature) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  return api::RtFail(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     std::string(soc ? soc->name : "this SOC") + " has no " + feature + " feature");
}

std::mutex g_mu;  // serialises first exports (one slot per object)

bool OwnSlot(int slot) {
  sim::RegExport* s = sim::Registry::Get().Slot(slot);
  return s && s->kind != 0 && sim::FieldEquals(s->owner_stem, platform::ShmDir::Get().stem());
}

std::shared_ptr<core::IpcSignal> SignalFor(int slot) {
  sim::RegExport* s = sim::Registry::Get().Slot(slot);
  return s ? std::make_shared<core::IpcSignal>(s, slot) : nullptr;
}

}  // namespace

namespace simnpu::api {

aclError RefuseIpcEvent(const char* func, const core::Event* e) {
  if (!e || !(e->flags() & ACL_EVENT_IPC)) return ACL_SUCCESS;
  return RtFail(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                std::string("event ") + Hex(e) + " is an IPC event (ACL_EVENT_IPC or aclrtIpcOpenEventHandle); " + func +
                    " does not support IPC events");
}

aclError RefuseIpcEventInGraph(const char* func, const core::Event* e, const core::Stream* s) {
  if (!e || !(e->flags() & ACL_EVENT_IPC) || !s || !s->sink()) return ACL_SUCCESS;
  return RtFail(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                std::string("event ") + Hex(e) + " is an IPC event and stream " + std::to_string(s->id()) +
                    " is capturing (or bound to a model); IPC events cannot be used in a task graph");
}

}  // namespace simnpu::api

extern "C" {

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(event);
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_FIND_HANDLE(e, core::Runtime::Get().events(), event, "event");
  if (!(e->flags() & ACL_EVENT_IPC))
    return api::RtBadParam(__func__, "event", api::Hex(event), "the event was not created with ACL_EVENT_IPC");
  if (!HasIpcEvent()) return NoFeature(__func__, "IPC_EVENT");
  std::lock_guard<std::mutex> g(g_mu);
  std::shared_ptr<core::IpcSignal> sig = e->ipc();
  if (!sig) {
    sim::RegExport rec{};
    rec.kind = static_cast<uint32_t>(sim::ExportKind::kEvent);
    rec.flags = 1;  // handles carry no whitelist (pid validation disabled)
    core::Device* own = core::Runtime::Get().FindDevice(e->device_id());
    rec.device = own ? own->phys_id() : e->device_id();  // the registry holds physical ids
    rec.handle = sim::Registry::Get().NextId();
    std::string key;
    auto slot = sim::Registry::Get().AddExport(rec, &key);
    if (!slot.ok()) return api::Fail(__func__, slot.status());
    sig = SignalFor(slot.value());
    e->InitIpcWords(*sig);
    e->AttachIpc(sig);
  }
  const uint64_t h = sig->handle();
  std::memcpy(handle->reserved, &h, sizeof h);  // only the first 8 bytes carry information
  return ACL_SUCCESS;
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(event);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!HasIpcEvent()) return NoFeature(__func__, "IPC_EVENT");
  uint64_t h = 0;
  std::memcpy(&h, handle.reserved, sizeof h);
  int slot = -1;
  Status reg_error;
  auto rec = sim::Registry::Get().FindByHandle(h, sim::ExportKind::kEvent, &slot, &reg_error);
  if (!reg_error.ok()) return api::RtFail(__func__, reg_error.code(), reg_error.message());
  if (!rec)
    return api::RtBadParam(__func__, "handle", std::to_string(h),
                           "no IPC event is exported under this handle (unknown, or its exporter exited)");
  auto e = std::make_shared<core::Event>(ctx.value()->device_id(), ACL_EVENT_IPC);
  e->AttachIpc(SignalFor(slot));
  // Opening enables peer access both ways with the exporter's device, as the
  // reference's import does (a consumer on another device needs no
  // aclrtDeviceEnablePeerAccess).
  const int cur = ctx.value()->device_id();
  for (int id = 0; id < core::Runtime::Get().device_count(); ++id) {
    core::Device* d = core::Runtime::Get().FindDevice(id);
    if (id != cur && ((d && d->phys_id() == rec->device) || (!d && id == rec->device))) {
      core::PeerAccess::Get().Set(cur, id, true);
      core::PeerAccess::Get().Set(id, cur, true);
    }
  }
  core::Runtime::Get().events().Add(e);
  *event = e.get();
  return ACL_SUCCESS;
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(key);
  if (len == 0) return api::RtBadParam(__func__, "len", "0", "the key buffer size (65)");
  if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return api::RtBadParam(__func__, "flags", std::to_string(flags),
                           "0 or ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION");
  ACL_FIND_HANDLE(n, api::NotifyHandles(), notify, "notify");
  if (!HasIpcNotify()) return NoFeature(__func__, "IPC_NOTIFY");
  std::lock_guard<std::mutex> g(g_mu);
  if (n->ipc() && !OwnSlot(n->ipc()->index()))
    return api::RtBadParam(__func__, "notify", api::Hex(notify), "an imported notify cannot be exported again");
  sim::RegExport rec{};
  rec.kind = static_cast<uint32_t>(sim::ExportKind::kNotify);
  rec.flags = (flags & ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) ? 1 : 0;
  rec.device = n->device_id();
  std::shared_ptr<core::IpcSignal> sig = n->ipc();
  std::string k;
  if (sig) {  // exported before: the same words under a new key
    sim::RegExport* old = sim::Registry::Get().Slot(sig->index());
    std::optional<std::string> text = old ? sim::FieldText(old->key) : std::optional<std::string>(std::string());
    if (!text)
      return api::RtFail(__func__, sim::kRegistryCorrupt,
                         "the machine-wide registry's record " + std::to_string(sig->index()) +
                             " (this notify's export) is corrupt: its key field is not NUL-terminated");
    k = *text;
  } else {
    auto slot = sim::Registry::Get().AddExport(rec, &k);
    if (!slot.ok()) return api::Fail(__func__, slot.status());
    sig = SignalFor(slot.value());
    sig->Init(0, 0);
    n->AttachIpc(sig);
  }
  if (k.size() + 1 > static_cast<uint32_t>(len))
    return api::RtBadParam(__func__, "len", std::to_string(len), "at least " + std::to_string(k.size() + 1) + " bytes");
  std::memcpy(key, k.c_str(), k.size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(pid);
  if (static_cast<int32_t>(num) <= 0)
    return api::RtBadParam(__func__, "num", std::to_string(static_cast<int32_t>(num)), "a positive count");
  if (!HasIpcNotify()) return NoFeature(__func__, "IPC_NOTIFY");
  ACL_FIND_HANDLE(n, api::NotifyHandles(), notify, "notify");
  std::shared_ptr<core::IpcSignal> sig = n->ipc();
  if (!sig || !OwnSlot(sig->index()))
    return api::RtBadParam(__func__, "notify", api::Hex(notify), "the notify was not exported by this process");
  const int slot = sig->index();
  return api::Fail(__func__, sim::Registry::Get().AddWhitelist(slot, pid, static_cast<size_t>(static_cast<int32_t>(num))));
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(notify);
  ACL_REQUIRE_NOT_NULL(key);
  if (flags > 3) return api::RtBadParam(__func__, "flags", std::to_string(flags), "0 .. 3");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!HasIpcNotify()) return NoFeature(__func__, "IPC_NOTIFY");
  if (flags & 1) return NoFeature(__func__, "MC2 notify download");
  const size_t kl = strnlen(key, 65);
  if (kl == 0 || kl > 64) return api::RtBadParam(__func__, "key", "(bad length)", "a key of 1 to 64 characters");
  int slot = -1;
  Status reg_error;
  auto rec = sim::Registry::Get().FindExport(key, sim::ExportKind::kNotify, &slot, &reg_error);
  if (!reg_error.ok()) return api::RtFail(__func__, reg_error.code(), reg_error.message());
  if (!rec)
    return api::RtBadParam(__func__, "key", key, "no notify is exported under this key (unknown, or its exporter exited)");
  if (!sim::MayImport(*rec, getpid(), rec->flags & 1))
    return api::RtFail(__func__, ACL_ERROR_RT_NO_PERMISSION,
                       "process " + std::to_string(getpid()) + " is not on the whitelist of the notify key '" +
                           std::string(key) + "' (aclrtNotifySetImportPid)");
  auto n = std::make_shared<core::Notify>(ctx.value()->device_id(), 0);
  n->AttachIpc(SignalFor(slot));
  api::NotifyHandles().Add(n);
  *notify = n.get();
  return ACL_SUCCESS;
}

}  // extern "C"
