// Model runtime instance entry points (aclmdlRI*), labels, switch and
// active-stream tasks, conditional tasks and the event calls with flags
// (acl-api-ext.md §5). The model itself is core/model.h; this file checks
// arguments, keeps the handles, and turns calls on a recording stream into
// model nodes.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unistd.h>

#include "api/api_common.h"
#include "api/capture_hooks.h"
#include "api/kernel_lookup.h"
#include "api/range_checks.h"
#include "core/basic_tasks.h"
#include "core/model.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "loader/kernel_args.h"
#include "platform/vm.h"

using namespace simnpu;
using core::Capture;
using core::CaptureRegistry;
using core::Model;
using core::Node;
using core::NodeKind;

namespace {

constexpr int kModeGlobal = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
constexpr int kModeRelaxed = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
constexpr size_t kMaxLabels = 65535;
constexpr size_t kMaxNameLen = 512;  // aclmdlRIGetName: longer names are cut

core::HandleRegistry<Model>& Models() {
  static auto* r = new core::HandleRegistry<Model>();
  return *r;
}
core::HandleRegistry<core::Label>& Labels() {
  static auto* r = new core::HandleRegistry<core::Label>();
  return *r;
}
struct LabelList {
  std::vector<std::shared_ptr<core::Label>> labels;
};
core::HandleRegistry<LabelList>& LabelLists() {
  static auto* r = new core::HandleRegistry<LabelList>();
  return *r;
}
std::atomic<uint32_t> g_next_model_id{0};

std::shared_ptr<Model> NewModel(Model::State st, int device_id) {
  auto m = std::make_shared<Model>(st, device_id);
  m->id = g_next_model_id.fetch_add(1);
  m->from_capture = st == Model::State::kCapturing;
  Models().Add(m);
  return m;
}

#define FIND_MODEL(var, handle)  \
  ACL_REQUIRE_NOT_NULL(handle); \
  ACL_FIND_HANDLE(var, Models(), handle, "model runtime instance")

// A user stream argument that must not be NULL (100000) and must be live (107017).
#define FIND_USER_STREAM(var, handle) \
  ACL_REQUIRE_NOT_NULL(handle);      \
  ACL_RESOLVE_STREAM(var, handle)

// The model a stream records into (capture or binding), or null. REQUIRES(registry mu)
Model* RecordingModelLocked(CaptureRegistry& reg, const core::Stream* s, Capture** cap) {
  *cap = reg.CaptureOf(s);
  if (*cap) return (*cap)->model.get();
  auto it = reg.bound().find(s);
  return it == reg.bound().end() ? nullptr : it->second;
}

// The model s is bound to while it is being built; 107000 otherwise.
aclError BuildingModelOf(const char* func, core::Stream* s, Model** out) {
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  auto it = reg.bound().find(s);
  if (it == reg.bound().end())
    return api::RtBadParam(func, "stream", std::to_string(s->id()), "the stream is not bound to a model (aclmdlRIBindStream)");
  if (it->second->state() != Model::State::kBuilding)
    return api::RtBadParam(func, "stream", std::to_string(s->id()), "its model was already finished (aclmdlRIBuildEnd)");
  *out = it->second;
  return ACL_SUCCESS;
}

aclError AppendToBuilding(const char* func, core::Stream* s, std::unique_ptr<Node> n) {
  Model* m = nullptr;
  if (aclError e = BuildingModelOf(func, s, &m)) return e;
  std::lock_guard<std::mutex> g(m->mu());
  m->Append(m->StreamIndex(s), std::move(n));
  return ACL_SUCCESS;
}

// Model stream index of `other` in the model `s` is bound to (building); 107000 otherwise.
aclError SameModelStream(const char* func, core::Stream* s, core::Stream* other, const char* what, Model** m,
                         int* idx) {
  if (aclError e = BuildingModelOf(func, s, m)) return e;
  std::lock_guard<std::mutex> g((*m)->mu());
  *idx = (*m)->StreamIndex(other);
  if (*idx < 0)
    return api::RtBadParam(func, what, std::to_string(other->id()), "must be bound to the same model as the stream");
  return ACL_SUCCESS;
}

aclError CheckMode(const char* func, int mode) {
  if (mode < 0 || mode > 2)
    return api::RtBadParam(func, "mode", std::to_string(mode), "must be GLOBAL (0), THREAD_LOCAL (1) or RELAXED (2)");
  return ACL_SUCCESS;
}

// Starts capturing s into m (CaptureBegin / CaptureToModelRIBegin).
aclError BeginCapture(const char* func, const std::shared_ptr<core::Stream>& s, std::shared_ptr<Model> m, int mode) {
  if (s->is_default())
    return api::NotSupported(func, "the default stream cannot be captured");
  auto ctx = core::Runtime::Get().current();
  if (ctx && !ctx->OwnsStream(s.get()))
    return api::RtFail(func, ACL_ERROR_RT_STREAM_CONTEXT, "the stream belongs to another context");
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  if (reg.bound().count(s.get()))
    return api::RtFail(func, ACL_ERROR_RT_STREAM_MODEL, "the stream is bound to a model (aclmdlRIBindStream)");
  if (reg.CaptureOf(s.get()) || s->sink())
    return api::RtFail(func, ACL_ERROR_RT_STREAM_CAPTURED, "the stream is already being captured");
  auto c = std::make_unique<Capture>();
  c->model = std::move(m);
  c->origin = s.get();
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->members.push_back(s);
  {
    std::lock_guard<std::mutex> mg(c->model->mu());
    c->model->set_state(Model::State::kCapturing);
    if (c->model->StreamIndex(s.get()) < 0) c->model->AddStream(s.get(), true);
  }
  s->set_sink(c->model.get());
  reg.AddCaptureLocked(std::move(c));
  return ACL_SUCCESS;
}

// A joined stream is rejoined when its last node is a record some other
// model stream waits for.
bool Rejoined(Model& m, int idx) {
  auto& nodes = m.streams()[idx].nodes;
  if (nodes.empty()) return true;
  Node* last = nodes.back().get();
  if (last->kind != NodeKind::kRecord) return false;
  for (auto& ms : m.streams())
    for (auto& n : ms.nodes)
      if (n->kind == NodeKind::kWait && n->dep == last) return true;
  return false;
}

const char* NodeTypeName(const Node& n) {
  switch (n.kind) {
    case NodeKind::kTask: return n.task.load()->name();
    case NodeKind::kRecord: return "event_record";
    case NodeKind::kWait: return "event_wait";
    case NodeKind::kReset: return "event_reset";
    case NodeKind::kEnd: return "model_end";
    case NodeKind::kActive: return "stream_active";
    case NodeKind::kSwitchStream: return "stream_switch";
    case NodeKind::kSwitchLabel: return "label_switch";
    case NodeKind::kCond: return "cond";
  }
  return "task";
}

using DestroyCallbacks = std::vector<std::pair<void (*)(void*), void*>>;

// Frees the device words of m's condition handles (and of its sub-models) and
// collects the destroy callbacks of m and its sub-models (sub-models first).
void FreeModelMemory(Model& m, DestroyCallbacks* cbs) {
  for (void* p : m.owned_device_words) (void)aclrtFree(p);
  m.owned_device_words.clear();
  for (auto& ms : m.streams())
    for (auto& n : ms.nodes)
      for (auto& b : n->bodies) {
        FreeModelMemory(*b, cbs);
        Models().Remove(b.get());
      }
  std::lock_guard<std::mutex> g(m.mu());
  cbs->insert(cbs->end(), m.destroy_callbacks.begin(), m.destroy_callbacks.end());
  m.destroy_callbacks.clear();
}

// The aclmdlRITaskType of a node.
aclmdlRITaskType TypeOf(const Node& n) {
  switch (n.kind) {
    case NodeKind::kRecord: return ACL_MODEL_RI_TASK_EVENT_RECORD;
    case NodeKind::kWait: return ACL_MODEL_RI_TASK_EVENT_WAIT;
    case NodeKind::kReset: return ACL_MODEL_RI_TASK_EVENT_RESET;
    case NodeKind::kTask: {
      const core::Task* k = n.task.load();
      if (k->is_kernel()) return ACL_MODEL_RI_TASK_KERNEL;
      if (std::strcmp(k->name(), "value_write") == 0) return ACL_MODEL_RI_TASK_VALUE_WRITE;
      if (std::strcmp(k->name(), "value_wait") == 0) return ACL_MODEL_RI_TASK_VALUE_WAIT;
      return ACL_MODEL_RI_TASK_DEFAULT;
    }
    default: return ACL_MODEL_RI_TASK_DEFAULT;
  }
}

// The model, stream index and position of a task handle (a Node*), or null.
std::shared_ptr<Model> FindTask(const void* task, int* stream, size_t* pos) {
  for (auto& m : Models().Select([](const Model&) { return true; })) {
    std::lock_guard<std::mutex> g(m->mu());
    for (size_t s = 0; s < m->streams().size(); ++s) {
      auto& nodes = m->streams()[s].nodes;
      for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].get() == task) {
          *stream = static_cast<int>(s);
          *pos = i;
          return m;
        }
    }
  }
  return nullptr;
}

// Task update in progress on an ordinary stream (TaskUpdateBegin .. End).
class UpdateSink : public core::TaskSink {
 public:
  explicit UpdateSink(core::TaskGroup* g) : group(g) {}
  void Take(core::Stream*, std::unique_ptr<core::Task> t) override {
    std::lock_guard<std::mutex> lk(mu);
    tasks.push_back(std::move(t));
  }
  core::TaskGroup* group;
  std::mutex mu;
  std::vector<std::unique_ptr<core::Task>> tasks;
};
std::mutex g_update_mu;
std::unordered_map<const core::Stream*, std::unique_ptr<UpdateSink>>& Updates() {
  static auto* m = new std::unordered_map<const core::Stream*, std::unique_ptr<UpdateSink>>();
  return *m;
}

// The group handle -> its model (groups are owned by their model).
std::shared_ptr<Model> ModelOfGroup(aclrtTaskGrp h, core::TaskGroup** out) {
  for (auto& m : Models().Select([](const Model&) { return true; }))
    for (auto& g : m->groups())
      if (g.get() == h) {
        *out = g.get();
        return m;
      }
  return nullptr;
}

}  // namespace

// ------------------------------------------------------------------ hooks

namespace simnpu::api {

bool CaptureRecordEvent(const char*, core::Stream* s, const std::shared_ptr<core::Event>& e, bool external,
                        aclError* rc) {
  if (!s->sink()) return false;
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = nullptr;
  Model* m = RecordingModelLocked(reg, s, &c);
  if (!m) return false;
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kRecord;
  n->event = e;
  n->external = external;
  {
    std::lock_guard<std::mutex> mg(m->mu());
    m->Append(m->StreamIndex(s), std::move(n));
  }
  // A record other streams may join the capture through (not an external one).
  if (c && !external && !(e->flags() & ACL_EVENT_EXTERNAL)) reg.event_records()[e.get()] = c;
  *rc = ACL_SUCCESS;
  return true;
}

bool CaptureWaitEvent(const char*, core::Stream* s, const std::shared_ptr<core::Event>& e, int32_t timeout_ms,
                      bool external, aclError* rc) {
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = nullptr;
  Model* m = s->sink() ? RecordingModelLocked(reg, s, &c) : nullptr;
  if (!m) {
    // An ordinary stream waiting on an event recorded in a capture joins it.
    Capture* src = external || s->sink() || reg.bound().count(s) ? nullptr : reg.CaptureRecording(e.get());
    if (!src) return false;
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::kWait;
    n->event = e;
    {
      std::lock_guard<std::mutex> mg(src->model->mu());
      n->dep = src->model->LastRecordOf(e.get());
      int idx = src->model->AddStream(s, true);
      src->model->Append(idx, std::move(n));
    }
    src->members.push_back(s->shared_from_this());
    s->set_sink(src->model.get());
    *rc = ACL_SUCCESS;
    return true;
  }
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kWait;
  n->event = e;
  n->timeout_ms = timeout_ms;
  n->external = external;
  {
    std::lock_guard<std::mutex> mg(m->mu());
    if (!external && !(e->flags() & ACL_EVENT_EXTERNAL)) n->dep = m->LastRecordOf(e.get());
    m->Append(m->StreamIndex(s), std::move(n));
  }
  *rc = ACL_SUCCESS;
  return true;
}

bool CaptureResetEvent(const char*, core::Stream* s, const std::shared_ptr<core::Event>& e, aclError* rc) {
  if (!s->sink()) return false;
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = nullptr;
  Model* m = RecordingModelLocked(reg, s, &c);
  if (!m) return false;
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kReset;
  n->event = e;
  std::lock_guard<std::mutex> mg(m->mu());
  m->Append(m->StreamIndex(s), std::move(n));
  *rc = ACL_SUCCESS;
  return true;
}

aclError RefuseCapturedStream(const char* func, core::Stream* s) {
  if (!s->sink()) return ACL_SUCCESS;
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureOf(s);
  if (!c) return ACL_SUCCESS;
  c->invalidated = true;
  return RtFail(func, ACL_ERROR_RT_STREAM_CAPTURED,
                "stream " + std::to_string(s->id()) + " is being captured; synchronising or querying it is not "
                "allowed (the capture is invalidated)");
}

aclError RefuseCapturedEvent(const char* func, const core::Event* e) {
  auto& reg = CaptureRegistry::Get();
  if (!reg.AnyActive()) return ACL_SUCCESS;  // the common case, without the registry lock
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureRecording(e);
  if (!c) return ACL_SUCCESS;
  c->invalidated = true;
  return RtFail(func, ACL_ERROR_RT_EVENT_CAPTURED,
                "the event was recorded in a capture in progress; synchronising or querying it is not allowed (the "
                "capture is invalidated)");
}

aclError RefuseCapturingDevice(const char* func, int device_id) {
  if (!CaptureRegistry::Get().DeviceCapturing(device_id)) return ACL_SUCCESS;
  return RtFail(func, ACL_ERROR_RT_STREAM_CAPTURED,
                "a stream of device " + std::to_string(device_id) + " is being captured");
}

aclError RefuseUnsafeCall(const char* func) {
  std::string why;
  if (int rc = CaptureRegistry::Get().CheckUnsafeCall(&why)) return RtFail(func, rc, why);
  return ACL_SUCCESS;
}

}  // namespace simnpu::api

extern "C" {

// ------------------------------------------------------------------ build

aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(modelRI);
  if (flag != 0) return api::BadParam(__func__, "flag", std::to_string(flag), "0 (reserved)");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  *modelRI = NewModel(Model::State::kBuilding, ctx.value()->device_id()).get();
  return ACL_SUCCESS;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  FIND_USER_STREAM(s, stream);
  if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
    return api::RtBadParam(__func__, "flag", std::to_string(flag),
                           "ACL_MODEL_STREAM_FLAG_HEAD (0) or ACL_MODEL_STREAM_FLAG_DEFAULT (0x7FFFFFFF)");
  if (m->state() != Model::State::kBuilding)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI),
                           "only a model being built (aclmdlRIBuildBegin) binds streams");
  if (s->is_default() || !(s->flags() & ACL_STREAM_PERSISTENT) || (s->flags() & ACL_STREAM_DEVICE_USE_ONLY))
    return api::RtBadParam(__func__, "stream", std::to_string(s->id()),
                           "must be a stream created with aclrtCreateStreamWithConfig(..., ACL_STREAM_PERSISTENT)");
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  if (reg.CaptureOf(s.get()) || s->sink()) {
    if (!reg.bound().count(s.get()))
      return api::RtFail(__func__, ACL_ERROR_RT_STREAM_CAPTURED, "the stream is being captured");
    return api::RtBadParam(__func__, "stream", std::to_string(s->id()), "the stream is already bound to a model");
  }
  {
    std::lock_guard<std::mutex> mg(m->mu());
    m->AddStream(s.get(), flag == ACL_MODEL_STREAM_FLAG_HEAD);
  }
  reg.bound()[s.get()] = m.get();
  s->set_sink(m.get());
  return ACL_SUCCESS;
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  FIND_USER_STREAM(s, stream);
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  auto it = reg.bound().find(s.get());
  if (it == reg.bound().end() || it->second != m.get())
    return api::RtBadParam(__func__, "stream", std::to_string(s->id()), "the stream is not bound to this model");
  reg.bound().erase(it);
  s->set_sink(nullptr);
  return ACL_SUCCESS;
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  FIND_USER_STREAM(s, stream);
  Model* bm = nullptr;
  if (aclError e = BuildingModelOf(__func__, s.get(), &bm)) return e;
  if (bm != m.get())
    return api::RtBadParam(__func__, "stream", std::to_string(s->id()), "the stream is bound to another model");
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kEnd;
  std::lock_guard<std::mutex> g(m->mu());
  m->Append(m->StreamIndex(s.get()), std::move(n));
  return ACL_SUCCESS;
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  if (reserve != nullptr) return api::BadParam(__func__, "reserve", api::Hex(reserve), "NULL");
  if (m->state() != Model::State::kBuilding)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI), "the model is not being built");
  std::lock_guard<std::mutex> g(m->mu());
  // Every label a switch may jump to must be placed in this model.
  for (auto& ms : m->streams())
    for (auto& n : ms.nodes)
      if (n->kind == NodeKind::kSwitchLabel)
        for (auto& l : n->labels)
          if (l->model != m.get())
            return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI),
                                   "a label switched to by aclrtSwitchLabelByIndex was not set in this model");
  m->set_state(Model::State::kReady);
  return ACL_SUCCESS;
}

// ------------------------------------------------------------------ execute

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  ACL_RESOLVE_STREAM(s, stream);
  if (s->sink()) {
    auto& reg = CaptureRegistry::Get();
    std::lock_guard<std::mutex> g(reg.mu());
    if (reg.bound().count(s.get()))
      return api::RtBadParam(__func__, "stream", std::to_string(s->id()), "a stream bound to a model cannot run one");
    return api::RtFail(__func__, ACL_ERROR_RT_STREAM_CAPTURED, "the stream is being captured");
  }
  if (m->is_sub_model)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI), "a conditional branch runs only inside its parent");
  if (m->state() != Model::State::kReady)
    return api::RtFail(__func__, ACL_ERROR_RT_MODEL_EXECUTE,
                       "the model is still being captured or built (aclmdlRICaptureEnd / aclmdlRIBuildEnd first)");
  m->AssignDefaults();  // synchronously, before the model runs (ASSIGN_DEFAULT)
  s->Submit(std::make_unique<core::ModelExecTask>(m));
  return ACL_SUCCESS;
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  if (timeout == 0 || timeout < -1)
    return api::RtBadParam(__func__, "timeout", std::to_string(timeout), "-1 (forever) or a positive number of ms");
  if (m->is_sub_model)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI), "a conditional branch runs only inside its parent");
  if (m->state() != Model::State::kReady)
    return api::RtFail(__func__, ACL_ERROR_RT_MODEL_EXECUTE, "the model is still being captured or built");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  auto s = ctx.value()->default_stream();
  m->AssignDefaults();
  const uint64_t seq = s->Submit(std::make_unique<core::ModelExecTask>(m));
  if (!s->WaitFor(seq, timeout))
    return api::RtFail(__func__, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                       "the model did not finish within " + std::to_string(timeout) + " ms");
  if (int rc = s->TakePendingError()) return api::RtFail(__func__, rc, s->TakeFailureMessage());
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  if (m->is_sub_model)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI),
                           "a conditional branch is owned by its parent model and destroyed with it");
  {
    auto& reg = CaptureRegistry::Get();
    std::lock_guard<std::mutex> g(reg.mu());
    for (auto it = reg.bound().begin(); it != reg.bound().end();) {
      if (it->second == m.get()) {
        const_cast<core::Stream*>(it->first)->set_sink(nullptr);
        it = reg.bound().erase(it);
      } else {
        ++it;
      }
    }
    for (auto& c : reg.captures())
      if (c->model == m) {
        reg.EndCaptureLocked(c.get());
        break;
      }
  }
  DestroyCallbacks cbs;
  FreeModelMemory(*m, &cbs);
  Models().Remove(modelRI);  // a queued execution keeps its own reference
  for (auto& [fn, data] : cbs) fn(data);  // no lock held: a callback may call the API
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(func);
  std::lock_guard<std::mutex> g(m->mu());
  m->destroy_callbacks.emplace_back(func, userData);
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(func);
  std::lock_guard<std::mutex> g(m->mu());
  auto& v = m->destroy_callbacks;
  const size_t before = v.size();
  v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& e) { return e.first == func; }), v.end());
  if (v.size() == before)
    return api::RtBadParam(__func__, "func", api::Hex(reinterpret_cast<void*>(func)),
                           "a callback registered on this model with aclmdlRIDestroyRegisterCallback");
  return ACL_SUCCESS;
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char* name) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(name);
  std::lock_guard<std::mutex> g(m->mu());
  m->name.assign(name, strnlen(name, kMaxNameLen - 1));
  return ACL_SUCCESS;
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(name);
  if (maxLen == 0) return api::BadParam(__func__, "maxLen", "0", "a positive buffer length");
  std::lock_guard<std::mutex> g(m->mu());
  const size_t n = std::min<size_t>(m->name.size(), maxLen - 1);
  std::memcpy(name, m->name.data(), n);
  name[n] = '\0';
  return ACL_SUCCESS;
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(modelRIId);
  *modelRIId = m->id;
  return ACL_SUCCESS;
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(numStreams);
  std::lock_guard<std::mutex> g(m->mu());
  const auto n = static_cast<uint32_t>(m->streams().size());
  if (streams) {
    if (*numStreams < n)
      return api::RtBadParam(__func__, "numStreams", std::to_string(*numStreams),
                             "the array must hold the model's " + std::to_string(n) + " streams");
    for (uint32_t i = 0; i < n; ++i) streams[i] = m->streams()[i].handle;
  }
  *numStreams = n;
  return ACL_SUCCESS;
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks) {
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(numTasks);
  // The newest model recorded from this stream.
  std::shared_ptr<Model> best;
  int idx = -1;
  for (auto& m : Models().Select([](const Model&) { return true; })) {
    std::lock_guard<std::mutex> g(m->mu());
    for (size_t i = 0; i < m->streams().size(); ++i)
      if (m->streams()[i].handle == stream && (!best || m->id > best->id)) {
        best = m;
        idx = static_cast<int>(i);
      }
  }
  if (!best)
    return api::RtBadParam(__func__, "stream", api::Hex(stream), "no model runtime instance was recorded from it");
  std::lock_guard<std::mutex> g(best->mu());
  auto& nodes = best->streams()[idx].nodes;
  const auto n = static_cast<uint32_t>(nodes.size());
  if (tasks) {
    if (*numTasks < n)
      return api::RtBadParam(__func__, "numTasks", std::to_string(*numTasks),
                             "the array must hold the stream's " + std::to_string(n) + " tasks");
    for (uint32_t i = 0; i < n; ++i) tasks[i] = nodes[i].get();
  }
  *numTasks = n;
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type) {
  ACL_REQUIRE_NOT_NULL(task);
  ACL_REQUIRE_NOT_NULL(type);
  int st = -1;
  size_t pos = 0;
  auto m = FindTask(task, &st, &pos);
  if (!m) return api::InvalidHandle(__func__, "model task", task);
  std::lock_guard<std::mutex> g(m->mu());
  *type = TypeOf(*m->streams()[st].nodes[pos]);
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id) {
  ACL_REQUIRE_NOT_NULL(task);
  ACL_REQUIRE_NOT_NULL(id);
  int s = -1;
  size_t pos = 0;
  if (!FindTask(task, &s, &pos)) return api::InvalidHandle(__func__, "model task", task);
  *id = static_cast<uint32_t>(pos);
  return ACL_SUCCESS;
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ACL_REQUIRE_NOT_NULL(task);
  int s = -1;
  size_t pos = 0;
  auto m = FindTask(task, &s, &pos);
  if (!m) return api::InvalidHandle(__func__, "model task", task);
  if (m->state() != Model::State::kReady)
    return api::RtBadParam(__func__, "task", api::Hex(task),
                           "a task of a finished model (aclmdlRICaptureEnd / aclmdlRIBuildEnd first)");
  std::lock_guard<std::mutex> g(m->mu());
  m->streams()[s].nodes[pos]->disable_pending = true;
  return ACL_SUCCESS;
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  ACL_REQUIRE_NOT_NULL(task);
  ACL_REQUIRE_NOT_NULL(params);
  int st = -1;
  size_t pos = 0;
  auto m = FindTask(task, &st, &pos);
  if (!m) return api::InvalidHandle(__func__, "model task", task);
  std::lock_guard<std::mutex> g(m->mu());
  const Node& n = *m->streams()[st].nodes[pos];
  std::memset(params, 0, sizeof *params);
  params->type = TypeOf(n);
  for (auto& grp : m->groups())
    if (grp->stream == st && pos >= grp->begin && pos < grp->end) params->taskGrp = grp.get();
  switch (n.kind) {
    case NodeKind::kRecord:
      params->eventRecordTaskParams.event = n.event.get();
      params->eventRecordTaskParams.eventFlag = n.event->flags();
      params->eventRecordTaskParams.recordFlag = n.external ? ACL_EVENT_RECORD_EXTERNAL : ACL_EVENT_RECORD_DEFAULT;
      break;
    case NodeKind::kWait:
      params->eventWaitTaskParams.event = n.event.get();
      params->eventWaitTaskParams.eventFlag = n.event->flags();
      params->eventWaitTaskParams.waitFlag = n.external ? ACL_EVENT_WAIT_EXTERNAL : ACL_EVENT_WAIT_DEFAULT;
      break;
    case NodeKind::kReset:
      params->eventResetTaskParams.event = n.event.get();
      params->eventResetTaskParams.eventFlag = n.event->flags();
      break;
    case NodeKind::kTask: {
      const core::Task* t = n.pending_task ? n.pending_task.get() : n.task.load();
      if (auto* k = dynamic_cast<const loader::KernelTask*>(t)) {
        auto& kp = params->kernelTaskParams;
        kp.funcHandle = k->handle();
        kp.args = k->args()->data();  // the task's own copy (readable in this process)
        kp.argsSize = k->args()->size;
        kp.numBlocks = k->config().num_blocks;
      } else if (auto* w = dynamic_cast<const core::ValueWriteTask*>(t)) {
        params->valueWriteTaskParams.devAddr = w->addr();
        params->valueWriteTaskParams.value = w->value();
      } else if (auto* v = dynamic_cast<const core::ValueWaitTask*>(t)) {
        params->valueWaitTaskParams.devAddr = const_cast<uint64_t*>(v->addr());
        params->valueWaitTaskParams.value = v->value();
        params->valueWaitTaskParams.flag = v->flag();
      }
      break;
    }
    default: break;
  }
  return ACL_SUCCESS;
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(task);
  ACL_REQUIRE_NOT_NULL(params);
  int st = -1;
  size_t pos = 0;
  auto m = FindTask(task, &st, &pos);
  if (!m) return api::InvalidHandle(__func__, "model task", task);
  if (m->state() != Model::State::kReady)
    return api::RtBadParam(__func__, "task", api::Hex(task),
                           "a task of a finished model (aclmdlRICaptureEnd / aclmdlRIBuildEnd first)");
  aclmdlRITaskType type;
  {
    std::lock_guard<std::mutex> g(m->mu());
    type = TypeOf(*m->streams()[st].nodes[pos]);
  }
  if (api::RawEnum(params->type) != type)
    return api::RtBadParam(__func__, "params->type", std::to_string(api::RawEnum(params->type)),
                           "the task's own type " + std::to_string(type) + " (aclmdlRITaskGetType)");
  std::unique_ptr<core::Task> t;
  switch (type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
      const aclmdlRIKernelTaskParams& kp = params->kernelTaskParams;
      if (kp.funcHandle == nullptr) return api::NullParam(__func__, "params->kernelTaskParams.funcHandle");
      if (kp.args == nullptr && kp.argsSize > 0) return api::NullParam(__func__, "params->kernelTaskParams.args");
      if (kp.numBlocks == 0)
        return api::BadParam(__func__, "params->kernelTaskParams.numBlocks", "0", "a positive block count");
      auto f = api::FindFunction(kp.funcHandle);
      if (!f) return api::InvalidHandle(__func__, "function", kp.funcHandle);
      if (kp.argsSize > loader::kMaxArgsBytes)
        return api::RtBadParam(__func__, "params->kernelTaskParams.argsSize", std::to_string(kp.argsSize),
                               "at most " + std::to_string(loader::kMaxArgsBytes) + " bytes of arguments");
      if (kp.argsSize > 0 && !platform::RangeReadable(kp.args, kp.argsSize))
        return api::RtBadParam(__func__, "params->kernelTaskParams.args", api::Hex(kp.args),
                               "[args, args+argsSize) is not readable");
      loader::LaunchConfig lc;
      lc.num_blocks = kp.numBlocks;
      if (aclError e = api::ParseLaunchConfig(__func__, kp.cfg, &lc)) return e;
      static const uint8_t kNoArgs[8] = {};
      auto snap = loader::SnapshotFromBlob(*f, kp.args ? kp.args : kNoArgs, kp.argsSize, nullptr, 0);
      if (!snap.ok()) return api::Fail(__func__, snap.status());
      t = std::make_unique<loader::KernelTask>(f, snap.value(), lc, kp.funcHandle);
      break;
    }
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
    case ACL_MODEL_RI_TASK_VALUE_WAIT: {
      const bool write = type == ACL_MODEL_RI_TASK_VALUE_WRITE;
      void* addr = write ? params->valueWriteTaskParams.devAddr : params->valueWaitTaskParams.devAddr;
      if (addr == nullptr) return api::NullParam(__func__, "params devAddr");
      if (reinterpret_cast<uintptr_t>(addr) % 8)
        return api::RtBadParam(__func__, "devAddr", api::Hex(addr), "must be 8-byte aligned");
      if (aclError e = api::CheckValueWord(__func__, addr)) return e;
      if (write) {
        t = std::make_unique<core::ValueWriteTask>(static_cast<uint64_t*>(addr), params->valueWriteTaskParams.value);
      } else {
        const uint32_t flag = params->valueWaitTaskParams.flag;
        if (flag >= 4)
          return api::RtBadParam(__func__, "params->valueWaitTaskParams.flag", std::to_string(flag),
                                 "ACL_STREAM_WAIT_VALUE_GEQ/EQ/AND/NOR");
        t = std::make_unique<core::ValueWaitTask>(static_cast<const uint64_t*>(addr),
                                                  params->valueWaitTaskParams.value, flag);
      }
      break;
    }
    default:
      return api::RtBadParam(__func__, "task", api::Hex(task),
                             "a kernel, value-write or value-wait task (event and other tasks have no settable "
                             "parameters)");
  }
  std::lock_guard<std::mutex> g(m->mu());
  m->streams()[st].nodes[pos]->pending_task = std::move(t);
  return ACL_SUCCESS;
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  if (m->state() != Model::State::kReady)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI),
                           "a finished model (aclmdlRICaptureEnd / aclmdlRIBuildEnd first)");
  (void)m->ApplyPendingEdits();
  return ACL_SUCCESS;
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  SIMNPU_TRACE_API();
  FIND_MODEL(m, modelRI);
  if (m->from_capture)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI),
                           "a built model (aclmdlRIBuildBegin); captured models cannot be aborted");
  (void)m->Abort();  // nothing running: nothing to stop
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  FIND_MODEL(m, modelRI);
  std::lock_guard<std::mutex> g(m->mu());
  std::printf("[simnpu] model runtime instance %u \"%s\": %zu stream(s)\n", m->id, m->name.c_str(),
              m->streams().size());
  for (auto& ms : m->streams()) {
    std::printf("[simnpu]   stream %d (%s): %zu task(s)\n", ms.stream_id, ms.head ? "head" : "dormant",
                ms.nodes.size());
    uint32_t seq = 0;
    for (auto& n : ms.nodes)
      std::printf("[simnpu]     task %u: %s%s\n", seq++, NodeTypeName(*n),
                  n->disabled.load() ? " (disabled)" : n->disable_pending ? " (disable pending)" : "");
  }
  std::fflush(stdout);
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(path);
  if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
    return api::BadParam(__func__, "flags", std::to_string(flags), "ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY or _VERBOSE");
  std::ofstream out(path, std::ios::trunc);
  if (!out) return api::RtBadParam(__func__, "path", path, "the file cannot be created");
  out << "[";
  bool first = true;
  uint64_t ts = 0;
  std::lock_guard<std::mutex> g(m->mu());
  for (auto& ms : m->streams()) {
    uint32_t task_id = 0;
    for (auto& n : ms.nodes) {
      out << (first ? "\n" : ",\n") << "{\"name\":\"" << NodeTypeName(*n) << "\",\"pid\":\"" << getpid()
          << " aclGraph\",\"tid\":\"stream" << ms.stream_id << "\",\"ts\":" << ts << ",\"dur\":1,\"ph\":\"X\","
          << "\"args\":{\"Model Id\":" << m->id << ",\"Stream Id\":" << ms.stream_id << ",\"Task Id\":" << task_id
          << ",\"Task Type\":\"" << NodeTypeName(*n) << "\"";
      if (n->kind == NodeKind::kActive || n->kind == NodeKind::kSwitchStream)
        out << ",\"Active Stream Id\":" << m->streams()[n->target].stream_id;
      out << "}}";
      first = false;
      ++task_id;
      ts += 2;
    }
  }
  out << "\n]\n";
  return out ? ACL_SUCCESS : api::RtBadParam(__func__, "path", path, "writing the file failed");
}

// ------------------------------------------------------------------ capture

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  SIMNPU_TRACE_API();
  FIND_USER_STREAM(s, stream);
  const int md = api::RawEnum(mode);
  if (aclError e = CheckMode(__func__, md)) return e;
  return BeginCapture(__func__, s, NewModel(Model::State::kCapturing, s->device_id()), md);
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  SIMNPU_TRACE_API();
  FIND_USER_STREAM(s, stream);
  FIND_MODEL(m, modelRI);
  const int md = api::RawEnum(mode);
  if (aclError e = CheckMode(__func__, md)) return e;
  if (m->state() == Model::State::kBuilding)
    return api::RtBadParam(__func__, "modelRI", api::Hex(modelRI), "a model being built cannot be captured into");
  return BeginCapture(__func__, s, m, md);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
  ACL_REQUIRE_NOT_NULL(stream);
  if (status == nullptr && modelRI == nullptr) return api::NullParam(__func__, "status and modelRI");
  ACL_RESOLVE_STREAM(s, stream);
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureOf(s.get());
  if (status)
    *status = !c ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
                 : c->invalidated ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  if (modelRI) *modelRI = c ? c->model.get() : nullptr;
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
  SIMNPU_TRACE_API();
  FIND_USER_STREAM(s, stream);
  ACL_REQUIRE_NOT_NULL(modelRI);
  auto& reg = CaptureRegistry::Get();
  std::shared_ptr<Model> m;
  DestroyCallbacks cbs;  // of a model discarded by a failed capture; run with no lock held
  aclError failed = ACL_SUCCESS;
  {
    std::lock_guard<std::mutex> g(reg.mu());
    Capture* c = reg.CaptureOf(s.get());
    if (!c) return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
    if (c->origin != s.get())
      return api::RtFail(__func__, ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                         "the capture must be ended on the stream it began on");
    if (c->mode != kModeRelaxed && c->thread != std::this_thread::get_id())
      return api::RtFail(__func__, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                         "a GLOBAL or THREAD_LOCAL capture must end on the thread that began it");
    m = c->model;
    int rc = 0;
    std::string why;
    if (c->invalidated) {
      rc = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
      why = "the capture was invalidated by a call not allowed during capture";
    } else {
      std::lock_guard<std::mutex> mg(m->mu());
      for (size_t i = 0; i < m->streams().size(); ++i) {
        if (m->streams()[i].stream == s.get() || m->streams()[i].stream == nullptr) continue;
        bool member = false;
        for (auto& mem : c->members) member |= mem.get() == m->streams()[i].stream;
        if (member && !Rejoined(*m, static_cast<int>(i))) {
          rc = ACL_ERROR_RT_STREAM_UNJOINED;
          why = "stream " + std::to_string(m->streams()[i].stream_id) +
                " joined the capture but was not joined back to the origin stream (record on it, wait on the origin)";
          break;
        }
      }
    }
    {
      std::lock_guard<std::mutex> mg(m->mu());
      for (auto& ms : m->streams()) {
        ms.stream = nullptr;
        ms.keep.reset();
      }
    }
    reg.EndCaptureLocked(c);
    if (rc) {
      *modelRI = nullptr;
      if (!m->is_sub_model) {
        FreeModelMemory(*m, &cbs);
        Models().Remove(m.get());
      }
      failed = api::RtFail(__func__, rc, why);
    }
  }
  if (failed) {
    for (auto& [fn, data] : cbs) fn(data);
    return failed;
  }
  m->set_state(Model::State::kReady);
  *modelRI = m.get();
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
  ACL_REQUIRE_NOT_NULL(mode);
  const int md = api::RawEnum(*mode);
  if (aclError e = CheckMode(__func__, md)) return e;
  int& cur = CaptureRegistry::ThreadMode();
  const int old = cur;
  cur = md;
  *mode = static_cast<aclmdlRICaptureMode>(old);
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  FIND_USER_STREAM(s, stream);
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureOf(s.get());
  if (!c) return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
  std::lock_guard<std::mutex> mg(c->model->mu());
  auto& ms = c->model->streams()[c->model->StreamIndex(s.get())];
  if (ms.group_open)
    return api::RtFail(__func__, ACL_ERROR_STREAM_TASK_GROUP_STATUS, "a task group is already open on this stream");
  ms.group_open = true;
  ms.group_begin = ms.nodes.size();
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
  FIND_USER_STREAM(s, stream);
  ACL_REQUIRE_NOT_NULL(handle);
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureOf(s.get());
  if (!c) return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
  std::lock_guard<std::mutex> mg(c->model->mu());
  const int idx = c->model->StreamIndex(s.get());
  auto& ms = c->model->streams()[idx];
  if (!ms.group_open)
    return api::RtFail(__func__, ACL_ERROR_STREAM_TASK_GROUP_STATUS, "no task group is open on this stream");
  ms.group_open = false;
  auto grp = std::make_unique<core::TaskGroup>();
  grp->model = c->model.get();
  grp->stream = idx;
  grp->begin = ms.group_begin;
  grp->end = ms.nodes.size();
  *handle = grp.get();
  c->model->groups().push_back(std::move(grp));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  FIND_USER_STREAM(s, stream);
  ACL_REQUIRE_NOT_NULL(handle);
  core::TaskGroup* grp = nullptr;
  auto m = ModelOfGroup(handle, &grp);
  if (!m) return api::InvalidHandle(__func__, "task group", handle);
  if (s->sink()) {
    auto& reg = CaptureRegistry::Get();
    std::lock_guard<std::mutex> g(reg.mu());
    if (reg.bound().count(s.get()))
      return api::RtFail(__func__, ACL_ERROR_RT_STREAM_MODEL, "the stream is bound to a model");
    if (reg.CaptureOf(s.get()))
      return api::RtFail(__func__, ACL_ERROR_RT_STREAM_CAPTURED, "the stream is being captured");
    return api::RtFail(__func__, ACL_ERROR_STREAM_TASK_GROUP_STATUS, "a task update is already open on this stream");
  }
  std::lock_guard<std::mutex> g(g_update_mu);
  auto sink = std::make_unique<UpdateSink>(grp);
  s->set_sink(sink.get());
  Updates()[s.get()] = std::move(sink);
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  FIND_USER_STREAM(s, stream);
  std::unique_ptr<UpdateSink> sink;
  {
    std::lock_guard<std::mutex> g(g_update_mu);
    auto it = Updates().find(s.get());
    if (it == Updates().end())
      return api::RtFail(__func__, ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                         "no task update is open on this stream (aclmdlRICaptureTaskUpdateBegin)");
    sink = std::move(it->second);
    Updates().erase(it);
  }
  s->set_sink(nullptr);
  core::TaskGroup* grp = sink->group;
  core::TaskGroup* check = nullptr;
  auto m = ModelOfGroup(grp, &check);
  if (!m) return api::InvalidHandle(__func__, "task group", grp);
  // The new tasks must match the group's tasks one for one, by type.
  std::vector<const Node*> old;
  {
    std::lock_guard<std::mutex> mg(m->mu());
    auto& nodes = m->streams()[grp->stream].nodes;
    for (size_t i = grp->begin; i < grp->end; ++i)
      if (nodes[i]->kind == NodeKind::kTask) old.push_back(nodes[i].get());
  }
  bool match = old.size() == sink->tasks.size();
  for (size_t i = 0; match && i < old.size(); ++i)
    match = std::string(old[i]->task.load()->name()) == sink->tasks[i]->name();
  if (!match) {
    for (auto& t : sink->tasks) t->Discard();
    return api::RtFail(__func__, ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                       "the update issued " + std::to_string(sink->tasks.size()) +
                           " tasks; the group holds " + std::to_string(old.size()) + " (same count and types needed)");
  }
  // Applied in stream order on the update stream.
  auto tasks = std::make_shared<std::vector<std::unique_ptr<core::Task>>>(std::move(sink->tasks));
  core::TaskGroup g = *grp;
  s->Submit(std::make_unique<core::HostFuncTask>(
      [m, tasks, g](core::ExecContext&) {
        m->ReplaceGroup(g, std::move(*tasks));
        return 0;
      },
      "model_task_update", true));
  return ACL_SUCCESS;
}

// ------------------------------------------------------------------ conditional tasks

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
  FIND_MODEL(m, modelRI);
  ACL_REQUIRE_NOT_NULL(handle);
  const int fl = api::RawEnum(flag);
  if (fl < 0 || fl > 1)
    return api::RtBadParam(__func__, "flag", std::to_string(fl), "0 or ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT (1)");
  void* word = nullptr;
  if (aclError e = aclrtMalloc(&word, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST)) return e;
  auto h = std::make_unique<core::CondHandle>();
  h->word = static_cast<uint64_t*>(word);
  h->default_value = defaultLaunchValue;
  h->assign_default = fl == 1;
  __atomic_store_n(h->word, uint64_t{defaultLaunchValue}, __ATOMIC_RELEASE);
  *handle = h.get();
  std::lock_guard<std::mutex> g(m->mu());
  m->owned_device_words.push_back(word);
  m->cond_handles().push_back(std::move(h));
  return ACL_SUCCESS;
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(ptr);
  for (auto& m : Models().Select([](const Model&) { return true; })) {
    std::lock_guard<std::mutex> g(m->mu());
    for (auto& h : m->cond_handles())
      if (h.get() == handle) {
        *ptr = h->word;
        return ACL_SUCCESS;
      }
  }
  return api::InvalidHandle(__func__, "condition handle", handle);
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  (void)flags;
  FIND_USER_STREAM(s, stream);
  ACL_REQUIRE_NOT_NULL(params.handle);
  ACL_REQUIRE_NOT_NULL(params.modelRIArray);
  const int type = api::RawEnum(params.type);
  const bool size_ok = (type == ACL_MODEL_RI_COND_TYPE_IF && (params.size == 1 || params.size == 2)) ||
                       (type == ACL_MODEL_RI_COND_TYPE_WHILE && params.size == 1) ||
                       (type == ACL_MODEL_RI_COND_TYPE_SWITCH && params.size > 0 && params.size <= 65535);
  if (!size_ok)
    return api::RtBadParam(__func__, "params.size", std::to_string(params.size),
                           "IF takes 1 or 2 branches, WHILE 1, SWITCH at least 1 (type " + std::to_string(type) + ")");
  auto& reg = CaptureRegistry::Get();
  std::lock_guard<std::mutex> g(reg.mu());
  Capture* c = reg.CaptureOf(s.get());
  if (!c) return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
  Model* m = c->model.get();
  const core::CondHandle* h = nullptr;
  {
    std::lock_guard<std::mutex> mg(m->mu());
    for (auto& ch : m->cond_handles())
      if (ch.get() == params.handle) h = ch.get();
  }
  if (!h) return api::RtBadParam(__func__, "params.handle", api::Hex(params.handle), "not a condition handle of this model");
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kCond;
  n->cond_word = h->word;
  n->cond_type = type;
  for (uint32_t i = 0; i < params.size; ++i) {
    auto sub = NewModel(Model::State::kReady, m->device_id());
    sub->from_capture = true;  // a branch of a captured model
    sub->is_sub_model = true;
    sub->parent = m;
    params.modelRIArray[i] = sub.get();
    n->bodies.push_back(std::move(sub));
  }
  std::lock_guard<std::mutex> mg(m->mu());
  m->Append(m->StreamIndex(s.get()), std::move(n));
  return ACL_SUCCESS;
}

// ------------------------------------------------------------------ events with flags

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  SIMNPU_TRACE_API();
  if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)
    return api::BadParam(__func__, "flag", std::to_string(flag), "ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL");
  if (flag == ACL_EVENT_RECORD_DEFAULT) return aclrtRecordEvent(event, stream);
  ACL_REQUIRE_NOT_NULL(event);
  ACL_FIND_HANDLE(e, core::Runtime::Get().events(), event, "event");
  ACL_RESOLVE_STREAM(s, stream);
  aclError rc = ACL_SUCCESS;
  {
    auto& reg = CaptureRegistry::Get();
    std::lock_guard<std::mutex> g(reg.mu());
    if (!reg.CaptureOf(s.get()))
      return api::RtBadParam(__func__, "stream", std::to_string(s->id()),
                             "ACL_EVENT_RECORD_EXTERNAL records only on a stream being captured");
  }
  if (api::CaptureRecordEvent(__func__, s.get(), e, true, &rc)) return rc;
  return api::RtFail(__func__, ACL_ERROR_RT_STREAM_NOT_CAPTURED, "the stream is not being captured");
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
  SIMNPU_TRACE_API();
  if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL)
    return api::BadParam(__func__, "flag", std::to_string(flag), "ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL");
  if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
    return api::BadParam(__func__, "timeout", std::to_string(timeout), "0 with ACL_EVENT_WAIT_EXTERNAL");
  if (flag == ACL_EVENT_WAIT_DEFAULT)
    return timeout == 0 ? aclrtStreamWaitEvent(stream, event)
                        : aclrtStreamWaitEventWithTimeout(stream, event, static_cast<int32_t>(timeout));
  ACL_REQUIRE_NOT_NULL(event);
  ACL_FIND_HANDLE(e, core::Runtime::Get().events(), event, "event");
  ACL_RESOLVE_STREAM(s, stream);
  aclError rc = ACL_SUCCESS;
  if (s->sink() && api::CaptureWaitEvent(__func__, s.get(), e, -1, true, &rc)) return rc;
  return api::RtBadParam(__func__, "stream", std::to_string(s->id()),
                         "ACL_EVENT_WAIT_EXTERNAL waits only on a stream being captured");
}

// ------------------------------------------------------------------ labels and switches

aclError aclrtCreateLabel(aclrtLabel* label) {
  ACL_REQUIRE_NOT_NULL(label);
  if (Labels().size() >= kMaxLabels)
    return api::RtFail(__func__, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "a process has at most 65535 labels");
  auto l = std::make_shared<core::Label>();
  Labels().Add(l);
  *label = l.get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  ACL_REQUIRE_NOT_NULL(label);
  if (!Labels().Remove(label)) return api::InvalidHandle(__func__, "label", label);
  return ACL_SUCCESS;  // lists and switch tasks keep their own reference
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  ACL_REQUIRE_NOT_NULL(label);
  ACL_FIND_HANDLE(l, Labels(), label, "label");
  FIND_USER_STREAM(s, stream);
  Model* m = nullptr;
  if (aclError e = BuildingModelOf(__func__, s.get(), &m)) return e;
  std::lock_guard<std::mutex> g(m->mu());
  if (l->model != nullptr)
    return api::RtBadParam(__func__, "label", api::Hex(label), "the label is already set");
  l->model = m;
  l->stream = m->StreamIndex(s.get());
  l->pos = m->streams()[l->stream].nodes.size();
  return ACL_SUCCESS;
}

aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList) {
  ACL_REQUIRE_NOT_NULL(labels);
  ACL_REQUIRE_NOT_NULL(labelList);
  if (num == 0 || num > kMaxLabels)
    return api::BadParam(__func__, "num", std::to_string(num), "in [1, 65535]");
  auto list = std::make_shared<LabelList>();
  for (size_t i = 0; i < num; ++i) {
    if (labels[i] == nullptr) return api::NullParam(__func__, "labels[i]");
    auto l = Labels().Find(labels[i]);
    if (!l) return api::InvalidHandle(__func__, "label", labels[i]);
    list->labels.push_back(std::move(l));
  }
  LabelLists().Add(list);
  *labelList = list.get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  ACL_REQUIRE_NOT_NULL(labelList);
  if (!LabelLists().Remove(labelList)) return api::InvalidHandle(__func__, "label list", labelList);
  return ACL_SUCCESS;
}

aclError aclrtSwitchLabelByIndex(void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(labelList);
  ACL_FIND_HANDLE(list, LabelLists(), labelList, "label list");
  FIND_USER_STREAM(s, stream);
  if (maxValue == 0)
    return api::RtBadParam(__func__, "maxValue", "0", "the number of labels in the list (at least 1)");
  if (reinterpret_cast<uintptr_t>(ptr) % alignof(uint32_t))
    return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "must be 4-byte aligned");
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kSwitchLabel;
  n->index = static_cast<const uint32_t*>(ptr);
  n->max_value = maxValue;
  n->labels = list->labels;
  return AppendToBuilding(__func__, s.get(), std::move(n));
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  FIND_USER_STREAM(a, activeStream);
  FIND_USER_STREAM(s, stream);
  Model* m = nullptr;
  int target = -1;
  if (aclError e = SameModelStream(__func__, s.get(), a.get(), "activeStream", &m, &target)) return e;
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kActive;
  n->target = target;
  std::lock_guard<std::mutex> g(m->mu());
  m->Append(m->StreamIndex(s.get()), std::move(n));
  return ACL_SUCCESS;
}

aclError aclrtSwitchStream(void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream) {
  ACL_REQUIRE_NOT_NULL(leftValue);
  ACL_REQUIRE_NOT_NULL(rightValue);
  if (falseStream != nullptr) return api::BadParam(__func__, "falseStream", api::Hex(falseStream), "NULL");
  const int cd = api::RawEnum(cond), dt = api::RawEnum(dataType);
  if (cd < ACL_RT_EQUAL || cd > ACL_RT_LESS_OR_EQUAL)
    return api::RtBadParam(__func__, "cond", std::to_string(cd), "an aclrtCondition (0..5)");
  if (dt != 0 && dt != 1)
    return api::RtBadParam(__func__, "dataType", std::to_string(dt), "an aclrtCompareDataType (INT32 0, INT64 1)");
  const size_t align = dt == 1 ? 8 : 4;
  if (reinterpret_cast<uintptr_t>(leftValue) % align || reinterpret_cast<uintptr_t>(rightValue) % align)
    return api::RtBadParam(__func__, "leftValue", api::Hex(leftValue), "the values must be aligned to their size");
  FIND_USER_STREAM(t, trueStream);
  FIND_USER_STREAM(s, stream);
  Model* m = nullptr;
  int target = -1;
  if (aclError e = SameModelStream(__func__, s.get(), t.get(), "trueStream", &m, &target)) return e;
  auto n = std::make_unique<Node>();
  n->kind = NodeKind::kSwitchStream;
  n->target = target;
  n->left = leftValue;
  n->right = rightValue;
  n->cond = cd;
  n->dtype = dt;
  std::lock_guard<std::mutex> g(m->mu());
  m->Append(m->StreamIndex(s.get()), std::move(n));
  return ACL_SUCCESS;
}

}  // extern "C"
