// AllocationMap: live and recently freed allocations, range checks.
#include "core/allocation_map.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <mutex>

#include "platform/env.h"
#include "simnpu/kernel_abi.h"

namespace simnpu::core {
namespace {
constexpr int kInternal = 507000;  // ACL_ERROR_RT_INTERNAL_ERROR

std::string Hex(uintptr_t a) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%" PRIxPTR, a);
  return b;
}

std::string KindList(uint32_t kinds) {
  std::string s;
  for (int k = 0; k < kMemKindCount; ++k) {
    if (!(kinds & (1u << k))) continue;
    if (!s.empty()) s += ", ";
    s += MemKindName(static_cast<MemKind>(k));
  }
  return s.empty() ? "nothing" : s;
}
}  // namespace

const char* MemKindName(MemKind k) {
  switch (k) {
    case MemKind::kDevice: return "device memory (aclrtMalloc)";
    case MemKind::kHostPinned: return "page-locked host memory (aclrtMallocHost)";
    case MemKind::kManaged: return "managed memory (aclrtMemAllocManaged)";
    case MemKind::kHostRegistered: return "registered host memory (aclrtHostRegisterV2)";
    case MemKind::kVmmMapped: return "mapped virtual memory (aclrtMapMem)";
    case MemKind::kIpcImported: return "imported IPC memory (aclrtIpcMemImportByKey)";
  }
  return "memory";
}

std::string Allocation::Describe() const {
  std::string s = "the " + std::to_string(size) + "-byte " + MemKindName(kind) + " allocation #" + std::to_string(id) +
                  " [" + Hex(base) + ", " + Hex(base + size) + ")";
  if (device >= 0) s += " on device " + std::to_string(device);
  return s;
}

uint32_t MemcheckMode() {
  static const uint32_t mode = [] {
    auto v = platform::GetEnv("SIMNPU_MEMCHECK");
    if (!v) return static_cast<uint32_t>(SIMNPU_MEMCHECK_BOUNDS);
    std::string t = *v;
    for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t == "0" || t == "off" || t == "false" || t == "no" || t == "none") return 0u;
    uint32_t m = SIMNPU_MEMCHECK_BOUNDS;
    size_t at = 0;
    while (at <= t.size()) {
      size_t end = t.find_first_of(",+ ", at);
      if (end == std::string::npos) end = t.size();
      const std::string w = t.substr(at, end - at);
      if (w == "racecheck" || w == "race") {
        m |= SIMNPU_MEMCHECK_RACE;
      } else if (w == "initcheck" || w == "init") {
        m |= SIMNPU_MEMCHECK_INIT;
      } else if (!(w.empty() || w == "1" || w == "on" || w == "true" || w == "yes" || w == "memcheck")) {
        std::fprintf(stderr,
                     "[simnpu] SIMNPU_MEMCHECK: unknown mode \"%s\" ignored (modes: 0, memcheck, racecheck, initcheck)\n",
                     w.c_str());
      }
      at = end + 1;
    }
    return m;
  }();
  return mode;
}

AllocationMap& AllocationMap::Get() {
  static AllocationMap* m = [] {  // never destroyed: used until exit
    auto* map = new AllocationMap();
    map->EnableInitShadow((MemcheckMode() & SIMNPU_MEMCHECK_INIT) != 0);
    return map;
  }();
  return *m;
}

AllocationMap::AllocationMap() = default;

const AllocationMap::Entry* AllocationMap::FindLocked(uintptr_t a) const {
  auto it = live_.upper_bound(a);
  if (it == live_.begin()) return nullptr;
  --it;
  const Allocation& al = it->second.a;
  const size_t reach = al.span > 0 ? al.span : 1;
  if (a - al.base >= reach) return nullptr;
  return &it->second;
}

void AllocationMap::BuryLocked(const Allocation& a) {
  graveyard_.push_back(a);
  while (graveyard_.size() > kGraveyard) graveyard_.pop_front();
}

Status AllocationMap::Register(uintptr_t base, size_t size, size_t span, MemKind kind, int device) {
  if (span < size) span = size;
  if (span == 0) span = 1;
  if (base > UINTPTR_MAX - (span - 1))
    return Status(kInternal, "allocation [" + Hex(base) + ", +" + std::to_string(span) + ") wraps around");
  std::unique_lock<std::shared_mutex> g(mu_);
  // Overlap with a live entry: the one at or before base, or one starting inside.
  auto next = live_.lower_bound(base);
  if (next != live_.end() && next->first - base < span)
    return Status(kInternal, "new allocation at " + Hex(base) + " overlaps " + next->second.a.Describe());
  if (next != live_.begin()) {
    const Allocation& prev = std::prev(next)->second.a;
    if (base - prev.base < prev.span)
      return Status(kInternal, "new allocation at " + Hex(base) + " overlaps " + prev.Describe());
  }
  Entry e;
  e.a.base = base;
  e.a.size = size;
  e.a.span = span;
  e.a.kind = kind;
  e.a.device = device;
  e.a.id = next_id_++;
  if (init_shadow() && (KindBit(kind) & kDeviceKinds) && size > 0)
    e.written = std::make_shared<std::vector<std::atomic<uint64_t>>>((size + 63) / 64);
  // The range is live again: forget freed allocations it reuses.
  for (auto it = graveyard_.begin(); it != graveyard_.end();) {
    if (it->base < base + span && base < it->base + it->span)
      it = graveyard_.erase(it);
    else
      ++it;
  }
  live_.emplace(base, std::move(e));
  gen_.fetch_add(1, std::memory_order_release);
  return Status::Ok();
}

bool AllocationMap::Unregister(uintptr_t base, Allocation* removed) {
  std::unique_lock<std::shared_mutex> g(mu_);
  auto it = live_.find(base);
  if (it == live_.end()) return false;
  if (removed) *removed = it->second.a;
  BuryLocked(it->second.a);
  live_.erase(it);
  gen_.fetch_add(1, std::memory_order_release);
  return true;
}

size_t AllocationMap::UnregisterDevice(int device, MemKind kind) {
  std::unique_lock<std::shared_mutex> g(mu_);
  size_t n = 0;
  for (auto it = live_.begin(); it != live_.end();) {
    if (it->second.a.device == device && it->second.a.kind == kind) {
      BuryLocked(it->second.a);
      it = live_.erase(it);
      ++n;
    } else {
      ++it;
    }
  }
  if (n) gen_.fetch_add(1, std::memory_order_release);
  return n;
}

std::optional<Allocation> AllocationMap::Find(const void* p) const {
  std::shared_lock<std::shared_mutex> g(mu_);
  const Entry* e = FindLocked(reinterpret_cast<uintptr_t>(p));
  if (!e) return std::nullopt;
  return e->a;
}

std::optional<Allocation> AllocationMap::FindFreed(const void* p) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::shared_lock<std::shared_mutex> g(mu_);
  for (auto it = graveyard_.rbegin(); it != graveyard_.rend(); ++it)
    if (a - it->base < it->span) return *it;
  return std::nullopt;
}

size_t AllocationMap::live_count() const {
  std::shared_lock<std::shared_mutex> g(mu_);
  return live_.size();
}

Status AllocationMap::CheckRange(const std::string& what, const void* p, size_t n, uint32_t kinds,
                                 bool allow_unknown, bool use_span, std::optional<Allocation>* found,
                                 int code) const {
  if (found) found->reset();
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (RangeWraps(p, n))
    return Status(code, what + " [" + Hex(a) + ", +" + std::to_string(n) +
                            ") wraps around the end of the address space");
  std::optional<Allocation> al;
  {
    std::shared_lock<std::shared_mutex> g(mu_);
    if (const Entry* e = FindLocked(a)) al = e->a;
  }
  if (!al) {
    if (auto dead = FindFreed(p))
      return Status(code, what + " " + Hex(a) + " lies in " + dead->Describe() + ", which was freed");
    if (allow_unknown) return Status::Ok();
    return Status(code, what + " " + Hex(a) + " is not memory the runtime allocated (this call takes " +
                            KindList(kinds) + ")");
  }
  if (found) *found = al;
  if (!(KindBit(al->kind) & kinds))
    return Status(code, what + " " + Hex(a) + " is in " + al->Describe() + ", which this call does not take (it takes " +
                            KindList(kinds) + ")");
  const size_t limit = use_span ? al->span : al->size;
  const size_t off = a - al->base;
  if (off >= limit && n > 0)
    return Status(code, what + " " + Hex(a) + " is " + std::to_string(off - limit) + " byte(s) past the end of " +
                            al->Describe());
  if (n > limit - off)
    return Status(code, what + " [" + Hex(a) + ", +" + std::to_string(n) + ") exceeds " + al->Describe() + " by " +
                            std::to_string(n - (limit - off)) + " byte(s) (it starts at offset " +
                            std::to_string(off) + ")");
  return Status::Ok();
}

void AllocationMap::MarkWritten(const void* p, size_t n) {
  if (!init_shadow() || n == 0) return;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (RangeWraps(p, n)) return;
  const uintptr_t end = a + n;
  std::shared_lock<std::shared_mutex> g(mu_);
  while (a < end) {
    const Entry* e = FindLocked(a);
    if (!e) {
      auto it = live_.upper_bound(a);  // skip to the next allocation
      if (it == live_.end() || it->first >= end) return;
      a = it->first;
      continue;
    }
    const size_t lo = a - e->a.base;
    const size_t hi = std::min<size_t>(end - e->a.base, e->a.size);
    if (e->written) {
      auto& bits = *e->written;
      for (size_t i = lo; i < hi;) {
        const size_t w = i / 64, b = i % 64;
        const size_t take = std::min<size_t>(64 - b, hi - i);
        const uint64_t mask = (take == 64 ? ~0ull : ((1ull << take) - 1)) << b;
        bits[w].fetch_or(mask, std::memory_order_relaxed);
        i += take;
      }
    }
    a = e->a.base + e->a.span;
  }
}

std::optional<size_t> AllocationMap::FirstUnwritten(const void* p, size_t n) const {
  if (!init_shadow() || n == 0) return std::nullopt;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  std::shared_lock<std::shared_mutex> g(mu_);
  const Entry* e = FindLocked(a);
  if (!e || !e->written) return std::nullopt;
  const size_t lo = a - e->a.base;
  const size_t hi = std::min<size_t>(lo + n, e->a.size);
  const auto& bits = *e->written;
  for (size_t i = lo; i < hi; ++i) {
    if (!(bits[i / 64].load(std::memory_order_relaxed) & (1ull << (i % 64)))) return i - lo;
  }
  return std::nullopt;
}

}  // namespace simnpu::core
