// Runtime, Device and Context.
#include "core/runtime.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <sstream>

#include "core/device_printf.h"
#include "dfx/log.h"
#include "platform/env.h"
#include "sim/npu_system.h"

namespace simnpu::core {
namespace {
thread_local std::shared_ptr<Context> tls_current;
constexpr int kInvalidDevice = 107001;
constexpr int kContextNull = 107002;
constexpr int kStateCreatePost = 1;
constexpr int kStateDestroyPre = 2;
constexpr int kStreamSyncTimeout = 507046;  // ACL_ERROR_RT_STREAM_SYNC_TIMEOUT

using Clock = std::chrono::steady_clock;

// The deadline of a call given timeout_ms (< 0: none).
Device::Deadline DeadlineAfter(int32_t timeout_ms) {
  return timeout_ms < 0 ? Device::Deadline::max() : Clock::now() + std::chrono::milliseconds(timeout_ms);
}

// Milliseconds left until `deadline` for one wait (-1: forever, 0: passed).
int32_t MsLeft(Device::Deadline deadline) {
  if (deadline == Device::Deadline::max()) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int32_t>(std::clamp<int64_t>(left, 0, INT32_MAX));
}
}  // namespace

// ---------------------------------------------------------------- Context

Context::Context(Device* device, bool primary) : device_(device), primary_(primary) {
  default_stream_ = std::make_shared<Stream>(this, device->id(), device->phys_id(), 0, 0, true);
  Runtime::Get().streams().Add(default_stream_);
}

Context::~Context() = default;

int Context::device_id() const { return device_->id(); }
int Context::phys_id() const { return device_->phys_id(); }

std::shared_ptr<Stream> Context::CreateStream(uint32_t priority, uint32_t flags) {
  auto s = std::make_shared<Stream>(this, device_->id(), device_->phys_id(), priority, flags, false);
  {
    std::lock_guard<std::mutex> g(mu_);
    streams_.push_back(s);
  }
  Runtime::Get().streams().Add(s);
  Runtime::Get().NotifyStreamState(s.get(), kStateCreatePost);
  return s;
}

bool Context::OwnsStream(const Stream* s) const {
  if (s == default_stream_.get()) return true;
  std::lock_guard<std::mutex> g(mu_);
  for (auto& p : streams_)
    if (p.get() == s) return true;
  return false;
}

bool Context::RemoveStream(Stream* s, bool force) {
  std::shared_ptr<Stream> victim;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto it = streams_.begin(); it != streams_.end(); ++it) {
      if (it->get() == s) {
        victim = *it;
        streams_.erase(it);
        break;
      }
    }
  }
  if (!victim) return false;
  Runtime::Get().NotifyStreamState(victim.get(), kStateDestroyPre);
  Runtime::Get().streams().Remove(victim.get());
  if (force)
    victim->ShutdownForced(DrainTimeoutMs());
  else
    victim->Shutdown();
  return true;
}

std::vector<std::shared_ptr<Stream>> Context::Streams() const {
  std::vector<std::shared_ptr<Stream>> out{default_stream_};
  std::lock_guard<std::mutex> g(mu_);
  out.insert(out.end(), streams_.begin(), streams_.end());
  return out;
}

void Context::Teardown(bool force) {
  if (destroyed_.exchange(true)) return;
  std::vector<std::shared_ptr<Stream>> all;
  {
    std::lock_guard<std::mutex> g(mu_);
    all.swap(streams_);
  }
  // Forced: no stream's wait can hold up another stream's drain.
  if (force) {
    for (auto& s : all) s->CancelWaits();
    default_stream_->CancelWaits();
  }
  const Device::Deadline deadline = DeadlineAfter(force ? DrainTimeoutMs() : -1);
  auto shutdown = [&](Stream& s) {
    if (force)
      s.ShutdownForced(MsLeft(deadline));
    else
      s.Shutdown();
  };
  for (auto& s : all) {
    Runtime::Get().NotifyStreamState(s.get(), kStateDestroyPre);
    Runtime::Get().streams().Remove(s.get());
    shutdown(*s);
  }
  Runtime::Get().streams().Remove(default_stream_.get());
  shutdown(*default_stream_);
  Runtime::Get().contexts().Remove(this);
}

// ---------------------------------------------------------------- Device

namespace {
std::atomic<Device::TeardownHook> g_teardown_hook{nullptr};
}
void Device::SetTeardownHook(TeardownHook h) { g_teardown_hook.store(h); }

Device::Device(int id, int phys, sim::NpuDevice* npu) : id_(id), phys_(phys), npu_(npu) {
  res_limit_[0].store(hw_limit(0));
  res_limit_[1].store(hw_limit(1));
}

uint32_t Device::hw_limit(int type) const {
  const sim::SocInfo& soc = npu_->soc();
  if (type == 0) return soc.cube_cores;
  return soc.vector_cores ? soc.vector_cores : soc.ai_cores;
}

std::shared_ptr<Context> Device::Retain() {
  std::lock_guard<std::mutex> g(mu_);
  if (!primary_ || primary_->destroyed()) {
    primary_ = std::make_shared<Context>(this, true);
    contexts_.push_back(primary_);
    Runtime::Get().contexts().Add(primary_);
  }
  ++refs_;
  return primary_;
}

bool Device::active() const {
  std::lock_guard<std::mutex> g(mu_);
  return refs_ > 0 || !contexts_.empty();
}

bool Device::Release(bool force) {
  std::vector<std::shared_ptr<Context>> doomed;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (refs_ == 0 && contexts_.empty()) return false;
    if (!force && refs_ > 1) {
      --refs_;
      return true;
    }
    refs_ = 0;
    doomed.swap(contexts_);
    primary_.reset();
  }
  for (auto& c : doomed) c->Teardown(force);
  {
    // Free the device's memory unless someone set the device again meanwhile.
    std::lock_guard<std::mutex> g(mu_);
    if (refs_ == 0 && contexts_.empty() && g_teardown_hook) g_teardown_hook(this);
  }
  // Events of this device are dropped with it.
  auto events = Runtime::Get().events().Select([this](const Event& e) { return e.device_id() == id_; });
  for (auto& e : events) Runtime::Get().events().Remove(e.get());
  return true;
}

std::shared_ptr<Context> Device::CreateContext() {
  auto ctx = std::make_shared<Context>(this, false);
  {
    std::lock_guard<std::mutex> g(mu_);
    contexts_.push_back(ctx);
  }
  Runtime::Get().contexts().Add(ctx);
  return ctx;
}

bool Device::DestroyContext(Context* ctx) {
  std::shared_ptr<Context> victim;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto it = contexts_.begin(); it != contexts_.end(); ++it) {
      if (it->get() == ctx) {
        victim = *it;
        contexts_.erase(it);
        break;
      }
    }
    if (victim && victim == primary_) primary_.reset();
  }
  if (!victim) return false;
  victim->Teardown();
  return true;
}

std::vector<std::shared_ptr<Context>> Device::Contexts() const {
  std::lock_guard<std::mutex> g(mu_);
  return contexts_;
}

void Device::ForEachStream(const std::function<bool(Stream&)>& fn) const {
  for (auto& ctx : Contexts())
    for (auto& s : ctx->Streams())
      if (!fn(*s)) return;
}

bool Device::WaitAll(Deadline deadline) {
  bool ok = true;
  ForEachStream([&](Stream& s) {
    if (s.OnWorkerThread()) return true;  // a host function cannot wait for its own stream
    ok = s.WaitFor(s.submitted(), MsLeft(deadline));
    return ok;
  });
  return ok;
}

int Device::Synchronize(int32_t timeout_ms) {
  const bool done = WaitAll(DeadlineAfter(timeout_ms));
  FlushDevicePrintf();
  if (!done) return kStreamSyncTimeout;
  int first = 0;
  ForEachStream([&](Stream& s) {
    // (the calling host function's own stream: reported, not consumed, as
    // Stream::Synchronize does)
    first = s.OnWorkerThread() ? s.pending_error() : s.TakePendingError();
    return first == 0;
  });
  return first;
}

// ---------------------------------------------------------------- Runtime

Runtime& Runtime::Get() {
  static Runtime* rt = new Runtime();  // never destroyed: worker threads may run at exit
  return *rt;
}

Runtime::Runtime() {
  int phys = sim::NpuSystem::Get().physical_count();
  auto env = platform::GetEnv("ASCEND_RT_VISIBLE_DEVICES");
  if (!env) {
    for (int i = 0; i < phys; ++i) visible_.push_back(i);
  } else {
    // Comma-separated physical ids; parsing stops at the first invalid,
    // out-of-range or repeated entry (the rest are not visible).
    std::stringstream ss(*env);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
      auto v = platform::ParseInt(tok);
      if (!v || *v < 0 || *v >= phys) break;
      bool dup = false;
      for (int x : visible_) dup |= (x == *v);
      if (dup) break;
      visible_.push_back(static_cast<int>(*v));
    }
  }
  devices_.resize(visible_.size());
}

StatusOr<Device*> Runtime::GetDevice(int id) {
  if (id < 0 || id >= device_count())
    return Status(kInvalidDevice, "device id " + std::to_string(id) + " is invalid; " +
                                      std::to_string(device_count()) + " device(s) visible");
  std::lock_guard<std::mutex> g(mu_);
  if (!devices_[id]) {
    auto npu = sim::NpuSystem::Get().Open(visible_[id]);
    if (!npu.ok()) return npu.status();
    devices_[id] = std::make_unique<Device>(id, visible_[id], npu.value());
  }
  return devices_[id].get();
}

Device* Runtime::FindDevice(int id) const {
  if (id < 0 || id >= device_count()) return nullptr;
  std::lock_guard<std::mutex> g(mu_);
  return devices_[id].get();
}

Device* Runtime::DeviceForPhys(int phys) const {
  std::lock_guard<std::mutex> g(mu_);
  for (auto& d : devices_)
    if (d && d->phys_id() == phys) return d.get();
  return nullptr;
}

std::shared_ptr<Context> Runtime::current() const {
  if (tls_current && tls_current->destroyed()) tls_current.reset();
  return tls_current;
}

void Runtime::set_current(std::shared_ptr<Context> ctx) { tls_current = std::move(ctx); }

StatusOr<std::shared_ptr<Context>> Runtime::RequireCurrent() const {
  auto c = current();
  if (!c)
    return Status(kContextNull,
                  "there is no current context on this thread: call aclrtSetDevice or "
                  "aclrtSetCurrentContext first");
  return c;
}

StatusOr<std::shared_ptr<Stream>> Runtime::ResolveStream(void* handle) const {
  if (handle == nullptr) {
    auto c = RequireCurrent();
    if (!c.ok()) return c.status();
    return c.value()->default_stream();
  }
  auto s = streams_.Find(handle);
  if (!s) return Status(107017, "stream handle is not a live stream");
  return s;
}

void Runtime::RegisterStreamStateCallback(const std::string& name, StreamStateCb cb, void* args) {
  std::lock_guard<std::mutex> g(cb_mu_);
  for (auto it = state_cbs_.begin(); it != state_cbs_.end(); ++it) {
    if (it->name == name) {
      if (cb) {
        it->cb = cb;
        it->args = args;
      } else {
        state_cbs_.erase(it);
      }
      return;
    }
  }
  if (cb) state_cbs_.push_back({name, cb, args});
}

void Runtime::NotifyStreamState(Stream* s, int state) {
  std::vector<StateCb> cbs;
  {
    std::lock_guard<std::mutex> g(cb_mu_);
    cbs = state_cbs_;
  }
  for (auto& c : cbs) c.cb(s, state, c.args);
}

bool Runtime::DrainAll(int32_t timeout_ms) {
  std::vector<Device*> devs;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto& d : devices_)
      if (d) devs.push_back(d.get());
  }
  const Device::Deadline deadline = DeadlineAfter(timeout_ms);
  bool all = true;
  for (Device* d : devs)
    if (!d->WaitAll(deadline)) {
      all = false;
      break;
    }
  FlushDevicePrintf();
  return all;
}

}  // namespace simnpu::core
