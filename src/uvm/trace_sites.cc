// Unified-memory trace sites (see trace_sites.h).
#include "uvm/trace_sites.h"

#include <algorithm>

namespace simnpu::uvm {
namespace {

using dfx::trace::Kind;
using dfx::trace::ResidencyOp;

thread_local bool t_moved = false;

// Runs recorded per change; a fragmented change beyond this is recorded as
// its bounding range with the total byte count.
constexpr int kMaxRuns = 64;

int Loc(int view) { return view < 0 ? dfx::trace::kHostLoc : 1 + view; }

void Emit(const VaBlock& b, const PageMask& m, ResidencyOp op, int from, int to, int cause, bool moved) {
  if (m.none()) return;
  int runs = 0;
  m.ForEachRun([&](size_t, size_t) { ++runs; });
  const int device = to == dfx::trace::kHostLoc ? (from == dfx::trace::kHostLoc ? -1 : from - 1) : to - 1;
  const uint64_t packed = dfx::trace::PackResidency(from, to, cause, moved);
  if (runs > kMaxRuns) {
    size_t first = kPagesPerBlock, last = 0;
    m.ForEachRun([&](size_t f, size_t n) {
      first = std::min(first, f);
      last = std::max(last, f + n);
    });
    dfx::trace::RecordInstant(Kind::kUvmResidency, device, nullptr, b.base + first * kPageSize,
                              m.count() * kPageSize, static_cast<uint64_t>(op), packed);
    return;
  }
  m.ForEachRun([&](size_t f, size_t n) {
    dfx::trace::RecordInstant(Kind::kUvmResidency, device, nullptr, b.base + f * kPageSize, n * kPageSize,
                              static_cast<uint64_t>(op), packed);
  });
}

}  // namespace

bool& TraceMovedFlag() { return t_moved; }

void Engine::ReportResidentBaseline() {
  if (mode() == Mode::kUninitialized) return;
  uint64_t bytes[1 + sim::kMaxDevices] = {};
  std::shared_lock<std::shared_mutex> lk(space_.mu());
  space_.ForEachBlock([&](VaBlock& b) {
    std::lock_guard<std::mutex> bl(b.mu);
    bytes[0] += b.host_resident.count() * kPageSize;
    for (int d = 0; d < b.ndev && d < sim::kMaxDevices; ++d) bytes[1 + d] += b.dev[d].resident.count() * kPageSize;
  });
  for (int loc = 0; loc <= sim::kMaxDevices; ++loc)
    if (bytes[loc]) dfx::trace::SetResidentBaseline(loc, bytes[loc]);
}

void ResidencyTrace::Begin(const VaBlock& b, int target, Cause cause) {
  b_ = &b;
  target_ = target;
  cause_ = cause;
  host_ = b.host_resident;
  for (int d = 0; d < b.ndev && d < sim::kMaxDevices; ++d) dev_[d] = b.dev[d].resident;
  t_moved = false;
}

void ResidencyTrace::End() {
  const VaBlock& b = *b_;
  const int nd = std::min(b.ndev, sim::kMaxDevices);
  auto before = [&](int v) -> const PageMask& { return v < 0 ? host_ : dev_[v]; };
  auto after = [&](int v) -> const PageMask& { return v < 0 ? b.host_resident : b.dev[v].resident; };
  const bool moved = t_moved;
  t_moved = false;
  const PageMask gained = after(target_).Minus(before(target_));
  PageMask assigned;
  // Sources, host first: a page leaves exactly one source in a migration.
  for (int v = -1; v < nd; ++v) {
    if (v == target_) continue;
    const PageMask lost = before(v).Minus(after(v));
    const PageMask migrated = (gained & lost).Minus(assigned);
    Emit(b, migrated, ResidencyOp::kMigrate, Loc(v), Loc(target_), static_cast<int>(cause_), moved);
    assigned |= migrated;
  }
  for (int v = -1; v < nd; ++v) {
    if (v == target_) continue;
    const PageMask replicated = (gained & before(v) & after(v)).Minus(assigned);
    Emit(b, replicated, ResidencyOp::kReplica, Loc(v), Loc(target_), static_cast<int>(cause_), false);
    assigned |= replicated;
  }
  Emit(b, gained.Minus(assigned), ResidencyOp::kPopulate, Loc(target_), Loc(target_), static_cast<int>(cause_), moved);
  // Copies dropped that no migration explains: invalidations.
  for (int v = -1; v < nd; ++v) {
    if (v == target_) continue;
    const PageMask dropped = before(v).Minus(after(v)).Minus(gained);
    Emit(b, dropped, ResidencyOp::kInvalidate, Loc(v), Loc(v), static_cast<int>(cause_), false);
  }
  // The target itself may lose nothing here, but record it if it did.
  Emit(b, before(target_).Minus(after(target_)), ResidencyOp::kInvalidate, Loc(target_), Loc(target_),
       static_cast<int>(cause_), false);
}

void TraceBlockFreed(const VaBlock& b) {
  Emit(b, b.host_resident, ResidencyOp::kInvalidate, dfx::trace::kHostLoc, dfx::trace::kHostLoc,
       dfx::trace::kCauseFree, false);
  for (int d = 0; d < b.ndev && d < sim::kMaxDevices; ++d)
    Emit(b, b.dev[d].resident, ResidencyOp::kInvalidate, Loc(d), Loc(d), dfx::trace::kCauseFree, false);
}

void TraceThrashing(const VaBlock& b, int dst, int action) {
  dfx::trace::RecordInstant(Kind::kUvmThrashing, dst < 0 ? -1 : dst, nullptr, b.base, static_cast<uint64_t>(action));
}

void TraceManagedRange(bool alloc, uintptr_t base, uint64_t bytes) {
  dfx::trace::RecordInstant(alloc ? Kind::kUvmAlloc : Kind::kUvmFree, -1, nullptr, base, bytes);
}

}  // namespace simnpu::uvm
