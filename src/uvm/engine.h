// Engine: the managed-memory (UVM) engine.
//
// aclrtMemAllocManaged memory lives in VaSpace. Pages become resident where
// they are first touched; when another processor touches them a fault
// migrates the data there and releases the old copy (old mapping removed,
// old frame freed). Host accesses are real MMU faults: the whole managed
// range is registered with a userfaultfd (missing + write-protect modes) and
// a service thread resolves faults, including those the kernel raises on
// behalf of system calls (read(2) into, write(2) from managed memory).
// Device accesses come through the simulated device's memory path
// (sim::ManagedAccessHandler): a miss in the device's page table is a device
// fault, serviced in batches per block.
//
// Migration is built around 2 MiB huge pages: a whole block resident on one
// side moves to the other with UFFDIO_MOVE (no copy; the pages stay huge).
// Partial migrations copy (host -> device: write-protect the host pages,
// copy, then unmap them, so no concurrent host write is lost; device ->
// host: UFFDIO_COPY, which maps the copy atomically).
//
// Without userfaultfd (unprivileged process, vm.unprivileged_userfaultfd=0,
// no access to /dev/userfaultfd, or SIMNPU_UVM_MODE=pinned) the engine runs
// in host-pinned mode: managed memory is ordinary host memory, devices map
// it remotely, nothing migrates, and one warning explains why and the fix.
//
// Lock order: Engine::init_mu_ -> VaSpace::mu_ (shared for block work,
// exclusive for alloc/free) -> VaBlock::mu -> Engine::lru_mu_ ->
// DeviceArena::mu_ -> FreshPagePool::mu_ (the arena calls FillHole, which
// takes pool slots, with its lock held).
#ifndef SIMNPU_UVM_ENGINE_H_
#define SIMNPU_UVM_ENGINE_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform/status.h"
#include "platform/userfaultfd.h"
#include "sim/device_arena.h"
#include "sim/memory_path.h"
#include "uvm/host_pool.h"
#include "uvm/va_space.h"

namespace simnpu::sim {
class NpuDevice;
}

namespace simnpu::uvm {

enum class Mode { kUninitialized, kUffd, kPinned };

// Where: kHost or a device's physical id.
struct Location {
  int where;
};

// Why pages move (for counters).
enum class Cause { kHostFault, kDeviceFault, kPrefetch, kEviction, kAdvise, kEvacuate };

class Engine final : public sim::ManagedAccessHandler, public sim::HoleFiller {
 public:
  static Engine& Get();

  // Initialises on first use (window, userfaultfd, service thread).
  Status EnsureInit();
  Mode mode() const { return mode_.load(); }
  const std::string& pinned_reason() const { return pinned_reason_; }
  const VaSpace& space() const { return space_; }

  // --- allocation
  StatusOr<void*> Allocate(uint64_t size);     // size rounded up to 2 MiB
  Status Free(void* p);                         // p must start an allocation
  // Allocation containing p: start and size. false if p is not managed.
  // Reports the bytes resident on the host and on each device to the
  // profiling trace as its starting point (trace_sites.cc; the trace's start hook).
  void ReportResidentBaseline();
  bool Lookup(const void* p, uintptr_t* base, size_t* size);
  // True if [p, p+n) lies entirely in live managed allocations. The answer
  // may be stale once it returns (a concurrent free): code that goes on to
  // use the blocks checks with RangeValidLocked under the lock it keeps.
  bool RangeValid(const void* p, size_t n);

  // --- policies and migration requested by the API (synchronous)
  // advise: aclrtMemManagedAdviseType value; loc.where kHost/device/kNoLocation (INVALID)
  Status Advise(const void* p, size_t n, int advise, Location loc);
  Status Prefetch(const void* p, size_t n, Location loc);
  // Records the destination of a prefetch request at submission time.
  void NoteLastPrefetch(const void* p, size_t n, Location loc);
  // Range attribute queries; values as the ACL documentation defines them,
  // with device ids still physical (the API layer translates).
  struct RangeAttrs {
    bool read_mostly;
    int preferred;        // kHost, device phys, or kNoLocation when mixed/none
    int last_prefetch;    // same encoding
    uint32_t accessed_by; // bit 0 host, bit 1+d device d: advice present on every block
  };
  Status QueryRange(const void* p, size_t n, RangeAttrs* out);
  // Residency per 4 KiB page: bit 0 host, bit 1+phys device.
  Status QueryResidency(const void* p, size_t n, uint32_t* out, size_t cap);

  // Moves every page resident on device `phys` to the host (device reset).
  void EvacuateDevice(int phys);
  // Evicts up to `blocks` managed blocks from device `phys` so that a plain
  // allocation can use their frames. Returns how many were evicted.
  int EvictForAllocation(int phys, int blocks);

  // --- sim::ManagedAccessHandler
  bool IsManaged(uintptr_t p, size_t n) const override;
  Status DeviceAccess(int dev, uintptr_t va, size_t n, sim::AccessKind kind, sim::AccessCause cause,
                      const std::function<void(char*, size_t, size_t)>& fn) override;

  // --- sim::HoleFiller (device arenas registered with our userfaultfd)
  // Called with the arena's lock held. Moves in a pool slot, or copies
  // zeroes in when no slot is free at the moment (never fails for that).
  int FillHole(void* chunk) override;

  // Called when a simulated device opens (and for devices already open at
  // initialisation); registers its arena once, however often it is called.
  void OnDeviceOpen(sim::NpuDevice* dev);

 private:
  Engine() = default;
  void ServiceLoop();
  void HandleHostFault(const platform::UffdFault& f);
  void ReadAhead(const VaBlock& b);  // REQUIRES: space_.mu() shared; no block lock
  bool RangeValidLocked(const void* p, size_t n) const;  // REQUIRES: space_.mu() held

  // Data movement (REQUIRES: b.mu held; space_.mu() held shared).
  Status MakeResidentHost(VaBlock& b, const PageMask& pages, bool duplicate, Cause cause);
  Status MakeResidentHostQuiet(VaBlock& b, const PageMask& pages, bool duplicate, Cause cause);
  Status MakeResidentDevice(VaBlock& b, int d, const PageMask& pages, bool duplicate, Cause cause,
                            char** spare_frame);
  // Moves the pages that exist only on device d to the host, then releases
  // d's frame. On failure the frame and every page still on it are kept
  // (nothing is lost) and the error is returned.
  Status EvictFrame(VaBlock& b, int d, Cause cause);
  void DropHostPages(VaBlock& b, const PageMask& pages);
  void DropDevicePages(VaBlock& b, int d, const PageMask& pages);
  void ReleaseFrameIfEmpty(VaBlock& b, int d);
  Status WriteProtectHost(VaBlock& b, const PageMask& pages, bool protect);
  Status PopulateFrame(VaBlock& b, int d, const PageMask& pages);
  bool CanMoveWholeToHost(const VaBlock& b, int* src) const;
  bool CanMoveWholeToDevice(const VaBlock& b, int d) const;

  // Device frames (REQUIRES: no block lock held by the caller).
  char* AcquireFrame(int d, Status* err);
  void TrackFrame(VaBlock* b, int d);
  void UntrackFrame(VaBlock* b, int d);
  bool EvictOne(int d);
  sim::DeviceArena* Arena(int d) const;

  std::atomic<Mode> mode_{Mode::kUninitialized};
  std::string pinned_reason_;
  std::mutex init_mu_;
  VaSpace space_;
  std::unique_ptr<platform::Userfaultfd> uffd_;
  FreshPagePool pool_;
  std::thread service_;
  std::atomic<uint64_t> lru_clock_{0};
  std::atomic<bool> arena_registered_[sim::kMaxDevices] = {};  // OnDeviceOpen done for device d

  std::mutex lru_mu_;                                   // guards frame_holders_
  std::vector<VaBlock*> frame_holders_[sim::kMaxDevices];  // blocks with a frame on device d
  std::condition_variable frame_cv_;                    // signalled when a frame is freed
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_ENGINE_H_
