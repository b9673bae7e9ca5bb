// VaBlock: the state of one 2 MiB, 2 MiB-aligned block of managed memory.
//
// Processors: the host and each simulated device (by physical id). A page's
// data lives in one or more copies:
//
//   state of a page          host_resident  dev[d].resident   notes
//   ---------------------------------------------------------------------
//   unpopulated              0              0 for all d       never touched
//   resident on the host     1              0 for all d       host PTE RW
//   resident on device d     0              1 (only d)        host PTE absent
//   read-duplicated          any            1 for >= 1 d      >= 2 copies; all
//                                                             read-only (host
//                                                             PTE write-protected)
//
// Host copies are the pages mapped at the managed address itself (the host
// page table is the process page table); a host PTE is present exactly when
// host_resident is set. Device copies live in a 2 MiB frame taken from the
// device's arena; dev[d] is device d's page table entry for this block.
//
// Lock: every field below is guarded by `mu` unless marked otherwise. Lock
// order: VaBlock::mu is taken after no other engine lock except
// VaSpace::mu_ (shared); two block locks are never held together (eviction
// uses try_lock on the victim only while holding none). Code holding `mu`
// never touches a managed host address whose page is not host_resident, so
// it can never wait on the fault service thread.
#ifndef SIMNPU_UVM_VA_BLOCK_H_
#define SIMNPU_UVM_VA_BLOCK_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "sim/npu_system.h"
#include "uvm/page_mask.h"

namespace simnpu::uvm {

constexpr int kHost = -1;        // processor id of the host
constexpr int kNoLocation = -2;  // "none" in policy fields

struct DeviceView {
  // 2 MiB frame in the device arena backing this block on the device, or
  // nullptr. Allocated on the first page that becomes resident here; freed
  // when the last resident page leaves.
  char* frame = nullptr;
  // set: page i of `frame` has physical pages (holes have none; the frame
  // may only be read or written where populated is set).
  PageMask populated;
  // set: page i holds valid data in `frame`. Subset of populated.
  PageMask resident;
  // set: the device may write page i (exclusive owner). Clear on a resident
  // page: a read-only replica (read-duplicated).
  PageMask writable;
  // set: the device maps page i remotely (accessed-by, preferred location,
  // thrashing pin): it reads and writes the page wherever it currently
  // lives, without migrating it.
  PageMask remote;
  // LRU stamp of the last device access (for eviction). Written under mu,
  // read without it by victim selection (hence atomic).
  std::atomic<uint64_t> last_use{0};
};

struct Allocation;

struct VaBlock {
  VaBlock(uintptr_t b, Allocation* a, int devices)
      : base(b), alloc(a), ndev(devices), dev(new DeviceView[devices > 0 ? devices : 1]) {}

  const uintptr_t base;    // immutable
  Allocation* const alloc; // immutable; owns the block
  const int ndev;          // immutable: number of simulated devices (index = physical id)
  std::mutex mu;

  // set: the host page holds valid data (its PTE is present).
  PageMask host_resident;
  // set: the host page is write-protected (a read-only replica). Subset of host_resident.
  PageMask host_wp;
  std::unique_ptr<DeviceView[]> dev;  // [ndev]; the pointer is immutable

  // --- policy (advice applies to whole blocks: advise sizes are 2 MiB multiples)
  bool read_mostly = false;              // SET_READ_MOSTLY
  int8_t preferred = kNoLocation;        // SET_PREFERRED_LOCATION: kHost or device phys id
  uint32_t accessed_by = 0;              // SET_ACCESSED_BY: bit 0 host, bit 1+d device d
  int8_t last_prefetch = kNoLocation;    // destination of the last prefetch request

  // --- thrashing detection (see policy.h)
  uint64_t last_migration_ns = 0;        // time of the last migration of this block
  int8_t last_migration_dst = kNoLocation;
  uint8_t thrash_events = 0;             // consecutive ping-pong migrations
  uint16_t throttles = 0;                // faults delayed while thrashing
  uint64_t pinned_until_ns = 0;          // pinned to the host (remote maps) until then
  uint8_t pin_count = 0;                 // pins in a row; each doubles the next pin's length

  bool AnyDeviceCopy() const {
    for (int d = 0; d < ndev; ++d)
      if (dev[d].resident.any()) return true;
    return false;
  }
  // Pages holding data anywhere.
  PageMask Populated() const {
    PageMask m = host_resident;
    for (int d = 0; d < ndev; ++d) m |= dev[d].resident;
    return m;
  }
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_VA_BLOCK_H_
