// Runtime: devices as the ACL API sees them, contexts, streams, events, and
// the calling thread's current context.
//
//   Runtime (process singleton)
//     Device[logical id]  -> physical simulated NPU (ASCEND_RT_VISIBLE_DEVICES)
//       primary Context (aclrtSetDevice, reference counted) + user Contexts
//         default Stream + user Streams
//     Events (per device)
//
// Handles handed to users are pointers to these objects; every lookup goes
// through a HandleRegistry so stale handles are reported, not dereferenced.
//
// Lock order (outermost first): Runtime::mu_ -> Device::mu_ -> Context::mu_
// -> (registries, Stream::mu_, Event::mu_: leaves). No lock is held while
// waiting for stream work.
#ifndef SIMNPU_CORE_RUNTIME_H_
#define SIMNPU_CORE_RUNTIME_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/event.h"
#include "core/handle_registry.h"
#include "core/stream.h"
#include "platform/status.h"

namespace simnpu::sim {
class NpuDevice;
}

namespace simnpu::core {

class Device;

class Context : public std::enable_shared_from_this<Context> {
 public:
  Context(Device* device, bool primary);
  ~Context();

  Device* device() const { return device_; }
  int device_id() const;
  int phys_id() const;
  bool primary() const { return primary_; }
  bool destroyed() const { return destroyed_.load(); }

  // The context's default stream (created with the context).
  std::shared_ptr<Stream> default_stream() const { return default_stream_; }
  std::shared_ptr<Stream> CreateStream(uint32_t priority, uint32_t flags);
  // Removes a user stream of this context (drains it; force: see
  // Stream::ShutdownForced). false if not ours.
  bool RemoveStream(Stream* s, bool force = false);
  bool OwnsStream(const Stream* s) const;
  std::vector<std::shared_ptr<Stream>> Streams() const;  // default first
  // Drains and destroys every stream; marks the context destroyed. force
  // (aclrtResetDeviceForce): every stream's waits give up first, and the
  // drain lasts at most DrainTimeoutMs() in all.
  void Teardown(bool force = false);

 private:
  Device* const device_;
  const bool primary_;
  std::atomic<bool> destroyed_{false};
  std::shared_ptr<Stream> default_stream_;
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<Stream>> streams_;  // user streams. GUARDED_BY(mu_)
};

class Device {
 public:
  Device(int id, int phys, sim::NpuDevice* npu);
  int id() const { return id_; }
  int phys_id() const { return phys_; }
  sim::NpuDevice* npu() const { return npu_; }

  // aclrtSetDevice: bumps the reference and returns the primary context.
  std::shared_ptr<Context> Retain();
  // aclrtResetDevice(Force): drops one reference (or all); tears the device
  // down when none is left. Returns false if the device was not set.
  bool Release(bool force);
  // Called by Release, under the device lock, when the last user is gone:
  // frees the device's memory (set by the API layer).
  using TeardownHook = void (*)(Device* dev);
  static void SetTeardownHook(TeardownHook h);
  bool active() const;
  std::shared_ptr<Context> CreateContext();
  bool DestroyContext(Context* ctx);  // non-primary contexts only
  std::vector<std::shared_ptr<Context>> Contexts() const;
  // Waits, at most timeout_ms in all (-1 = forever), for the work submitted
  // to every stream of the device. Returns 507046 on timeout, else the
  // pending failure of the first failed stream, consumed (the failures of
  // other streams stay pending for their next synchronize), or 0.
  int Synchronize(int32_t timeout_ms);
  // Waits for every stream until `deadline` (a stream's own worker does not
  // wait for that stream); false on timeout.
  using Deadline = std::chrono::steady_clock::time_point;
  bool WaitAll(Deadline deadline);
  void WaitIdle() { WaitAll(Deadline::max()); }
  // Calls fn for every stream (contexts in creation order, each one's default
  // stream first) until it returns false.
  void ForEachStream(const std::function<bool(Stream&)>& fn) const;

  uint32_t res_limit(int type) const { return res_limit_[type & 1].load(); }
  void set_res_limit(int type, uint32_t v) { res_limit_[type & 1].store(v); }
  uint32_t hw_limit(int type) const;

 private:
  void TeardownLocked();
  const int id_;
  const int phys_;
  sim::NpuDevice* const npu_;
  mutable std::mutex mu_;
  int refs_ = 0;                                      // GUARDED_BY(mu_)
  std::shared_ptr<Context> primary_;                  // GUARDED_BY(mu_)
  std::vector<std::shared_ptr<Context>> contexts_;    // all live contexts. GUARDED_BY(mu_)
  std::atomic<uint32_t> res_limit_[2];                // cube, vector core caps
};

class Runtime {
 public:
  static Runtime& Get();

  // Visible devices (after ASCEND_RT_VISIBLE_DEVICES).
  int device_count() const { return static_cast<int>(visible_.size()); }
  // Logical device, opening the simulated device on first use. 107001 for a
  // bad id.
  StatusOr<Device*> GetDevice(int id);
  Device* FindDevice(int id) const;  // nullptr if never opened
  // Device whose simulated NPU is phys (nullptr if none).
  Device* DeviceForPhys(int phys) const;

  // The calling thread's current context (nullptr if none or destroyed).
  std::shared_ptr<Context> current() const;
  void set_current(std::shared_ptr<Context> ctx);
  // Current context or 107002.
  StatusOr<std::shared_ptr<Context>> RequireCurrent() const;
  // Resolves a stream argument: nullptr means the current context's default.
  StatusOr<std::shared_ptr<Stream>> ResolveStream(void* handle) const;

  HandleRegistry<Context>& contexts() { return contexts_; }
  HandleRegistry<Stream>& streams() { return streams_; }
  HandleRegistry<Event>& events() { return events_; }

  // Stream-state callbacks (aclrtRegStreamStateCallback), keyed by name.
  using StreamStateCb = void (*)(void* stream, int state, void* args);
  void RegisterStreamStateCallback(const std::string& name, StreamStateCb cb, void* args);
  void NotifyStreamState(Stream* s, int state);

  // Waits for all submitted work on every device (finalize, exit), at most
  // timeout_ms in all (-1 = forever). Returns false if work was left running.
  bool DrainAll(int32_t timeout_ms = -1);

 private:
  Runtime();
  std::vector<int> visible_;  // logical id -> physical id (immutable after construction)
  mutable std::mutex mu_;     // guards devices_ creation
  std::vector<std::unique_ptr<Device>> devices_;  // by logical id, null until opened
  HandleRegistry<Context> contexts_;
  HandleRegistry<Stream> streams_;
  HandleRegistry<Event> events_;
  struct StateCb {
    std::string name;
    StreamStateCb cb;
    void* args;
  };
  std::mutex cb_mu_;
  std::vector<StateCb> state_cbs_;  // GUARDED_BY(cb_mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_RUNTIME_H_
