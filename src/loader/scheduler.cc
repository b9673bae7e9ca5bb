// BlockScheduler: block execution, wild-access containment, busy tracking.
#include "loader/scheduler.h"

#include <setjmp.h>
#include <signal.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cfenv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <cstring>

#include "core/stream.h"
#include "dfx/log.h"
#include "loader/launch_check.h"
#include "platform/clock.h"
#include "platform/env.h"
#include "sim/memory_path.h"
#include "uvm/engine.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SIMNPU_NO_SIGNAL_GUARD 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SIMNPU_NO_SIGNAL_GUARD 1
#endif
#endif

namespace simnpu::loader {
namespace {

constexpr int kVectorCoreException = 507035;  // ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
constexpr int kAicoreException = 507015;      // ACL_ERROR_RT_AICORE_EXCEPTION
constexpr size_t kUbAlloc = 256 * 1024;       // the largest UB of any SOC
// Per block. The kernel library already keeps a block's output to the NPU's
// default FIFO (32 KiB) and then appends a note saying it dropped the rest;
// this cap only guards against images that do not, and leaves room for the note.
constexpr size_t kPrintfCap = 32 * 1024 + 1024;

// ---- floating-point overflow flags of a block (aclrtGetOverflowStatus)
//
// A block's float overflow and invalid-operation flags are what the overflow
// detection reports. feclearexcept reloads the whole x87 environment
// (fnstenv/fldenv, hundreds of cycles: a few percent of an empty launch), so
// on x86-64 the flags are cleared only when set and read straight from MXCSR
// (SSE arithmetic) and the x87 status word (long double).
#if defined(__x86_64__)
constexpr unsigned kMxcsrFlags = 0x01u | 0x08u;  // IE | OE
constexpr unsigned short kX87Flags = 0x01u | 0x08u;
inline unsigned short X87Status() {
  unsigned short sw;
  __asm__ volatile("fnstsw %0" : "=am"(sw));
  return sw;
}
inline void ClearFpFlags() {
  const unsigned m = _mm_getcsr();
  if (m & kMxcsrFlags) _mm_setcsr(m & ~kMxcsrFlags);
  if (X87Status() & kX87Flags) __asm__ volatile("fnclex");
}
inline bool FpFlagsRaised() { return (_mm_getcsr() & kMxcsrFlags) != 0 || (X87Status() & kX87Flags) != 0; }
#else
inline void ClearFpFlags() { std::feclearexcept(FE_OVERFLOW | FE_INVALID); }
inline bool FpFlagsRaised() { return std::fetestexcept(FE_OVERFLOW | FE_INVALID) != 0; }
#endif

// ---- per-thread block context for the services and the signal guard
struct BlockCtx {
  Job* job;
  uint32_t block;
};

// This thread's unified buffer (allocated on its first block, freed when the
// thread ends: stream worker threads come and go with their streams).
struct UbHolder {
  char* p = nullptr;
  ~UbHolder() { std::free(p); }
};
thread_local UbHolder tls_ub;
thread_local sigjmp_buf tls_jmp;
thread_local volatile sig_atomic_t tls_in_block = 0;
thread_local volatile sig_atomic_t tls_signal = 0;
struct sigaction g_old_segv, g_old_bus;

[[maybe_unused]] void GuardHandler(int sig, siginfo_t* info, void* uctx) {
  if (tls_in_block) {
    tls_signal = sig;
    tls_in_block = 0;
    siglongjmp(tls_jmp, 1);
  }
  // Not ours: chain to the previous disposition.
  struct sigaction* old = sig == SIGSEGV ? &g_old_segv : &g_old_bus;
  if (old->sa_flags & SA_SIGINFO) {
    old->sa_sigaction(sig, info, uctx);
    return;
  }
  if (old->sa_handler == SIG_IGN) return;
  if (old->sa_handler != SIG_DFL) {
    old->sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// The guard handler must run on an alternate stack: a kernel that overflows
// its thread's stack faults on the guard page, and the handler could not run
// on the exhausted stack (the process would die of a second SIGSEGV). Each
// thread that runs blocks gets one on its first block; it is released when
// the thread ends.
#ifndef SIMNPU_NO_SIGNAL_GUARD
struct AltStack {
  void* mem = nullptr;
  bool checked = false;
  ~AltStack() {
    if (!mem) return;
    stack_t off;
    std::memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    std::free(mem);
  }
};
thread_local AltStack tls_altstack;

void EnsureAltStack() {
  if (tls_altstack.checked) return;
  tls_altstack.checked = true;
  stack_t cur;
  if (sigaltstack(nullptr, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) return;  // the thread has one
  const size_t size = std::max<size_t>(static_cast<size_t>(SIGSTKSZ), 64 * 1024);
  void* mem = std::malloc(size);
  if (!mem) return;
  stack_t ss;
  std::memset(&ss, 0, sizeof ss);
  ss.ss_sp = mem;
  ss.ss_size = size;
  if (sigaltstack(&ss, nullptr) != 0) {
    std::free(mem);
    return;
  }
  tls_altstack.mem = mem;
}
#else
void EnsureAltStack() {}
#endif

void InstallGuard() {
#ifndef SIMNPU_NO_SIGNAL_GUARD
  if (!platform::GetEnvBool("SIMNPU_KERNEL_SIGNAL_GUARD", true)) return;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = GuardHandler;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_old_segv);
  sigaction(SIGBUS, &sa, &g_old_bus);
#endif
}

int GmRead(void* ctx, void* dst, const void* src, size_t n) {
  auto* c = static_cast<BlockCtx*>(ctx);
  Status st = sim::DeviceRead(c->job->phys_id, dst, src, n, sim::AccessCause::kKernel);
  return st.ok() ? 0 : st.code();
}
int GmWrite(void* ctx, void* dst, const void* src, size_t n) {
  auto* c = static_cast<BlockCtx*>(ctx);
  Status st = sim::DeviceWrite(c->job->phys_id, dst, src, n, sim::AccessCause::kKernel);
  return st.ok() ? 0 : st.code();
}
void Print(void* ctx, const char* text, size_t n) {
  auto* c = static_cast<BlockCtx*>(ctx);
  Job& job = *c->job;
  std::call_once(job.printf_once, [&job] { job.printf_out.reset(new std::string[job.num_blocks]); });
  std::string& out = job.printf_out[c->block];
  if (out.size() >= kPrintfCap) return;
  out.append(text, std::min(n, kPrintfCap - out.size()));
}
void Diagnostic(void* ctx, int level, const char* text) {
  auto* c = static_cast<BlockCtx*>(ctx);
  if (level >= 3) SIMNPU_LOGE(kRuntime, "kernel %s block %u: %s", c->job->desc->name, c->block, text);
  else SIMNPU_LOGW(kRuntime, "kernel %s block %u: %s", c->job->desc->name, c->block, text);
  if (level >= 2) std::fprintf(stderr, "[simnpu] kernel %s, block %u: %s\n", c->job->desc->name, c->block, text);
}

int MemResolve(void* ctx, uintptr_t addr, size_t n, uint32_t access, simnpu_mem_range* out, char* why,
               size_t cap) {
  auto* c = static_cast<BlockCtx*>(ctx);
  if (!c->job->check) return 0;
  return c->job->check->Resolve(addr, n, access, out, why, cap);
}
int MemTrace(void* ctx, uintptr_t addr, size_t n, uint32_t access, const char* file, uint32_t line, char* why,
             size_t cap) {
  auto* c = static_cast<BlockCtx*>(ctx);
  if (!c->job->check) return 0;
  return c->job->check->Trace(c->block, addr, n, access, file, line, why, cap);
}

int ExceptionCode(const Job& job) {
  return job.core_type == SIMNPU_KERNEL_AIV ? kVectorCoreException : kAicoreException;
}

// SyncAll / IBWait: co-residency of the launch's blocks and barriers.
int BlockSync(void* ctx, uint32_t op, uint32_t count, char* why, size_t cap) {
  auto* c = static_cast<BlockCtx*>(ctx);
  Job& job = *c->job;
  if (job.max_parallel != 0 && job.num_blocks > job.max_parallel) {
    std::snprintf(why, cap,
                  "the launch has %u blocks and the device %u cores: its blocks cannot all run at once "
                  "(numBlocks must not exceed the cores; the NPU would hang here)",
                  job.num_blocks, job.max_parallel);
    return ExceptionCode(job);
  }
  if (count > job.num_blocks) {
    std::snprintf(why, cap, "%u blocks asked to synchronise, the launch has %u", count, job.num_blocks);
    return ExceptionCode(job);
  }
  if (!job.coresident.exchange(true)) BlockScheduler::Get().SpawnBlockThreads(job);
  if (op != SIMNPU_SYNC_BARRIER) return 0;
  const uint32_t want = count != 0 ? count : job.num_blocks;
  std::unique_lock<std::mutex> lk(job.sync_mu);
  if (job.sync_waiting == 0) job.sync_want = want;
  if (want != job.sync_want) {
    std::snprintf(why, cap, "block %u waits for %u blocks at a barrier where other blocks wait for %u", c->block, want,
                  job.sync_want);
    job.sync_stuck = true;
    job.sync_cv.notify_all();
    return ExceptionCode(job);
  }
  const uint64_t gen = job.sync_gen;
  if (++job.sync_waiting >= want) {
    job.sync_waiting = 0;
    ++job.sync_gen;
    job.sync_cv.notify_all();
    return 0;
  }
  if (job.sync_waiting + job.sync_ended.load() >= job.num_blocks) {
    job.sync_stuck = true;
    job.sync_cv.notify_all();
  }
  job.sync_cv.wait(lk, [&] { return job.sync_gen != gen || job.sync_stuck || job.failed.load(); });
  if (job.sync_gen != gen) return 0;
  --job.sync_waiting;
  std::snprintf(why, cap, "%s",
                job.failed.load() ? "another block of the launch failed before reaching the barrier"
                                  : "the barrier can never complete: blocks of the launch ended without reaching it");
  return ExceptionCode(job);
}

const simnpu_kernel_services kServices = {SIMNPU_KERNEL_ABI_VERSION, GmRead, GmWrite, Print, Diagnostic,
                                          MemResolve, MemTrace, BlockSync};

}  // namespace

// How long an idle helper polls for the next job before sleeping
// (SIMNPU_HELPER_SPIN_US, default 50).
static uint64_t HelperSpinNs() {
  static const uint64_t ns = static_cast<uint64_t>(platform::GetEnvInt("SIMNPU_HELPER_SPIN_US", 50)) * 1000;
  return ns;
}

BlockScheduler& BlockScheduler::Get() {
  static BlockScheduler* s = new BlockScheduler();
  return *s;
}

BlockScheduler::BlockScheduler() {
  InstallGuard();
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int64_t threads = platform::GetEnvInt("SIMNPU_AICORE_THREADS", cores > 0 ? cores : 1);
  if (threads < 1) threads = 1;
  if (threads > cores && cores > 0) threads = cores;  // never more than the machine's cores
  for (int64_t i = 1; i < threads; ++i) {
    helpers_.emplace_back([this] { HelperMain(); });
    helpers_.back().detach();
  }
#ifdef SIMNPU_NO_SIGNAL_GUARD
  // Sanitizer builds: idle helpers end at exit, before LeakSanitizer's
  // check. A helper that ran blocks of a since-unloaded kernel image keeps
  // a thread-local pointer into that module, and the leak check of a live
  // thread reads it and crashes.
  std::atexit([] { Get().StopHelpersAtExit(); });
#endif
}

void BlockScheduler::StopHelpersAtExit() {
  {
    std::lock_guard<std::mutex> g(mu_);
    quit_ = true;
  }
  cv_.notify_all();
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (live_helpers_.load() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void BlockScheduler::HelperMain() {
  live_helpers_.fetch_add(1);
  for (;;) {
    Job* job = nullptr;
    // Spin briefly (on an atomic, not the lock), then sleep until a job wants help.
    while (platform::SpinUntil([this] { return queued_.load(std::memory_order_acquire) > 0; }, HelperSpinNs())) {
      std::lock_guard<std::mutex> g(mu_);
      job = TakeJobLocked();
      if (job) break;
    }
    if (!job) {
      std::unique_lock<std::mutex> lk(mu_);
      sleeping_.fetch_add(1);
      cv_.wait(lk, [this] { return !jobs_.empty() || quit_; });
      sleeping_.fetch_sub(1);
      if (quit_ && jobs_.empty()) {
        live_helpers_.fetch_sub(1);
        return;
      }
      job = TakeJobLocked();
    }
    RunBlocks(*job, true);
  }
}

Job* BlockScheduler::TakeJobLocked() {
  if (jobs_.empty()) return nullptr;
  Job* job = jobs_.front();
  job->running_helpers.fetch_add(1);
  // a job with all the helpers its core limit allows wants no more
  if (--job->helper_slots == 0) jobs_.pop_front();
  queued_.store(static_cast<int>(jobs_.size()), std::memory_order_release);
  return job;
}

int BlockScheduler::RunOneBlock(Job& job, uint32_t logical, std::string* msg) {
  if (!tls_ub.p) {
    tls_ub.p = static_cast<char*>(std::aligned_alloc(64, kUbAlloc));
  }
  EnsureAltStack();
  BlockCtx ctx{&job, logical};
  char err[1024];
  err[0] = '\0';
  simnpu_block_env env;
  std::memset(&env, 0, sizeof env);
  env.abi_version = SIMNPU_KERNEL_ABI_VERSION;
  env.core_type = job.core_type;
  env.block_idx = static_cast<int64_t>(job.block_offset) + logical;
  env.block_num = job.num_blocks;
  env.device_id = job.device_id;
  env.npu_arch = job.npu_arch;
  env.ub_base = tls_ub.p;
  env.ub_size = std::min(job.ub_size, kUbAlloc);
  uvm::Engine& eng = uvm::Engine::Get();
  if (eng.mode() != uvm::Mode::kUninitialized) {
    env.managed_base = eng.space().base();
    env.managed_size = eng.space().size();
  }
  env.services = &kServices;
  env.services_ctx = &ctx;
  env.error_msg = err;
  env.error_msg_cap = sizeof err;
  env.flags = job.env_flags | SIMNPU_ENV_FLAG_EXT | SIMNPU_ENV_FLAG_SYNC;
  if (job.check) {
    env.memcheck = job.check->mode();
    env.mem_range_count = static_cast<uint32_t>(job.check->ranges().size());
    env.mem_ranges = job.check->ranges().data();
  }
  int rc;
  tls_signal = 0;
  // No signal mask is saved: the guard handler runs with SA_NODEFER and an
  // empty sa_mask, so jumping out of it leaves the mask as it was (saving it
  // would cost a system call per block).
  if (sigsetjmp(tls_jmp, 0) == 0) {
    tls_in_block = 1;
    ClearFpFlags();
    rc = job.desc->run_block(&env, job.argv);
    if (FpFlagsRaised()) job.fp_overflow.store(true, std::memory_order_relaxed);
    tls_in_block = 0;
  } else {
    rc = SIMNPU_BLOCK_GM_FAULT;
    std::snprintf(err, sizeof err, "block %lld made an invalid memory access (signal %d)",
                  static_cast<long long>(env.block_idx), static_cast<int>(tls_signal));
  }
  if (rc != SIMNPU_BLOCK_OK) *msg = err[0] ? err : "the kernel failed";
  return rc;
}

void BlockScheduler::RunBlocks(Job& job, bool is_helper) {
  for (;;) {
    uint32_t i = job.next.fetch_add(1);
    if (i >= job.num_blocks) break;
    if (!job.failed.load(std::memory_order_relaxed)) {
      std::string msg;
      const uint64_t t0 = platform::NowNs();
      int rc = RunOneBlock(job, i, &msg);
      job.block_ns.fetch_add(platform::NowNs() - t0, std::memory_order_relaxed);
      if (rc != SIMNPU_BLOCK_OK) {
        std::lock_guard<std::mutex> g(job.mu);
        if (!job.failed.exchange(true)) {
          job.fail_code = job.core_type == SIMNPU_KERNEL_AIV ? kVectorCoreException : kAicoreException;
          job.fail_msg = msg;
          job.fail_block = i;
        }
      }
      job.sync_ended.fetch_add(1);
      if (job.coresident.load()) {
        // a barrier whose missing blocks have all ended can never complete
        std::lock_guard<std::mutex> g(job.sync_mu);
        if (job.sync_waiting > 0 && job.sync_waiting + job.sync_ended.load() >= job.num_blocks) job.sync_stuck = true;
        job.sync_cv.notify_all();
      }
    }
    if (job.done.fetch_add(1) + 1 == job.num_blocks) {
      std::lock_guard<std::mutex> g(job.mu);
      job.cv.notify_all();
    }
  }
  if (is_helper) {
    {
      std::lock_guard<std::mutex> g(mu_);
      auto it = std::find(jobs_.begin(), jobs_.end(), &job);
      if (it != jobs_.end()) jobs_.erase(it);  // nothing left to start
      queued_.store(static_cast<int>(jobs_.size()), std::memory_order_release);
    }
    // Last touch of the job by a helper, under job.mu: the owner may free the
    // job as soon as it can take job.mu after seeing running_helpers == 0.
    std::lock_guard<std::mutex> g(job.mu);
    job.running_helpers.fetch_sub(1);
    job.cv.notify_all();
  }
}

int BlockScheduler::Run(Job& job) {
  if (job.num_blocks == 0) return 0;
  const uint64_t start = platform::NowNs();
  unsigned want = std::min<unsigned>(job.max_parallel ? job.max_parallel : 1u << 30, job.num_blocks);
  bool shared = !job.solo && want > 1 && !helpers_.empty();
  if (!shared && job.num_blocks == 1) {
    // One block on this thread (most short launches, and every replayed
    // one): no helper hand-shake, one pair of clock reads.
    job.next.store(1, std::memory_order_relaxed);
    std::string msg;
    const int rc = RunOneBlock(job, 0, &msg);
    const uint64_t end = platform::NowNs();
    job.block_ns.store(end - start, std::memory_order_relaxed);
    job.done.store(1, std::memory_order_relaxed);
    if (rc != SIMNPU_BLOCK_OK) {
      job.failed.store(true);
      job.fail_code = job.core_type == SIMNPU_KERNEL_AIV ? kVectorCoreException : kAicoreException;
      job.fail_msg = msg;
      job.fail_block = 0;
    }
    NoteBusy(job.phys_id, start, end);
    return job.failed.load() ? job.fail_code : 0;
  }
  if (shared) {
    std::lock_guard<std::mutex> g(mu_);
    job.helper_slots = want - 1;  // this thread runs blocks too
    jobs_.push_back(&job);
    queued_.store(static_cast<int>(jobs_.size()), std::memory_order_release);
    // Wake only as many sleeping helpers as the job has slots (spinning
    // helpers may take some first; an extra one woken goes back to sleep).
    const int wake = std::min<int>(static_cast<int>(want - 1), sleeping_.load());
    for (int i = 0; i < wake; ++i) cv_.notify_one();
  }
  RunBlocks(job, false);
  if (shared) {
    std::lock_guard<std::mutex> g(mu_);
    auto it = std::find(jobs_.begin(), jobs_.end(), &job);
    if (it != jobs_.end()) jobs_.erase(it);
    queued_.store(static_cast<int>(jobs_.size()), std::memory_order_release);
  }
  // Helpers finishing their last block are usually a few microseconds
  // away: spin for them before sleeping (a futex wake-up costs 20-90 us).
  auto finished = [&] { return job.done.load() >= job.num_blocks && job.running_helpers.load() == 0; };
  if (platform::SpinUntil(finished, core::SpinBudgetNs())) {
    // The last helper drops running_helpers to 0 while holding job.mu and
    // then still notifies and unlocks: wait for it to let go of the mutex
    // before `job` (a local of the caller) is destroyed.
    std::lock_guard<std::mutex> g(job.mu);
  } else {
    std::unique_lock<std::mutex> lk(job.mu);
    job.cv.wait(lk, finished);
  }
  NoteBusy(job.phys_id, start, platform::NowNs());
  return job.failed.load() ? job.fail_code : 0;
}

void BlockScheduler::SpawnBlockThreads(Job& job) {
  const uint32_t started = std::min(job.next.load(), job.num_blocks);
  const uint32_t n = job.num_blocks - started;
  for (uint32_t i = 0; i < n; ++i) {
    job.running_helpers.fetch_add(1);  // Run() waits for these threads before the job ends
    std::thread([this, &job] { RunBlocks(job, true); }).detach();
  }
}

void BlockScheduler::NoteBusy(int phys, uint64_t start_ns, uint64_t end_ns) {
  std::lock_guard<std::mutex> g(busy_mu_);
  // Back-to-back launches (within 2 us) extend the last interval.
  if (!busy_.empty() && busy_.back().phys == phys && start_ns >= busy_.back().end &&
      start_ns - busy_.back().end < 2000) {
    busy_.back().end = end_ns;
    return;
  }
  busy_.push_back({phys, start_ns, end_ns});
  while (!busy_.empty() && busy_.front().end + 1000000000ull < end_ns) busy_.pop_front();
  while (busy_.size() > 4096) busy_.pop_front();
}

int BlockScheduler::BusyPercent(int phys) {
  const uint64_t now = platform::NowNs(), from = now - 1000000000ull;
  uint64_t busy = 0;
  std::lock_guard<std::mutex> g(busy_mu_);
  for (const Interval& iv : busy_) {
    if (iv.phys != phys || iv.end <= from) continue;
    busy += iv.end - std::max(iv.start, from);
  }
  return static_cast<int>(std::min<uint64_t>(100, busy / 10000000ull));
}

}  // namespace simnpu::loader
