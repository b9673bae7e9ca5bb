// UVM counters: process-wide relaxed atomics, one per field of the public
// simnpu_uvm_counters (include/simnpu/uvm.h). Always on; an increment is one
// uncontended atomic add.
#ifndef SIMNPU_UVM_COUNTERS_H_
#define SIMNPU_UVM_COUNTERS_H_

#include <atomic>
#include <cstdint>

#include "simnpu/uvm.h"

namespace simnpu::uvm {

#define SIMNPU_UVM_COUNTER_FIELDS(X)                                                      \
  X(host_faults) X(host_faults_first_touch) X(host_faults_migrate) X(host_faults_write_dup) \
  X(device_faults) X(device_faults_first_touch) X(device_faults_migrate)                  \
  X(device_fault_pages) X(pages_h2d) X(bytes_h2d) X(pages_d2h) X(bytes_d2h) X(pages_d2d)  \
  X(bytes_d2d) X(pages_populated_host) X(pages_populated_device) X(blocks_moved)          \
  X(copy_fallbacks) X(read_duplicates) X(invalidations) X(remote_maps)                    \
  X(prefetch_requests) X(prefetch_pages) X(density_expansions) X(thrashing_events)        \
  X(throttles) X(pins) X(evictions) X(bytes_evicted) X(explicit_copies) X(explicit_sets) X(readahead_blocks)

struct Counters {
#define SIMNPU_DECL(f) std::atomic<uint64_t> f{0};
  SIMNPU_UVM_COUNTER_FIELDS(SIMNPU_DECL)
#undef SIMNPU_DECL

  void Snapshot(simnpu_uvm_counters* out) const;
  void Reset();
};

Counters& Stats();

inline void Count(std::atomic<uint64_t>& c, uint64_t n = 1) { c.fetch_add(n, std::memory_order_relaxed); }

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_COUNTERS_H_
