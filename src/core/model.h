// Model runtime instances ("aclGraph", acl-api-ext.md §5): recorded task
// graphs that run again and again.
//
// A Model holds one task list per model stream. It is filled in one of two
// ways:
//  - capture: aclmdlRICaptureBegin makes an ordinary stream record (it gets
//    the model as its TaskSink); a stream that waits on an event recorded in
//    the capture joins it (a new model stream that starts with that wait);
//  - build: aclmdlRIBindStream makes a persistent stream record into the
//    model until it is unbound; HEAD streams start when the model starts,
//    DEFAULT ones when a switch, active-stream or label task reaches them.
// A recorded task keeps the arguments it was submitted with (pointers, not
// the data behind them): every execution reads buffers as they are then.
//
// Execution (Execute, from a ModelExecTask on the stream given to
// aclmdlRIExecuteAsync) interprets the lists on that stream's worker thread,
// one cursor per running model stream: a cursor runs its nodes in order
// until it ends (end of list, end task, a switch that moves control away)
// or blocks on an internal event wait whose record has not run yet in this
// execution; then the next cursor runs. This is the dependency order of the
// recorded streams; tasks of different model streams do not run in
// parallel (the device has one worker per stream anyway, and a model's
// parallel branches are short). An internal deadlock (every cursor blocked)
// fails the execution with ACL_ERROR_RT_MODEL_EXECUTE. Waits on events
// recorded outside the model (ACL_EVENT_EXTERNAL events, the EXTERNAL wait
// flag, or any event the capture did not record) block the worker until
// the event is armed (Event::WaitArmed).
//
// Executions of one model are serialised (exec_mu_). A task update
// (aclmdlRICaptureTaskUpdate*) swaps the task of a node atomically, so it may
// run while an execution is blocked in the model; the replaced task lives
// until the model is destroyed.
//
// Lock order: Registry::mu_ -> Model::mu_ -> Stream::mu_. exec_mu_ is taken
// with neither held and no registry call is made under it.
#ifndef SIMNPU_CORE_MODEL_H_
#define SIMNPU_CORE_MODEL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/event.h"
#include "core/stream.h"
#include "core/task.h"

namespace simnpu::core {

class Model;
class Label;

enum class NodeKind : uint8_t {
  kTask,          // an ordinary stream task
  kRecord,        // event record (internal or external)
  kWait,          // event wait
  kReset,         // event reset
  kEnd,           // aclmdlRIEndTask
  kActive,        // aclrtActiveStream
  kSwitchStream,  // aclrtSwitchStream
  kSwitchLabel,   // aclrtSwitchLabelByIndex
  kCond,          // aclmdlRIAddCondTask
};

struct Node {
  NodeKind kind = NodeKind::kTask;
  std::atomic<Task*> task{nullptr};  // kTask; owned (deleted by ~Model); swapped by updates
  std::shared_ptr<Event> event;      // kRecord / kWait / kReset
  Node* dep = nullptr;               // kWait: the record it waits for (null: external)
  int32_t timeout_ms = -1;           // kWait on an external event
  uint64_t ran_in = 0;               // kRecord: serial of the execution that last ran it
  int target = -1;                   // kActive / kSwitchStream: model stream index
  // kSwitchStream
  const void* left = nullptr;
  const void* right = nullptr;
  int cond = 0;
  int dtype = 0;
  // kSwitchLabel
  const uint32_t* index = nullptr;
  uint32_t max_value = 0;
  std::vector<std::shared_ptr<Label>> labels;
  // kCond
  const uint64_t* cond_word = nullptr;
  int cond_type = 0;
  std::vector<std::shared_ptr<Model>> bodies;
  // aclmdlRITaskDisable sets disable_pending (under Model::mu_); aclmdlRIUpdate
  // publishes it to `disabled`, which executions read: a disabled node is
  // skipped as if it were not in the list.
  bool disable_pending = false;
  std::atomic<bool> disabled{false};
  // aclmdlRITaskSetParams: the replacement task, swapped in by aclmdlRIUpdate. GUARDED_BY(Model::mu_)
  std::unique_ptr<Task> pending_task;
  bool external = false;  // kRecord: ACL_EVENT_RECORD_EXTERNAL; kWait: waits outside the model
};

// aclrtCreateLabel: a position in a model stream's list, set by aclrtSetLabel.
class Label {
 public:
  Model* model = nullptr;  // set by SetLabel (not owned)
  int stream = -1;
  size_t pos = 0;
};

// aclmdlRICondHandleCreate: an 8-byte device word owned by its model.
struct CondHandle {
  uint64_t* word = nullptr;
  uint64_t default_value = 0;
  bool assign_default = false;
};

// A group of captured tasks that a task update replaces (aclrtTaskGrp).
struct TaskGroup {
  Model* model = nullptr;
  int stream = -1;
  size_t begin = 0, end = 0;  // node range in that stream's list
};

class Model : public TaskSink {
 public:
  enum class State { kBuilding, kCapturing, kReady };
  static constexpr uint32_t kHeadFlag = 0x00000000U;      // ACL_MODEL_STREAM_FLAG_HEAD
  static constexpr uint32_t kDormantFlag = 0x7FFFFFFFU;   // ACL_MODEL_STREAM_FLAG_DEFAULT

  struct ModelStream {
    Stream* stream = nullptr;  // the recording stream (null once unbound / capture ended)
    std::shared_ptr<Stream> keep;  // keeps `stream` alive while it may be compared or reset
    void* handle = nullptr;        // the stream handle it was recorded from (compared only, never used)
    int32_t stream_id = -1;
    bool head = true;
    std::vector<std::unique_ptr<Node>> nodes;
    bool group_open = false;   // aclmdlRICaptureTaskGrpBegin seen
    size_t group_begin = 0;
  };

  explicit Model(State st, int device_id) : state_(st), device_id_(device_id) {}
  ~Model() override;

  // TaskSink: appends a kTask node to s's list (or discards the task when the
  // model no longer records).
  void Take(Stream* s, std::unique_ptr<Task> t) override;

  // Adds a model stream for s (capture join or bind); returns its index.
  int AddStream(Stream* s, bool head);
  // Index of the model stream recording s, or -1.
  int StreamIndex(const Stream* s) const;
  // Appends a node to model stream idx; returns it (owned by the model).
  Node* Append(int idx, std::unique_ptr<Node> n);
  // Last record of event e in this model (null if none).
  Node* LastRecordOf(const Event* e) const;

  // Event generations fixed when an execution is queued: one per record node
  // (taken then, so a wait queued after aclmdlRIExecuteAsync waits for the
  // model's record as it would for an ordinary one), and for each external
  // wait the event's generation at launch (the wait also waits for it, as an
  // ordinary aclrtStreamWaitEvent would).
  using RecordGens = std::vector<std::pair<Node*, uint64_t>>;
  RecordGens BeginRecords();
  // Runs the model once; `gens` from BeginRecords (null: records take new
  // generations). Every generation in `gens` is complete when it returns.
  int Execute(ExecContext& ctx, std::string* why, const RecordGens* gens = nullptr);

  State state() const { return state_.load(); }
  void set_state(State s) { state_ = s; }
  int device_id() const { return device_id_; }
  std::mutex& mu() { return mu_; }
  std::vector<ModelStream>& streams() { return streams_; }  // REQUIRES(mu_) while recording
  std::vector<std::unique_ptr<CondHandle>>& cond_handles() { return conds_; }
  std::vector<std::unique_ptr<TaskGroup>>& groups() { return groups_; }
  // Applies ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT (here and in sub-models).
  void AssignDefaults();
  // Replaces the tasks of a group with `tasks` (same count, checked by the caller).
  void ReplaceGroup(const TaskGroup& g, std::vector<std::unique_ptr<Task>> tasks);

  // aclmdlRIUpdate: publishes the pending edits (disables, new parameters) of this model
  // and its sub-models; returns how many nodes changed.
  size_t ApplyPendingEdits();
  // Destroy callbacks (aclmdlRIDestroyRegisterCallback). GUARDED_BY(mu_)
  std::vector<std::pair<void (*)(void*), void*>> destroy_callbacks;

  // aclmdlRIAbort: ends the execution in progress (if any) at its next task
  // boundary with ACL_ERROR_RT_MODEL_ABORT_NORMAL; a task already running
  // (a kernel, a blocking wait) finishes first. Later executions run normally.
  // Returns whether an execution was running.
  bool Abort();

  bool from_capture = false;  // obtained by capture (aclmdlRIAbort refuses those)
  bool is_sub_model = false;
  Model* parent = nullptr;
  std::vector<void*> owned_device_words;  // freed by the API layer on destroy
  std::string name;
  uint32_t id = 0;

 private:
  int RunCursors(ExecContext& ctx, std::string* why, uint64_t serial, const RecordGens* gens);

  std::atomic<State> state_;
  const int device_id_;
  mutable std::mutex mu_;  // guards streams_ while recording; leaf except Stream::mu_
  std::mutex exec_mu_;     // one execution at a time
  std::vector<ModelStream> streams_;
  std::unordered_map<const Event*, Node*> last_record_;  // GUARDED_BY(mu_)
  std::vector<std::unique_ptr<CondHandle>> conds_;
  std::vector<std::unique_ptr<TaskGroup>> groups_;
  std::mutex retired_mu_;
  std::vector<std::unique_ptr<Task>> retired_;  // tasks replaced by updates. GUARDED_BY(retired_mu_)
  std::atomic<uint64_t> serial_{0};
  std::atomic<uint64_t> running_{0};  // serial of the execution in progress (0: none)
  std::atomic<uint64_t> abort_{0};    // serial of the execution to abort
};

// Runs a model on a stream (aclmdlRIExecuteAsync).
class ModelExecTask : public Task {
 public:
  explicit ModelExecTask(std::shared_ptr<Model> m) : m_(std::move(m)), gens_(m_->BeginRecords()) {}
  int Run(ExecContext& ctx) override { return m_->Execute(ctx, &failure_message, &gens_); }
  void Discard() override {
    for (auto& [n, g] : gens_)
      if (n->kind == NodeKind::kRecord) n->event->MarkDiscarded(g);
  }
  const char* name() const override { return "model_execute"; }

 private:
  std::shared_ptr<Model> m_;
  Model::RecordGens gens_;
};

// ---------------------------------------------------------------- capture

// One capture in progress (aclmdlRICaptureBegin .. End).
struct Capture {
  std::shared_ptr<Model> model;
  Stream* origin = nullptr;
  int mode = 0;  // aclmdlRICaptureMode
  std::thread::id thread;
  bool invalidated = false;
  std::vector<std::shared_ptr<Stream>> members;  // origin first, then joined streams
};

// Process-wide capture and binding state. Lock: mu_ (before Model::mu_).
class CaptureRegistry {
 public:
  static CaptureRegistry& Get();
  std::mutex& mu() { return mu_; }
  // The capture s takes part in (null if none). REQUIRES(mu_)
  Capture* CaptureOf(const Stream* s);
  // The capture whose model recorded e last (null if none). REQUIRES(mu_)
  Capture* CaptureRecording(const Event* e);
  std::vector<std::unique_ptr<Capture>>& captures() { return captures_; }  // REQUIRES(mu_)
  std::unordered_map<const Event*, Capture*>& event_records() { return events_; }  // REQUIRES(mu_)
  // Streams bound to built models. REQUIRES(mu_)
  std::unordered_map<const Stream*, Model*>& bound() { return bound_; }
  // Registers a new capture. REQUIRES(mu_)
  Capture* AddCaptureLocked(std::unique_ptr<Capture> c);
  // Removes capture c (clears the members' sinks and its event records). REQUIRES(mu_)
  void EndCaptureLocked(Capture* c);

  // aclmdlRICaptureThreadExchangeMode: the calling thread's mode.
  static int& ThreadMode();
  // An "unsafe" synchronous call (aclrtMemcpy, aclrtMemset, ...) from the
  // calling thread: 0 if allowed, else ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
  // (the captures that forbid it are invalidated; *why says which).
  int CheckUnsafeCall(std::string* why);
  // True when a capture is active on device `dev` (device/context sync is illegal then).
  bool DeviceCapturing(int device_id);
  // True when any capture is in progress (read without the lock).
  bool AnyActive() const { return active_.load(std::memory_order_acquire) != 0; }

 private:
  std::mutex mu_;
  std::vector<std::unique_ptr<Capture>> captures_;
  std::unordered_map<const Event*, Capture*> events_;
  std::unordered_map<const Stream*, Model*> bound_;
  std::atomic<int> active_{0};  // captures_.size(), read without the lock
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_MODEL_H_
