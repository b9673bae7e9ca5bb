// simnpu Ascend C model: Mutex (in-core pipe locks: Mutex::Lock / Unlock,
// AllocMutexID / ReleaseMutexID) and GroupBarrier (one group of AIV blocks
// waits for another group's Arrive).
//
// Mutex: the model runs a block's pipes in program order, so a lock never
// waits; it checks the pairing the pages require. MutexID 0..27; a Lock of
// a locked id (its Unlock would never come: the NPU would hang) and an
// Unlock of an id that is not locked, or was locked by another pipe, fail
// the block; an id still locked at block end is reported. AllocMutexID
// gives the lowest id it has not given (failing when all 28 are out),
// ReleaseMutexID returns one (not one still locked); the TPipe members of
// the same names share that per-block pool (BlockContext::mutex_*).
//
// GroupBarrier<PipeMode::MTE3_MODE>(ws, arriveSize, waitSize): the
// workspace (512-byte aligned, GetWorkspaceLen() = waitSize * 512 bytes,
// zeroed by the user) holds one int32 arrival counter per waiter, at
// w * 512. Arrive(i) (i < arriveSize) adds one to every waiter's counter;
// Wait(w) (w < waitSize) first makes the launch's blocks co-resident (as
// IBWait) and returns once its counter reaches arriveSize times the number
// of Waits this object made, so a barrier object can be used round after
// round. A Wait not satisfied within 20 s fails the block.
#ifndef SIMNPU_ASCENDC_MUTEX_BARRIER_H_
#define SIMNPU_ASCENDC_MUTEX_BARRIER_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <chrono>
#include <thread>

namespace AscendC {

using MutexID = uint8_t;

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kMutexIds = 28;
constexpr uint32_t kGroupBarrierSlot = 512;  // bytes of workspace per waiter

inline BlockContext& MutexCtx(const char* api, const SrcLoc& loc) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "%s called outside of a kernel block", api);
  return *c;
}
inline void CheckMutexId(const char* api, pipe_t pipe, uint32_t id, const SrcLoc& loc) {
  if (id >= kMutexIds) CheckFail(loc, "Mutex::%s<%s>(%u): MutexID must be in [0, 27]", api, PipeName(pipe), id);
}

// AllocMutexID / ReleaseMutexID, free or TPipe members (api names which):
// the lowest id not given yet; a release of an id that was not given, or
// that is still locked, fails the block.
inline AscendC::MutexID MutexAlloc(const char* api, const SrcLoc& loc) {
  BlockContext& c = MutexCtx(api, loc);
  for (uint32_t id = 0; id < kMutexIds; ++id) {
    if (((c.mutex_alloc >> id) & 1u) == 0) {
      c.mutex_alloc |= 1u << id;
      return static_cast<AscendC::MutexID>(id);
    }
  }
  CheckFail(loc, "%s: all 28 MutexIDs are allocated (ReleaseMutexID returns one)", api);
}
inline void MutexRelease(const char* api, AscendC::MutexID id, const SrcLoc& loc) {
  BlockContext& c = MutexCtx(api, loc);
  if (id >= kMutexIds || ((c.mutex_alloc >> id) & 1u) == 0) {
    CheckFail(loc, "%s(%u): the id was not given by AllocMutexID", api, id);
  }
  if ((c.mutex_locked >> id) & 1u) {
    CheckFail(loc, "%s(%u): the mutex is still locked by %s", api, id, PipeName(static_cast<pipe_t>(c.mutex_pipe[id])));
  }
  c.mutex_alloc &= ~(1u << id);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

class Mutex {
 public:
  template <pipe_t pipe>
  static void Lock(MutexID id, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    d::CheckMutexId("Lock", pipe, id, simnpuLoc);
    d::BlockContext& c = d::MutexCtx("Mutex::Lock", simnpuLoc);
    if ((c.mutex_locked >> id) & 1u) {
      d::CheckFail(simnpuLoc,
                   "Mutex::Lock<%s>(%u): the mutex is held by %s and only its Unlock releases it (the NPU would hang "
                   "here)",
                   d::PipeName(pipe), id, d::PipeName(static_cast<pipe_t>(c.mutex_pipe[id])));
    }
    c.mutex_locked |= 1u << id;
    c.mutex_pipe[id] = static_cast<uint8_t>(pipe);
  }
  template <pipe_t pipe>
  static void Unlock(MutexID id, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    d::CheckMutexId("Unlock", pipe, id, simnpuLoc);
    d::BlockContext& c = d::MutexCtx("Mutex::Unlock", simnpuLoc);
    if (((c.mutex_locked >> id) & 1u) == 0) {
      d::CheckFail(simnpuLoc, "Mutex::Unlock<%s>(%u): the mutex is not locked (Lock and Unlock must pair)",
                   d::PipeName(pipe), id);
    }
    if (c.mutex_pipe[id] != static_cast<uint8_t>(pipe)) {
      d::CheckFail(simnpuLoc, "Mutex::Unlock<%s>(%u): the mutex was locked by %s (Lock and Unlock take the same pipe)",
                   d::PipeName(pipe), id, d::PipeName(static_cast<pipe_t>(c.mutex_pipe[id])));
    }
    c.mutex_locked &= ~(1u << id);
  }
};

inline MutexID AllocMutexID(SIMNPU_ASCENDC_LOC_PARAM) {
  return ::simnpu::ascendc::detail::MutexAlloc("AllocMutexID", simnpuLoc);
}
inline void ReleaseMutexID(MutexID id, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::MutexRelease("ReleaseMutexID", id, simnpuLoc);
}
// The TPipe members (pipe.h) take from the same per-block pool.
inline uint8_t TPipe::AllocMutexID(const ::simnpu::ascendc::SrcLoc& simnpuLoc) {
  return ::simnpu::ascendc::detail::MutexAlloc("TPipe::AllocMutexID", simnpuLoc);
}
inline void TPipe::ReleaseMutexID(uint8_t id, const ::simnpu::ascendc::SrcLoc& simnpuLoc) {
  ::simnpu::ascendc::detail::MutexRelease("TPipe::ReleaseMutexID", id, simnpuLoc);
}

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
  static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier: only PipeMode::MTE3_MODE is supported");

 public:
  GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn, SIMNPU_ASCENDC_LOC_PARAM)
      : ws_(reinterpret_cast<uint8_t*>(groupWorkspace)), arrive_(arriveSizeIn), wait_(waitSizeIn) {
    namespace d = ::simnpu::ascendc::detail;
    if ((reinterpret_cast<uintptr_t>(groupWorkspace) % d::kGroupBarrierSlot) != 0) {
      d::CheckFail(simnpuLoc, "GroupBarrier: groupWorkspace must be 512-byte aligned (it is %u bytes past)",
                   static_cast<unsigned>(reinterpret_cast<uintptr_t>(groupWorkspace) % d::kGroupBarrierSlot));
    }
    if (arriveSizeIn == 0 || waitSizeIn == 0) {
      d::CheckFail(simnpuLoc, "GroupBarrier: arriveSizeIn (%u) and waitSizeIn (%u) must be at least 1", arriveSizeIn,
                   waitSizeIn);
    }
  }
  uint64_t GetWorkspaceLen() const { return static_cast<uint64_t>(wait_) * ::simnpu::ascendc::detail::kGroupBarrierSlot; }

  void Arrive(uint32_t arriveIndex, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    if (arriveIndex >= arrive_) {
      d::CheckFail(simnpuLoc, "GroupBarrier::Arrive(%u): the index must be below arriveSize (%u)", arriveIndex, arrive_);
    }
    d::GmBarrier();
    for (uint32_t w = 0; w < wait_; ++w) {
      int32_t* p = Counter(w, simnpuLoc);
      __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
    }
  }
  void Wait(uint32_t waitIndex, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    if (waitIndex >= wait_) {
      d::CheckFail(simnpuLoc, "GroupBarrier::Wait(%u): the index must be below waitSize (%u)", waitIndex, wait_);
    }
    int32_t* p = Counter(waitIndex, simnpuLoc);
    const int64_t need = static_cast<int64_t>(arrive_) * (++rounds_);
    d::BlockSync("GroupBarrier::Wait", SIMNPU_SYNC_CORESIDENT, 0, simnpuLoc);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(d::kIbWaitTimeoutSec);
    uint32_t spins = 0;
    while (__atomic_load_n(p, __ATOMIC_SEQ_CST) < need) {
      if (++spins % 1024 == 0 && std::chrono::steady_clock::now() > until) {
        d::CheckFail(simnpuLoc,
                     "GroupBarrier::Wait(%u): %d of %u arrivals came within %d s (the NPU would hang here)", waitIndex,
                     static_cast<int>(__atomic_load_n(p, __ATOMIC_SEQ_CST) - (need - arrive_)), arrive_,
                     d::kIbWaitTimeoutSec);
      }
      std::this_thread::yield();
    }
    d::GmBarrier();
  }

 private:
  int32_t* Counter(uint32_t w, const ::simnpu::ascendc::SrcLoc& loc) {
    int32_t* p = reinterpret_cast<int32_t*>(ws_ + static_cast<uint64_t>(w) * ::simnpu::ascendc::detail::kGroupBarrierSlot);
    ::simnpu::ascendc::detail::GmTouch(p, 4, SIMNPU_ACCESS_READ | SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC, loc);
    return p;
  }
  uint8_t* ws_;
  uint32_t arrive_;
  uint32_t wait_;
  int64_t rounds_ = 0;
};

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_MUTEX_BARRIER_H_
