// simnpu Ascend C model: mixed (cube + vector) kernels.
//
// On the split SOCs (2201, 3510) a block of a MIX kernel (__mix__(1, 2)) runs as one
// AIC and two AIV sub-cores, each on its own thread with its own block
// context and local memories (L1/L0 per thread; AIV 0 uses the block's UB
// from the runtime, AIV 1 a UB of the same size of its own, the AIC none).
// The kernel body runs on all three; ASCEND_IS_AIC / ASCEND_IS_AIV and
// g_coreType tell them apart. GetBlockIdx() is the block on the AIC and
// block * 2 + GetSubBlockIdx() on an AIV; GetTaskRation() is 2 on an AIV.
//
// CrossCoreSetFlag / CrossCoreWaitFlag: each core has a 4-bit counter per
// flag id (0..15, at most 15 pending sets). Mode 2: a set on the AIC counts
// one on each AIV; the sets of both AIVs together count one on the AIC.
// Mode 1: the sets of both AIVs count one on each AIV. A wait takes one
// count, blocking while there is none. When every unfinished sub-core of the
// block waits, nothing can set a flag: the NPU would hang, the model fails
// the block with the flag ids in the message. A sub-core that fails wakes
// the others, which stop. Mode 0: a set by an AIC (AIV) returns once every
// AIC (AIV) of the launch has set the flag, then counts one on the setting
// core itself, so the following wait passes; it needs the blocks at once
// (the SyncAll machinery: multicore.h) and works in MIX, AIC-only and
// AIV-only kernels (there the core's own counters, per thread). In a MIX
// block the two AIVs meet first, then one of them joins the launch-wide
// barrier; the AIC and the AIVs of one kernel cannot both use mode 0 (one
// barrier per block). State: MixGroup, guarded by its mutex; the block
// contexts are per thread.
#ifndef SIMNPU_ASCENDC_MIX_H_
#define SIMNPU_ASCENDC_MIX_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <condition_variable>
#include <thread>

// SOCs whose AI cores are split into cube (AIC) and vector (AIV) cores; on
// the others (coupled cores) a MIX block runs on one core with both units.
#if __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510
#define SIMNPU_ASCENDC_SPLIT_CORES 1
#else
#define SIMNPU_ASCENDC_SPLIT_CORES 0
#endif

namespace AscendC {
// g_coreType values.
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr int kCrossFlags = 16;
constexpr int kMixAivPerAic = 2;

struct MixGroup {
  std::mutex mu;
  std::condition_variable cv;
  int running = kMixAivPerAic + 1;  // sub-cores not finished (guarded by mu)
  int waiting = 0;                  // sub-cores blocked in CrossCoreWaitFlag (mu)
  bool failed = false;              // a sub-core failed (mu)
  int first_fail = -1;              // the sub-core that failed first (mu)
  const uint8_t* wait_on[kMixAivPerAic + 1] = {};  // the counter each sub-core waits on, or null (mu)
  uint8_t aic_cnt[kCrossFlags] = {};                      // mu
  uint8_t aiv_cnt[kMixAivPerAic][kCrossFlags] = {};       // mu
  uint8_t to_aic[kMixAivPerAic][kCrossFlags] = {};        // mode-2 sets of each AIV not yet paired (mu)
  uint8_t to_aiv[kMixAivPerAic][kCrossFlags] = {};        // mode-1 sets of each AIV not yet paired (mu)
  uint8_t m0_arrived[kCrossFlags] = {};                   // AIVs in the mode-0 set of a flag (mu)
  uint8_t m0_release[kMixAivPerAic][kCrossFlags] = {};    // 1: that AIV's mode-0 set may return (mu)
  int m0_type = -1;                                       // core type that used mode 0 in this block (mu)
  std::mutex print_mu;  // serialises the sub-cores' printf flush into the runtime
};

SIMNPU_ASCENDC_HIDDEN inline thread_local MixGroup* tls_next_group = nullptr;
SIMNPU_ASCENDC_HIDDEN inline thread_local int tls_next_sub = 0;

// Thrown to stop a sub-core because another one failed (not its own failure).
constexpr int kSecondaryFailure = -12345;

// multicore.h: the launch-wide barrier of SyncAll.
inline bool BlockSync(const char* api, uint32_t op, uint32_t count, const SrcLoc& loc);

// Sub-core index of the running core: 0 for the AIC, 1 + AIV index for an AIV.
inline int SubCoreId(const BlockContext& c) { return c.core_type == SIMNPU_KERNEL_AIC ? 0 : 1 + c.sub_block_idx; }

[[noreturn]] SIMNPU_ASCENDC_COLD inline void CrossFail(const SrcLoc& loc, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  FailV(SIMNPU_BLOCK_CHECK_FAILED, loc, fmt, ap);
}

inline void Bump(uint8_t& cnt, uint16_t flag, const char* where, const SrcLoc& loc) {
  if (cnt >= 15) {
    CrossFail(loc, "CrossCoreSetFlag(%u): the %s counter of flag %u already holds 15 sets (the NPU keeps at most 15)", flag,
              where, flag);
  }
  ++cnt;
}

inline MixGroup* RequireGroupOrSolo(const char* api, int mode, uint16_t flag, const SrcLoc& loc);
inline MixGroup& RequireGroup(const char* api, int mode, uint16_t flag, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "%s called outside of a kernel block", api);
  if (flag >= kCrossFlags) CheckFail(loc, "%s: flagId %u out of range [0, %d]", api, flag, kCrossFlags - 1);
  if (mode < 0 || mode > 2) CheckFail(loc, "%s: modeId %d out of range [0, 2]", api, mode);
  MixGroup* g = static_cast<MixGroup*>(c->mix_group);
  if (g == nullptr) {
    CheckFail(loc, "%s<%d>(%u) in a block of an %s kernel: it has no AIC/AIV partner cores (declare the kernel __mix__(1, 2))",
              api, mode, flag, CoreTypeName(c->core_type));
  }
  return *g;
}

inline MixGroup* RequireGroupOrSolo(const char* api, int mode, uint16_t flag, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "%s called outside of a kernel block", api);
  if (flag >= kCrossFlags) CheckFail(loc, "%s: flagId %u out of range [0, %d]", api, flag, kCrossFlags - 1);
  (void)mode;
  return static_cast<MixGroup*>(c->mix_group);
}

// The flag counters of a core outside a MIX block (AIC-only or AIV-only
// kernels, where only mode 0 has partners): per thread, for the block that
// runs on it.
struct SoloFlags {
  const void* owner = nullptr;
  int64_t block = -1;
  uint8_t cnt[kCrossFlags] = {};
};
SIMNPU_ASCENDC_HIDDEN inline thread_local SoloFlags tls_solo_flags;
inline uint8_t* SoloCounters() {
  BlockContext* c = tls_ctx;
  SoloFlags& f = tls_solo_flags;
  const int64_t blk = c->env != nullptr ? c->env->block_idx : -1;
  if (f.owner != c || f.block != blk) {
    f = SoloFlags{};
    f.owner = c;
    f.block = blk;
  }
  return f.cnt;
}

// Mode 0: the launch-wide meeting of every core of the setting core's type.
inline void CrossSetAll(uint16_t flag, const SrcLoc& loc) {
  BlockContext& c = *tls_ctx;
  MixGroup* g = static_cast<MixGroup*>(c.mix_group);
  if (g == nullptr) {
    BlockSync("CrossCoreSetFlag<0>", SIMNPU_SYNC_BARRIER, 0, loc);
    Bump(SoloCounters()[flag], flag, "own", loc);
    return;
  }
  {
    std::lock_guard<std::mutex> lk(g->mu);
    const int type = static_cast<int>(c.core_type);
    if (g->m0_type >= 0 && g->m0_type != type) {
      CrossFail(loc, "CrossCoreSetFlag<0>(%u): the AIC and the AIVs of a MIX kernel both use mode 0; the model "
                "synchronises one core type per kernel with it", flag);
    }
    g->m0_type = type;
  }
  if (c.core_type == SIMNPU_KERNEL_AIC) {
    BlockSync("CrossCoreSetFlag<0>", SIMNPU_SYNC_BARRIER, 0, loc);
    std::lock_guard<std::mutex> lk(g->mu);
    Bump(g->aic_cnt[flag], flag, "AIC", loc);
    g->cv.notify_all();
    return;
  }
  const int s = c.sub_block_idx;
  const int sub = SubCoreId(c);
  std::unique_lock<std::mutex> lk(g->mu);
  if (++g->m0_arrived[flag] < kMixAivPerAic) {
    // the other AIV joins the launch's barrier for both
    ++g->waiting;
    g->wait_on[sub] = &g->m0_release[s][flag];
    for (;;) {
      if (g->m0_release[s][flag] != 0) {
        g->m0_release[s][flag] = 0;
        --g->waiting;
        g->wait_on[sub] = nullptr;
        return;
      }
      if (g->failed) {
        --g->waiting;
        g->wait_on[sub] = nullptr;
        c.fail_msg = Prefix("ERROR", loc) + "stopped: another core of the block failed";
        throw KernelFailure{kSecondaryFailure};
      }
      int blocked = 0;
      for (const uint8_t* w : g->wait_on) blocked += w != nullptr && *w == 0;
      if (blocked == g->running) {
        --g->waiting;
        g->wait_on[sub] = nullptr;
        lk.unlock();
        CrossFail(loc, "CrossCoreSetFlag<0>(%u) on AIV %d would wait forever: the other AIV of the block never sets it and "
                  "every unfinished core of the block is waiting (the NPU would hang here)", flag, s);
      }
      g->cv.wait(lk);
    }
  }
  g->m0_arrived[flag] = 0;
  lk.unlock();
  BlockSync("CrossCoreSetFlag<0>", SIMNPU_SYNC_BARRIER, 0, loc);
  lk.lock();
  for (int v = 0; v < kMixAivPerAic; ++v) {
    Bump(g->aiv_cnt[v][flag], flag, "AIV", loc);
    if (v != s) g->m0_release[v][flag] = 1;
  }
  g->cv.notify_all();
}

inline void CrossSet(int mode, uint16_t flag, const SrcLoc& loc) {
  if (mode == 0) {
    RequireGroupOrSolo("CrossCoreSetFlag", mode, flag, loc);
    CrossSetAll(flag, loc);
    return;
  }
  MixGroup& g = RequireGroup("CrossCoreSetFlag", mode, flag, loc);
  BlockContext& c = *tls_ctx;
  std::lock_guard<std::mutex> lk(g.mu);
  if (c.core_type == SIMNPU_KERNEL_AIC) {
    if (mode == 1) CrossFail(loc, "CrossCoreSetFlag<1>(%u) on the AIC: mode 1 synchronises the AIVs of a block", flag);
    for (int v = 0; v < kMixAivPerAic; ++v) Bump(g.aiv_cnt[v][flag], flag, "AIV", loc);
  } else {
    const int s = c.sub_block_idx;
    uint8_t(*pend)[kCrossFlags] = mode == 2 ? g.to_aic : g.to_aiv;
    Bump(pend[s][flag], flag, "pending", loc);
    bool all = true;
    for (int v = 0; v < kMixAivPerAic; ++v) all = all && pend[v][flag] > 0;
    if (all) {
      for (int v = 0; v < kMixAivPerAic; ++v) --pend[v][flag];
      if (mode == 2) {
        Bump(g.aic_cnt[flag], flag, "AIC", loc);
      } else {
        for (int v = 0; v < kMixAivPerAic; ++v) Bump(g.aiv_cnt[v][flag], flag, "AIV", loc);
      }
    }
  }
  g.cv.notify_all();
}


inline void CrossWait(int mode, uint16_t flag, const SrcLoc& loc) {
  if (tls_ctx != nullptr && tls_ctx->mix_group == nullptr) {
    // outside a MIX block only the core's own mode-0 sets count on it
    RequireGroupOrSolo("CrossCoreWaitFlag", mode, flag, loc);
    uint8_t& own = SoloCounters()[flag];
    if (own == 0) {
      CrossFail(loc, "CrossCoreWaitFlag(%u) on the %s would wait forever: outside a MIX kernel only the core's "
                "own CrossCoreSetFlag<0>(%u) can count on it, and none is pending (the NPU would hang here)", flag, CoreTypeName(tls_ctx->core_type), flag);
    }
    --own;
    return;
  }
  MixGroup& g = RequireGroup("CrossCoreWaitFlag", mode, flag, loc);
  BlockContext& c = *tls_ctx;
  uint8_t& cnt = c.core_type == SIMNPU_KERNEL_AIC ? g.aic_cnt[flag] : g.aiv_cnt[c.sub_block_idx][flag];
  const int sub = SubCoreId(c);
  std::unique_lock<std::mutex> lk(g.mu);
  ++g.waiting;
  g.wait_on[sub] = &cnt;
  for (;;) {
    if (cnt > 0) {
      --cnt;
      --g.waiting;
      g.wait_on[sub] = nullptr;
      return;
    }
    int blocked = 0;  // waiting sub-cores that nothing woken can release
    for (const uint8_t* w : g.wait_on) blocked += w != nullptr && *w == 0;
    if (g.failed) {
      --g.waiting;
      g.wait_on[sub] = nullptr;
      c.fail_msg = Prefix("ERROR", loc) + "stopped: another core of the block failed";
      throw KernelFailure{kSecondaryFailure};
    }
    if (blocked == g.running) {
      --g.waiting;
      g.wait_on[sub] = nullptr;
      lk.unlock();
      CrossFail(loc,
                "CrossCoreWaitFlag(%u) on the %s would wait forever: every unfinished core of the block is waiting and "
                "no core can set the flag any more (the NPU would hang here)",
                flag, c.core_type == SIMNPU_KERNEL_AIC ? "AIC" : (c.sub_block_idx == 0 ? "AIV 0" : "AIV 1"));
    }
    g.cv.wait(lk);
  }
}

inline void SubCoreDone(MixGroup& g, int sub, int rc) {
  std::lock_guard<std::mutex> lk(g.mu);
  --g.running;
  if (rc != SIMNPU_BLOCK_OK && rc != kSecondaryFailure) {
    g.failed = true;
    if (g.first_fail < 0) g.first_fail = sub;
  }
  g.cv.notify_all();
}

using SubRunFn = int (*)(const simnpu_block_env*, void* const*) noexcept;

// Runs one block of a MIX kernel as its AIC and AIV sub-cores.
SIMNPU_ASCENDC_NOINLINE inline int RunMixBlock(const simnpu_block_env* env, void* const* argv, SubRunFn run) noexcept {
  MixGroup group;
  constexpr int kSubs = kMixAivPerAic + 1;
  simnpu_block_env envs[kSubs];
  char msgs[kSubs][1024];
  int rcs[kSubs] = {};
  void* ubs[kSubs] = {};
  for (int s = 0; s < kSubs; ++s) {
    envs[s] = *env;
    msgs[s][0] = '\0';
    envs[s].error_msg = msgs[s];
    envs[s].error_msg_cap = sizeof msgs[s];
    if (s == 0) {
      envs[s].core_type = SIMNPU_KERNEL_AIC;
      envs[s].ub_size = 0;
    } else {
      envs[s].core_type = SIMNPU_KERNEL_AIV;
      envs[s].block_idx = env->block_idx * kMixAivPerAic + (s - 1);
      if (s > 1) {
        ubs[s] = std::aligned_alloc(64, (env->ub_size + 63) & ~size_t{63});
        if (ubs[s] == nullptr) return SIMNPU_BLOCK_CHECK_FAILED;
        envs[s].ub_base = ubs[s];
      }
    }
  }
  auto body = [&](int s) {
    tls_next_group = &group;
    tls_next_sub = s;
    rcs[s] = run(&envs[s], argv);
    tls_next_group = nullptr;
    SubCoreDone(group, s, rcs[s]);
  };
  std::thread threads[kSubs - 1];
  int started = 0;
  try {
    for (int s = 0; s < kSubs - 1; ++s) {
      threads[s] = std::thread(body, s == 0 ? 0 : s + 1);
      ++started;
    }
  } catch (...) {
    // no thread: mark the missing sub-cores failed so nobody waits for them
    for (int s = started; s < kSubs - 1; ++s) {
      const int sub = s == 0 ? 0 : s + 1;
      rcs[sub] = SIMNPU_BLOCK_CHECK_FAILED;
      std::snprintf(msgs[sub], sizeof msgs[sub], "[ERROR] could not start a thread for a sub-core of a MIX block");
      SubCoreDone(group, sub, rcs[sub]);
    }
  }
  body(1);  // AIV 0 on the runtime's thread
  for (int s = 0; s < started; ++s) threads[s].join();
  for (void* p : ubs) std::free(p);
  int rc = SIMNPU_BLOCK_OK;
  int pick = group.first_fail;
  if (pick >= 0) {
    rc = rcs[pick];
    if (env->error_msg != nullptr && env->error_msg_cap != 0) {
      std::snprintf(env->error_msg, env->error_msg_cap, "%s", msgs[pick]);
    }
  }
  return rc;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

// The core type of the running core, as kernels compare it with AscendC::AIC / AIV.
#define g_coreType (::simnpu::ascendc::detail::CurrentCoreType() == SIMNPU_KERNEL_AIC ? ::AscendC::AIC : ::AscendC::AIV)

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL, "CrossCoreSetFlag: the pipe cannot be PIPE_S or PIPE_ALL");
  ::simnpu::ascendc::detail::CrossSet(modeId, flagId, simnpuLoc);
}

template <uint8_t modeId = 2, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CrossWait(modeId, flagId, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_MIX_H_
