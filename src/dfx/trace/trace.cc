// Trace recorder (see trace.h).
#include "dfx/trace/trace.h"

#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "dfx/trace/chunk_pool.h"
#include "dfx/trace/trace_clock.h"
#include "platform/clock.h"
#include "platform/env.h"

namespace simnpu::dfx::trace {

std::atomic<uint32_t> g_mask{0};

namespace {

// Events per chunk: 2 MiB, from the chunk pool (faulted in ahead, off the
// recording threads; see chunk_pool.h).
constexpr size_t kChunkBytes = ChunkPool::kChunkBytes;
constexpr size_t kChunk = kChunkBytes / sizeof(Event);

struct ChunkFree {
  void operator()(Event* p) const { ChunkPool::Get().Give(p); }
};
using Chunk = std::unique_ptr<Event[], ChunkFree>;

// A chunk (nullptr when the mapping fails).
Chunk NewChunk() { return Chunk(static_cast<Event*>(ChunkPool::Get().Take())); }

// Kind bit of an event whose times are ns already (RecordNs) rather than
// trace-clock readings; Stop() converts the others and clears the bit.
constexpr uint16_t kNsTimes = 0x8000;

// The fence pairing an append with Stop(). An append stores busy, then
// loads the session id; Stop() stores the id, then loads busy: each side
// needs a full barrier between its store and its load (a Dekker pair).
// With membarrier(PRIVATE_EXPEDITED) registered, Stop() issues that barrier
// on every thread of the process at once, so an append needs only a
// compiler barrier (free), instead of a locked instruction per event.
// Without it (old kernel, seccomp) appends fall back to a real fence.
// ThreadSanitizer does not model fences (GCC refuses them under -fsanitize=thread):
// there the pair is made of seq_cst store and load on both sides, as plain C++ has it.
#if defined(__SANITIZE_THREAD__)
#define SIMNPU_TRACE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SIMNPU_TRACE_TSAN 1
#endif
#endif
#ifndef SIMNPU_TRACE_TSAN
#define SIMNPU_TRACE_TSAN 0
#endif

std::atomic<bool> g_fence_in_append{true};  // decided by Start() before cur_id is published

bool RegisterMembarrier() {
#ifdef SYS_membarrier
  const long cmds = ::syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
  return ::syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#else
  return false;
#endif
}

// Stop()'s side: a barrier on every running thread of the process. (Stop's
// own store of the id and load of busy are seq_cst, which orders them.)
void HeavyBarrier() {
  if (SIMNPU_TRACE_TSAN || g_fence_in_append.load(std::memory_order_relaxed)) return;  // appends fence themselves
#ifdef SYS_membarrier
  if (::syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) return;
  // (cannot fail once registered in this process; a forked child registers
  // again in its own Start(), and otherwise appends fence themselves)
  if (::syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0) return;
#endif
}

// The append's side: marks the buffer busy, then reads the recording session's id.
inline uint64_t MarkBusyThenReadSession(std::atomic<bool>& busy, const std::atomic<uint64_t>& cur_id) {
#if SIMNPU_TRACE_TSAN
  busy.store(true, std::memory_order_seq_cst);
  return cur_id.load(std::memory_order_seq_cst);
#else
  busy.store(true, std::memory_order_relaxed);
  if (g_fence_in_append.load(std::memory_order_relaxed))
    std::atomic_thread_fence(std::memory_order_seq_cst);
  else
    std::atomic_signal_fence(std::memory_order_seq_cst);  // membarrier in Stop() does the rest
  return cur_id.load(std::memory_order_relaxed);
#endif
}

// One thread's events of one session. Only the owning thread appends (with
// busy set); the session reads them after Stop() saw busy clear.
struct ThreadBuf {
  std::atomic<bool> busy{false};
  std::vector<Chunk> chunks;
  Event* last = nullptr;  // chunks.back().get()
  size_t used = 0;      // events in the last chunk
  size_t limit = 0;     // usable events of the last chunk (the cap may end inside it)
  bool full = false;    // the session's cap is reached: further events are dropped
  uint64_t dropped = 0;
};

struct Session {
  uint64_t id = 0;
  uint32_t mask = 0;
  uint64_t start_ns = 0;
  uint64_t max_events = 0;
  ClockPair start_clock;               // read at Start, for the tick -> ns map
  std::atomic<uint64_t> reserved{0};  // event slots handed out, a chunk at a time
  std::vector<std::shared_ptr<ThreadBuf>> bufs;  // GUARDED_BY(Recorder::mu)
  // Interned strings; elements never change once added (a deque keeps their
  // addresses), so a thread's cache may read them without the lock.
  std::deque<std::string> names{""};             // GUARDED_BY(Recorder::mu) for insertion
  std::unordered_map<std::string, uint32_t> name_ids;  // GUARDED_BY(Recorder::mu)
};

struct Recorder {
  std::mutex mu;
  std::shared_ptr<Session> cur;  // GUARDED_BY(mu)
  std::atomic<uint64_t> cur_id{0};  // id of the recording session, 0 = none
  uint64_t next_id = 1;          // GUARDED_BY(mu)
  std::mutex baseline_mu;
  std::vector<uint64_t> baseline;  // GUARDED_BY(baseline_mu)
  std::atomic<StartHook> hook{nullptr};
};
Recorder& R() {
  static Recorder* r = new Recorder();  // never destroyed: sites may run during exit
  return *r;
}

struct NameCacheEntry {
  uint64_t session = 0;
  const char* ptr = nullptr;
  const std::string* str = nullptr;  // the interned copy (stable, see Session::names)
  uint32_t id = 0;
};

// Per-thread state. Trivially destructible and constant-initialised, so an
// access is a plain TLS address (no init guard, no destructor
// registration); the owning reference to the session lives apart, in t_keep.
struct Tls {
  uint64_t session = 0;
  ThreadBuf* buf = nullptr;
  Session* sess = nullptr;  // kept alive by t_keep
  uint32_t tid = 0;
  Lane lane;
  NameCacheEntry names[64];
  // The running task's annotation (TaskSpan).
  bool in_task = false;
  Kind task_kind = Kind::kTask;
  const char* task_name = nullptr;
  uint32_t task_name_id = 0;  // task_name interned already (AnnotateTaskNamed), 0 = not
  uint64_t task_a = 0, task_b = 0;
};
thread_local Tls t_tls;
thread_local std::shared_ptr<Session> t_keep;  // the session t_tls.buf belongs to

// The slow half of BufFor: joins the recording session `id`.
ThreadBuf* JoinSession(Tls& t, uint64_t id) {
  std::lock_guard<std::mutex> g(R().mu);
  if (!R().cur || R().cur->id != id) return nullptr;
  auto b = std::make_shared<ThreadBuf>();
  R().cur->bufs.push_back(b);
  t_keep = R().cur;
  t.sess = t_keep.get();
  t.session = id;
  t.buf = b.get();
  return t.buf;
}

inline ThreadBuf* BufFor(Tls& t) {
  const uint64_t id = R().cur_id.load(std::memory_order_acquire);
  if (id == 0) return nullptr;
  if (t.session == id && t.buf) [[likely]] return t.buf;
  return JoinSession(t, id);
}

inline uint32_t TidOf(Tls& t) {
  if (t.tid == 0) [[unlikely]] t.tid = static_cast<uint32_t>(::syscall(SYS_gettid));
  return t.tid;
}

void Append(Tls& t, const Event& e);
uint32_t InternImpl(Tls& t, const char* str, bool is_static);

}  // namespace

const char* CopyDirName(uint64_t dir) {
  switch (dir) {
    case 0: return "host to host";
    case 1: return "host to device";
    case 2: return "device to host";
    case 3: return "device to device";
    default: return "unknown";
  }
}

const char* ResidencyOpName(uint64_t op) {
  switch (op) {
    case 1: return "migrate";
    case 2: return "replica";
    case 3: return "populate";
    case 4: return "invalidate";
    default: return "unknown";
  }
}

const char* UvmCauseName(int cause) {
  switch (cause) {
    case 0: return "host fault";
    case 1: return "device fault";
    case 2: return "prefetch";
    case 3: return "eviction";
    case 4: return "advice";
    case 5: return "evacuation";
    case 6: return "free";
    default: return "other";
  }
}

uint32_t CurrentTid() { return TidOf(t_tls); }

Lane& CurrentLane() { return t_tls.lane; }

bool Start(uint32_t mask) {
  if (mask == 0) return false;
  if (Recording()) return false;
  ChunkPool::Get().Reserve();  // before any event: the first chunks are faulted in already
  {
    std::lock_guard<std::mutex> g(R().mu);
    if (R().cur) return false;
    ChooseTraceClock();
    // Decided before the session is published (cur_id release below); a
    // forked child registers its own process here too.
    g_fence_in_append.store(!RegisterMembarrier(), std::memory_order_relaxed);
    auto s = std::make_shared<Session>();
    s->id = R().next_id++;
    s->mask = mask;
    s->start_clock = ReadClockPair();
    s->start_ns = s->start_clock.ns;
    s->max_events = platform::GetEnvSize("SIMNPU_PROFILE_MAX_EVENTS", uint64_t{4} << 20);
    R().cur = s;
    R().cur_id.store(s->id, std::memory_order_release);
  }
  {
    std::lock_guard<std::mutex> g(R().baseline_mu);
    R().baseline.clear();
  }
  if (StartHook h = R().hook.load()) h();
  g_mask.store(mask, std::memory_order_seq_cst);
  return true;
}

bool Recording() { return R().cur_id.load(std::memory_order_acquire) != 0; }

void AbandonInChild() {
  // Only this thread exists in the child; the session object is left as it is.
  g_mask.store(0, std::memory_order_seq_cst);
  R().cur_id.store(0, std::memory_order_seq_cst);
}

std::unique_ptr<Capture> Stop() {
  std::shared_ptr<Session> s;
  {
    std::lock_guard<std::mutex> g(R().mu);
    if (!R().cur) return std::make_unique<Capture>();
    s = std::move(R().cur);
    R().cur.reset();
    g_mask.store(0, std::memory_order_seq_cst);
    R().cur_id.store(0, std::memory_order_seq_cst);
  }
  // Every append either is visible as busy now or sees the session gone.
  HeavyBarrier();
  const ClockPair stop_clock = ReadClockPair();
  auto cap = std::make_unique<Capture>();
  cap->start_ns = s->start_ns;
  cap->stop_ns = stop_clock.ns;
  cap->mask = s->mask;
  std::vector<std::shared_ptr<ThreadBuf>> bufs;
  {
    std::lock_guard<std::mutex> g(R().mu);  // no new buffer joins s after cur_id changed
    bufs = s->bufs;
    cap->names.assign(s->names.begin(), s->names.end());
  }
  // An append that saw the session still recording finishes first.
  for (auto& b : bufs)
    while (b->busy.load(std::memory_order_seq_cst)) platform::CpuRelax();
  for (auto& b : bufs) {
    for (size_t i = 0; i < b->chunks.size(); ++i) {
      const size_t n = i + 1 == b->chunks.size() ? b->used : kChunk;
      cap->events.insert(cap->events.end(), b->chunks[i].get(), b->chunks[i].get() + n);
    }
  }
  for (auto& b : bufs) {
    cap->dropped += b->dropped;
    b->chunks.clear();  // nothing writes into a stopped session: back to the pool now
    b->last = nullptr;
  }
  // Trace-clock readings to ns (the formatting work is all done here and in
  // the writers, none of it while recording).
  const TickToNs to_ns(s->start_clock, stop_clock);
  for (Event& e : cap->events) {
    const auto k = static_cast<uint16_t>(e.kind);
    if (k & kNsTimes) {
      e.kind = static_cast<Kind>(k & ~kNsTimes);
      continue;
    }
    const uint64_t t0 = to_ns(e.ts), t1 = to_ns(e.ts + e.dur);
    e.ts = t0;
    e.dur = t1 > t0 ? t1 - t0 : 0;
  }
  std::stable_sort(cap->events.begin(), cap->events.end(),
                   [](const Event& x, const Event& y) { return x.ts < y.ts; });
  return cap;
}

void Record(const Event& e) { Append(t_tls, e); }

void RecordNs(const Event& e) {
  Event c = e;
  c.kind = static_cast<Kind>(static_cast<uint16_t>(e.kind) | kNsTimes);
  Append(t_tls, c);
}

namespace {
void Append(Tls& t, const Event& e) {
  ThreadBuf* b = BufFor(t);
  if (!b) return;
  Session* s = t.sess;
  // Dekker with Stop() (see MarkBusyThenReadSession): either Stop sees
  // busy, or we see the session gone.
  if (MarkBusyThenReadSession(b->busy, R().cur_id) != s->id) {
    b->busy.store(false, std::memory_order_release);
    return;
  }
  if (!b->full && (b->chunks.empty() || b->used == kChunk)) {
    // The cap is counted in whole chunks: one shared atomic per chunk.
    const uint64_t before = s->reserved.fetch_add(kChunk, std::memory_order_relaxed);
    Chunk c = before >= s->max_events ? Chunk() : NewChunk();
    if (!c) {
      b->full = true;
    } else {
      b->chunks.push_back(std::move(c));
      b->last = b->chunks.back().get();
      b->used = 0;
      b->limit = std::min<uint64_t>(kChunk, s->max_events - before);
    }
  }
  if (b->full || b->used >= b->limit) {
    ++b->dropped;
  } else {
    b->last[b->used++] = e;
  }
  b->busy.store(false, std::memory_order_release);
}
}  // namespace

uint32_t Intern(const char* str) { return InternImpl(t_tls, str, false); }
uint32_t InternStatic(const char* str) { return InternImpl(t_tls, str, true); }

namespace {
uint32_t InternImpl(Tls& t, const char* str, bool is_static) {
  if (!str) return 0;
  if (!BufFor(t)) return 0;  // also keeps the session alive for the cache
  const uint64_t id = t.sess->id;
  NameCacheEntry& ce = t.names[(reinterpret_cast<uintptr_t>(str) >> 3) & 63];
  // A cached pointer is trusted only if the string it named is unchanged
  // (the session is alive: this thread's buffer keeps it).
  if (ce.session == id && ce.ptr == str && (is_static || *ce.str == str)) return ce.id;
  std::lock_guard<std::mutex> g(R().mu);
  if (!R().cur || R().cur->id != id) return 0;
  Session& s = *R().cur;
  auto it = s.name_ids.find(str);
  uint32_t nid;
  if (it != s.name_ids.end()) {
    nid = it->second;
  } else {
    nid = static_cast<uint32_t>(s.names.size());
    s.names.emplace_back(str);
    s.name_ids.emplace(s.names.back(), nid);
  }
  ce = {id, str, &s.names[nid], nid};
  return nid;
}
}  // namespace

void RecordSpan(Kind k, uint32_t cat, uint64_t start, const char* name, uint64_t a, uint64_t b, uint64_t c,
                uint64_t d) {
  if (!On(cat)) return;
  Tls& t = t_tls;
  const uint64_t now = TraceNow();
  Event e{start, now - start, k, t.lane.device, t.lane.stream, TidOf(t), InternImpl(t, name, false), a, b, c, d};
  Append(t, e);
}

void RecordInstant(Kind k, int device, const char* name, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  Tls& t = t_tls;
  const uint64_t now = TraceNow();
  Event e{now, 0, k, static_cast<int16_t>(device), t.lane.stream, TidOf(t), InternImpl(t, name, false), a, b, c, d};
  Append(t, e);
}

void TaskSpan::Begin(int device, int stream, const char* name) {
  Tls& t = t_tls;
  active_ = true;
  saved_ = t.lane;
  saved_in_task_ = t.in_task;
  saved_kind_ = t.task_kind;
  saved_name_ = t.task_name;
  saved_name_id_ = t.task_name_id;
  saved_a_ = t.task_a;
  saved_b_ = t.task_b;
  t.lane.device = static_cast<int16_t>(device);
  t.lane.stream = stream;
  t.in_task = true;
  t.task_kind = Kind::kTask;
  t.task_name = name;
  t.task_name_id = 0;
  t.task_a = t.task_b = 0;
  start_ = TraceNow();
}

void TaskSpan::End() {
  Tls& t = t_tls;
  if (On(kCatTask)) {
    const uint64_t now = TraceNow();
    const uint32_t nid = t.task_name_id ? t.task_name_id : InternImpl(t, t.task_name, false);
    Event e{start_, now - start_, t.task_kind, t.lane.device, t.lane.stream, TidOf(t), nid, t.task_a, t.task_b, 0, 0};
    Append(t, e);
  }
  t.in_task = saved_in_task_;
  t.task_kind = saved_kind_;
  t.task_name = saved_name_;
  t.task_name_id = saved_name_id_;
  t.task_a = saved_a_;
  t.task_b = saved_b_;
  t.lane = saved_;
}

void AnnotateTask(Kind k, const char* name, uint64_t a, uint64_t b) {
  Tls& t = t_tls;
  if (!t.in_task) return;
  t.task_kind = k;
  if (name) {
    t.task_name = name;
    t.task_name_id = 0;
  }
  t.task_a = a;
  t.task_b = b;
}

void AnnotateTaskNamed(Kind k, uint32_t name_id, uint64_t a, uint64_t b) {
  Tls& t = t_tls;
  if (!t.in_task) return;
  t.task_kind = k;
  if (name_id) t.task_name_id = name_id;
  t.task_a = a;
  t.task_b = b;
}

uint32_t InternSlot(std::atomic<uint64_t>* slot, const char* s) {
  Tls& t = t_tls;
  if (!s || !BufFor(t)) return 0;
  // slot: the session id's low 32 bits above the name id (ids start at 1).
  const uint64_t tag = (t.sess->id & 0xffffffffu) << 32;
  const uint64_t v = slot->load(std::memory_order_relaxed);
  if ((v & ~uint64_t{0xffffffffu}) == tag && (v & 0xffffffffu) != 0) return static_cast<uint32_t>(v);
  const uint32_t nid = InternImpl(t, s, false);
  if (nid) slot->store(tag | nid, std::memory_order_relaxed);
  return nid;
}

void ApiSpan::End() {
  if (!On(kCatApi)) return;
  Tls& t = t_tls;
  const uint64_t now = TraceNow();
  Event e{start_, now - start_, Kind::kApi, -1, -1, TidOf(t), InternImpl(t, fn_, true), 0, 0, 0, 0};
  Append(t, e);
}

void CopySpan::Begin(Kind k, uint64_t bytes, uint64_t arg) {
  Tls& t = t_tls;
  active_ = true;
  kind_ = k;
  bytes_ = bytes;
  arg_ = arg;
  in_task_ = t.in_task;
  if (in_task_) {
    AnnotateTask(k, nullptr, bytes, arg);
    active_ = false;  // the task's span carries it
    return;
  }
  start_ = TraceNow();
}

void CopySpan::End() {
  RecordSpan(kind_, kCatTask, start_, kind_ == Kind::kCopy ? "memcpy" : "memset", bytes_, arg_);
}

void FaultSpan::End() {
  if (!On(kCatUvm)) return;
  Tls& t = t_tls;
  const uint64_t now = TraceNow();
  Event e{start_, now - start_, kind_, static_cast<int16_t>(device_), t.lane.stream, TidOf(t), 0,
          addr_, bytes_, access_, 0};
  Append(t, e);
}

void GraphReplay(int device, int stream, uint64_t model_id, uint64_t start_ns, uint64_t end_ns) {
  if (!On(kCatTask)) return;
  Event e{start_ns, end_ns > start_ns ? end_ns - start_ns : 0, Kind::kGraphReplay, static_cast<int16_t>(device),
          stream, CurrentTid(), Intern("graph replay"), model_id, 0, 0, 0};
  RecordNs(e);
}


void SetStartHook(StartHook hook) { R().hook.store(hook); }

void SetResidentBaseline(int loc, uint64_t bytes) {
  if (loc < 0 || loc > 64) return;
  std::lock_guard<std::mutex> g(R().baseline_mu);
  if (R().baseline.size() <= static_cast<size_t>(loc)) R().baseline.resize(static_cast<size_t>(loc) + 1);
  R().baseline[static_cast<size_t>(loc)] = bytes;
}

std::vector<uint64_t> ResidentBaseline() {
  std::lock_guard<std::mutex> g(R().baseline_mu);
  return R().baseline;
}

}  // namespace simnpu::dfx::trace
