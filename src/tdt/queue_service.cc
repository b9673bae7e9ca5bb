#include "tdt/queue_service.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "tdt/codes.h"

namespace simnpu::tdt {
namespace {

std::string QueueName(uint32_t qid) { return "queue " + std::to_string(qid); }

// Waits on cv until pred holds; false on timeout (timeout_ms -1: forever, 0: no wait).
template <typename Pred>
bool WaitFor(std::condition_variable& cv, std::unique_lock<std::mutex>& lk, int32_t timeout_ms, Pred pred) {
  if (timeout_ms < 0) {
    cv.wait(lk, pred);
    return true;
  }
  if (timeout_ms == 0) return pred();
  return cv.wait_for(lk, std::chrono::milliseconds(timeout_ms), pred);
}

size_t ChainBytes(const Mbuf& b) {
  size_t n = b.data_len;
  for (auto& c : b.chain) n += c->data_len;
  return n;
}

}  // namespace

QueueService& QueueService::Get() {
  static QueueService* s = new QueueService();  // never destroyed: waiters may outlive static teardown
  return *s;
}

StatusOr<std::shared_ptr<QueueService::Queue>> QueueService::FindLocked(uint32_t qid, bool internal) const {
  auto it = queues_.find(qid);
  if (it == queues_.end() || (it->second->hidden && !internal))
    return Status(kInvalidQueueId, QueueName(qid) + " does not exist (never created, or destroyed)");
  return it->second;
}

StatusOr<uint32_t> QueueService::Create(const std::string& name, uint32_t depth, int device, bool hidden) {
  if (depth < kMinQueueDepth || depth > kMaxQueueDepth)
    return Status(kInvalidParam, "queue depth " + std::to_string(depth) + " is outside [" +
                                     std::to_string(kMinQueueDepth) + ", " + std::to_string(kMaxQueueDepth) + "]");
  if (name.size() + 1 > kQueueNameBytes)
    return Status(kInvalidParam, "queue name is longer than " + std::to_string(kQueueNameBytes - 1) + " characters");
  std::lock_guard<std::mutex> g(mu_);
  if (!name.empty()) {
    for (auto& [id, q] : queues_)
      if (!q->hidden && q->name == name)
        return Status(kInvalidParam, "a queue named \"" + name + "\" already exists (" + QueueName(id) + ")");
  }
  uint32_t id = 0;
  while (queues_.count(id)) ++id;
  auto q = std::make_shared<Queue>();
  q->id = id;
  q->name = name;
  q->depth = depth;
  q->device = device;
  q->hidden = hidden;
  queues_[id] = q;
  return id;
}

Status QueueService::Destroy(uint32_t qid, bool internal) {
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, internal);
  if (!q.ok()) return q.status();
  for (auto& [s, d] : routes_)
    if (s == qid || d == qid)
      return Status(kFailure, QueueName(qid) + " still has a bound route " + std::to_string(s) + " -> " +
                                  std::to_string(d) + "; unbind it first");
  (*q)->destroyed = true;
  (*q)->items.clear();
  (*q)->not_empty.notify_all();
  (*q)->not_full.notify_all();
  queues_.erase(qid);
  return Status::Ok();
}

Status QueueService::Enqueue(uint32_t qid, std::shared_ptr<Mbuf> b, int32_t timeout_ms, bool internal) {
  std::unique_lock<std::mutex> lk(mu_);
  auto found = FindLocked(qid, internal);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = *found;
  if (!WaitFor(q->not_full, lk, timeout_ms, [&] { return q->destroyed || !q->full(); }))
    return Status(kQueueFull, QueueName(qid) + " is full (depth " + std::to_string(q->depth) + ") after " +
                                  std::to_string(timeout_ms) + " ms");
  if (q->destroyed) return Status(kInvalidQueueId, QueueName(qid) + " was destroyed while the enqueue waited");
  q->items.push_back(std::move(b));
  q->not_empty.notify_one();
  SettleLocked();
  return Status::Ok();
}

StatusOr<std::shared_ptr<Mbuf>> QueueService::Dequeue(uint32_t qid, int32_t timeout_ms, size_t max_bytes,
                                                      bool internal) {
  std::unique_lock<std::mutex> lk(mu_);
  auto found = FindLocked(qid, internal);
  if (!found.ok()) return found.status();
  std::shared_ptr<Queue> q = *found;
  if (!WaitFor(q->not_empty, lk, timeout_ms, [&] { return q->destroyed || !q->items.empty(); }))
    return Status(kQueueEmpty, QueueName(qid) + " is empty after " + std::to_string(timeout_ms) + " ms");
  if (q->destroyed) return Status(kInvalidQueueId, QueueName(qid) + " was destroyed while the dequeue waited");
  const size_t bytes = ChainBytes(*q->items.front());
  if (bytes > max_bytes)
    return Status(kInvalidParam, "the buffer at the head of " + QueueName(qid) + " holds " + std::to_string(bytes) +
                                     " bytes, more than the " + std::to_string(max_bytes) +
                                     " the caller can take; it stays queued");
  std::shared_ptr<Mbuf> b = std::move(q->items.front());
  q->items.pop_front();
  q->not_full.notify_one();
  SettleLocked();
  return b;
}

StatusOr<size_t> QueueService::Size(uint32_t qid, bool internal) const {
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, internal);
  if (!q.ok()) return q.status();
  return (*q)->items.size();
}

Status QueueService::Clear(uint32_t qid, bool internal) {
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, internal);
  if (!q.ok()) return q.status();
  (*q)->items.clear();
  (*q)->not_full.notify_all();
  SettleLocked();
  return Status::Ok();
}

StatusOr<int> QueueService::DeviceOf(uint32_t qid) const {
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, false);
  if (!q.ok()) return q.status();
  return (*q)->device;
}

Status QueueService::Grant(uint32_t qid, int32_t pid, uint32_t permission) {
  if (permission == 0 || (permission & ~kAllPermissions) != 0)
    return Status(kInvalidParam, "permission " + std::to_string(permission) +
                                     " is not a non-empty combination of MANAGE (1), DEQUEUE (2), ENQUEUE (4)");
  if (pid <= 0) return Status(kInvalidParam, "pid " + std::to_string(pid) + " is not a process id");
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, false);
  if (!q.ok()) return q.status();
  (*q)->grants[pid] |= permission;
  return Status::Ok();
}

StatusOr<uint32_t> QueueService::Attach(uint32_t qid) {
  std::lock_guard<std::mutex> g(mu_);
  auto q = FindLocked(qid, false);
  if (!q.ok()) return q.status();
  // The creating process (queue ids are process-local) holds every permission.
  uint32_t perm = kAllPermissions;
  auto it = (*q)->grants.find(static_cast<int32_t>(getpid()));
  if (it != (*q)->grants.end()) perm |= it->second;
  return perm;
}

bool QueueService::ReachesLocked(uint32_t from, uint32_t to) const {
  std::vector<uint32_t> stack{from};
  std::vector<uint32_t> seen;
  while (!stack.empty()) {
    uint32_t n = stack.back();
    stack.pop_back();
    if (n == to) return true;
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) continue;
    seen.push_back(n);
    for (auto& [s, d] : routes_)
      if (s == n) stack.push_back(d);
  }
  return false;
}

Status QueueService::Bind(uint32_t src, uint32_t dst, int32_t* status) {
  std::lock_guard<std::mutex> g(mu_);
  auto s = FindLocked(src, false);
  if (!s.ok()) return Status(kInvalidQueueId, "route " + std::to_string(src) + " -> " + std::to_string(dst) +
                                                  ": source " + s.status().message());
  auto d = FindLocked(dst, false);
  if (!d.ok()) return Status(kInvalidQueueId, "route " + std::to_string(src) + " -> " + std::to_string(dst) +
                                                  ": destination " + d.status().message());
  for (auto& r : routes_)
    if (r.first == src && r.second == dst) {
      *status = 1;
      return Status(kFailure, "route " + std::to_string(src) + " -> " + std::to_string(dst) + " is already bound");
    }
  if (src == dst || ReachesLocked(dst, src))
    return Status(kInvalidParam, "route " + std::to_string(src) + " -> " + std::to_string(dst) +
                                     " would close a cycle of routes");
  routes_.emplace_back(src, dst);
  *status = 1;
  SettleLocked();
  return Status::Ok();
}

Status QueueService::Unbind(uint32_t src, uint32_t dst, int32_t* status) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = std::find(routes_.begin(), routes_.end(), std::make_pair(src, dst));
  if (it == routes_.end())
    return Status(kFailure, "route " + std::to_string(src) + " -> " + std::to_string(dst) + " is not bound");
  routes_.erase(it);
  *status = 0;
  return Status::Ok();
}

std::vector<RouteState> QueueService::Query(int mode, uint32_t src, uint32_t dst) const {
  std::lock_guard<std::mutex> g(mu_);
  std::vector<RouteState> out;
  if (mode == 100) return out;  // no route is ever abnormal here: queues with routes cannot be destroyed
  for (auto& [s, d] : routes_) {
    const bool match = (mode == 0 && s == src) || (mode == 1 && d == dst) || (mode == 2 && s == src && d == dst);
    if (match) out.push_back(RouteState{s, d, 1});
  }
  return out;
}

size_t QueueService::queue_count() const {
  std::lock_guard<std::mutex> g(mu_);
  size_t n = 0;
  for (auto& [id, q] : queues_) n += q->hidden ? 0 : 1;
  return n;
}

bool QueueService::ForwardOneLocked(Queue& q) {
  if (q.items.empty()) return false;
  std::vector<Queue*> dsts;
  for (auto& [s, d] : routes_)
    if (s == q.id) {
      auto it = queues_.find(d);
      if (it != queues_.end()) dsts.push_back(it->second.get());
    }
  if (dsts.empty()) return false;
  for (Queue* d : dsts)
    if (d->full()) return false;  // forwarded once every destination has room
  std::shared_ptr<Mbuf> b = std::move(q.items.front());
  q.items.pop_front();
  q.not_full.notify_one();
  for (size_t i = 0; i < dsts.size(); ++i) {
    // The last destination gets the buffer itself, the others reference copies.
    std::shared_ptr<Mbuf> item = (i + 1 == dsts.size()) ? b : std::make_shared<Mbuf>(*b);
    dsts[i]->items.push_back(std::move(item));
    dsts[i]->not_empty.notify_one();
  }
  return true;
}

void QueueService::SettleLocked() {
  if (routes_.empty()) return;
  // Forward until nothing moves; routes are acyclic, so every pass either
  // moves a buffer downstream or ends.
  for (bool moved = true; moved;) {
    moved = false;
    for (auto& [id, q] : queues_)
      while (ForwardOneLocked(*q)) moved = true;
  }
}

}  // namespace simnpu::tdt
