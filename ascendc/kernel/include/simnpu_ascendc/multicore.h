// simnpu Ascend C model: multi-core synchronisation and cache control:
// SyncAll (hard and soft forms), IBSet / IBWait, GetSystemCycle,
// DataCacheCleanAndInvalid, ReadGmByPassDCache / WriteGmByPassDCache.
//
// The blocks of a launch normally run in waves on a few threads. SyncAll and
// IBWait need the blocks of the launch to run at once, as on the NPU, where
// the pages require numBlocks <= the cores: the first such call asks the
// runtime (services->block_sync, SIMNPU_ENV_FLAG_SYNC) to give every block
// not yet started a thread of its own. A launch with more blocks than the
// SOC's cores fails at that call with a message (the NPU would hang), as
// does a barrier that can never complete (a block failed, or ended without
// reaching it). On the CPU global memory is coherent: cache maintenance is a
// full memory fence, and the bypass reads and writes are fenced accesses.
#ifndef SIMNPU_ASCENDC_MULTICORE_H_
#define SIMNPU_ASCENDC_MULTICORE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <atomic>
#include <chrono>
#include <thread>

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kIbEvents = 8;          // event ids of IBSet / IBWait: 0..7
constexpr uint32_t kIbFlagBytes = 32;      // one flag per 32-byte block of the GM workspace
constexpr int kIbWaitTimeoutSec = 20;      // IBWait gives up (and fails the block) after this

// Returns false outside a block (host code) or for a single-block launch.
inline bool BlockSync(const char* api, uint32_t op, uint32_t count, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (c == nullptr || c->env == nullptr) return false;
  if (c->env->block_num <= 1) return false;
  const simnpu_kernel_services* s = c->env->services;
  if ((c->env->flags & SIMNPU_ENV_FLAG_SYNC) == 0 || s == nullptr || s->block_sync == nullptr) {
    CheckFail(loc, "%s: the runtime running this kernel cannot run its blocks at once (no multi-core synchronisation)",
              api);
  }
  char why[512];
  why[0] = '\0';
  const int rc = s->block_sync(c->env->services_ctx, op, count, why, sizeof why);
  if (rc != 0) CheckFail(loc, "%s: %s", api, why[0] != '\0' ? why : "multi-core synchronisation failed");
  GmBarrier();
  return true;
}

// A full memory barrier. (A locked read-modify-write rather than
// std::atomic_thread_fence, which ThreadSanitizer refuses; the ordering
// between blocks comes from the runtime's own synchronisation anyway.)
inline void FullFence() {
  static std::atomic<int> word{0};
  word.fetch_add(0, std::memory_order_seq_cst);
}

inline int64_t BlockNum() {
  BlockContext* c = tls_ctx;
  return c != nullptr && c->env != nullptr ? c->env->block_num : 1;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// Hard synchronisation of every block of the launch.
template <bool isAIVOnly = true>
inline void SyncAll(SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::FullFence();
  ::simnpu::ascendc::detail::BlockSync("SyncAll", SIMNPU_SYNC_BARRIER, 0, simnpuLoc);
  ::simnpu::ascendc::detail::FullFence();
}

// Soft synchronisation of usedCores blocks (every block when 0) through a
// zeroed GM workspace of at least blocks * 32 bytes and a UB workspace of as
// much. The model checks the sizes and synchronises through the runtime; it
// does not write the workspaces.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                    const int32_t usedCores = 0, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const int64_t blocks = d::BlockNum();
  if (usedCores < 0 || usedCores > blocks) {
    d::CheckFail(simnpuLoc, "SyncAll: usedCores %d is outside [0, %lld] (the launch's numBlocks)", usedCores,
                 static_cast<long long>(blocks));
  }
  const uint64_t cores = usedCores == 0 ? static_cast<uint64_t>(blocks) : static_cast<uint64_t>(usedCores);
  if (gmWorkspace.GetSize() * 4u < cores * 32u) {
    d::CheckFail(simnpuLoc, "SyncAll: gmWorkspace has %llu bytes, it needs %llu (32 bytes per core)",
                 static_cast<unsigned long long>(gmWorkspace.GetSize() * 4u), static_cast<unsigned long long>(cores * 32u));
  }
  d::CheckAligned("SyncAll", "ubWorkspace", ubWorkspace.GetPhyAddr(), simnpuLoc);
  if (static_cast<uint64_t>(ubWorkspace.GetSize()) * 4u < cores * 32u) {
    d::CheckFail(simnpuLoc, "SyncAll: ubWorkspace has %u bytes, it needs %llu (32 bytes per core)",
                 ubWorkspace.GetSize() * 4u, static_cast<unsigned long long>(cores * 32u));
  }
  ::simnpu::ascendc::detail::FullFence();
  d::BlockSync("SyncAll", SIMNPU_SYNC_BARRIER, static_cast<uint32_t>(usedCores), simnpuLoc);
  ::simnpu::ascendc::detail::FullFence();
}

// IBSet: the calling block marks event eventID of block blockIdx (its own
// index, as the pages' examples pass) as set; IBWait(.., blockIdx, eventID)
// waits until block blockIdx has set eventID, then consumes the flag. The
// flag of (b, e) is the int32 at byte (b * 8 + e) * 32 of gmWorkspace.
inline int32_t* SimnpuIbFlag(const char* api, const GlobalTensor<int32_t>& gm, int32_t blockIdx, int32_t eventID,
                       const ::simnpu::ascendc::SrcLoc& loc) {
  namespace d = ::simnpu::ascendc::detail;
  const int64_t blocks = d::BlockNum();
  if (blockIdx < 0 || blockIdx >= blocks) {
    d::CheckFail(loc, "%s: blockIdx %d is outside [0, %lld)", api, blockIdx, static_cast<long long>(blocks));
  }
  if (eventID < 0 || eventID >= static_cast<int32_t>(d::kIbEvents)) {
    d::CheckFail(loc, "%s: eventID %d is outside [0, %u)", api, eventID, d::kIbEvents);
  }
  const uint64_t off = (static_cast<uint64_t>(blockIdx) * d::kIbEvents + static_cast<uint64_t>(eventID)) * d::kIbFlagBytes;
  if (off + 4u > gm.GetSize() * 4u) {
    d::CheckFail(loc, "%s: the flag of block %d event %d is at byte %llu, gmWorkspace has %llu bytes", api, blockIdx,
                 eventID, static_cast<unsigned long long>(off), static_cast<unsigned long long>(gm.GetSize() * 4u));
  }
  int32_t* p = reinterpret_cast<int32_t*>(reinterpret_cast<uint8_t*>(gm.GetPhyAddr()) + off);
  d::GmTouch(p, 4, SIMNPU_ACCESS_READ | SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC, loc);
  return p;
}
inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                  int32_t eventID, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)ubWorkspace;
  int32_t* p = SimnpuIbFlag("IBSet", gmWorkspace, blockIdx, eventID, simnpuLoc);
  __atomic_store_n(p, 1, __ATOMIC_SEQ_CST);
}
inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
                   int32_t eventID, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  (void)ubWorkspace;
  int32_t* p = SimnpuIbFlag("IBWait", gmWorkspace, blockIdx, eventID, simnpuLoc);
  d::BlockSync("IBWait", SIMNPU_SYNC_CORESIDENT, 0, simnpuLoc);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(d::kIbWaitTimeoutSec);
  uint32_t spins = 0;
  while (__atomic_load_n(p, __ATOMIC_SEQ_CST) == 0) {
    if (++spins % 1024 == 0 && std::chrono::steady_clock::now() > until) {
      d::CheckFail(simnpuLoc, "IBWait: block %d did not set event %d within %d s (the NPU would hang here)", blockIdx,
                   eventID, d::kIbWaitTimeoutSec);
    }
    std::this_thread::yield();
  }
  __atomic_store_n(p, 0, __ATOMIC_SEQ_CST);
}

// The system counter: 50 MHz (one cycle is 20 ns of the host's steady clock).
inline int64_t GetSystemCycle() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch());
  return static_cast<int64_t>(ns.count() / 20);
}

enum class CacheLine : int { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum class DcciDst : int { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor) {
  (void)dstTensor;
  ::simnpu::ascendc::detail::FullFence();
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dstTensor) {
  (void)dstTensor;
  ::simnpu::ascendc::detail::FullFence();
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor) {
  (void)dstTensor;
  ::simnpu::ascendc::detail::FullFence();
}

template <typename T>
inline T ReadGmByPassDCache(__gm__ T* addr, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "ReadGmByPassDCache: unsupported data type (8- to 64-bit integers)");
  ::simnpu::ascendc::detail::FullFence();
  T v;
  ::simnpu::ascendc::detail::GmRead(&v, addr, sizeof(T), simnpuLoc);
  return v;
}
template <typename T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "WriteGmByPassDCache: unsupported data type (8- to 64-bit integers)");
  ::simnpu::ascendc::detail::GmWrite(addr, &value, sizeof(T), simnpuLoc);
  ::simnpu::ascendc::detail::FullFence();
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_MULTICORE_H_
