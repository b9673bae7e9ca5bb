// simnpu Ascend C model: the kernel memory check (SIMNPU_MEMCHECK, on by
// default). Every global-memory access of a block goes through one checked
// function, detail::GmCheck (context.h), called by GmRead / GmWrite and so by
// DataCopy and its variants, GlobalTensor::GetValue / SetValue and element
// references; code that adds another way to reach global memory calls
// detail::GmTouch with the access it makes. Atomic accesses (SetAtomicAdd and
// friends) set BlockContext::atomic_mode for their duration, so they are
// checked for bounds but never reported as races.
//
// The check (kernel_abi.h, "Memory check"): an access must lie inside one
// allocation the runtime knows. The allocations the launch's pointer
// arguments point into come with the block's environment and are tested
// here without a call (a few compares per access); any other address is
// resolved once by the runtime and cached for the rest of the block. With
// racecheck or initcheck every access is also traced to the runtime.
//
// Failure: the block fails with SIMNPU_BLOCK_GM_FAULT (the runtime turns it
// into the AI Core / vector core exception code of the core type) and a
// message naming the access (direction, size, address), the allocation and
// its bounds, and the kernel source line of the API call.
#ifndef SIMNPU_ASCENDC_MEMCHECK_H_
#define SIMNPU_ASCENDC_MEMCHECK_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kMemcheckCache = 16;

// Per block (a member of BlockContext).
struct MemcheckState {
  uint32_t mode = 0;       // SIMNPU_MEMCHECK_* bits; 0: unchecked
  uint32_t count = 0;      // ranges[0, count) are allocations known to be live
  uint32_t pinned = 0;     // ranges[0, pinned) came from the environment (never evicted)
  uint32_t next_evict = 0;
  simnpu_mem_range ranges[kMemcheckCache];
};

inline void MemcheckBegin(MemcheckState& s, const simnpu_block_env* env) {
  s.mode = 0;
  s.count = 0;
  s.pinned = 0;
  s.next_evict = 0;
  if (env == nullptr || (env->flags & SIMNPU_ENV_FLAG_EXT) == 0 || env->services == nullptr ||
      env->services->mem_resolve == nullptr) {
    return;  // an older runtime: nothing to check against
  }
  s.mode = env->memcheck;
  uint32_t n = env->mem_range_count;
  if (n > kMemcheckCache - 4) n = kMemcheckCache - 4;  // keep room for resolved ranges
  for (uint32_t i = 0; i < n; ++i) s.ranges[i] = env->mem_ranges[i];
  s.count = n;
  s.pinned = n;
}

inline bool MemcheckCached(const MemcheckState& s, uintptr_t a, size_t n) {
  for (uint32_t i = 0; i < s.count; ++i) {
    const simnpu_mem_range& r = s.ranges[i];
    const uintptr_t off = a - r.base;
    if (off < r.size && n <= r.size - off) return true;
  }
  return false;
}

// True when nothing more needs to be done for the access.
inline bool MemcheckFast(const MemcheckState& s, uintptr_t a, size_t n) {
  if ((s.mode & (SIMNPU_MEMCHECK_RACE | SIMNPU_MEMCHECK_INIT)) != 0) return false;
  return MemcheckCached(s, a, n);
}

inline const char* AccessName(uint32_t access) {
  if ((access & SIMNPU_ACCESS_ATOMIC) != 0) return "atomic update";
  if ((access & SIMNPU_ACCESS_WRITE) != 0) return (access & SIMNPU_ACCESS_READ) != 0 ? "access" : "write";
  return "read";
}

// Resolves, caches and traces one access. Returns 0, or an error code with
// the reason in msg.
SIMNPU_ASCENDC_NOINLINE inline int MemcheckSlow(MemcheckState& s, const simnpu_block_env* env, uintptr_t a, size_t n,
                                                uint32_t access, const char* file, uint32_t line, char* msg,
                                                size_t cap) {
  const simnpu_kernel_services* sv = env->services;
  char why[640];
  why[0] = '\0';
  if (!MemcheckCached(s, a, n)) {
    simnpu_mem_range r{};
    const int rc = sv->mem_resolve(env->services_ctx, a, n, access, &r, why, sizeof why);
    if (rc != 0) {
      std::snprintf(msg, cap, "memcheck: invalid global memory %s of %zu bytes at %p: %s", AccessName(access), n,
                    reinterpret_cast<void*>(a), why[0] != '\0' ? why : "no allocation holds it");
      return rc;
    }
    uint32_t slot = s.count;
    if (slot >= kMemcheckCache) {
      const uint32_t room = kMemcheckCache - s.pinned;
      slot = s.pinned + (s.next_evict++ % room);
    } else {
      ++s.count;
    }
    s.ranges[slot] = r;
  }
  if ((s.mode & (SIMNPU_MEMCHECK_RACE | SIMNPU_MEMCHECK_INIT)) != 0 && sv->mem_trace != nullptr) {
    const int rc = sv->mem_trace(env->services_ctx, a, n, access, file, line, why, sizeof why);
    if (rc != 0) {
      std::snprintf(msg, cap, "%s", why[0] != '\0' ? why : "initcheck: read of memory nothing wrote");
      return rc;
    }
  }
  return 0;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_MEMCHECK_H_
