// Device accesses to managed memory: the device page table lookup and the
// device fault service.
//
// Device d's page table for a block is VaBlock::dev[d]. An access of `kind`
// to pages [p0, p1) hits when each page is resident on d (and writable for
// writes) or mapped remotely with its data reachable. Otherwise the missing
// pages of the access form one fault batch (like an entry group of the
// hardware fault buffer), widened by the fault-region policy, and are made
// resident on d (or mapped remotely, when the policies say so) before the
// access proceeds. The block stays locked while the access copies, so its
// pages cannot move underneath it.
#include <chrono>
#include <thread>

#include "dfx/log.h"
#include "dfx/trace/trace.h"
#include "platform/clock.h"
#include "uvm/counters.h"
#include "uvm/engine.h"
#include "uvm/policy.h"

namespace simnpu::uvm {
namespace {
constexpr int kParamInvalid = 107000;
constexpr int kMaxServiceRounds = 16;
}  // namespace

Status Engine::DeviceAccess(int dev, uintptr_t va, size_t n, sim::AccessKind kind,
                            sim::AccessCause cause, const std::function<void(char*, size_t, size_t)>& fn) {
  const bool write = kind == sim::AccessKind::kWrite;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  char* spare = nullptr;
  Status result = Status::Ok();
  size_t off = 0;
  while (off < n && result.ok()) {
    const uintptr_t a = va + off;
    VaBlock* b = space_.BlockOf(a);
    if (!b) {
      result = Status(kParamInvalid, "device " + std::to_string(dev) + " accessed managed address " +
                                         std::to_string(a) + " that is not allocated");
      break;
    }
    const size_t len = std::min<size_t>(n - off, b->base + kBlockSize - a);
    const size_t p0 = (a - b->base) >> kPageShift;
    const size_t p1 = ((a + len - 1 - b->base) >> kPageShift) + 1;
    bool thrash_checked = false;
    bool counted = false;
    for (int round = 0;; ++round) {
      std::unique_lock<std::mutex> bl(b->mu);
      if (mode() != Mode::kUffd) {  // host-pinned: the device reaches host memory directly
        fn(reinterpret_cast<char*>(a), off, len);
        break;
      }
      DeviceView& v = b->dev[dev];
      // Common case: every page resident here (writable for a write), so the
      // access is one contiguous piece of the frame.
      if (v.resident.AllInRange(p0, p1 - p0) && (!write || v.writable.AllInRange(p0, p1 - p0))) {
        fn(v.frame + (a - b->base), off, len);
        v.last_use.store(++lru_clock_, std::memory_order_relaxed);
        break;
      }
      // Resolve where each page of the access can be reached right now.
      char* where[kPagesPerBlock];
      PageMask missing;
      for (size_t p = p0; p < p1; ++p) {
        where[p] = nullptr;
        if (v.resident.test(p) && (!write || v.writable.test(p))) {
          where[p] = v.frame + p * kPageSize;
        } else if (v.remote.test(p)) {
          if (b->host_resident.test(p) && (!write || !b->host_wp.test(p))) {
            where[p] = reinterpret_cast<char*>(b->base + p * kPageSize);
          } else {
            for (int e = 0; e < b->ndev; ++e)
              if (b->dev[e].resident.test(p) && (!write || b->dev[e].writable.test(p))) {
                where[p] = b->dev[e].frame + p * kPageSize;
                break;
              }
          }
        }
        if (!where[p]) missing.set(p);
      }
      if (missing.none()) {
        // Hit: run the access piecewise over contiguous backing.
        size_t p = p0;
        while (p < p1) {
          size_t q = p + 1;
          while (q < p1 && where[q] == where[q - 1] + kPageSize) ++q;
          uintptr_t piece_lo = std::max<uintptr_t>(a, b->base + p * kPageSize);
          uintptr_t piece_hi = std::min<uintptr_t>(a + len, b->base + q * kPageSize);
          fn(where[p] + (piece_lo - (b->base + p * kPageSize)), off + (piece_lo - a), piece_hi - piece_lo);
          p = q;
        }
        if (v.frame) v.last_use.store(++lru_clock_, std::memory_order_relaxed);
        break;
      }
      if (round >= kMaxServiceRounds) {
        result = Status(507899, "device fault at " + std::to_string(a) + " could not be resolved");
        break;
      }
      // ---- device fault
      const PageMask populated = b->Populated();
      const bool first_touch = (missing & populated).none();
      // A fault is counted where it is serviced, once per access: an access
      // that waited for a frame and then found its pages brought in by
      // another core (a duplicate fault) is not counted again.
      auto count_fault = [&] {
        if (counted) return;
        counted = true;
        Count(Stats().device_faults);
        Count(Stats().device_fault_pages, missing.count());
        Count(first_touch ? Stats().device_faults_first_touch : Stats().device_faults_migrate);
        SIMNPU_TRACE_IF(dfx::trace::kCatUvm, dfx::trace::RecordInstant(dfx::trace::Kind::kUvmDeviceFault, dev, nullptr, a, missing.count(), write));
      };
      const uint64_t now = platform::NowNs();
      const Placement placement = DeviceFaultPlacement(*b, dev, write, now);
      if (placement == Placement::kMapRemote) {
        // Reach the data where it is; make it exist and be writable on the host if needed.
        PageMask to_host = missing.Minus(populated);
        if (write) {
          // A write needs a writable copy to reach: pages with none (a
          // host replica, or read-only replicas on devices only) become
          // exclusive on the host.
          PageMask writable = b->host_resident.Minus(b->host_wp);
          for (int e = 0; e < b->ndev; ++e) writable |= b->dev[e].resident & b->dev[e].writable;
          to_host |= missing.Minus(writable);
        }
        if (IsPinned(*b, now)) {
          for (int e = 0; e < b->ndev; ++e) to_host |= missing & b->dev[e].resident;
        }
        count_fault();
        if (to_host.any()) result = MakeResidentHost(*b, to_host, false, Cause::kDeviceFault);
        if (!result.ok()) break;
        Count(Stats().remote_maps, missing.Minus(v.remote).count());
        v.remote |= missing;
        continue;
      }
      if (!v.frame && !spare) {
        bl.unlock();
        spare = AcquireFrame(dev, &result);
        if (!spare) break;
        continue;
      }
      if (!first_touch && !thrash_checked) {
        thrash_checked = true;
        ThrashHint hint = OnMigration(*b, dev, now);
        if (hint == ThrashHint::kThrottle) {
          bl.unlock();
          std::this_thread::sleep_for(std::chrono::microseconds(Tunables::Get().thrash_nap_us));
          continue;
        }
        if (hint == ThrashHint::kPin) continue;  // next round maps it remotely
      }
      PageMask region;
      if (populated.none()) {
        region = PageMask::All();  // first touch populates the whole block on the device
      } else {
        bool expanded = false;
        region = FaultRegion(missing, v.resident, CanMoveWholeToDevice(*b, dev), &expanded);
        if (expanded) Count(Stats().density_expansions);
      }
      const bool duplicate = placement == Placement::kDuplicate;
      count_fault();
      result = MakeResidentDevice(*b, dev, region, duplicate, Cause::kDeviceFault, &spare);
      if (!result.ok()) break;
    }
    off += len;
  }
  if (spare)
    if (sim::DeviceArena* ar = Arena(dev)) ar->FreeFrame(spare, uffd_ != nullptr);
  (void)cause;
  return result;
}

}  // namespace simnpu::uvm
