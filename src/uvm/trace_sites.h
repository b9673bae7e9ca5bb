// Unified-memory event sites: what the engine tells the profiling trace
// (dfx/trace). Off, each site is one predictable branch.
//
// ResidencyTrace brackets a MakeResident* call: when the uvm category
// records, it snapshots the block's residency masks (host and every device)
// on entry and, on exit, records what changed, as runs of pages:
// migrations (the source lost the pages the target gained), replicas (the
// source kept them), first-touch populations, invalidations (a side lost
// pages nobody gained). A block moved whole with UFFDIO_MOVE (no copy) is
// flagged by CountBlockMoved on the same thread. Caller holds the block lock.
#ifndef SIMNPU_UVM_TRACE_SITES_H_
#define SIMNPU_UVM_TRACE_SITES_H_

#include "dfx/trace/trace.h"
#include "uvm/counters.h"
#include "uvm/engine.h"
#include "uvm/va_block.h"

namespace simnpu::uvm {

// The thread's "a whole block moved without a copy" flag (ResidencyTrace reads it).
bool& TraceMovedFlag();

// Count(blocks_moved), and the flag for the trace.
inline void CountBlockMoved(Counters& c) {
  Count(c.blocks_moved);
  if (SIMNPU_TRACE_ON(dfx::trace::kCatUvm)) TraceMovedFlag() = true;
}

class ResidencyTrace {
 public:
  // target: -1 = host, else the device index of the block's views.
  ResidencyTrace(const VaBlock& b, int target, Cause cause) {
    if (SIMNPU_TRACE_ON(dfx::trace::kCatUvm)) Begin(b, target, cause);
  }
  ~ResidencyTrace() {
    if (b_) End();
  }
  ResidencyTrace(const ResidencyTrace&) = delete;
  ResidencyTrace& operator=(const ResidencyTrace&) = delete;

 private:
  void Begin(const VaBlock& b, int target, Cause cause);
  void End();
  const VaBlock* b_ = nullptr;
  int target_ = -1;
  Cause cause_ = Cause::kHostFault;
  PageMask host_;
  PageMask dev_[sim::kMaxDevices];
};

// A block's pages all go away (free): invalidations of every copy.
void TraceBlockFreed(const VaBlock& b);
// Thrashing detected on a block migrating to `dst` (kHost or a device);
// action: 1 detected, 2 throttle, 3 pin.
void TraceThrashing(const VaBlock& b, int dst, int action);
// A managed allocation or free (the picture draws one panel per allocation).
void TraceManagedRange(bool alloc, uintptr_t base, uint64_t bytes);

}  // namespace simnpu::uvm

#if SIMNPU_TRACE_SITES
#define SIMNPU_TRACE_RESIDENCY(block, target, cause) \
  ::simnpu::uvm::ResidencyTrace SIMNPU_TRACE_CAT(simnpu_res_trace_, __LINE__)(block, target, cause)
#else
#define SIMNPU_TRACE_RESIDENCY(block, target, cause) ((void)0)
#endif

#endif  // SIMNPU_UVM_TRACE_SITES_H_
