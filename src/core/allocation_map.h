// AllocationMap: every live range of memory the runtime has handed out, by
// kind (device memory from aclrtMalloc, page-locked host memory from
// aclrtMallocHost, managed memory, registered host memory, VMM-mapped and
// IPC-imported ranges), with O(log n) lookup by address.
//
// Entry points that take a pointer and a size ask CheckRange whether the
// whole range lies in one live allocation of a kind the call accepts; the
// answer is a Status whose message names the allocation (kind, start, size,
// device) and the excess, or says that the address lies in memory that was
// freed (the map remembers the last kGraveyard freed ranges for that) or in
// no allocation at all. All arithmetic is overflow safe: a range whose end
// wraps around the address space is rejected, never computed.
//
// Ranges: `size` is what the caller asked for and what every check holds an
// access to; `span` (>= size) is what the runtime reserved for it (padding,
// rounding to pages or 2 MiB blocks), used where the reference measures in
// whole reserved units (managed-memory advice and prefetch).
//
// initcheck (SIMNPU_MEMCHECK=initcheck): device-kind allocations carry a
// bitmap of the bytes anything ever wrote (copies, fills, value writes,
// kernel stores); FirstUnwritten answers for a kernel read.
//
// Lock: mu_ (a leaf: nothing is called with it held). Readers share it.
// Errors: Register reports an overlap with a live allocation as 507000 (a
// runtime bug, never a user error); CheckRange returns 107000 by default.
#ifndef SIMNPU_CORE_ALLOCATION_MAP_H_
#define SIMNPU_CORE_ALLOCATION_MAP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "platform/status.h"

namespace simnpu::core {

enum class MemKind : uint8_t {
  kDevice = 0,          // aclrtMalloc
  kHostPinned = 1,      // aclrtMallocHost
  kManaged = 2,         // aclrtMemAllocManaged
  kHostRegistered = 3,  // aclrtHostRegisterV2
  kVmmMapped = 4,       // aclrtMapMem (issue 9)
  kIpcImported = 5,     // aclrtIpcMemImportByKey (issue 9)
};
constexpr int kMemKindCount = 6;

constexpr uint32_t KindBit(MemKind k) { return 1u << static_cast<unsigned>(k); }
// Every kind.
constexpr uint32_t kAnyKind = (1u << kMemKindCount) - 1;
// Memory that is device memory proper (pointer attributes say DEVICE).
constexpr uint32_t kDeviceKinds = KindBit(MemKind::kDevice) | KindBit(MemKind::kVmmMapped) | KindBit(MemKind::kIpcImported);
// Memory a kernel, a DMA or a device-side copy may reach.
constexpr uint32_t kDeviceReachable = kDeviceKinds | KindBit(MemKind::kManaged) | KindBit(MemKind::kHostRegistered) |
                                      KindBit(MemKind::kHostPinned);

const char* MemKindName(MemKind k);  // "device memory (aclrtMalloc)", ...

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;   // bytes the caller asked for
  size_t span = 0;   // bytes reserved (>= size)
  MemKind kind = MemKind::kDevice;
  int device = -1;   // physical device id, -1 for host memory
  uint64_t id = 0;   // registration number (1, 2, ...), for messages

  uintptr_t end() const { return base + size; }
  // "the 4096-byte device memory (aclrtMalloc) allocation #3 [0x..., 0x...) on device 0"
  std::string Describe() const;
};

class AllocationMap {
 public:
  static AllocationMap& Get();
  AllocationMap();

  // Adds a live allocation (span 0 = size). 507000 if it overlaps a live one.
  Status Register(uintptr_t base, size_t size, size_t span, MemKind kind, int device);
  // Removes the live allocation that starts exactly at base; it moves to the
  // graveyard. false (nothing changes) if none starts there.
  bool Unregister(uintptr_t base, Allocation* removed = nullptr);
  // Removes every live allocation of `kind` on physical device `device`
  // (device reset). Returns how many.
  size_t UnregisterDevice(int device, MemKind kind);

  // The live allocation whose reserved span contains p.
  std::optional<Allocation> Find(const void* p) const;
  // The most recently freed allocation whose span contained p (nullopt if p
  // was never freed, or its range was reused since).
  std::optional<Allocation> FindFreed(const void* p) const;

  // [p, p+n) inside [base, base+size) of one live allocation whose kind is
  // in `kinds`? `what` names the argument in the message ("aclrtMemcpy dst").
  // use_span: hold the range to the reserved span instead of the size.
  // Unknown memory is an error unless allow_unknown (then *found is empty).
  // Sets *found to the allocation when there is one.
  Status CheckRange(const std::string& what, const void* p, size_t n, uint32_t kinds, bool allow_unknown = false,
                    bool use_span = false, std::optional<Allocation>* found = nullptr,
                    int code = 107000) const;

  size_t live_count() const;
  // Changes on every Register/Unregister (lets callers cache lookups).
  uint64_t generation() const { return gen_.load(std::memory_order_acquire); }

  // --- initcheck shadow (only when enabled before the allocation is registered)
  void EnableInitShadow(bool on) { init_shadow_.store(on); }
  bool init_shadow() const { return init_shadow_.load(std::memory_order_relaxed); }
  // Marks [p, p+n) written in whatever allocations it covers.
  void MarkWritten(const void* p, size_t n);
  // Offset from p of the first byte of [p, p+n) that nothing wrote, or
  // nullopt when all were written (or the allocation has no shadow).
  std::optional<size_t> FirstUnwritten(const void* p, size_t n) const;

  static constexpr size_t kGraveyard = 4096;

 private:
  struct Entry {
    Allocation a;
    std::shared_ptr<std::vector<std::atomic<uint64_t>>> written;  // initcheck bitmap, or null
  };
  // REQUIRES: mu_ held. Live entry whose span contains a, or nullptr.
  const Entry* FindLocked(uintptr_t a) const;
  void BuryLocked(const Allocation& a);

  mutable std::shared_mutex mu_;
  std::map<uintptr_t, Entry> live_;        // by base. GUARDED_BY(mu_)
  std::deque<Allocation> graveyard_;       // freed, oldest first. GUARDED_BY(mu_)
  uint64_t next_id_ = 1;                   // GUARDED_BY(mu_)
  std::atomic<uint64_t> gen_{0};
  std::atomic<bool> init_shadow_{false};
};

// SIMNPU_MEMCHECK as SIMNPU_MEMCHECK_* bits (kernel_abi.h), read once:
// unset, 1, on, memcheck -> bounds; 0, off, false, no -> nothing; words
// racecheck and initcheck (joined with ',' or '+') add those checks.
// initcheck also makes the map keep its write shadow.
uint32_t MemcheckMode();

// Overflow-safe "does [p, p+n) wrap around the address space".
inline bool RangeWraps(const void* p, size_t n) {
  return n > 0 && reinterpret_cast<uintptr_t>(p) > UINTPTR_MAX - (n - 1);
}

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_ALLOCATION_MAP_H_
