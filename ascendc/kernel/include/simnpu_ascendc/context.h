// simnpu Ascend C model: the per-block context installed by RunBlock (a
// thread-local pointer), block_idx/block_num, failure reporting (an internal
// exception caught by RunBlock), diagnostics and routed global-memory access.
#ifndef SIMNPU_ASCENDC_CONTEXT_H_
#define SIMNPU_ASCENDC_CONTEXT_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cstdarg>

// Builtin block variables of the kernel language: per thread, set for each block.
SIMNPU_ASCENDC_HIDDEN inline thread_local int64_t block_idx = 0;
SIMNPU_ASCENDC_HIDDEN inline thread_local int64_t block_num = 1;

namespace simnpu {
namespace ascendc {

// Call-site of an API call, captured through default arguments.
struct SrcLoc {
  const char* file;
  const char* func;
  uint32_t line;
  static constexpr SrcLoc Here(const char* file = __builtin_FILE(), const char* func = __builtin_FUNCTION(),
                               uint32_t line = __builtin_LINE()) {
    return SrcLoc{file, func, line};
  }
};
#define SIMNPU_ASCENDC_LOC_PARAM const ::simnpu::ascendc::SrcLoc& simnpuLoc = ::simnpu::ascendc::SrcLoc::Here()

namespace detail {

// Outstanding buffers per TPosition are limited by hardware event ids.
#if __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3002 || __NPU_ARCH__ == 3102 || \
    __NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102
constexpr int kQueMaxOutstanding = 8;
#else
constexpr int kQueMaxOutstanding = 4;
#endif
constexpr int kNumPositions = 24;
constexpr int kNumHardEvents = 48;
constexpr int kNumEventIds = 16;
constexpr size_t kPrintfCap = 32 * 1024;
constexpr size_t kMaxPipeBuffers = 64;

// Thrown out of a failing block; the message is in the block context.
struct KernelFailure {
  int code;
};

// Registers of the vector unit that the vector APIs read and write (the
// mask register and its mode, the compare mask, scalar side registers).
// Defaults are the hardware reset state: Normal mode, full mask.
struct VecRegs {
  uint64_t mask[2] = {~uint64_t{0}, ~uint64_t{0}};  // [0] low 64 bits, [1] high
  bool counter_mode = false;                        // SetMaskCount / SetMaskNorm
  uint64_t cmp_mask[2] = {0, 0};                    // SetCmpMask / Compare to register
  float deq_scale = 1.0f;                           // SetDeqScale (int32 -> half Cast)
  uint64_t pad_value = 0;                           // SetPadValue (DataCopyPad GM -> UB), raw bits
  uint64_t rsvd_count = 0;                          // elements kept by the last GatherMask
  uint64_t reduce_max_min[2] = {0, 0};              // value bits / index of the last ReduceMax/Min
  uint64_t reduce_sum = 0;                          // value bits of the last RepeatReduceSum
};

// State of one running block. Lives on RunBlock's stack.
struct BlockContext {
  const simnpu_block_env* env = nullptr;
  uint8_t* ub_base = nullptr;
  size_t ub_size = 0;
  uintptr_t managed_lo = 0;
  uintptr_t managed_hi = 0;
  uint32_t flags = 0;
  uint32_t core_type = SIMNPU_KERNEL_AIV;
  int64_t block_idx = 0;
  void* pipe = nullptr;                        // the TPipe constructed most recently
  int32_t outstanding[kNumPositions] = {};     // allocated-not-freed queue buffers per position
  uint16_t events[kNumHardEvents][kNumEventIds] = {};  // 1 while a SetFlag waits for its WaitFlag
  uint32_t events_pending = 0;
  VecRegs vec;
  std::string print_buf;
  bool print_truncated = false;
  std::string fail_msg;
  MemcheckState memcheck;                      // memcheck.h
  // Non-zero while an atomic mode is active (SetAtomicAdd ...): GM writes are
  // then atomic read-modify-writes (checked for bounds, never races).
  uint32_t atomic_mode = 0;
  // MIX kernels (mix.h): the block's sub-core group (null for AIV/AIC
  // kernels) and this AIV's index in it (0 on the AIC).
  void* mix_group = nullptr;
  int32_t sub_block_idx = 0;
  // Mutex (mutex_barrier.h): bit i of mutex_locked set while MutexID i is
  // locked, by the pipe mutex_pipe[i]; mutex_alloc: the ids AllocMutexID gave.
  uint32_t mutex_locked = 0;
  uint32_t mutex_alloc = 0;
  uint8_t mutex_pipe[28] = {};
};

SIMNPU_ASCENDC_HIDDEN inline thread_local BlockContext* tls_ctx = nullptr;

inline BlockContext* Ctx() { return tls_ctx; }

inline uint32_t CurrentCoreType() {
  BlockContext* c = tls_ctx;
  return c != nullptr ? c->core_type : static_cast<uint32_t>(SIMNPU_KERNEL_AIV);
}

inline const char* CoreTypeName(uint32_t t) {
  return t == SIMNPU_KERNEL_AIC ? "AIC" : (t == SIMNPU_KERNEL_MIX ? "MIX" : "AIV");
}

inline const char* BaseName(const char* path) {
  if (path == nullptr) return "?";
  const char* b = path;
  for (const char* p = path; *p != '\0'; ++p) {
    if (*p == '/') b = p + 1;
  }
  return b;
}

// "[LEVEL][Block_<n>][AIV_0][file:line][func] "
inline std::string Prefix(const char* level, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  char buf[512];
  std::snprintf(buf, sizeof buf, "[%s][Block_%lld][%s_0][%s:%u][%s] ", level,
                static_cast<long long>(c != nullptr ? c->block_idx : 0),
                CoreTypeName(c != nullptr ? c->core_type : static_cast<uint32_t>(SIMNPU_KERNEL_AIV)), BaseName(loc.file), loc.line,
                loc.func != nullptr ? loc.func : "?");
  return buf;
}

inline std::string VFormat(const char* fmt, va_list ap) {
  char buf[1024];
  va_list ap2;
  va_copy(ap2, ap);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap2);
  va_end(ap2);
  if (n < 0) return std::string("(bad message format)");
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string s(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(&s[0], s.size(), fmt, ap);
  s.resize(static_cast<size_t>(n));
  return s;
}

// Fails the running block with a SIMNPU_BLOCK_* code. Outside a block (no
// context installed) there is nobody to report to: print and abort.
[[noreturn]] SIMNPU_ASCENDC_COLD inline void FailV(int code, const SrcLoc& loc, const char* fmt, va_list ap) {
  std::string msg = Prefix("ERROR", loc) + VFormat(fmt, ap);
  BlockContext* c = tls_ctx;
  if (c == nullptr) {
    std::fprintf(stderr, "%s (outside of a kernel block)\n", msg.c_str());
    std::abort();
  }
  c->fail_msg = std::move(msg);
  throw KernelFailure{code};
}

[[noreturn]] SIMNPU_ASCENDC_COLD __attribute__((format(printf, 3, 4))) inline void Fail(int code, const SrcLoc& loc, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  FailV(code, loc, fmt, ap);
}

// An API-level check failure (SIMNPU_BLOCK_CHECK_FAILED).
[[noreturn]] SIMNPU_ASCENDC_COLD __attribute__((format(printf, 2, 3))) inline void CheckFail(const SrcLoc& loc, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  FailV(SIMNPU_BLOCK_CHECK_FAILED, loc, fmt, ap);
}

// A non-fatal diagnostic through env->services->diagnostic (stderr without a block).
SIMNPU_ASCENDC_COLD SIMNPU_ASCENDC_HIDDEN __attribute__((format(printf, 3, 4))) inline void Diagnostic(int level, const SrcLoc& loc, const char* fmt, ...) {
  static const char* const kLevels[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  va_list ap;
  va_start(ap, fmt);
  std::string msg = Prefix(kLevels[level < 0 ? 0 : (level > 3 ? 3 : level)], loc) + VFormat(fmt, ap);
  va_end(ap);
  BlockContext* c = tls_ctx;
  if (c != nullptr && c->env != nullptr && c->env->services != nullptr && c->env->services->diagnostic != nullptr) {
    c->env->services->diagnostic(c->env->services_ctx, level, msg.c_str());
  } else {
    std::fprintf(stderr, "%s\n", msg.c_str());
  }
}

// Process-wide (per image) set of call sites that already reported a
// one-time diagnostic. Returns true the first time a site is seen. Each
// thread first checks a small cache of sites it already found in the set
// (same file pointer), so a site hit again and again (an unaligned DataCopy
// in a loop) does not take the lock; the set itself decides "first", so each
// site is still reported exactly once per process. A site that does not fit
// in the full set is not cached (it is reported every time, as before).
SIMNPU_ASCENDC_HIDDEN inline bool FirstTimeAtSite(const SrcLoc& loc, uint32_t kind) {
  struct Site {
    const char* file;
    uint32_t line;
    uint32_t kind;
  };
  constexpr unsigned kCached = 8;
  static thread_local Site seen[kCached];  // this thread's sites known to be in `sites`
  static thread_local unsigned seen_next = 0;
  for (const Site& c : seen) {
    if (c.file == loc.file && c.line == loc.line && c.kind == kind && c.file != nullptr) return false;
  }
  static std::mutex mu;
  static Site sites[1024];  // guarded by mu
  static size_t count = 0;  // guarded by mu
  bool first = true;
  bool in_set = false;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < count; ++i) {
      if (sites[i].line == loc.line && sites[i].kind == kind &&
          (sites[i].file == loc.file || std::strcmp(sites[i].file, loc.file) == 0)) {
        first = false;
        in_set = true;
        break;
      }
    }
    if (first && count < sizeof sites / sizeof sites[0]) {
      sites[count++] = Site{loc.file, loc.line, kind};
      in_set = true;
    }
  }
  if (in_set) seen[seen_next++ % kCached] = Site{loc.file, loc.line, kind};
  return first;
}

// ---- global memory. Addresses inside the managed window go through the
// runtime's services so that they fault and migrate; others are plain memory.
inline bool OverlapsManaged(const BlockContext* c, uintptr_t a, size_t n) {
  return c != nullptr && a < c->managed_hi && a + n > c->managed_lo;
}

SIMNPU_ASCENDC_NOINLINE inline void GmTransferSlow(BlockContext* c, bool write, uintptr_t gm, uint8_t* local, size_t n,
                                                   const SrcLoc& loc) {
  // Split [gm, gm+n) into the parts before, inside and after the window.
  size_t done = 0;
  while (done < n) {
    const uintptr_t a = gm + done;
    size_t chunk = n - done;
    const bool inside = a >= c->managed_lo && a < c->managed_hi;
    if (inside) {
      if (a + chunk > c->managed_hi) chunk = c->managed_hi - a;
      const simnpu_kernel_services* s = c->env != nullptr ? c->env->services : nullptr;
      int rc = -1;
      if (write) {
        if (s != nullptr && s->gm_write != nullptr) rc = s->gm_write(c->env->services_ctx, reinterpret_cast<void*>(a), local + done, chunk);
      } else {
        if (s != nullptr && s->gm_read != nullptr) rc = s->gm_read(c->env->services_ctx, local + done, reinterpret_cast<const void*>(a), chunk);
      }
      if (rc != 0) {
        Fail(SIMNPU_BLOCK_GM_FAULT, loc, "global memory %s of %zu bytes at %p (managed memory) failed with error %d",
             write ? "write" : "read", chunk, reinterpret_cast<void*>(a), rc);
      }
    } else {
      if (a < c->managed_lo && a + chunk > c->managed_lo) chunk = c->managed_lo - a;
      if (write) {
        std::memcpy(reinterpret_cast<void*>(a), local + done, chunk);
      } else {
        std::memcpy(local + done, reinterpret_cast<const void*>(a), chunk);
      }
    }
    done += chunk;
  }
}

// ---- the memory check (memcheck.h): every GM access passes here.
SIMNPU_ASCENDC_NOINLINE SIMNPU_ASCENDC_COLD inline void GmCheckSlow(BlockContext* c, uintptr_t a, size_t n,
                                                                  uint32_t access, const SrcLoc& loc) {
  char msg[1024];
  msg[0] = '\0';
  if (MemcheckSlow(c->memcheck, c->env, a, n, access, loc.file, loc.line, msg, sizeof msg) != 0) {
    Fail(SIMNPU_BLOCK_GM_FAULT, loc, "%s", msg);
  }
}

inline void GmCheck(BlockContext* c, uintptr_t a, size_t n, uint32_t access, const SrcLoc& loc) {
  if (c == nullptr || c->memcheck.mode == 0 || n == 0) return;
  if (__builtin_expect(MemcheckFast(c->memcheck, a, n), 1)) return;
  GmCheckSlow(c, a, n, access, loc);
}

// For code that reaches global memory another way than GmRead / GmWrite:
// checks (and traces) an access of n bytes at gm.
inline void GmTouch(const void* gm, size_t n, uint32_t access, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  GmCheck(c, reinterpret_cast<uintptr_t>(gm), n, access, loc);
}

// For an all-blocks synchronisation (SyncAll and the like): accesses on the
// two sides of it never race (racecheck).
inline void GmBarrier() {
  BlockContext* c = tls_ctx;
  if (c == nullptr || (c->memcheck.mode & SIMNPU_MEMCHECK_RACE) == 0 || c->env->services->mem_trace == nullptr) return;
  c->env->services->mem_trace(c->env->services_ctx, 0, 0, SIMNPU_ACCESS_BARRIER, nullptr, 0, nullptr, 0);
}

// GM -> local memory.
inline void GmRead(void* dst, const void* gm_src, size_t n, const SrcLoc& loc) {
  if (n == 0) return;
  BlockContext* c = tls_ctx;
  const uintptr_t a = reinterpret_cast<uintptr_t>(gm_src);
  GmCheck(c, a, n, SIMNPU_ACCESS_READ, loc);
  if (__builtin_expect(OverlapsManaged(c, a, n), 0)) {
    GmTransferSlow(c, false, a, static_cast<uint8_t*>(dst), n, loc);
    return;
  }
  std::memcpy(dst, gm_src, n);
}

// local memory -> GM.
inline void GmWrite(void* gm_dst, const void* src, size_t n, const SrcLoc& loc) {
  if (n == 0) return;
  BlockContext* c = tls_ctx;
  const uintptr_t a = reinterpret_cast<uintptr_t>(gm_dst);
  GmCheck(c, a, n, c != nullptr && c->atomic_mode != 0 ? SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC : SIMNPU_ACCESS_WRITE,
          loc);
  if (__builtin_expect(OverlapsManaged(c, a, n), 0)) {
    GmTransferSlow(c, true, a, const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), n, loc);
    return;
  }
  std::memcpy(gm_dst, src, n);
}

}  // namespace detail

// Fails the block as a trap (asm("trap") is rewritten to a call of this).
[[noreturn]] SIMNPU_ASCENDC_COLD inline void Trap(SIMNPU_ASCENDC_LOC_PARAM) {
  detail::Fail(SIMNPU_BLOCK_TRAP, simnpuLoc, "trap: the kernel executed a trap instruction");
}

}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_CONTEXT_H_
