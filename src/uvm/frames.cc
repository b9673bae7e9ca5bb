// Device frames for managed blocks and eviction under oversubscription.
//
// A block that has pages resident on device d holds one 2 MiB frame from
// d's arena (counted against the device capacity). When the arena is full,
// AcquireFrame evicts the least recently used block of that device to the
// host (moving its pages), never one whose lock is held (a block being
// faulted on or accessed is locked, so try_lock skips it). Every wait is
// bounded: after ~10 s without a frame the caller gets out-of-memory.
#include <algorithm>
#include <chrono>

#include "dfx/log.h"
#include "dfx/trace/trace.h"
#include "uvm/counters.h"
#include "platform/clock.h"
#include "uvm/engine.h"
#include "uvm/policy.h"

namespace simnpu::uvm {
namespace {
constexpr int kOutOfMemory = 207001;  // ACL_ERROR_RT_MEMORY_ALLOCATION
constexpr auto kMaxWait = std::chrono::seconds(10);
}  // namespace

void Engine::TrackFrame(VaBlock* b, int d) {
  std::lock_guard<std::mutex> g(lru_mu_);
  frame_holders_[d].push_back(b);
}

void Engine::UntrackFrame(VaBlock* b, int d) {
  std::lock_guard<std::mutex> g(lru_mu_);
  auto& v = frame_holders_[d];
  auto it = std::find(v.begin(), v.end(), b);
  if (it != v.end()) {
    *it = v.back();
    v.pop_back();
  }
}

Status Engine::EvictFrame(VaBlock& b, int d, Cause cause) {
  DeviceView& v = b.dev[d];
  if (!v.frame) return Status::Ok();
  PageMask only_here = v.resident.Minus(b.host_resident);
  for (int e = 0; e < b.ndev; ++e)
    if (e != d) only_here = only_here.Minus(b.dev[e].resident);
  if (only_here.any()) SIMNPU_RETURN_IF_ERROR(MakeResidentHost(b, only_here, false, cause));
  // Every page left here has another copy now.
  DropDevicePages(b, d, PageMask::All());
  ReleaseFrameIfEmpty(b, d);
  return Status::Ok();
}

bool Engine::EvictOne(int d) {
  // Snapshot the LRU stamps once: they change under us (other threads access
  // blocks while we sort), and a comparator reading live values is not a
  // strict weak ordering.
  std::vector<std::pair<uint64_t, VaBlock*>> stamped;
  {
    std::lock_guard<std::mutex> g(lru_mu_);
    stamped.reserve(frame_holders_[d].size());
    for (VaBlock* b : frame_holders_[d])
      stamped.emplace_back(b->dev[d].last_use.load(std::memory_order_relaxed), b);
  }
  std::sort(stamped.begin(), stamped.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [stamp, b] : stamped) {
    std::unique_lock<std::mutex> bl(b->mu, std::try_to_lock);
    if (!bl.owns_lock()) continue;  // in use (being faulted on or accessed)
    if (!b->dev[d].frame) continue;
    Status st = EvictFrame(*b, d, Cause::kEviction);
    if (!st.ok()) {
      SIMNPU_LOGE(kDrv, "eviction from device %d failed: %s", d, st.message().c_str());
      continue;
    }
    // An eviction is a migration to the host: a device that pulls the block
    // straight back is ping-ponging, and thrashing mitigation may pin it.
    OnMigration(*b, kHost, platform::NowNs());
    Count(Stats().evictions);
    SIMNPU_TRACE_IF(dfx::trace::kCatUvm, dfx::trace::RecordInstant(dfx::trace::Kind::kUvmEviction, d, nullptr, b->base));
    SIMNPU_LOGD(kDrv, "evicted block %#lx from device %d", static_cast<unsigned long>(b->base), d);
    return true;
  }
  return false;
}

int Engine::EvictForAllocation(int phys, int blocks) {
  if (mode() != Mode::kUffd || phys < 0 || phys >= sim::kMaxDevices) return 0;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  int n = 0;
  while (n < blocks && EvictOne(phys)) ++n;
  return n;
}

char* Engine::AcquireFrame(int d, Status* err) {
  sim::DeviceArena* arena = Arena(d);
  if (!arena) {
    *err = Status(107001, "device " + std::to_string(d) + " is not open");
    return nullptr;
  }
  const auto deadline = std::chrono::steady_clock::now() + kMaxWait;
  for (;;) {
    if (char* f = static_cast<char*>(arena->AllocFrame(/*want_hole=*/uffd_ != nullptr))) return f;
    if (EvictOne(d)) continue;
    // Everything evictable is busy: wait for a frame to be released.
    std::unique_lock<std::mutex> g(lru_mu_);
    if (frame_cv_.wait_until(g, std::min(deadline, std::chrono::steady_clock::now() +
                                                        std::chrono::milliseconds(10))) ==
            std::cv_status::timeout &&
        std::chrono::steady_clock::now() >= deadline) {
      *err = Status(kOutOfMemory, "device " + std::to_string(d) +
                                      " has no free memory for managed pages and nothing can be "
                                      "evicted (all resident blocks are in use)");
      return nullptr;
    }
  }
}

}  // namespace simnpu::uvm
