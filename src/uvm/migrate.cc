// Data movement between the host copy (the managed address itself) and
// device frames. Every function here REQUIRES the block lock (and the
// VaSpace lock shared) and keeps the VaBlock invariants of va_block.h.
//
// Fast paths move whole 2 MiB blocks with UFFDIO_MOVE (pages change owner,
// stay huge, nothing is copied). Everything else copies:
//   host -> device: write-protect the host pages, copy them into the frame,
//                   then unmap them (a host write during the copy waits on
//                   the write-protect fault and is served after we finish);
//   device -> host: UFFDIO_COPY into the missing host pages, which maps them
//                   atomically and wakes any thread waiting on them.
#include <cerrno>
#include <cstring>
#include <vector>

#include "dfx/log.h"
#include "platform/vm.h"
#include "sim/npu_system.h"
#include "uvm/counters.h"
#include "uvm/engine.h"
#include "uvm/policy.h"
#include "uvm/trace_sites.h"

namespace simnpu::uvm {
namespace {
constexpr int kInternal = 507899;  // ACL_ERROR_RT_DRV_INTERNAL_ERROR
alignas(4096) const char kZeros[64 * 1024] = {};

inline char* HostAddr(const VaBlock& b, size_t i) { return reinterpret_cast<char*>(b.base + i * kPageSize); }

// Copies the pages of `m` from `src` (a block-sized region) into `dst`, one
// memcpy per run of consecutive pages.
void CopyRuns(char* dst, const char* src, const PageMask& m) {
  m.ForEachRun([&](size_t first, size_t count) {
    std::memcpy(dst + first * kPageSize, src + first * kPageSize, count * kPageSize);
  });
}
void ZeroRuns(char* dst, const PageMask& m) {
  m.ForEachRun([&](size_t first, size_t count) { std::memset(dst + first * kPageSize, 0, count * kPageSize); });
}

// Tests make the kernel's refusal of a move (pages shared after fork, say)
// happen on purpose, to exercise the recovery of the assembled-block paths.
bool RefuseAssembledMoves() { return Tunables::Get().test_refuse_assembled_moves; }

Status UffdError(const char* what, long rc) {
  return Status(kInternal, std::string(what) + " failed: " + std::strerror(static_cast<int>(-rc)));
}
}  // namespace

void Engine::DropHostPages(VaBlock& b, const PageMask& pages) {
  PageMask m = pages & b.host_resident;
  m.ForEachRun([&](size_t first, size_t count) {
    platform::DropPages(HostAddr(b, first), count * kPageSize);
  });
  b.host_resident = b.host_resident.Minus(m);
  b.host_wp = b.host_wp.Minus(m);
}

void Engine::DropDevicePages(VaBlock& b, int d, const PageMask& pages) {
  DeviceView& v = b.dev[d];
  v.resident = v.resident.Minus(pages);
  v.writable = v.writable.Minus(pages);
}

void Engine::ReleaseFrameIfEmpty(VaBlock& b, int d) {
  DeviceView& v = b.dev[d];
  if (!v.frame || v.resident.any()) return;
  bool hole = v.populated.none();
  if (!hole && !v.populated.all()) {
    // Partially populated: drop the rest so the arena sees an exact hole.
    platform::DropPages(v.frame, kBlockSize);
    hole = true;
  }
  if (sim::DeviceArena* a = Arena(d)) a->FreeFrame(v.frame, hole && uffd_ != nullptr);
  UntrackFrame(&b, d);
  v.frame = nullptr;
  v.populated.clear();
  v.writable.clear();
  v.last_use.store(0, std::memory_order_relaxed);
  frame_cv_.notify_all();
}

Status Engine::WriteProtectHost(VaBlock& b, const PageMask& pages, bool protect) {
  PageMask m = pages & b.host_resident;
  if (protect) m = m.Minus(b.host_wp);
  else m = m & b.host_wp;
  Status st = Status::Ok();
  m.ForEachRun([&](size_t first, size_t count) {
    if (!st.ok()) return;
    // DONTWAKE only when clearing (the kernel refuses it with protection set);
    // MakeResidentHost wakes the block when it is done.
    int rc = uffd_->WriteProtect(HostAddr(b, first), count * kPageSize, protect, /*dontwake=*/!protect);
    if (rc != 0) st = UffdError("UFFDIO_WRITEPROTECT", rc);
  });
  if (!st.ok()) return st;
  if (protect) b.host_wp |= m;
  else b.host_wp = b.host_wp.Minus(m);
  return Status::Ok();
}

// Gives frame pages physical pages (zero-filled) where they are holes.
Status Engine::PopulateFrame(VaBlock& b, int d, const PageMask& pages) {
  DeviceView& v = b.dev[d];
  PageMask holes = pages.Minus(v.populated);
  Status st = Status::Ok();
  holes.ForEachRun([&](size_t first, size_t count) {
    size_t done = 0;
    while (st.ok() && done < count * kPageSize) {
      size_t len = std::min(sizeof kZeros, count * kPageSize - done);
      long rc = uffd_ ? uffd_->Copy(v.frame + first * kPageSize + done, kZeros, len, true, false) : -ENOTSUP;
      if (rc == -ENOTSUP || rc == -EINVAL) {  // arena not registered: plain memory
        std::memset(v.frame + first * kPageSize + done, 0, len);
        rc = static_cast<long>(len);
      }
      if (rc <= 0) st = UffdError("UFFDIO_COPY (device frame)", rc);
      else done += static_cast<size_t>(rc);
    }
  });
  if (st.ok()) v.populated |= holes;
  return st;
}

bool Engine::CanMoveWholeToHost(const VaBlock& b, int* src) const {
  if (!uffd_ || !uffd_->has_move() || !Tunables::Get().use_move || b.host_resident.any()) return false;
  int found = -1;
  for (int d = 0; d < b.ndev; ++d) {
    const DeviceView& v = b.dev[d];
    if (v.resident.none()) continue;
    if (found >= 0 || !v.resident.all() || !v.populated.all()) return false;
    found = d;
  }
  if (found < 0) return false;
  *src = found;
  return true;
}

bool Engine::CanMoveWholeToDevice(const VaBlock& b, int d) const {
  if (!uffd_ || !uffd_->has_move() || !Tunables::Get().use_move) return false;
  if (b.dev[d].populated.any()) return false;  // the destination must be an exact hole
  if (b.host_resident.all() && b.host_wp.none()) {
    for (int e = 0; e < b.ndev; ++e)
      if (b.dev[e].resident.any()) return false;
    return true;
  }
  if (b.host_resident.any()) return false;
  int found = -1;
  for (int e = 0; e < b.ndev; ++e) {
    const DeviceView& v = b.dev[e];
    if (v.resident.none()) continue;
    if (found >= 0 || e == d || !v.resident.all() || !v.populated.all()) return false;
    found = e;
  }
  return found >= 0;
}

// The resolving ioctls below do not wake threads waiting on faults in the
// block; MakeResidentHost wakes them once, after every state change (frames
// released, counters updated), so a woken thread observes a finished
// migration.
Status Engine::MakeResidentHost(VaBlock& b, const PageMask& pages, bool duplicate, Cause cause) {
  Status st = MakeResidentHostQuiet(b, pages, duplicate, cause);
  uffd_->Wake(reinterpret_cast<void*>(b.base), kBlockSize);
  return st;
}

Status Engine::MakeResidentHostQuiet(VaBlock& b, const PageMask& pages, bool duplicate, Cause cause) {
  SIMNPU_TRACE_RESIDENCY(b, -1, cause);
  Counters& c = Stats();
  PageMask have = pages & b.host_resident;
  if (!duplicate && have.any()) {
    // Make existing host copies exclusive: drop device replicas, lift write protection.
    for (int d = 0; d < b.ndev; ++d) {
      PageMask inv = have & b.dev[d].resident;
      if (inv.none()) continue;
      Count(c.invalidations, inv.count());
      DropDevicePages(b, d, inv);
      ReleaseFrameIfEmpty(b, d);
    }
    SIMNPU_RETURN_IF_ERROR(WriteProtectHost(b, have, false));
  }
  PageMask todo = pages.Minus(b.host_resident);
  if (todo.none()) return Status::Ok();
  const bool evict = cause == Cause::kEviction;
  const bool can_move = uffd_ && uffd_->has_move() && Tunables::Get().use_move;
  void* const base = reinterpret_cast<void*>(b.base);

  // Whole-block paths: every page of the block comes to the host at once.
  if (todo.all() && can_move) {
    const PageMask populated = b.Populated();
    int src = -1;
    if (populated.none()) {
      // First touch: move in a freshly populated huge page.
      if (char* slot = pool_.Take()) {
        long n = uffd_->Move(base, slot, kBlockSize, true, false);
        // A refused (or partial) move leaves fresh zero pages in the slot.
        pool_.Give(slot, /*hole=*/true);
        const size_t moved = n > 0 ? static_cast<size_t>(n) / kPageSize : 0;
        Count(c.pages_populated_host, moved);
        b.host_resident.SetRange(0, moved);
        if (moved == kPagesPerBlock) return Status::Ok();
        todo = pages.Minus(b.host_resident);
      }
    } else if (!duplicate && CanMoveWholeToHost(b, &src)) {
      // The block lives whole on one device: move its pages over.
      DeviceView& v = b.dev[src];
      long n = uffd_->Move(base, v.frame, kBlockSize, true, false);
      // A refused move (e.g. pages shared after fork) moves a prefix or
      // nothing; the copy path below takes the rest.
      const size_t moved = n > 0 ? static_cast<size_t>(n) / kPageSize : 0;
      Count(c.pages_d2h, moved);
      Count(c.bytes_d2h, moved * kPageSize);
      if (moved == kPagesPerBlock) CountBlockMoved(c);
      if (evict) Count(c.bytes_evicted, moved * kPageSize);
      if (moved > 0) {
        b.host_resident.SetRange(0, moved);
        PageMask gone = PageMask::Range(0, moved);
        v.populated = v.populated.Minus(gone);
        DropDevicePages(b, src, gone);
      }
      if (moved == kPagesPerBlock) {
        ReleaseFrameIfEmpty(b, src);
        return Status::Ok();
      }
      todo = pages.Minus(b.host_resident);
    }
  }

  // Copies are unavoidable (a replica, pages spread over devices, or a block
  // partly on the host already): assemble the whole block in a populated
  // huge page and move it in, instead of UFFDIO_COPY mapping small pages one
  // by one. Host pages already present are write-protected first (so a
  // concurrent write waits), copied into the huge page, and unmapped.
  if (can_move && todo.any() && (todo | b.host_resident).all() && todo.count() >= kPagesPerBlock / 2) {
    const PageMask here = b.host_resident;
    const PageMask populated = b.Populated();
    SIMNPU_RETURN_IF_ERROR(WriteProtectHost(b, here, true));
    if (char* slot = pool_.Take()) {
      PageMask filled = here;
      CopyRuns(slot, reinterpret_cast<const char*>(b.base), here);
      size_t n_dev = 0;
      for (int d = 0; d < b.ndev; ++d) {
        PageMask m = b.dev[d].resident.Minus(filled);
        n_dev += m.count();
        CopyRuns(slot, b.dev[d].frame, m);
        filled |= m;
      }
      ZeroRuns(slot, ~filled);
      DropHostPages(b, here);  // the range must be an exact hole for the move
      long n = RefuseAssembledMoves() ? -EBUSY : uffd_->Move(base, slot, kBlockSize, /*dontwake=*/true, false);
      const size_t moved = n > 0 ? static_cast<size_t>(n) / kPageSize : 0;
      b.host_resident |= PageMask::Range(0, moved);
      if (moved < kPagesPerBlock) {
        // Refused or partly done: put back the host pages that did not move.
        Status restore = Status::Ok();
        here.Minus(b.host_resident).ForEachRun([&](size_t first, size_t count) {
          if (!restore.ok()) return;
          long rc = uffd_->Copy(HostAddr(b, first), slot + first * kPageSize, count * kPageSize, true, false);
          if (rc != static_cast<long>(count * kPageSize)) restore = UffdError("UFFDIO_COPY (restore host)", rc);
          else b.host_resident.SetRange(first, count);
        });
        pool_.Discard(slot);  // it holds this block's data: never hand it out as fresh
        SIMNPU_RETURN_IF_ERROR(restore);
        // Pages that arrived in the moved prefix are valid host copies now.
        PageMask m = PageMask::Range(0, moved).Minus(here);
        Count(c.pages_d2h, (m & populated).count());
        Count(c.bytes_d2h, (m & populated).count() * kPageSize);
        Count(c.pages_populated_host, m.Minus(populated).count());
        if (duplicate) {
          Count(c.read_duplicates, (m & populated).count());
          for (int d = 0; d < b.ndev; ++d) b.dev[d].writable = b.dev[d].writable.Minus(m);
        }
        // Every host page is a fresh mapping: protect the ones with other copies.
        PageMask reps;
        for (int d = 0; d < b.ndev; ++d) reps |= b.dev[d].resident;
        SIMNPU_RETURN_IF_ERROR(WriteProtectHost(b, reps & b.host_resident, true));
        todo = pages.Minus(b.host_resident);
      } else {
        pool_.Give(slot, /*hole=*/true);
        const size_t unpop = kPagesPerBlock - populated.count();
        Count(c.pages_populated_host, unpop);
        Count(c.pages_d2h, n_dev);
        Count(c.bytes_d2h, n_dev * kPageSize);
        Count(c.copy_fallbacks);
        if (evict) Count(c.bytes_evicted, n_dev * kPageSize);
        if (duplicate) {
          Count(c.read_duplicates, n_dev);
          PageMask reps;
          for (int d = 0; d < b.ndev; ++d) {
            b.dev[d].writable = b.dev[d].writable.Minus(populated);
            reps |= b.dev[d].resident;
          }
          return WriteProtectHost(b, reps, true);
        }
        for (int d = 0; d < b.ndev; ++d) {
          DropDevicePages(b, d, PageMask::All());
          ReleaseFrameIfEmpty(b, d);
        }
        return Status::Ok();
      }
    }
  }

  // General path: copy from a device copy, or zero-fill unpopulated pages.
  Status st = Status::Ok();
  PageMask unpop = todo.Minus(b.Populated());
  Count(c.pages_populated_host, unpop.count());
  unpop.ForEachRun([&](size_t first, size_t count) {
    size_t done = 0;
    while (st.ok() && done < count * kPageSize) {
      size_t len = std::min(sizeof kZeros, count * kPageSize - done);
      long rc = uffd_->Copy(HostAddr(b, first) + done, kZeros, len, true, false);
      if (rc <= 0) st = UffdError("UFFDIO_COPY (zero fill)", rc);
      else done += static_cast<size_t>(rc);
    }
  });
  if (!st.ok()) return st;
  b.host_resident |= unpop;
  todo = todo.Minus(unpop);

  for (int d = 0; d < b.ndev && todo.any(); ++d) {
    DeviceView& v = b.dev[d];
    PageMask from = todo & v.resident;
    if (from.none()) continue;
    Count(c.pages_d2h, from.count());
    Count(c.bytes_d2h, from.count() * kPageSize);
    Count(c.copy_fallbacks);
    if (evict) Count(c.bytes_evicted, from.count() * kPageSize);
    if (duplicate) Count(c.read_duplicates, from.count());
    from.ForEachRun([&](size_t first, size_t count) {
      size_t done = 0;
      while (st.ok() && done < count * kPageSize) {
        long rc = uffd_->Copy(HostAddr(b, first) + done, v.frame + first * kPageSize + done,
                              count * kPageSize - done, true, duplicate);
        if (rc <= 0) st = UffdError("UFFDIO_COPY (device to host)", rc);
        else done += static_cast<size_t>(rc);
      }
    });
    if (!st.ok()) return st;
    b.host_resident |= from;
    if (duplicate) {
      b.host_wp |= from;
      v.writable = v.writable.Minus(from);
    }
    todo = todo.Minus(from);
  }
  if (!duplicate) {
    // The host copy is now the only one. (A device copied from above has
    // its copied pages in `drop`, so its frame is released if left empty.)
    PageMask moved = pages & b.host_resident;
    for (int d = 0; d < b.ndev; ++d) {
      PageMask drop = moved & b.dev[d].resident;
      if (drop.none()) continue;
      DropDevicePages(b, d, drop);
      ReleaseFrameIfEmpty(b, d);
    }
  }
  return Status::Ok();
}

Status Engine::MakeResidentDevice(VaBlock& b, int d, const PageMask& pages, bool duplicate,
                                  Cause cause, char** spare_frame) {
  SIMNPU_TRACE_RESIDENCY(b, d, cause);
  Counters& c = Stats();
  DeviceView& v = b.dev[d];
  if (!v.frame) {
    if (!spare_frame || !*spare_frame) return Status(kInternal, "no device frame reserved");
    v.frame = *spare_frame;
    *spare_frame = nullptr;
    v.populated.clear();
    v.resident.clear();
    v.writable.clear();
    TrackFrame(&b, d);
  }
  v.last_use.store(++lru_clock_, std::memory_order_relaxed);

  PageMask have = pages & v.resident;
  if (!duplicate && have.any()) {
    // Writing needs the only copy: invalidate the host and other devices.
    PageMask inv_host = have & b.host_resident;
    if (inv_host.any()) {
      Count(c.invalidations, inv_host.count());
      DropHostPages(b, inv_host);
    }
    for (int e = 0; e < b.ndev; ++e) {
      if (e == d) continue;
      PageMask inv = have & b.dev[e].resident;
      if (inv.none()) continue;
      Count(c.invalidations, inv.count());
      DropDevicePages(b, e, inv);
      ReleaseFrameIfEmpty(b, e);
    }
    v.writable |= have;
  }
  PageMask todo = pages.Minus(v.resident);
  if (todo.none()) return Status::Ok();

  // Whole-block fast paths (the frame is an exact hole).
  if (todo.all() && uffd_ && uffd_->has_move() && Tunables::Get().use_move && v.populated.none()) {
    if (b.Populated().none()) {
      if (char* slot = pool_.Take()) {
        long n = uffd_->Move(v.frame, slot, kBlockSize, false, false);
        pool_.Give(slot, true);
        if (n == static_cast<long>(kBlockSize)) {
          v.populated = v.resident = v.writable = PageMask::All();
          Count(c.pages_populated_device, kPagesPerBlock);
          return Status::Ok();
        }
        if (n > 0) v.populated.SetRange(0, static_cast<size_t>(n) / kPageSize);
      }
    } else if (!duplicate && CanMoveWholeToDevice(b, d)) {
      if (b.host_resident.all()) {
        long n = uffd_->Move(v.frame, reinterpret_cast<void*>(b.base), kBlockSize, false, false);
        if (n > 0) {
          size_t moved = static_cast<size_t>(n) / kPageSize;
          PageMask m = PageMask::Range(0, moved);
          b.host_resident = b.host_resident.Minus(m);
          v.populated |= m;
          v.resident |= m;
          v.writable |= m;
          Count(c.pages_h2d, moved);
          Count(c.bytes_h2d, moved * kPageSize);
          if (moved == kPagesPerBlock) {
            CountBlockMoved(c);
            return Status::Ok();
          }
        }
      } else {
        int e = 0;
        while (e < b.ndev && b.dev[e].resident.none()) ++e;
        DeviceView& src = b.dev[e];
        long n = uffd_->Move(v.frame, src.frame, kBlockSize, false, false);
        if (n > 0) {
          size_t moved = static_cast<size_t>(n) / kPageSize;
          PageMask m = PageMask::Range(0, moved);
          src.populated = src.populated.Minus(m);
          DropDevicePages(b, e, m);
          v.populated |= m;
          v.resident |= m;
          v.writable |= m;
          Count(c.pages_d2d, moved);
          Count(c.bytes_d2d, moved * kPageSize);
          ReleaseFrameIfEmpty(b, e);
          if (moved == kPagesPerBlock) {
            CountBlockMoved(c);
            return Status::Ok();
          }
        }
      }
      todo = pages.Minus(v.resident);
    }
  }

  // Whole block with copies unavoidable (a replica, or pages from several
  // places): assemble it in a populated huge page and move that into the
  // frame, instead of UFFDIO_COPY filling 512 small pages one by one.
  // This also covers a block partly resident here already (pages already in
  // the frame are copied into the huge page too, and the frame emptied).
  if ((todo | v.resident).all() && todo.count() >= kPagesPerBlock / 2 && uffd_ && uffd_->has_move() &&
      Tunables::Get().use_move) {
    const PageMask here = v.resident;
    const PageMask populated = b.Populated();
    const PageMask from_host = b.host_resident.Minus(here);
    // Host copies are write-protected first, so no write slips in between the
    // copy and their removal (or, for a replica, they stay read-only).
    SIMNPU_RETURN_IF_ERROR(WriteProtectHost(b, from_host, true));
    if (char* slot = pool_.Take()) {
      // Fill the huge page run by run from each source (one memcpy per run).
      PageMask filled = here;
      CopyRuns(slot, v.frame, here);
      const size_t n_host = from_host.count();
      CopyRuns(slot, reinterpret_cast<const char*>(b.base), from_host);
      filled |= from_host;
      size_t n_dev = 0;
      for (int e = 0; e < b.ndev; ++e) {
        if (e == d) continue;
        PageMask m = b.dev[e].resident.Minus(filled);
        n_dev += m.count();
        CopyRuns(slot, b.dev[e].frame, m);
        filled |= m;
      }
      ZeroRuns(slot, ~filled);
      // The frame must be an exact hole for the move.
      if (v.populated.any()) {
        platform::DropPages(v.frame, kBlockSize);
        v.populated.clear();
      }
      long n = RefuseAssembledMoves() ? -EBUSY : uffd_->Move(v.frame, slot, kBlockSize, true, false);
      if (n != static_cast<long>(kBlockSize)) {
        // Refused (or partly done): the moved prefix holds its data; put the
        // pages that were here back from the slot, then take the copy path.
        const size_t moved = n > 0 ? static_cast<size_t>(n) / kPageSize : 0;
        v.populated |= PageMask::Range(0, moved);
        Status restore = Status::Ok();
        here.Minus(v.populated).ForEachRun([&](size_t first, size_t count) {
          if (!restore.ok()) return;
          long rc = uffd_->Copy(v.frame + first * kPageSize, slot + first * kPageSize, count * kPageSize, true, false);
          if (rc != static_cast<long>(count * kPageSize)) restore = UffdError("UFFDIO_COPY (restore frame)", rc);
          else v.populated.SetRange(first, count);
        });
        pool_.Discard(slot);  // it holds this block's data: never hand it out as fresh
        SIMNPU_RETURN_IF_ERROR(restore);
      } else {
        pool_.Give(slot, /*hole=*/true);
      }
      if (n == static_cast<long>(kBlockSize)) {
        const PageMask was_writable = v.writable & here;
        v.populated = v.resident = PageMask::All();
        // A replica stays read-only; pages that had no copy anywhere are ours.
        v.writable = duplicate ? PageMask::All().Minus(populated) | was_writable : PageMask::All();
        Count(c.pages_h2d, n_host);
        Count(c.bytes_h2d, n_host * kPageSize);
        Count(c.pages_d2d, n_dev);
        Count(c.bytes_d2d, n_dev * kPageSize);
        Count(c.pages_populated_device, kPagesPerBlock - n_host - n_dev - here.count());
        Count(c.copy_fallbacks);
        if (duplicate) {
          Count(c.read_duplicates, n_host + n_dev);
          for (int e = 0; e < b.ndev; ++e)
            if (e != d) b.dev[e].writable = b.dev[e].writable.Minus(populated);
        } else {
          DropHostPages(b, PageMask::All());  // this device now owns the whole block
          for (int e = 0; e < b.ndev; ++e) {
            if (e == d || b.dev[e].resident.none()) continue;
            DropDevicePages(b, e, PageMask::All());
            ReleaseFrameIfEmpty(b, e);
          }
        }
        return Status::Ok();
      }
    }
  }

  // Unpopulated pages: first touch on this device.
  PageMask unpop = todo.Minus(b.Populated());
  if (unpop.any()) {
    SIMNPU_RETURN_IF_ERROR(PopulateFrame(b, d, unpop));
    v.resident |= unpop;
    v.writable |= unpop;
    Count(c.pages_populated_device, unpop.count());
    todo = todo.Minus(unpop);
  }

  // Copies from the host.
  PageMask from_host = todo & b.host_resident;
  if (from_host.any()) {
    // Write-protect before copying, replica or not: a host write during the
    // copy waits on its write-protect fault (served after we finish) instead
    // of landing in the host copy only, after the device copy was taken.
    SIMNPU_RETURN_IF_ERROR(WriteProtectHost(b, from_host, true));
    Status st = Status::Ok();
    from_host.ForEachRun([&](size_t first, size_t count) {
      // Holes in the frame are filled by UFFDIO_COPY; populated pages by memcpy.
      PageMask run = PageMask::Range(first, count);
      (run.Minus(v.populated)).ForEachRun([&](size_t f2, size_t n2) {
        size_t done = 0;
        while (st.ok() && done < n2 * kPageSize) {
          long rc = uffd_->Copy(v.frame + f2 * kPageSize + done, HostAddr(b, f2) + done,
                                n2 * kPageSize - done, true, false);
          if (rc <= 0) st = UffdError("UFFDIO_COPY (host to device)", rc);
          else done += static_cast<size_t>(rc);
        }
      });
      (run & v.populated).ForEachRun([&](size_t f2, size_t n2) {
        std::memcpy(v.frame + f2 * kPageSize, HostAddr(b, f2), n2 * kPageSize);
      });
    });
    if (!st.ok()) return st;
    v.populated |= from_host;
    v.resident |= from_host;
    Count(c.pages_h2d, from_host.count());
    Count(c.bytes_h2d, from_host.count() * kPageSize);
    Count(c.copy_fallbacks);
    if (duplicate) {
      v.writable = v.writable.Minus(from_host);  // the host copy stays, write-protected
      Count(c.read_duplicates, from_host.count());
    } else {
      DropHostPages(b, from_host);  // the write-protected copies go away
      v.writable |= from_host;
    }
    todo = todo.Minus(from_host);
  }

  // Copies from other devices.
  for (int e = 0; e < b.ndev && todo.any(); ++e) {
    if (e == d) continue;
    DeviceView& src = b.dev[e];
    PageMask from = todo & src.resident;
    if (from.none()) continue;
    Status st = PopulateFrame(b, d, from);
    if (!st.ok()) return st;
    from.ForEachRun([&](size_t first, size_t count) {
      std::memcpy(v.frame + first * kPageSize, src.frame + first * kPageSize, count * kPageSize);
    });
    v.resident |= from;
    Count(c.pages_d2d, from.count());
    Count(c.bytes_d2d, from.count() * kPageSize);
    Count(c.copy_fallbacks);
    if (duplicate) {
      src.writable = src.writable.Minus(from);
      Count(c.read_duplicates, from.count());
    } else {
      DropDevicePages(b, e, from);
      ReleaseFrameIfEmpty(b, e);
      v.writable |= from;
    }
    todo = todo.Minus(from);
  }
  if (todo.any()) return Status(kInternal, "pages with no source left after migration");
  return Status::Ok();
}

}  // namespace simnpu::uvm
