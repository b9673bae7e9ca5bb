// UVM policies: modules that look at a block and return hints; the engine
// acts on them. Every tunable lives in Tunables (read once from the
// environment; tests may override them through Tunables::Mutable()).
//
//   FaultRegion (granularity + density prefetch)
//     A fault on page p first grows to the aligned "big page" of
//     `fault_granule` bytes around p (default: the whole 2 MiB block when
//     the block can be moved whole, else 64 KiB, as NVIDIA's big pages).
//     Then, like NVIDIA's tree prefetcher, for each enclosing power-of-two
//     subtree up to 2 MiB: if more than `density_percent` (51) of its pages
//     would be at the destination after this fault, the whole subtree is
//     taken.
//   Thrashing
//     A migration of a block within `thrash_lapse_us` (500) of its previous
//     migration to a different processor is a thrashing event; after
//     `thrash_threshold` (3) consecutive events the block is thrashing: the
//     next device faults are throttled (`thrash_nap_us` each; host faults
//     are only counted, their single service thread never naps) and after
//     `thrash_pin_threshold` (10) throttles the block is pinned to the host
//     for `thrash_pin_ms` (150), doubled for each pin that follows within a
//     second of the previous one ending (up to x32): devices map it
//     remotely instead of migrating. A preferred location disables pinning
//     (it may thrash).
//   Placement (read-mostly, preferred location, accessed-by, pins)
//     Decides, for a fault, whether the faulting side gets the pages moved
//     to it, gets a read-only duplicate (read-mostly block, read access,
//     data already somewhere), or maps the data where it lies (device only:
//     accessed-by that device, a pinned block, or a host preferred location
//     on a block that is not read-mostly).
#ifndef SIMNPU_UVM_POLICY_H_
#define SIMNPU_UVM_POLICY_H_

#include <cstdint>

#include "uvm/page_mask.h"
#include "uvm/va_block.h"

namespace simnpu::uvm {

struct Tunables {
  uint64_t fault_granule = 0;        // bytes; 0 = auto (2 MiB when movable whole, else 64 KiB). SIMNPU_UVM_FAULT_GRANULE
  uint32_t density_percent = 51;     // SIMNPU_UVM_DENSITY
  bool prefetch_enable = true;       // SIMNPU_UVM_PREFETCH (density expansion on/off)
  uint32_t thrash_lapse_us = 500;    // SIMNPU_UVM_THRASH_LAPSE_US
  uint32_t thrash_threshold = 3;     // SIMNPU_UVM_THRASH_THRESHOLD
  uint32_t thrash_pin_threshold = 10;// SIMNPU_UVM_THRASH_PIN_THRESHOLD
  uint32_t thrash_nap_us = 500;      // SIMNPU_UVM_THRASH_NAP_US
  uint32_t thrash_pin_ms = 150;      // SIMNPU_UVM_THRASH_PIN_MS
  bool thrash_enable = true;         // SIMNPU_UVM_THRASHING
  bool use_move = true;              // SIMNPU_UVM_MOVE: migrate whole blocks with UFFDIO_MOVE
  uint32_t fault_spin_us = 200;      // SIMNPU_UVM_FAULT_SPIN_US: service thread polls this long before sleeping
  uint32_t host_readahead = 1;       // SIMNPU_UVM_HOST_READAHEAD: blocks moved ahead of a sequential host pass
  // Tests only (SIMNPU_UVM_TEST_REFUSE_ASSEMBLED_MOVES): the move of a block
  // assembled from copies fails as if the kernel refused it.
  bool test_refuse_assembled_moves = false;

  static const Tunables& Get();
  static Tunables& Mutable();  // tests only
};

// The pages a fault (or a batch of faults) on `faulted` should bring to the
// destination, given the pages already there (`at_dest`) and whether the
// block is movable whole. Result ⊇ faulted. Sets *expanded when the density
// rule widened the region.
PageMask FaultRegion(const PageMask& faulted, const PageMask& at_dest, bool whole_block_movable,
                     bool* expanded);

enum class ThrashHint { kNone, kThrottle, kPin };
// Records a migration of `b` to `dst` at `now_ns` and returns the hint for
// the fault that caused it. REQUIRES: b.mu held.
ThrashHint OnMigration(VaBlock& b, int dst, uint64_t now_ns);
// True while the block is pinned to the host. REQUIRES: b.mu held.
bool IsPinned(const VaBlock& b, uint64_t now_ns);

enum class Placement { kMigrate, kDuplicate, kMapRemote };
// For a device `dev` fault on `b`. REQUIRES: b.mu held.
Placement DeviceFaultPlacement(const VaBlock& b, int dev, bool write, uint64_t now_ns);
// For a host fault on `b` on a page that is (first_touch) or is not yet
// populated anywhere. Never kMapRemote: the host always gets its own page.
// REQUIRES: b.mu held.
Placement HostFaultPlacement(const VaBlock& b, bool write, bool first_touch);

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_POLICY_H_
