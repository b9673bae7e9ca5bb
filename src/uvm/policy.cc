// UVM policies: fault region (granularity + density) and thrashing.
#include "uvm/policy.h"

#include <algorithm>

#include "platform/env.h"
#include "uvm/counters.h"
#include "uvm/trace_sites.h"

namespace simnpu::uvm {

static Tunables& Storage() {
  static Tunables t = [] {
    Tunables x;
    x.fault_granule = platform::GetEnvSize("SIMNPU_UVM_FAULT_GRANULE", 0);
    if (x.fault_granule) {
      // power of two between 4 KiB and 2 MiB
      uint64_t g = kPageSize;
      while (g < x.fault_granule && g < kBlockSize) g <<= 1;
      x.fault_granule = g;
    }
    x.density_percent = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_DENSITY", 51));
    if (x.density_percent > 100) x.density_percent = 100;
    x.prefetch_enable = platform::GetEnvBool("SIMNPU_UVM_PREFETCH", true);
    x.thrash_lapse_us = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_THRASH_LAPSE_US", 500));
    x.thrash_threshold = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_THRASH_THRESHOLD", 3));
    x.thrash_pin_threshold = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_THRASH_PIN_THRESHOLD", 10));
    x.thrash_nap_us = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_THRASH_NAP_US", 500));
    x.thrash_pin_ms = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_THRASH_PIN_MS", 150));
    x.thrash_enable = platform::GetEnvBool("SIMNPU_UVM_THRASHING", true);
    x.use_move = platform::GetEnvBool("SIMNPU_UVM_MOVE", true);
    x.fault_spin_us = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_FAULT_SPIN_US", 200));
    x.host_readahead = static_cast<uint32_t>(platform::GetEnvInt("SIMNPU_UVM_HOST_READAHEAD", 1));
    x.test_refuse_assembled_moves = platform::GetEnvBool("SIMNPU_UVM_TEST_REFUSE_ASSEMBLED_MOVES", false);
    return x;
  }();
  return t;
}

const Tunables& Tunables::Get() { return Storage(); }
Tunables& Tunables::Mutable() { return Storage(); }

PageMask FaultRegion(const PageMask& faulted, const PageMask& at_dest, bool whole_block_movable,
                     bool* expanded) {
  const Tunables& t = Tunables::Get();
  *expanded = false;
  PageMask initial;
  uint64_t granule = t.fault_granule ? t.fault_granule : (whole_block_movable ? kBlockSize : 64 * 1024);
  size_t gp = static_cast<size_t>(granule / kPageSize);
  PageMask region;
  faulted.ForEachRun([&](size_t first, size_t count) {
    size_t lo = first / gp * gp;
    size_t hi = (first + count + gp - 1) / gp * gp;
    region.SetRange(lo, hi - lo);
  });
  initial = region;
  if (!t.prefetch_enable || gp >= kPagesPerBlock) return region;
  // Density expansion, bottom-up over subtrees larger than the granule.
  for (size_t sub = gp * 2; sub <= kPagesPerBlock; sub *= 2) {
    PageMask dense = region | at_dest;
    for (size_t s = 0; s < kPagesPerBlock; s += sub) {
      size_t in_region = region.CountRange(s, sub);
      if (in_region == 0 || in_region == sub) continue;  // untouched or already whole
      size_t occupied = dense.CountRange(s, sub);
      if (occupied * 100 > static_cast<size_t>(t.density_percent) * sub) region.SetRange(s, sub);
    }
  }
  // Count an expansion only when it brings pages the fault itself did not.
  *expanded = region.Minus(at_dest).count() > initial.Minus(at_dest).count();
  return region;
}

ThrashHint OnMigration(VaBlock& b, int dst, uint64_t now_ns) {
  const Tunables& t = Tunables::Get();
  ThrashHint hint = ThrashHint::kNone;
  if (t.thrash_enable && b.last_migration_dst != kNoLocation && b.last_migration_dst != dst &&
      now_ns - b.last_migration_ns < static_cast<uint64_t>(t.thrash_lapse_us) * 1000) {
    ++b.thrash_events;
    Count(Stats().thrashing_events);
    SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceThrashing(b, dst, 1));
    if (b.thrash_events >= t.thrash_threshold && b.preferred == kNoLocation) {
      if (b.throttles >= t.thrash_pin_threshold) {
        // A block that thrashes again soon after its pin ran out is pinned
        // longer each time (x2 up to x32); a quiet second forgives it.
        const uint64_t quiet_ns = 1000000000ull;
        if (b.pinned_until_ns == 0 || now_ns > b.pinned_until_ns + quiet_ns) b.pin_count = 0;
        const uint64_t pin_ns = (static_cast<uint64_t>(t.thrash_pin_ms) * 1000000) << std::min<int>(b.pin_count, 5);
        b.pinned_until_ns = now_ns + pin_ns;
        if (b.pin_count < 255) ++b.pin_count;
        b.throttles = 0;
        b.thrash_events = 0;
        Count(Stats().pins);
        SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceThrashing(b, dst, 3));
        hint = ThrashHint::kPin;
      } else {
        ++b.throttles;
        Count(Stats().throttles);
        SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceThrashing(b, dst, 2));
        hint = ThrashHint::kThrottle;
      }
    }
  } else if (b.last_migration_dst != dst) {
    b.thrash_events = 0;
  }
  b.last_migration_ns = now_ns;
  b.last_migration_dst = static_cast<int8_t>(dst);
  return hint;
}

bool IsPinned(const VaBlock& b, uint64_t now_ns) { return b.pinned_until_ns > now_ns; }

Placement DeviceFaultPlacement(const VaBlock& b, int dev, bool write, uint64_t now_ns) {
  const bool accessed_by = (b.accessed_by >> (dev + 1)) & 1u;
  if (IsPinned(b, now_ns) || accessed_by || (b.preferred == kHost && !b.read_mostly))
    return Placement::kMapRemote;
  return b.read_mostly && !write ? Placement::kDuplicate : Placement::kMigrate;
}

Placement HostFaultPlacement(const VaBlock& b, bool write, bool first_touch) {
  return b.read_mostly && !write && !first_touch ? Placement::kDuplicate : Placement::kMigrate;
}

}  // namespace simnpu::uvm
