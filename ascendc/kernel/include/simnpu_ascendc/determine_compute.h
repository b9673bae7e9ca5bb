// simnpu Ascend C model: deterministic multi-core ordering:
// InitDetermineComputeWorkspace, WaitPreBlock and NotifyNextBlock.
//
// Used together they make the blocks of a launch pass a section one after
// the other in blockIdx order (block 0 first), round after round: block b's
// n-th WaitPreBlock returns once block b-1 has called NotifyNextBlock n times.
// Block 0 never waits. The pages ask for a global workspace of at least
// blockNum * 32 bytes (zeroed by the host before the launch) and a local one
// of blockNum * 32 + 32 bytes; both sizes are checked (the global one when
// the GlobalTensor was given a size).
//
// Model: the int32 at byte b * 32 of the global workspace counts the
// notifications of block b; the first int32 of the local workspace counts
// the block's own waits (Init zeroes it). Waiting needs the blocks of the
// launch to run at once, as on the NPU (SIMNPU_SYNC_CORESIDENT, see
// multicore.h); a wait that is not satisfied within 20 s fails the block
// with a message (the NPU would hang).
#ifndef SIMNPU_ASCENDC_DETERMINE_COMPUTE_H_
#define SIMNPU_ASCENDC_DETERMINE_COMPUTE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

inline void CheckDetermineWorkspaces(const char* api, const AscendC::GlobalTensor<int32_t>& gm,
                                     const AscendC::LocalTensor<int32_t>& ub, const SrcLoc& loc) {
  const uint64_t blocks = static_cast<uint64_t>(BlockNum());
  if (gm.GetPhyAddr() == nullptr) CheckFail(loc, "%s: gmWorkspace has no global buffer", api);
  if (gm.GetSize() != 0 && static_cast<uint64_t>(gm.GetSize()) * 4u < blocks * 32u) {  // 0: size not given
    CheckFail(loc, "%s: gmWorkspace has %llu bytes, it needs %llu (32 bytes per block)", api,
              static_cast<unsigned long long>(gm.GetSize()) * 4u, static_cast<unsigned long long>(blocks * 32u));
  }
  if (static_cast<uint64_t>(ub.GetSize()) * 4u < blocks * 32u + 32u) {
    CheckFail(loc, "%s: ubWorkspace has %llu bytes, it needs %llu (32 bytes per block, plus 32)", api,
              static_cast<unsigned long long>(ub.GetSize()) * 4u, static_cast<unsigned long long>(blocks * 32u + 32u));
  }
}

inline int32_t* DetermineCounter(const AscendC::GlobalTensor<int32_t>& gm, int64_t block, const SrcLoc& loc) {
  int32_t* p = reinterpret_cast<int32_t*>(reinterpret_cast<uint8_t*>(gm.GetPhyAddr()) + block * 32);
  GmTouch(p, 4, SIMNPU_ACCESS_READ | SIMNPU_ACCESS_WRITE | SIMNPU_ACCESS_ATOMIC, loc);
  return p;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                                          SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckDetermineWorkspaces("InitDetermineComputeWorkspace", gmWorkspace, ubWorkspace, simnpuLoc);
  ubWorkspace.GetPhyAddr()[0] = 0;
  d::FullFence();
}

inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                         SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckDetermineWorkspaces("WaitPreBlock", gmWorkspace, ubWorkspace, simnpuLoc);
  const int64_t me = GetBlockIdx();
  const int32_t round = ubWorkspace.GetPhyAddr()[0];
  ubWorkspace.GetPhyAddr()[0] = round + 1;
  if (me == 0) return;
  int32_t* prev = d::DetermineCounter(gmWorkspace, me - 1, simnpuLoc);
  d::BlockSync("WaitPreBlock", SIMNPU_SYNC_CORESIDENT, 0, simnpuLoc);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(d::kIbWaitTimeoutSec);
  uint32_t spins = 0;
  while (__atomic_load_n(prev, __ATOMIC_SEQ_CST) <= round) {
    if (++spins % 1024 == 0 && std::chrono::steady_clock::now() > until) {
      d::CheckFail(simnpuLoc, "WaitPreBlock: block %lld did not call NotifyNextBlock a %d. time within %d s "
                   "(the NPU would hang here)", static_cast<long long>(me - 1), round + 1, d::kIbWaitTimeoutSec);
    }
    std::this_thread::yield();
  }
  d::FullFence();
}

inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace,
                            SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::CheckDetermineWorkspaces("NotifyNextBlock", gmWorkspace, ubWorkspace, simnpuLoc);
  d::FullFence();
  int32_t* mine = d::DetermineCounter(gmWorkspace, GetBlockIdx(), simnpuLoc);
  __atomic_fetch_add(mine, 1, __ATOMIC_SEQ_CST);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_DETERMINE_COMPUTE_H_
