// Model runtime instances: recording and replay (see model.h).
#include "core/model.h"

#include <algorithm>
#include <cstring>

#include "dfx/log.h"
#include "dfx/trace/trace.h"
#include "platform/clock.h"

namespace simnpu::core {
namespace {
constexpr int kModelExecute = 507011;       // ACL_ERROR_RT_MODEL_EXECUTE
constexpr int kEventSyncTimeout = 507047;   // ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
constexpr int kModelAbort = 507023;         // ACL_ERROR_RT_MODEL_ABORT_NORMAL
constexpr int kBlockAsync = 107041;         // ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
constexpr int kModeGlobal = 0, kModeRelaxed = 2;

bool Compare(const Node& n) {
  int64_t l, r;
  if (n.dtype == 1) {
    l = __atomic_load_n(static_cast<const int64_t*>(n.left), __ATOMIC_ACQUIRE);
    r = __atomic_load_n(static_cast<const int64_t*>(n.right), __ATOMIC_ACQUIRE);
  } else {
    l = __atomic_load_n(static_cast<const int32_t*>(n.left), __ATOMIC_ACQUIRE);
    r = __atomic_load_n(static_cast<const int32_t*>(n.right), __ATOMIC_ACQUIRE);
  }
  switch (n.cond) {
    case 0: return l == r;
    case 1: return l != r;
    case 2: return l > r;
    case 3: return l >= r;
    case 4: return l < r;
    default: return l <= r;
  }
}
uint64_t GenOf(const Model::RecordGens* gens, const Node* n) {
  if (gens)
    for (auto& [gn, g] : *gens)
      if (gn == n) return g;
  return 0;
}
}  // namespace

Model::~Model() {
  for (auto& ms : streams_)
    for (auto& n : ms.nodes) delete n->task.exchange(nullptr);
}

void Model::Take(Stream* s, std::unique_ptr<Task> t) {
  {
    std::lock_guard<std::mutex> g(mu_);
    const int idx = state_.load() == State::kReady ? -1 : StreamIndex(s);
    if (idx >= 0) {
      auto n = std::make_unique<Node>();
      n->task.store(t.release(), std::memory_order_release);
      streams_[idx].nodes.push_back(std::move(n));
      return;
    }
  }
  SIMNPU_LOGW(kRuntime, "model %u no longer records: task %s on stream %d discarded", id, t->name(), s->id());
  t->Discard();
}

int Model::AddStream(Stream* s, bool head) {
  ModelStream ms;
  ms.stream = s;
  if (s) ms.keep = s->shared_from_this();
  ms.handle = s;
  ms.stream_id = s ? s->id() : -1;
  ms.head = head;
  streams_.push_back(std::move(ms));
  return static_cast<int>(streams_.size()) - 1;
}

int Model::StreamIndex(const Stream* s) const {
  for (size_t i = 0; i < streams_.size(); ++i)
    if (streams_[i].stream == s) return static_cast<int>(i);
  return -1;
}

Node* Model::Append(int idx, std::unique_ptr<Node> n) {
  Node* p = n.get();
  if (p->kind == NodeKind::kRecord) last_record_[p->event.get()] = p;
  streams_[idx].nodes.push_back(std::move(n));
  return p;
}

Node* Model::LastRecordOf(const Event* e) const {
  auto it = last_record_.find(e);
  return it == last_record_.end() ? nullptr : it->second;
}

void Model::AssignDefaults() {
  for (auto& c : conds_)
    if (c->assign_default) __atomic_store_n(c->word, c->default_value, __ATOMIC_RELEASE);
  for (auto& ms : streams_)
    for (auto& n : ms.nodes)
      if (n->kind == NodeKind::kCond)
        for (auto& b : n->bodies) b->AssignDefaults();
}

void Model::ReplaceGroup(const TaskGroup& g, std::vector<std::unique_ptr<Task>> tasks) {
  auto& nodes = streams_[g.stream].nodes;
  size_t k = 0;
  std::lock_guard<std::mutex> lk(retired_mu_);
  for (size_t i = g.begin; i < g.end && k < tasks.size(); ++i) {
    if (nodes[i]->kind != NodeKind::kTask) continue;
    Task* old = nodes[i]->task.exchange(tasks[k++].release(), std::memory_order_acq_rel);
    retired_.emplace_back(old);  // an execution may still be running it
  }
}

size_t Model::ApplyPendingEdits() {
  size_t changed = 0;
  std::vector<Model*> subs;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto& ms : streams_)
      for (auto& n : ms.nodes) {
        if (n->disable_pending && !n->disabled.load(std::memory_order_relaxed)) {
          n->disabled.store(true, std::memory_order_release);
          ++changed;
        }
        if (n->pending_task) {
          Task* old = n->task.exchange(n->pending_task.release(), std::memory_order_acq_rel);
          std::lock_guard<std::mutex> r(retired_mu_);
          retired_.emplace_back(old);  // an execution may still be running it
          ++changed;
        }
        for (auto& b : n->bodies) subs.push_back(b.get());
      }
  }
  for (Model* b : subs) changed += b->ApplyPendingEdits();
  return changed;
}

Model::RecordGens Model::BeginRecords() {
  RecordGens out;
  for (auto& ms : streams_)  // external waits first: the model does not wait for its own records
    for (auto& n : ms.nodes)
      if (n->kind == NodeKind::kWait && !n->dep) out.emplace_back(n.get(), n->event->recorded_gen());
  for (auto& ms : streams_)
    for (auto& n : ms.nodes)
      if (n->kind == NodeKind::kRecord) out.emplace_back(n.get(), n->event->BeginRecord());
  return out;
}

int Model::Execute(ExecContext& ctx, std::string* why, const RecordGens* gens) {
  std::lock_guard<std::mutex> g(exec_mu_);
  const uint64_t serial = serial_.fetch_add(1) + 1;
  // The running task (model_execute) shows in traces as this graph's replay;
  // each replayed task gets its own span inside it (RunCursors).
  SIMNPU_TRACE_IF(dfx::trace::kCatTask, dfx::trace::AnnotateTask(dfx::trace::Kind::kGraphReplay, "graph replay", id));
  running_.store(serial, std::memory_order_release);
  const int rc = RunCursors(ctx, why, serial, gens);
  running_.store(0, std::memory_order_release);
  // Records on a path not taken (or after a failure) still complete.
  if (gens)
    for (auto& [n, gen] : *gens)
      if (n->kind == NodeKind::kRecord) n->event->MarkDone(gen, platform::NowNs());
  return rc;
}

bool Model::Abort() {
  const uint64_t r = running_.load(std::memory_order_acquire);
  if (r == 0) return false;
  abort_.store(r, std::memory_order_release);
  return true;
}

int Model::RunCursors(ExecContext& ctx, std::string* why, uint64_t serial, const RecordGens* gens) {
  struct Cursor {
    int s;
    size_t pos;
  };
  std::vector<Cursor> cur;
  cur.reserve(streams_.size());
  for (size_t i = 0; i < streams_.size(); ++i)
    if (streams_[i].head && !streams_[i].nodes.empty()) cur.push_back({static_cast<int>(i), 0});
  // Starts (or restarts) model stream s at pos.
  auto start = [&](int s, size_t pos) {
    for (auto& c : cur)
      if (c.s == s) {
        c.pos = pos;
        return;
      }
    cur.push_back({s, pos});
  };
  size_t c = 0;
  bool progressed = false;
  while (!cur.empty()) {
    if (c >= cur.size()) {
      if (!progressed) {
        *why = "model " + std::to_string(id) + ": every running stream waits for an event no running stream records";
        return kModelExecute;
      }
      progressed = false;
      c = 0;
      continue;
    }
    const int sidx = cur[c].s;
    size_t pos = cur[c].pos;
    const auto& nodes = streams_[sidx].nodes;
    bool ended = false, blocked = false;
    while (pos < nodes.size() && !ended && !blocked) {
      Node* n = nodes[pos].get();
      if (abort_.load(std::memory_order_acquire) == serial) {
        *why = "model " + std::to_string(id) + ": execution aborted by aclmdlRIAbort";
        return kModelAbort;
      }
      if (n->disabled.load(std::memory_order_acquire)) {  // aclmdlRITaskDisable + aclmdlRIUpdate
        ++pos;
        progressed = true;
        continue;
      }
      switch (n->kind) {
        case NodeKind::kTask: {
          Task* t = n->task.load(std::memory_order_acquire);
          SIMNPU_TRACE_TASK(dfx::trace::CurrentLane().device, dfx::trace::CurrentLane().stream, t->name());
          if (int rc = t->Run(ctx)) {
            *why = t->failure_message.empty() ? std::string("model task ") + t->name() + " failed"
                                              : t->failure_message;
            return rc;
          }
          ++pos;
          break;
        }
        case NodeKind::kRecord: {
          const uint64_t gen = GenOf(gens, n);
          n->event->MarkDone(gen ? gen : n->event->BeginRecord(), platform::NowNs());
          n->ran_in = serial;
          ++pos;
          break;
        }
        case NodeKind::kWait:
          if (n->dep) {
            if (n->dep->ran_in != serial) {
              blocked = true;
              continue;
            }
          } else if (!n->event->WaitArmed(GenOf(gens, n), n->timeout_ms, ctx.cancel)) {
            if (ctx.cancelled()) return kTaskCancelled;
            *why = "model " + std::to_string(id) + ": an external event wait timed out";
            return kEventSyncTimeout;
          }
          ++pos;
          break;
        case NodeKind::kReset:
          n->event->ResetCompleted();
          ++pos;
          break;
        case NodeKind::kEnd:
          ended = true;
          continue;
        case NodeKind::kActive:
          start(n->target, 0);
          ++pos;
          break;
        case NodeKind::kSwitchStream:
          if (Compare(*n)) {
            start(n->target, 0);
            ended = true;
            continue;
          }
          ++pos;
          break;
        case NodeKind::kSwitchLabel: {
          uint32_t idx = __atomic_load_n(n->index, __ATOMIC_ACQUIRE);
          const uint32_t cnt = std::min<uint32_t>(n->max_value, static_cast<uint32_t>(n->labels.size()));
          if (idx >= cnt) idx = cnt - 1;  // beyond the list: the last label
          const Label& l = *n->labels[idx];
          if (l.stream == sidx) {
            pos = l.pos;
          } else {
            start(l.stream, l.pos);
            ended = true;
            continue;
          }
          break;
        }
        case NodeKind::kCond: {
          auto word = [&] { return __atomic_load_n(n->cond_word, __ATOMIC_ACQUIRE); };
          int rc = 0;
          if (n->cond_type == 0) {  // IF
            if (word() != 0)
              rc = n->bodies[0]->Execute(ctx, why);
            else if (n->bodies.size() > 1)
              rc = n->bodies[1]->Execute(ctx, why);
          } else if (n->cond_type == 1) {  // WHILE
            while (rc == 0 && word() != 0 && !ctx.cancelled()) rc = n->bodies[0]->Execute(ctx, why);
          } else {  // SWITCH: out of range runs no branch
            const uint64_t v = word();
            if (v < n->bodies.size()) rc = n->bodies[v]->Execute(ctx, why);
          }
          if (rc) return rc;
          ++pos;
          break;
        }
      }
      progressed = true;
    }
    if (blocked) {
      cur[c].pos = pos;
      ++c;
      continue;
    }
    // start() may have grown `cur`; the finished cursor is still at index c.
    cur.erase(cur.begin() + static_cast<std::ptrdiff_t>(c));
    progressed = true;
  }
  return 0;
}

// ---------------------------------------------------------------- capture

CaptureRegistry& CaptureRegistry::Get() {
  static auto* r = new CaptureRegistry();
  return *r;
}

Capture* CaptureRegistry::CaptureOf(const Stream* s) {
  for (auto& c : captures_)
    for (auto& m : c->members)
      if (m.get() == s) return c.get();
  return nullptr;
}

Capture* CaptureRegistry::CaptureRecording(const Event* e) {
  auto it = events_.find(e);
  return it == events_.end() ? nullptr : it->second;
}

Capture* CaptureRegistry::AddCaptureLocked(std::unique_ptr<Capture> c) {
  Capture* p = c.get();
  captures_.push_back(std::move(c));
  active_.store(static_cast<int>(captures_.size()));
  return p;
}

void CaptureRegistry::EndCaptureLocked(Capture* c) {
  for (auto& m : c->members) m->set_sink(nullptr);
  for (auto it = events_.begin(); it != events_.end();)
    it = it->second == c ? events_.erase(it) : std::next(it);
  for (auto it = captures_.begin(); it != captures_.end(); ++it)
    if (it->get() == c) {
      captures_.erase(it);
      break;
    }
  active_.store(static_cast<int>(captures_.size()));
}

int& CaptureRegistry::ThreadMode() {
  thread_local int mode = kModeGlobal;
  return mode;
}

int CaptureRegistry::CheckUnsafeCall(std::string* why) {
  if (active_.load(std::memory_order_acquire) == 0) return 0;
  const int m = ThreadMode();
  if (m == kModeRelaxed) return 0;
  const auto self = std::this_thread::get_id();
  std::lock_guard<std::mutex> g(mu_);
  int rc = 0;
  for (auto& c : captures_) {
    const bool own = c->thread == self && c->mode != kModeRelaxed;
    const bool global = m == kModeGlobal && c->mode == kModeGlobal && c->thread != self;
    if (!own && !global) continue;
    c->invalidated = true;
    rc = kBlockAsync;
    *why = std::string("a synchronous call is not allowed while ") +
           (own ? "this thread captures stream " : "another thread captures (GLOBAL mode) stream ") +
           std::to_string(c->origin->id()) + "; the capture is invalidated";
  }
  return rc;
}

bool CaptureRegistry::DeviceCapturing(int device_id) {
  if (active_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> g(mu_);
  for (auto& c : captures_)
    if (c->model->device_id() == device_id) return true;
  return false;
}

}  // namespace simnpu::core
