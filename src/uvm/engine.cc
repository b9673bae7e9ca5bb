// Engine: initialisation, allocation, the host fault service, advice,
// prefetch and queries. Data movement is in migrate.cc, device accesses in
// device_access.cc, device frames and eviction in frames.cc.
#include "uvm/engine.h"

#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "dfx/log.h"
#include "platform/clock.h"
#include "platform/env.h"
#include "platform/vm.h"
#include "sim/npu_system.h"
#include "uvm/counters.h"
#include "uvm/policy.h"
#include "uvm/trace_sites.h"

namespace simnpu::uvm {
namespace {
constexpr int kParamInvalid = 107000;
constexpr int kAllocFailed = 207001;
constexpr int kAdviseSetReadMostly = 0, kAdviseUnsetReadMostly = 1, kAdviseSetPreferred = 2,
              kAdviseUnsetPreferred = 3, kAdviseSetAccessedBy = 4, kAdviseUnsetAccessedBy = 5;

void DeviceOpenHook(sim::NpuDevice* dev) { Engine::Get().OnDeviceOpen(dev); }

Status NotManaged() {
  return Status(kParamInvalid, "the range is not inside memory from aclrtMemAllocManaged");
}

inline char* PageAddr(const VaBlock& b, size_t i) {
  return reinterpret_cast<char*>(b.base + i * kPageSize);
}

alignas(4096) const char kZeroChunk[64 * 1024] = {};
}  // namespace

Engine& Engine::Get() {
  static Engine* e = new Engine();  // never destroyed: the service thread outlives main()
  return *e;
}

Status Engine::EnsureInit() {
  if (mode_.load(std::memory_order_acquire) != Mode::kUninitialized) return Status::Ok();
  std::lock_guard<std::mutex> g(init_mu_);
  if (mode_.load() != Mode::kUninitialized) return Status::Ok();
  // Every step runs once: when a later one fails, the next call resumes
  // there instead of reserving a second window or opening a second fd.
  if (!space_.initialized()) SIMNPU_RETURN_IF_ERROR(space_.Init());
  if (!uffd_) {
    std::string why;
    auto forced = platform::GetEnv("SIMNPU_UVM_MODE");
    if (forced && *forced == "pinned") {
      why = "SIMNPU_UVM_MODE=pinned was requested";
    } else {
      uffd_ = platform::Userfaultfd::Open(&why);
      if (uffd_ && !uffd_->has_wp()) {
        why = "this kernel's userfaultfd lacks write-protect support (Linux 5.7+ needed)";
        uffd_.reset();
      }
    }
    if (!uffd_) pinned_reason_ = why;
  }
  if (!uffd_) {
    std::fprintf(stderr,
                 "[simnpu] WARNING: managed memory runs in host-pinned mode: %s. Programs stay "
                 "correct, but pages never migrate, so no fault or migration is simulated.\n",
                 pinned_reason_.c_str());
    SIMNPU_LOGW(kDrv, "managed memory in host-pinned mode: %s", pinned_reason_.c_str());
    mode_.store(Mode::kPinned, std::memory_order_release);
  } else {
    if (!pool_.Init(8, 4)) return Status(kAllocFailed, "cannot reserve the huge-page pool");
    // Devices that open from now on are registered by the hook, the ones
    // already open here. Hook first, so a device opening in between is not
    // missed; one seen by both is registered once (OnDeviceOpen ignores a
    // device it has registered).
    sim::NpuSystem::Get().SetDeviceOpenHook(&DeviceOpenHook);
    for (int i = 0; i < sim::NpuSystem::Get().physical_count(); ++i)
      if (sim::NpuDevice* d = sim::NpuSystem::Get().Find(i)) OnDeviceOpen(d);
    mode_.store(Mode::kUffd, std::memory_order_release);
    service_ = std::thread([this] { ServiceLoop(); });
    service_.detach();
  }
  sim::SetManagedAccessHandler(this);
  dfx::trace::SetStartHook([] { Engine::Get().ReportResidentBaseline(); });
  SIMNPU_LOGI(kDrv, "UVM engine ready: window %#lx (+3 TiB)%s, mode %s",
              static_cast<unsigned long>(space_.base()),
              space_.at_documented_address() ? "" : " (not the documented address)",
              mode_.load() == Mode::kUffd ? "userfaultfd" : "host-pinned");
  return Status::Ok();
}

void Engine::OnDeviceOpen(sim::NpuDevice* dev) {
  if (!uffd_) return;
  const int phys = dev->phys_id();
  if (phys < 0 || phys >= sim::kMaxDevices) return;
  // Called by the device-open hook and by EnsureInit's scan of open devices;
  // a device both see is registered once.
  if (arena_registered_[phys].exchange(true)) return;
  sim::DeviceArena& a = dev->arena();
  int rc = uffd_->Register(reinterpret_cast<void*>(a.frame_base()), a.frame_size(), /*wp=*/false);
  if (rc != 0) {
    arena_registered_[phys].store(false);
    SIMNPU_LOGW(kDrv, "device %d: cannot register the arena with userfaultfd (%s); device frames "
                      "will be filled by copying", phys, std::strerror(-rc));
    return;
  }
  a.SetHoleFiller(this);
}

sim::DeviceArena* Engine::Arena(int d) const {
  sim::NpuDevice* dev = sim::NpuSystem::Get().Find(d);
  return dev ? &dev->arena() : nullptr;
}

// Called by the arena with its lock held (lock order: arena -> pool; nothing
// here calls back into the arena or waits on the fault service thread).
int Engine::FillHole(void* chunk) {
  char* const dst = static_cast<char*>(chunk);
  size_t moved = 0;
  char* slot = pool_.Take();
  if (slot) {
    long n = uffd_->Move(dst, slot, kBlockSize, /*dontwake=*/false, /*allow_src_holes=*/false);
    if (n == static_cast<long>(kBlockSize)) {
      pool_.Give(slot, /*hole=*/true);
      return 0;
    }
    moved = n > 0 ? static_cast<size_t>(n) : 0;
  }
  // The move was refused (e.g. the kernel lacks UFFDIO_MOVE), or every slot
  // is momentarily taken or being refilled: copy zeroes into the rest (the
  // slot's unmoved pages are fresh zeroes too), rather than failing the
  // allocation as if the device were out of memory.
  int rc = 0;
  size_t done = moved;
  while (done < kBlockSize) {
    const char* src = slot ? slot + done : kZeroChunk;
    size_t len = slot ? kBlockSize - done : std::min(sizeof kZeroChunk, kBlockSize - done);
    long c = uffd_->Copy(dst + done, src, len, /*dontwake=*/false, /*wp=*/false);
    if (c <= 0) {
      rc = c < 0 ? static_cast<int>(c) : -EIO;
      break;
    }
    done += static_cast<size_t>(c);
  }
  if (slot) pool_.Give(slot, /*hole=*/moved > 0);
  return rc;
}

// ---------------------------------------------------------------- allocation

StatusOr<void*> Engine::Allocate(uint64_t size) {
  SIMNPU_RETURN_IF_ERROR(EnsureInit());
  if (size > space_.size()) return Status(kAllocFailed, "the size exceeds the managed window");
  size_t aligned = static_cast<size_t>(((size + kBlockSize - 1) >> kBlockShift) << kBlockShift);
  std::unique_lock<std::shared_mutex> lk(space_.mu());
  auto a = space_.Allocate(aligned);
  if (!a.ok()) return a.status();
  void* p = reinterpret_cast<void*>(a.value()->base);
  int e = platform::CommitRw(p, aligned, /*huge=*/true);
  if (e == 0 && uffd_) e = -uffd_->Register(p, aligned, /*wp=*/true);
  if (e != 0) {
    space_.Remove(a.value()->base);
    platform::Decommit(p, aligned);
    return Status(kAllocFailed, std::string("cannot map managed memory: ") + std::strerror(e));
  }
  SIMNPU_LOGD(kDrv, "managed alloc %#lx size %zu", static_cast<unsigned long>(a.value()->base), aligned);
  SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceManagedRange(true, a.value()->base, size));
  return p;
}

Status Engine::Free(void* p) {
  if (mode() == Mode::kUninitialized) return Status(kParamInvalid, "not managed memory");
  std::unique_ptr<Allocation> a;
  {
    std::unique_lock<std::shared_mutex> lk(space_.mu());
    Allocation* cur = space_.AllocationOf(reinterpret_cast<uintptr_t>(p));
    if (!cur || cur->base != reinterpret_cast<uintptr_t>(p))
      return Status(kParamInvalid, "address is not the start of a managed allocation");
    for (auto& blk : cur->blocks) {
      std::lock_guard<std::mutex> bg(blk->mu);
      SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceBlockFreed(*blk));
      for (int d = 0; d < blk->ndev; ++d) {
        if (!blk->dev[d].frame) continue;
        DropDevicePages(*blk, d, PageMask::All());
        ReleaseFrameIfEmpty(*blk, d);
      }
    }
    SIMNPU_TRACE_IF(dfx::trace::kCatUvm, TraceManagedRange(false, cur->base, cur->size));
    a = space_.Remove(cur->base);
    if (uffd_) uffd_->Unregister(p, a->size);
    platform::Decommit(p, a->size);
  }
  return Status::Ok();
}

bool Engine::Lookup(const void* p, uintptr_t* base, size_t* size) {
  if (mode() == Mode::kUninitialized) return false;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  Allocation* a = space_.AllocationOf(reinterpret_cast<uintptr_t>(p));
  if (!a) return false;
  if (base) *base = a->base;
  if (size) *size = a->size;
  return true;
}

bool Engine::RangeValid(const void* p, size_t n) {
  if (mode() == Mode::kUninitialized) return false;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  return RangeValidLocked(p, n);
}

bool Engine::RangeValidLocked(const void* p, size_t n) const {
  if (mode() == Mode::kUninitialized || n == 0) return false;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (a + n < a) return false;
  for (uintptr_t cur = a; cur < a + n; cur = (cur & ~(kBlockSize - 1)) + kBlockSize)
    if (!space_.BlockOf(cur)) return false;
  return true;
}

bool Engine::IsManaged(uintptr_t p, size_t n) const {
  if (mode_.load(std::memory_order_relaxed) == Mode::kUninitialized) return false;
  uintptr_t end = p + (n ? n - 1 : 0);
  return space_.InWindow(p) || space_.InWindow(end);
}

// ---------------------------------------------------------------- host faults

void Engine::ServiceLoop() {
  const uint64_t spin_ns = static_cast<uint64_t>(Tunables::Get().fault_spin_us) * 1000;
  uint64_t spin_until = 0;
  unsigned polls = 0;
  for (;;) {
    platform::UffdFault f;
    int r = uffd_->ReadFault(&f);
    if (r == 1) {
      HandleHostFault(f);
      spin_until = platform::NowNs() + spin_ns;
      continue;
    }
    if (r < 0) {
      SIMNPU_LOGE(kDrv, "userfaultfd read failed: %s", std::strerror(-r));
      return;
    }
    // Nothing pending: keep polling briefly (faults come in bursts and a
    // sleeping thread costs 20-90 us to wake here), then sleep in poll().
    if (platform::NowNs() < spin_until) {
      // Busy polling costs a CPU; yield now and then so a faulting thread
      // that shares this CPU is not kept waiting for a scheduler tick.
      if ((++polls & 15) == 0) sched_yield();
      else platform::CpuRelax();
      continue;
    }
    struct pollfd pfd = {uffd_->fd(), POLLIN, 0};
    poll(&pfd, 1, 1000);
  }
}

void Engine::HandleHostFault(const platform::UffdFault& f) {
  const uintptr_t page_addr = f.address & ~(kPageSize - 1);
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  VaBlock* b = space_.BlockOf(page_addr);
  if (!b) {
    // A device arena hole touched directly (should not happen), or a range
    // being freed: give the page zeroes so the thread is never stuck.
    static const char kZeros[kPageSize] = {};
    if (uffd_->Copy(reinterpret_cast<void*>(page_addr), kZeros, kPageSize, false, false) < 0)
      uffd_->Wake(reinterpret_cast<void*>(page_addr), kPageSize);
    SIMNPU_LOGW(kDrv, "host fault at %#lx outside managed blocks served with zeroes",
                static_cast<unsigned long>(f.address));
    return;
  }
  const size_t p = (page_addr - b->base) >> kPageShift;
  std::unique_lock<std::mutex> bl(b->mu);
  SIMNPU_TRACE_FAULT_SPAN(fault_span);
  if (f.wp && b->host_resident.test(p) && b->host_wp.test(p)) {
    // A write to a read-duplicated page: invalidate the other copies of its
    // granule and give the host the page back writable.
    Count(Stats().host_faults);
    Count(Stats().host_faults_write_dup);
    bool expanded;
    PageMask region = FaultRegion(PageMask::Range(p, 1), PageMask(), false, &expanded) & b->host_wp;
    SIMNPU_TRACE_FAULT_SET(fault_span, dfx::trace::Kind::kUvmHostFault, -1, f.address, region.count() * kPageSize, 2);
    Status st = MakeResidentHost(*b, region, /*duplicate=*/false, Cause::kHostFault);
    if (!st.ok()) SIMNPU_LOGE(kDrv, "write fault service failed: %s", st.message().c_str());
    return;
  }
  if (b->host_resident.test(p) && !(f.wp && b->host_wp.test(p))) {
    uffd_->Wake(reinterpret_cast<void*>(page_addr), kPageSize);  // resolved by someone else
    return;
  }
  // Missing page (or a stale write-protect fault on a page that moved away).
  const PageMask populated = b->Populated();
  const bool first_touch = !populated.test(p);
  if (!first_touch) {
    // A throttle hint is only counted here: this thread serves every host
    // fault, so napping would stall unrelated threads. The device side (one
    // worker per access) takes the nap instead, which slows the ping-pong
    // just as well.
    (void)OnMigration(*b, kHost, platform::NowNs());
  }
  Count(Stats().host_faults);
  Count(first_touch ? Stats().host_faults_first_touch : Stats().host_faults_migrate);
  PageMask region;
  if (populated.none()) {
    region = PageMask::All();  // first touch of a block populates it whole (huge page)
  } else {
    int src;
    bool expanded = false;
    region = FaultRegion(PageMask::Range(p, 1), b->host_resident, CanMoveWholeToHost(*b, &src), &expanded);
    if (expanded) Count(Stats().density_expansions);
  }
  const bool duplicate = HostFaultPlacement(*b, f.write, first_touch) == Placement::kDuplicate;
  SIMNPU_TRACE_FAULT_SET(fault_span, dfx::trace::Kind::kUvmHostFault, -1, f.address, region.count() * kPageSize, f.write ? 1 : 0);
  int src = -1;
  const bool whole_from_device = region.all() && !duplicate && CanMoveWholeToHost(*b, &src);
  Status st = MakeResidentHost(*b, region, duplicate, Cause::kHostFault);
  if (!st.ok()) {
    SIMNPU_LOGE(kDrv, "host fault service at %#lx failed: %s", static_cast<unsigned long>(f.address),
                st.message().c_str());
    // Never leave the thread stuck: zero-fill the page if still missing.
    if (!b->host_resident.test(p)) {
      static const char kZeros[kPageSize] = {};
      if (uffd_->Copy(reinterpret_cast<void*>(page_addr), kZeros, kPageSize, false, false) > 0)
        b->host_resident.set(p);
    }
    uffd_->Wake(reinterpret_cast<void*>(page_addr), kPageSize);
  }
  bl.unlock();
  if (st.ok() && whole_from_device) ReadAhead(*b);
}

// A host fault that pulled a whole block back from a device is often the
// start of a sequential host pass over device results: move the next block
// of the allocation too, while the faulting thread reads this one.
void Engine::ReadAhead(const VaBlock& b) {
  const uint32_t blocks = Tunables::Get().host_readahead;
  for (uint32_t k = 1; k <= blocks; ++k) {
    VaBlock* nb = space_.BlockOf(b.base + k * kBlockSize);
    if (!nb || nb->alloc != b.alloc) return;
    std::unique_lock<std::mutex> bl(nb->mu, std::try_to_lock);
    if (!bl.owns_lock()) return;  // in use: leave it alone
    int src = -1;
    if (nb->read_mostly || nb->preferred != kNoLocation || !CanMoveWholeToHost(*nb, &src)) return;
    OnMigration(*nb, kHost, platform::NowNs());
    Count(Stats().readahead_blocks);
    if (!MakeResidentHost(*nb, PageMask::All(), false, Cause::kHostFault).ok()) return;
  }
}

// ---------------------------------------------------------------- advice

Status Engine::Advise(const void* ptr, size_t n, int advise, Location loc) {
  SIMNPU_RETURN_IF_ERROR(EnsureInit());
  // Validated under the lock held for the whole call: a concurrent free
  // (exclusive) cannot remove a block between the check and its use.
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  if (!RangeValidLocked(ptr, n)) return NotManaged();
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr) & ~(kBlockSize - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(ptr) + n;
  // SET_PREFERRED_LOCATION without read-mostly refuses ranges already
  // resident on another agent (checked over the whole range first).
  if (advise == kAdviseSetPreferred && mode() == Mode::kUffd) {
    for (uintptr_t a = start; a < end; a += kBlockSize) {
      VaBlock* b = space_.BlockOf(a);
      if (!b) return NotManaged();
      std::lock_guard<std::mutex> bl(b->mu);
      if (b->read_mostly) continue;
      bool elsewhere = loc.where == kHost ? b->AnyDeviceCopy() : b->host_resident.any();
      for (int d = 0; d < b->ndev && !elsewhere; ++d)
        if (d != loc.where && b->dev[d].resident.any()) elsewhere = true;
      if (elsewhere)
        return Status(kParamInvalid,
                      "SET_PREFERRED_LOCATION: part of the range is already resident on another "
                      "agent (advise before first use, or prefetch instead)");
    }
  }
  char* spare = nullptr;
  Status result = Status::Ok();
  for (uintptr_t a = start; a < end && result.ok(); a += kBlockSize) {
    VaBlock* b = space_.BlockOf(a);
    if (!b) {
      result = NotManaged();
      break;
    }
    for (;;) {
      std::unique_lock<std::mutex> bl(b->mu);
      switch (advise) {
        case kAdviseSetReadMostly:
          b->read_mostly = true;
          break;
        case kAdviseUnsetReadMostly: {
          b->read_mostly = false;
          if (mode() != Mode::kUffd) break;
          // Collapse replicas to one copy at `loc` (INVALID means the host).
          PageMask dup;
          int copies[kPagesPerBlock] = {};
          for (size_t i = 0; i < kPagesPerBlock; ++i) copies[i] = b->host_resident.test(i);
          for (int d = 0; d < b->ndev; ++d)
            for (size_t i = 0; i < kPagesPerBlock; ++i) copies[i] += b->dev[d].resident.test(i);
          for (size_t i = 0; i < kPagesPerBlock; ++i)
            if (copies[i] > 1) dup.set(i);
          if (dup.none()) break;
          int where = loc.where == kNoLocation ? kHost : loc.where;
          if (where == kHost) {
            result = MakeResidentHost(*b, dup, false, Cause::kAdvise);
          } else {
            if (!b->dev[where].frame && !spare) {
              bl.unlock();
              spare = AcquireFrame(where, &result);
              if (!spare) break;
              continue;
            }
            result = MakeResidentDevice(*b, where, dup, false, Cause::kAdvise, &spare);
          }
          break;
        }
        case kAdviseSetPreferred: {
          b->preferred = static_cast<int8_t>(loc.where);
          if (mode() != Mode::kUffd) break;
          PageMask unpop = ~b->Populated();
          if (b->read_mostly) {
            // Make sure a replica exists at the device (host preference: nothing to do).
            if (loc.where == kHost) break;
            PageMask want = b->Populated().Minus(b->dev[loc.where].resident);
            if (want.none()) break;
            if (!b->dev[loc.where].frame && !spare) {
              bl.unlock();
              spare = AcquireFrame(loc.where, &result);
              if (!spare) break;
              continue;
            }
            result = MakeResidentDevice(*b, loc.where, want, true, Cause::kAdvise, &spare);
            break;
          }
          // Pre-allocate and map the range at the preferred location.
          if (unpop.none()) break;
          if (loc.where == kHost) {
            result = MakeResidentHost(*b, unpop, false, Cause::kAdvise);
          } else {
            if (!b->dev[loc.where].frame && !spare) {
              bl.unlock();
              spare = AcquireFrame(loc.where, &result);
              if (!spare) break;
              continue;
            }
            result = MakeResidentDevice(*b, loc.where, unpop, false, Cause::kAdvise, &spare);
          }
          break;
        }
        case kAdviseUnsetPreferred:
          b->preferred = kNoLocation;
          break;
        case kAdviseSetAccessedBy:
          b->accessed_by |= 1u << (loc.where == kHost ? 0 : loc.where + 1);
          if (loc.where != kHost) {
            // Establish the mapping now: the device reaches the pages where they are.
            PageMask newly = PageMask::All().Minus(b->dev[loc.where].remote);
            b->dev[loc.where].remote = PageMask::All();
            Count(Stats().remote_maps, newly.count());
          }
          break;
        case kAdviseUnsetAccessedBy:
          b->accessed_by &= ~(1u << (loc.where == kHost ? 0 : loc.where + 1));
          if (loc.where != kHost) b->dev[loc.where].remote.clear();
          break;
        default:
          result = Status(kParamInvalid, "unknown advice");
      }
      break;
    }
  }
  if (spare) {
    // Not needed after all: give it back.
    for (int d = 0; d < sim::kMaxDevices; ++d)
      if (sim::DeviceArena* ar = Arena(d); ar && ar->Contains(spare)) ar->FreeFrame(spare, true);
  }
  return result;
}

// ---------------------------------------------------------------- prefetch

void Engine::NoteLastPrefetch(const void* ptr, size_t n, Location loc) {
  if (mode() == Mode::kUninitialized) return;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr) & ~(kBlockSize - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(ptr) + n;
  for (uintptr_t a = start; a < end; a += kBlockSize) {
    VaBlock* b = space_.BlockOf(a);
    if (!b) continue;
    std::lock_guard<std::mutex> bl(b->mu);
    b->last_prefetch = static_cast<int8_t>(loc.where);
  }
}

Status Engine::Prefetch(const void* ptr, size_t n, Location loc) {
  SIMNPU_RETURN_IF_ERROR(EnsureInit());
  // Runs on a stream, so the range may be freed concurrently: validate under
  // the lock held for the whole call.
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  if (!RangeValidLocked(ptr, n)) return NotManaged();
  Count(Stats().prefetch_requests);
  if (mode() != Mode::kUffd) return Status::Ok();
  const uintptr_t first = reinterpret_cast<uintptr_t>(ptr);
  const uintptr_t end = first + n;
  char* spare = nullptr;
  Status result = Status::Ok();
  for (uintptr_t a = first & ~(kBlockSize - 1); a < end && result.ok(); a += kBlockSize) {
    VaBlock* b = space_.BlockOf(a);
    if (!b) {
      result = NotManaged();
      break;
    }
    size_t p0 = a < first ? (first - a) >> kPageShift : 0;
    size_t p1 = std::min<uintptr_t>(kPagesPerBlock, (end - a + kPageSize - 1) >> kPageShift);
    PageMask pages = PageMask::Range(p0, p1 - p0);
    for (;;) {
      std::unique_lock<std::mutex> bl(b->mu);
      if (loc.where == kHost) {
        PageMask todo = pages.Minus(b->host_resident);
        if (!b->read_mostly) {
          // Also make host copies exclusive.
          for (int d = 0; d < b->ndev; ++d) todo |= pages & b->dev[d].resident;
        }
        if (todo.none()) break;
        Count(Stats().prefetch_pages, pages.Minus(b->host_resident).count());
        result = MakeResidentHost(*b, todo, b->read_mostly, Cause::kPrefetch);
      } else {
        DeviceView& v = b->dev[loc.where];
        PageMask todo = pages.Minus(v.resident);
        if (!b->read_mostly && (b->host_resident & pages).any()) todo |= pages & b->host_resident;
        if (todo.none()) break;
        if (!v.frame && !spare) {
          bl.unlock();
          spare = AcquireFrame(loc.where, &result);
          if (!spare) break;
          continue;
        }
        Count(Stats().prefetch_pages, pages.Minus(v.resident).count());
        result = MakeResidentDevice(*b, loc.where, todo, b->read_mostly, Cause::kPrefetch, &spare);
        v.last_use.store(++lru_clock_, std::memory_order_relaxed);
      }
      break;
    }
  }
  if (spare)
    if (sim::DeviceArena* ar = Arena(loc.where)) ar->FreeFrame(spare, true);
  return result;
}

// ---------------------------------------------------------------- queries

Status Engine::QueryRange(const void* ptr, size_t n, RangeAttrs* out) {
  if (mode() == Mode::kUninitialized) return NotManaged();
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  if (!RangeValidLocked(ptr, n)) return NotManaged();
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr) & ~(kBlockSize - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(ptr) + n;
  bool first = true;
  for (uintptr_t a = start; a < end; a += kBlockSize) {
    VaBlock* b = space_.BlockOf(a);
    if (!b) return NotManaged();
    std::lock_guard<std::mutex> bl(b->mu);
    if (first) {
      out->read_mostly = b->read_mostly;
      out->preferred = b->preferred;
      out->last_prefetch = b->last_prefetch;
      out->accessed_by = b->accessed_by;
      first = false;
      continue;
    }
    out->read_mostly = out->read_mostly && b->read_mostly;
    if (out->preferred != b->preferred) out->preferred = kNoLocation;
    if (out->last_prefetch != b->last_prefetch) out->last_prefetch = kNoLocation;
    out->accessed_by &= b->accessed_by;
  }
  return Status::Ok();
}

Status Engine::QueryResidency(const void* ptr, size_t n, uint32_t* out, size_t cap) {
  if (mode() == Mode::kUninitialized) return NotManaged();
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  if (!RangeValidLocked(ptr, n)) return NotManaged();
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(ptr) & ~(kPageSize - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(ptr) + n;
  size_t pages = (end - a0 + kPageSize - 1) >> kPageShift;
  if (cap < pages)
    return Status(kParamInvalid, "the output array holds " + std::to_string(cap) + " entries, " +
                                     std::to_string(pages) + " pages are needed");
  size_t k = 0;
  for (uintptr_t a = a0; a < end; a += kPageSize, ++k) {
    VaBlock* b = space_.BlockOf(a);
    if (!b) return NotManaged();
    std::lock_guard<std::mutex> bl(b->mu);
    size_t i = (a - b->base) >> kPageShift;
    uint32_t m = 0;
    if (mode() == Mode::kPinned || b->host_resident.test(i)) m |= 1u;
    for (int d = 0; d < b->ndev; ++d)
      if (b->dev[d].resident.test(i)) m |= 1u << (d + 1);
    out[k] = m;
  }
  return Status::Ok();
}

void Engine::EvacuateDevice(int phys) {
  if (mode() != Mode::kUffd || phys < 0 || phys >= sim::kMaxDevices) return;
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  std::vector<VaBlock*> blocks;
  {
    std::lock_guard<std::mutex> g(lru_mu_);
    blocks = frame_holders_[phys];
  }
  for (VaBlock* b : blocks) {
    std::lock_guard<std::mutex> bl(b->mu);
    if (phys >= b->ndev) continue;
    // On failure the pages stay on the device (its memory outlives a reset)
    // rather than being dropped with the only copy of their data.
    Status st = EvictFrame(*b, phys, Cause::kEvacuate);
    if (!st.ok())
      SIMNPU_LOGE(kDrv, "evacuating block %#lx from device %d failed (its pages stay there): %s",
                  static_cast<unsigned long>(b->base), phys, st.message().c_str());
  }
}

}  // namespace simnpu::uvm
