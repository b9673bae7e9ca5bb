// LaunchCheck: argument ranges, address resolution, race and init checks.
#include "loader/launch_check.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "core/allocation_map.h"
#include "dfx/log.h"
#include "platform/env.h"

namespace simnpu::loader {
namespace {

constexpr int kParamInvalid = 107000;
constexpr uint32_t kArgsKind = 100;  // simnpu_mem_range.kind of the launch's argument block

void Put(char* dst, size_t cap, const std::string& s) {
  if (cap == 0) return;
  std::snprintf(dst, cap, "%s", s.c_str());
}

std::string Where(const char* file, uint32_t line) {
  if (!file) return "unknown place";
  const char* base = std::strrchr(file, '/');
  return std::string(base ? base + 1 : file) + ":" + std::to_string(line);
}

const char* Verb(uint32_t access) {
  if (access & SIMNPU_ACCESS_ATOMIC) return "updates atomically";
  if (access & SIMNPU_ACCESS_WRITE) return "writes";
  return "reads";
}

std::string Hex(uintptr_t a) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%" PRIxPTR, a);
  return b;
}

}  // namespace

uint32_t MemcheckMode() { return core::MemcheckMode(); }

LaunchCheck::LaunchCheck(uint32_t mode, const simnpu_kernel_desc& desc, void* const* argv, uint32_t blocks,
                         const void* args, size_t args_size)
    : mode_(mode), kernel_(desc.name ? desc.name : "?") {
  auto& map = core::AllocationMap::Get();
  // The argument block itself (placeholder data lives there). Listed first:
  // it is the range the kernel's own argument copies are read from.
  if (args && args_size)
    ranges_.push_back({reinterpret_cast<uintptr_t>(args), args_size, static_cast<uint32_t>(kArgsKind), -1});
  for (uint32_t i = 0; i < desc.param_count; ++i) {
    if (desc.params[i].kind != SIMNPU_PARAM_POINTER || desc.params[i].size != sizeof(void*)) continue;
    void* p;
    std::memcpy(&p, argv[i], sizeof p);
    if (!p) continue;
    auto a = map.Find(p);
    if (!a || !(core::KindBit(a->kind) & core::kDeviceReachable)) continue;
    bool dup = false;
    for (const auto& r : ranges_) dup = dup || r.base == a->base;
    if (dup) continue;
    ranges_.push_back({a->base, a->size, static_cast<uint32_t>(a->kind), static_cast<int32_t>(i)});
  }
  if (mode_ & SIMNPU_MEMCHECK_RACE) {
    spans_.resize(blocks);
    epochs_.assign(blocks, 0);
  }
}

int LaunchCheck::Resolve(uintptr_t addr, size_t n, uint32_t access, simnpu_mem_range* out, char* why,
                         size_t cap) const {
  std::optional<core::Allocation> found;
  Status st = core::AllocationMap::Get().CheckRange("the access", reinterpret_cast<const void*>(addr), n,
                                                    core::kDeviceReachable, false, false, &found, kParamInvalid);
  if (st.ok() && found) {
    out->base = found->base;
    out->size = found->size;
    out->kind = static_cast<uint32_t>(found->kind);
    out->arg = -1;
    for (const auto& r : ranges_)
      if (r.base == found->base) out->arg = r.arg;
    return 0;
  }
  std::string msg = st.message();
  if (found) {
    for (const auto& r : ranges_)
      if (r.base == found->base) msg += "; kernel argument " + std::to_string(r.arg) + " points into it";
  } else if (!ranges_.empty()) {
    // Name the argument allocation the access is closest to (the likely origin).
    const simnpu_mem_range* best = nullptr;
    uintptr_t dist = UINTPTR_MAX;
    for (const auto& r : ranges_) {
      uintptr_t d = addr >= r.base + r.size ? addr - (r.base + r.size) : (addr < r.base ? r.base - addr : 0);
      if (d < dist) {
        dist = d;
        best = &r;
      }
    }
    if (best)
      msg += "; the nearest allocation a kernel argument points into is argument " + std::to_string(best->arg) + "'s [" +
             Hex(best->base) + ", " + Hex(best->base + best->size) + ")";
  }
  (void)access;
  Put(why, cap, msg);
  return st.ok() ? kParamInvalid : st.code();
}

int LaunchCheck::Trace(uint32_t block, uintptr_t addr, size_t n, uint32_t access, const char* file, uint32_t line,
                       char* why, size_t cap) {
  if ((mode_ & SIMNPU_MEMCHECK_INIT) && (access & SIMNPU_ACCESS_READ) && !(access & SIMNPU_ACCESS_WRITE)) {
    auto& map = core::AllocationMap::Get();
    if (auto off = map.FirstUnwritten(reinterpret_cast<const void*>(addr), n)) {
      auto a = map.Find(reinterpret_cast<const void*>(addr));
      Put(why, cap,
          "initcheck: block " + std::to_string(block) + " of kernel " + kernel_ + " reads " + std::to_string(n) +
              " bytes at " + Hex(addr) + " (" + Where(file, line) + "), but nothing ever wrote byte " +
              std::to_string(addr + *off - (a ? a->base : 0)) + " of " + (a ? a->Describe() : std::string("it")) +
              " (no copy, memset, value write or kernel store reached it)");
      return kParamInvalid;
    }
  }
  if ((mode_ & SIMNPU_MEMCHECK_INIT) && (access & (SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC)))
    core::AllocationMap::Get().MarkWritten(reinterpret_cast<const void*>(addr), n);
  if ((mode_ & SIMNPU_MEMCHECK_RACE) && block < spans_.size()) {
    if (access & SIMNPU_ACCESS_BARRIER) {
      ++epochs_[block];
      return 0;
    }
    auto& v = spans_[block];
    const uint32_t ep = epochs_[block];
    if (!v.empty()) {
      Span& last = v.back();
      if (last.hi == addr && last.access == access && last.epoch == ep && last.line == line && last.file == file) {
        last.hi = addr + n;
        return 0;
      }
    }
    if (total_spans_.fetch_add(1, std::memory_order_relaxed) >= kMaxSpans) {
      truncated_.store(true, std::memory_order_relaxed);
      return 0;
    }
    v.push_back({addr, addr + n, access, ep, file, line});
  }
  return 0;
}

std::string LaunchCheck::Finish() {
  if (!(mode_ & SIMNPU_MEMCHECK_RACE)) return "";
  struct Item {
    Span s;
    uint32_t block;
  };
  std::vector<Item> all;
  for (uint32_t b = 0; b < spans_.size(); ++b)
    for (const Span& s : spans_[b]) all.push_back({s, b});
  std::sort(all.begin(), all.end(), [](const Item& x, const Item& y) { return x.s.lo < y.s.lo; });
  // Sweep: keep the spans that may still overlap the next one.
  std::vector<const Item*> open;
  for (const Item& it : all) {
    open.erase(std::remove_if(open.begin(), open.end(), [&](const Item* o) { return o->s.hi <= it.s.lo; }), open.end());
    for (const Item* o : open) {
      if (o->block == it.block || o->s.epoch != it.s.epoch) continue;
      const bool ow = (o->s.access & SIMNPU_ACCESS_WRITE) != 0, iw = (it.s.access & SIMNPU_ACCESS_WRITE) != 0;
      if (!ow && !iw) continue;
      if ((o->s.access & SIMNPU_ACCESS_ATOMIC) && (it.s.access & SIMNPU_ACCESS_ATOMIC)) continue;
      const uintptr_t lo = std::max(o->s.lo, it.s.lo), hi = std::min(o->s.hi, it.s.hi);
      const Item* w = ow ? o : &it;
      const Item* other = w == o ? &it : o;
      std::string r = "racecheck: blocks " + std::to_string(w->block) + " and " + std::to_string(other->block) +
                      " of kernel " + kernel_ + " touch the same " + std::to_string(hi - lo) + " bytes at " + Hex(lo) +
                      " without atomics or a barrier: block " + std::to_string(w->block) + " " + Verb(w->s.access) +
                      " [" + Hex(w->s.lo) + ", " + Hex(w->s.hi) + ") at " + Where(w->s.file, w->s.line) + ", block " +
                      std::to_string(other->block) + " " + Verb(other->s.access) + " [" + Hex(other->s.lo) + ", " +
                      Hex(other->s.hi) + ") at " + Where(other->s.file, other->s.line);
      return r;
    }
    open.push_back(&it);
  }
  if (truncated_.load())
    SIMNPU_LOGW(kRuntime, "racecheck: kernel %s made more than %zu separate accesses; the rest were not checked",
                kernel_, kMaxSpans);
  return "";
}

}  // namespace simnpu::loader
