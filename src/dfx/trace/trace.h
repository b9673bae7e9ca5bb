// Trace: the event recorder behind profiling (aclprof*, msprof, SIMNPU_PROFILE).
//
// What it is. Event sites all over the runtime (stream tasks, kernels,
// copies, API calls, unified-memory faults and migrations, msproftx/mstx
// marks) hand small fixed-size records to this recorder while a session is
// recording; the session's writer (dfx/prof) turns them into a Chrome trace
// and CSV summaries when it stops.
//
// Cost. A site is one relaxed load of a global mask and a predictable
// branch (SIMNPU_TRACE_ON(cat)); everything else is out of line. Built with
// -DSIMNPU_TRACE_SITES=0 (CMake option SIMNPU_TRACE_SITES=OFF, benchmarks
// only) every site compiles to nothing. Recording, a span costs two reads
// of the trace clock (one rdtsc each, see trace_clock.h), one TLS lookup
// and a 64-byte store into the thread's buffer: no lock, no locked
// instruction, no formatting (names are interned ids; the tick -> ns
// conversion runs once at Stop, the text in the writers).
//
// Recording. Each thread appends to its own buffer (2 MiB chunks of events
// owned by the session), so recording takes no lock. A buffer's `busy` flag brackets
// each append; Stop() clears the mask and then waits until no buffer is busy,
// after which nothing writes into the session and the writer may read it.
// The store of busy and the load of the session id in an append are
// ordered by a compiler barrier only: Stop() pairs them with
// membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), a full barrier on every
// thread of the process (appends fence themselves where that is missing).
// The string table (Intern) takes a mutex; each thread keeps a small cache of
// the strings it interned, so a kernel name costs a lookup only once.
//
// Locking: Recorder::mu_ guards the session pointer, the buffer list and the
// string table; it is a leaf (no other lock is taken under it). Appends take
// no lock.
#ifndef SIMNPU_DFX_TRACE_TRACE_H_
#define SIMNPU_DFX_TRACE_TRACE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dfx/trace/trace_clock.h"

#ifndef SIMNPU_TRACE_SITES
#define SIMNPU_TRACE_SITES 1
#endif

namespace simnpu::dfx::trace {

// Categories a session records (bits of the global mask).
enum Category : uint32_t {
  kCatApi = 1u << 0,   // host API calls (ACL_PROF_ACL_API)
  kCatTask = 1u << 1,  // stream tasks: kernels, copies, memsets, events, host functions (TASK_TIME)
  kCatUvm = 1u << 2,   // unified memory: faults, migrations, replicas, evictions, thrashing
  kCatTx = 1u << 3,    // msproftx stamps, mstx marks and ranges (MSPROFTX)
  kCatAll = 0xFu,
};

enum class Kind : uint16_t {
  kApi = 1,         // X  host thread: name = API function
  kTask,            // X  stream: name = task name; a, b per TaskArg
  kKernel,          // X  stream: name = kernel; a = blocks, b = summed block ns
  kCopy,            // X  stream or host thread: a = bytes, b = CopyDir
  kMemset,          // X  stream or host thread: a = bytes, b = value
  kGraphReplay,     // X  stream: a = model/graph id
  kTxMark,          // i  host thread: name = message, a = domain id (0 = default)
  kTxRange,         // X  host thread: name = message, a = domain id
  kTxStep,          // i  host thread: a = step tag (0 start, 1 end), b = step object
  kUvmHostFault,    // X  host UVM lane: a = address, b = bytes served, c = 1 write / 2 write to a replica
  kUvmDeviceFault,  // X  device UVM lane: a = address, b = pages missing, c = 1 write
  kUvmResidency,    // i  UVM lane of `to`: a = address, b = bytes, c = ResidencyOp, d = Loc pair (see Pack)
  kUvmEviction,     // i  device UVM lane: a = block address
  kUvmThrashing,    // i  UVM lane: a = block address, b = ThrashAction
  kUvmAlloc,        // i  host UVM lane: a = address, b = bytes
  kUvmFree,         // i  host UVM lane: a = address, b = bytes
};

enum class CopyDir : uint8_t { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3 };
const char* CopyDirName(uint64_t dir);

// What happened to a page range (kUvmResidency).
enum class ResidencyOp : uint8_t {
  kMigrate = 1,     // the data moved (the source copy is gone)
  kReplica = 2,     // a read-only copy was made (the source keeps its copy)
  kPopulate = 3,    // first touch: fresh zero pages appeared at `to`
  kInvalidate = 4,  // the copy at `from` was dropped (another side wrote)
};
const char* ResidencyOpName(uint64_t op);
enum class ThrashAction : uint8_t { kDetected = 1, kThrottle = 2, kPin = 3 };

// Locations: 0 = host, 1 + d = device d.
constexpr int kHostLoc = 0;
// kUvmResidency.d: from | to << 8 | cause << 16 | moved << 24 (moved: UFFDIO_MOVE, no copy).
inline uint64_t PackResidency(int from, int to, int cause, bool moved) {
  return static_cast<uint64_t>(from & 0xff) | static_cast<uint64_t>(to & 0xff) << 8 |
         static_cast<uint64_t>(cause & 0xff) << 16 | static_cast<uint64_t>(moved) << 24;
}
// UVM causes: the uvm engine's Cause (0 host fault .. 5 evacuation), and:
constexpr int kCauseFree = 6;  // the allocation was freed
const char* UvmCauseName(int cause);

// One record. In a Capture ts/dur are ns of the monotonic clock
// (platform::NowNs); handed to Record() they are trace-clock readings
// (TraceNow, converted at Stop), to RecordNs() ns.
struct Event {
  uint64_t ts;
  uint64_t dur;
  Kind kind;
  int16_t device;   // logical device, -1 = none (host)
  int32_t stream;   // stream id, -1 = none
  uint32_t tid;     // OS thread id of the recording thread
  uint32_t name;    // Intern() id, 0 = none
  uint64_t a, b, c, d;
};

// A finished session's events and strings (read by the writers).
struct Capture {
  std::vector<Event> events;       // sorted by ts
  std::vector<std::string> names;  // index = Intern() id (0 = "")
  uint64_t start_ns = 0, stop_ns = 0;
  uint32_t mask = 0;
  uint64_t dropped = 0;            // events not recorded (buffer cap)
  const std::string& name(uint32_t id) const { return id < names.size() ? names[id] : names[0]; }
};

// The global mask: nonzero while a session records.
extern std::atomic<uint32_t> g_mask;
inline bool On(uint32_t cat) { return (g_mask.load(std::memory_order_relaxed) & cat) != 0; }

// Starts recording the categories of `mask` (replacing nothing: false if a
// session is already recording).
bool Start(uint32_t mask);
// Stops recording and returns everything recorded since Start (sorted).
// Empty capture when nothing records.
std::unique_ptr<Capture> Stop();
bool Recording();
// In a child after fork(): the inherited session stops recording there (the
// parent owns it and writes it); the child records nothing.
void AbandonInChild();

// Appends an event (the caller checked On()), its ts/dur in trace-clock
// units (TraceNow). Never fails; past the cap (SIMNPU_PROFILE_MAX_EVENTS,
// default 4 Mi events) events are counted as dropped.
void Record(const Event& e);
// The same for an event whose ts/dur are ns of platform::NowNs already.
void RecordNs(const Event& e);
// Interns a string for the current session (0 when none records).
uint32_t Intern(const char* s);
// The same for a string that lives as long as the process (__func__, a
// literal): a cached pointer is trusted without comparing the text.
uint32_t InternStatic(const char* s);
uint32_t CurrentTid();

// The stream context of the calling thread (set while a stream task runs),
// so nested sites (copies, kernels) land on the stream's track.
struct Lane {
  int16_t device = -1;
  int32_t stream = -1;
};
Lane& CurrentLane();

// ---- helpers used by the sites (out of line, only called when On())

// `start` is a TraceNow() reading.
void RecordSpan(Kind k, uint32_t cat, uint64_t start, const char* name, uint64_t a = 0, uint64_t b = 0,
                uint64_t c = 0, uint64_t d = 0);
void RecordInstant(Kind k, int device, const char* name, uint64_t a = 0, uint64_t b = 0, uint64_t c = 0,
                   uint64_t d = 0);

// A stream task: sets the thread's lane for its duration and records a
// span when it ends. Nested sites can rename it and give it arguments
// (a kernel becomes kKernel with its name, a copy kCopy with its bytes).
// Spans nest: a graph replay's tasks each get their own span, and the
// replay's own annotation is back in place when they end.
class TaskSpan {
 public:
  TaskSpan(int device, int stream, const char* name) {
    if (On(kCatTask | kCatUvm)) Begin(device, stream, name);
  }
  ~TaskSpan() {
    if (active_) End();
  }
  TaskSpan(const TaskSpan&) = delete;
  TaskSpan& operator=(const TaskSpan&) = delete;

 private:
  void Begin(int device, int stream, const char* name);
  void End();
  bool active_ = false;
  Lane saved_;
  // The enclosing task's annotation (restored at End).
  bool saved_in_task_ = false;
  Kind saved_kind_ = Kind::kTask;
  const char* saved_name_ = nullptr;
  uint32_t saved_name_id_ = 0;
  uint64_t saved_a_ = 0, saved_b_ = 0;
  uint64_t start_ = 0;
};
// Called from inside a running task: what the task really was.
void AnnotateTask(Kind k, const char* name, uint64_t a, uint64_t b = 0);
// The same with the name already interned (InternSlot), so the task's end
// does not look the name up again.
void AnnotateTaskNamed(Kind k, uint32_t name_id, uint64_t a, uint64_t b = 0);
// Interns `s` through a slot owned by whoever owns the string (a loaded
// kernel function): the slot remembers the id for the recording session, so
// later calls in the same session cost one load and a compare, with no
// string compare. The slot must not outlive the string. 0 when none records.
uint32_t InternSlot(std::atomic<uint64_t>* slot, const char* s);

// A host API call (kCatApi): records a span on the host thread.
class ApiSpan {
 public:
  explicit ApiSpan(const char* fn) {
    if (On(kCatApi)) {
      fn_ = fn;
      start_ = TraceNow();
    }
  }
  ~ApiSpan() {
    if (fn_) End();
  }
  ApiSpan(const ApiSpan&) = delete;
  ApiSpan& operator=(const ApiSpan&) = delete;

 private:
  void End();
  const char* fn_ = nullptr;
  uint64_t start_ = 0;
};

// A copy or fill done outside a stream task records its own span; inside a
// task it annotates the task.
class CopySpan {
 public:
  CopySpan(Kind k, uint64_t bytes, uint64_t arg) {
    if (On(kCatTask)) Begin(k, bytes, arg);
  }
  ~CopySpan() {
    if (active_) End();
  }
  CopySpan(const CopySpan&) = delete;
  CopySpan& operator=(const CopySpan&) = delete;

 private:
  void Begin(Kind k, uint64_t bytes, uint64_t arg);
  void End();
  bool active_ = false;
  bool in_task_ = false;
  Kind kind_ = Kind::kCopy;
  uint64_t bytes_ = 0, arg_ = 0, start_ = 0;
};

// A unified-memory fault being served: records a span from construction to
// destruction once Set() said what the fault was (not every entry is a fault).
class FaultSpan {
 public:
  FaultSpan() {
    if (On(kCatUvm)) start_ = TraceNow() | 1;  // nonzero: Set() tests it
  }
  void Set(Kind k, int device, uint64_t addr, uint64_t bytes, uint64_t access) {
    if (!start_) return;
    kind_ = k;
    device_ = device;
    addr_ = addr;
    bytes_ = bytes;
    access_ = access;
    set_ = true;
  }
  ~FaultSpan() {
    if (set_) End();
  }
  FaultSpan(const FaultSpan&) = delete;
  FaultSpan& operator=(const FaultSpan&) = delete;

 private:
  void End();
  uint64_t start_ = 0;
  bool set_ = false;
  Kind kind_ = Kind::kUvmHostFault;
  int device_ = -1;
  uint64_t addr_ = 0, bytes_ = 0, access_ = 0;
};

// The graph-replay helper for the task-graph layer: call when a captured
// model/graph replay starts on a stream and when it ends.
void GraphReplay(int device, int stream, uint64_t model_id, uint64_t start_ns, uint64_t end_ns);

// Called at Start() (outside the recorder lock): lets lower layers report
// their state so counters start right (the uvm engine reports resident
// bytes per location). Set once at initialisation.
using StartHook = void (*)();
void SetStartHook(StartHook hook);
// Baseline resident bytes per location at session start (from the hook).
void SetResidentBaseline(int loc, uint64_t bytes);
std::vector<uint64_t> ResidentBaseline();

}  // namespace simnpu::dfx::trace

// ---- site macros: one line each at the call site.
#define SIMNPU_TRACE_CAT2(a, b) a##b
#define SIMNPU_TRACE_CAT(a, b) SIMNPU_TRACE_CAT2(a, b)
#if SIMNPU_TRACE_SITES
#define SIMNPU_TRACE_ON(cat) __builtin_expect(::simnpu::dfx::trace::On(cat), 0)
#define SIMNPU_TRACE_API() ::simnpu::dfx::trace::ApiSpan SIMNPU_TRACE_CAT(simnpu_api_span_, __LINE__)(__func__)
#define SIMNPU_TRACE_TASK(dev, stream, name) \
  ::simnpu::dfx::trace::TaskSpan SIMNPU_TRACE_CAT(simnpu_task_span_, __LINE__)(dev, stream, name)
#define SIMNPU_TRACE_COPY(kind, bytes, arg) \
  ::simnpu::dfx::trace::CopySpan SIMNPU_TRACE_CAT(simnpu_copy_span_, __LINE__)(kind, bytes, arg)
#define SIMNPU_TRACE_FAULT_SPAN(var) ::simnpu::dfx::trace::FaultSpan var
#define SIMNPU_TRACE_FAULT_SET(var, ...) var.Set(__VA_ARGS__)
// Runs `stmt` only while `cat` records (the statement is compiled out with the sites).
#define SIMNPU_TRACE_IF(cat, stmt) \
  do {                             \
    if (SIMNPU_TRACE_ON(cat)) {    \
      stmt;                        \
    }                              \
  } while (0)
#else
#define SIMNPU_TRACE_ON(cat) false
#define SIMNPU_TRACE_API() ((void)0)
#define SIMNPU_TRACE_TASK(dev, stream, name) ((void)0)
#define SIMNPU_TRACE_COPY(kind, bytes, arg) ((void)0)
#define SIMNPU_TRACE_IF(cat, stmt) ((void)0)
#define SIMNPU_TRACE_FAULT_SPAN(var) ((void)0)
#define SIMNPU_TRACE_FAULT_SET(var, ...) ((void)0)
#endif

#endif  // SIMNPU_DFX_TRACE_TRACE_H_
