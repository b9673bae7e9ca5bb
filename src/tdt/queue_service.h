// QueueService: the TDT memory-queue service of the process (acltdt queues,
// routes, and the queues behind queue-backed channels).
//
// A queue is a bounded FIFO of Mbufs with an id (the smallest unused one,
// from 0), an optional unique name, a depth (how many buffers it holds) and
// the device it was created on. Enqueue waits while the queue is full and
// dequeue while it is empty, for a timeout in ms: -1 forever, 0 not at all,
// > 0 that long; then 207014 (full) / 207013 (empty). Destroying a queue
// wakes its waiters with 100032 (the id names no queue any more).
//
// Routes: a bound route src -> dst forwards buffers from src to dst in FIFO
// order as soon as every destination of src has room (a source with several
// routes gives each destination a reference copy, as acltdtCopyBufRef would).
// Forwarding happens inside the enqueue/dequeue/bind call that makes it
// possible, so there is no scheduler thread. Binding a route that would close
// a cycle fails; a queue with bound routes cannot be destroyed (500001).
//
// Hidden queues back channels: user-facing calls (internal = false) do not
// see them. Cross-process sharing (grant/attach) is bookkeeping only: queue
// ids are local to the process.
//
// Lock: mu_ guards every queue, its items and the route table (one lock, so
// forwarding between queues is atomic); waits release it. Leaf with respect
// to the runtime's locks (never held while calling into core).
#ifndef SIMNPU_TDT_QUEUE_SERVICE_H_
#define SIMNPU_TDT_QUEUE_SERVICE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "platform/status.h"
#include "tdt/mbuf.h"

namespace simnpu::tdt {

constexpr size_t kQueueNameBytes = 128;  // name buffer, NUL included
constexpr uint32_t kMinQueueDepth = 2;
constexpr uint32_t kMaxQueueDepth = 8192;
constexpr uint32_t kAllPermissions = 1u | 2u | 4u;  // MANAGE | DEQUEUE | ENQUEUE

struct RouteState {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = 0;  // ACL_TDT_QUEUE_ROUTE_UNBIND 0 / BIND 1 / BIND_ABNORMAL 2
};

class QueueService {
 public:
  static QueueService& Get();

  // depth outside [2, 8192], or a name already in use -> 100000.
  StatusOr<uint32_t> Create(const std::string& name, uint32_t depth, int device, bool hidden);
  // Unknown id -> 100032; bound routes -> 500001. Buffers still queued are dropped.
  Status Destroy(uint32_t qid, bool internal = false);
  // Takes b. Full after the timeout -> 207014.
  Status Enqueue(uint32_t qid, std::shared_ptr<Mbuf> b, int32_t timeout_ms, bool internal = false);
  // Empty after the timeout -> 207013. max_bytes: a front buffer whose chain
  // holds more bytes stays queued and the call fails with 100000.
  StatusOr<std::shared_ptr<Mbuf>> Dequeue(uint32_t qid, int32_t timeout_ms, size_t max_bytes = SIZE_MAX,
                                          bool internal = false);
  StatusOr<size_t> Size(uint32_t qid, bool internal = false) const;
  Status Clear(uint32_t qid, bool internal = false);
  StatusOr<int> DeviceOf(uint32_t qid) const;

  Status Grant(uint32_t qid, int32_t pid, uint32_t permission);
  StatusOr<uint32_t> Attach(uint32_t qid);

  // One route; the status the route ends with is written to *status.
  Status Bind(uint32_t src, uint32_t dst, int32_t* status);
  Status Unbind(uint32_t src, uint32_t dst, int32_t* status);
  // mode: 0 SRC, 1 DST, 2 SRC_AND_DST, 100 ABNORMAL.
  std::vector<RouteState> Query(int mode, uint32_t src, uint32_t dst) const;

  size_t queue_count() const;

 private:
  struct Queue {
    uint32_t id = 0;
    std::string name;
    uint32_t depth = 0;
    int device = 0;
    bool hidden = false;
    bool destroyed = false;
    std::deque<std::shared_ptr<Mbuf>> items;
    std::condition_variable not_empty, not_full;
    std::map<int32_t, uint32_t> grants;  // pid -> permission bits
    bool full() const { return items.size() >= depth; }
  };

  StatusOr<std::shared_ptr<Queue>> FindLocked(uint32_t qid, bool internal) const;
  bool ForwardOneLocked(Queue& q);  // moves q's front buffer along its routes, if they all have room
  void SettleLocked();              // forwards until no route can move a buffer
  bool ReachesLocked(uint32_t from, uint32_t to) const;

  mutable std::mutex mu_;
  std::map<uint32_t, std::shared_ptr<Queue>> queues_;
  std::vector<std::pair<uint32_t, uint32_t>> routes_;  // bound routes, in bind order
};

}  // namespace simnpu::tdt

#endif  // SIMNPU_TDT_QUEUE_SERVICE_H_
