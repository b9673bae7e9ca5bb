// simnpu Ascend C model: synchronisation between the pipes of one core.
// Event ids (event_t, EVENT_ID0..7), SetFlag/WaitFlag<HardEvent>, the
// TQueSync<src, dst> form, the CCE intrinsics set_flag/wait_flag/pipe_barrier
// and PipeBarrier<pipe>.
//
// The model runs every pipe in program order, so none of these changes data.
// They are checked the way the hardware would fail:
//  - an event id outside 0..7 (0..3 on arch 1001) fails the block;
//  - a flag is one bit per (event, id): WaitFlag finds it set and clears it,
//    WaitFlag on a clear flag would block the pipe forever on the NPU, so it
//    fails the block; a second SetFlag while the flag is still set is lost on
//    the NPU (the later second WaitFlag hangs), so it is reported once per
//    call site as a warning;
//  - a flag still set when the block ends is reported (glue.h, EndBlock).
// State lives in the block context (per thread); no locking.
#ifndef SIMNPU_ASCENDC_SYNC_H_
#define SIMNPU_ASCENDC_SYNC_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

// Hardware event ids (a builtin of the kernel language, so global).
enum event_t : int {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace simnpu {
namespace ascendc {
namespace detail {

#if __NPU_ARCH__ == 1001
constexpr int kEventIdsPerEvent = 4;
#else
constexpr int kEventIdsPerEvent = 8;
#endif
static_assert(kEventIdsPerEvent <= kNumEventIds, "event table too small");

constexpr uint32_t kSiteDoubleSetFlag = 2;

SIMNPU_ASCENDC_HIDDEN inline const char* PipeName(pipe_t p) {
  static const char* const kNames[] = {"PIPE_S",    "PIPE_V",    "PIPE_M",  "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                       "PIPE_ALL",  "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX"};
  const unsigned i = static_cast<unsigned>(p);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

// The HardEvent named <src>_<dst>, or MAX when the pair has none.
constexpr AscendC::HardEvent EventOfPipes(pipe_t src, pipe_t dst) {
  using E = AscendC::HardEvent;
  struct Pair {
    pipe_t s, d;
    E e;
  };
  constexpr Pair kPairs[] = {
      {PIPE_MTE2, PIPE_MTE1, E::MTE2_MTE1}, {PIPE_MTE1, PIPE_MTE2, E::MTE1_MTE2}, {PIPE_MTE1, PIPE_M, E::MTE1_M},
      {PIPE_M, PIPE_MTE1, E::M_MTE1},       {PIPE_MTE2, PIPE_V, E::MTE2_V},       {PIPE_V, PIPE_MTE2, E::V_MTE2},
      {PIPE_MTE3, PIPE_V, E::MTE3_V},       {PIPE_V, PIPE_MTE3, E::V_MTE3},       {PIPE_M, PIPE_V, E::M_V},
      {PIPE_V, PIPE_M, E::V_M},             {PIPE_V, PIPE_V, E::V_V},             {PIPE_MTE3, PIPE_MTE1, E::MTE3_MTE1},
      {PIPE_MTE1, PIPE_MTE3, E::MTE1_MTE3}, {PIPE_MTE1, PIPE_V, E::MTE1_V},       {PIPE_MTE2, PIPE_M, E::MTE2_M},
      {PIPE_M, PIPE_MTE2, E::M_MTE2},       {PIPE_V, PIPE_MTE1, E::V_MTE1},       {PIPE_M, PIPE_FIX, E::M_FIX},
      {PIPE_FIX, PIPE_M, E::FIX_M},         {PIPE_MTE3, PIPE_MTE2, E::MTE3_MTE2}, {PIPE_MTE2, PIPE_MTE3, E::MTE2_MTE3},
      {PIPE_S, PIPE_V, E::S_V},             {PIPE_V, PIPE_S, E::V_S},             {PIPE_S, PIPE_MTE2, E::S_MTE2},
      {PIPE_MTE2, PIPE_S, E::MTE2_S},       {PIPE_S, PIPE_MTE3, E::S_MTE3},       {PIPE_MTE3, PIPE_S, E::MTE3_S},
      {PIPE_MTE2, PIPE_FIX, E::MTE2_FIX},   {PIPE_FIX, PIPE_MTE2, E::FIX_MTE2},   {PIPE_FIX, PIPE_S, E::FIX_S},
      {PIPE_M, PIPE_S, E::M_S},             {PIPE_FIX, PIPE_MTE3, E::FIX_MTE3},   {PIPE_MTE1, PIPE_FIX, E::MTE1_FIX},
      {PIPE_FIX, PIPE_MTE1, E::FIX_MTE1},   {PIPE_FIX, PIPE_FIX, E::FIX_FIX},
  };
  for (const Pair& p : kPairs) {
    if (p.s == src && p.d == dst) return p.e;
  }
  return E::MAX;
}

inline void CheckEventId(const char* what, AscendC::HardEvent event, int32_t id, const SrcLoc& loc) {
  if (__builtin_expect(id < 0 || id >= kEventIdsPerEvent, 0)) {
    CheckFail(loc, "%s<%s>(%d): event id out of range [0, %d] on arch %d", what, HardEventName(event), id,
              kEventIdsPerEvent - 1, __NPU_ARCH__);
  }
  if (__builtin_expect(event >= AscendC::HardEvent::MAX, 0)) {
    CheckFail(loc, "%s: invalid HardEvent %d", what, static_cast<int>(event));
  }
}

inline void DoSetFlag(AscendC::HardEvent event, int32_t id, const SrcLoc& loc) {
  BlockContext& c = RequireCtx(loc, "SetFlag");
  CheckEventId("SetFlag", event, id, loc);
  uint16_t& f = c.events[static_cast<int>(event)][id];
  if (f != 0) {
    if (FirstTimeAtSite(loc, kSiteDoubleSetFlag)) {
      Diagnostic(2, loc,
                 "SetFlag<%s>(%d) while the flag is already set (no WaitFlag since the last SetFlag): the NPU keeps "
                 "one flag, so a second WaitFlag would hang (reported once per call site)",
                 HardEventName(event), id);
    }
    return;
  }
  f = 1;
  ++c.events_pending;
}

inline void DoWaitFlag(AscendC::HardEvent event, int32_t id, const SrcLoc& loc) {
  BlockContext& c = RequireCtx(loc, "WaitFlag");
  CheckEventId("WaitFlag", event, id, loc);
  uint16_t& f = c.events[static_cast<int>(event)][id];
  if (f == 0) {
    CheckFail(loc, "WaitFlag<%s>(%d) without a matching SetFlag<%s>(%d): the NPU would hang here",
              HardEventName(event), id, HardEventName(event), id);
  }
  f = 0;
  --c.events_pending;
}

[[noreturn]] SIMNPU_ASCENDC_COLD inline void NoEventForPipes(const char* what, pipe_t src, pipe_t dst, const SrcLoc& loc) {
  CheckFail(loc, "%s(%s, %s, ...): there is no hardware event from %s to %s", what, PipeName(src), PipeName(dst),
            PipeName(src), PipeName(dst));
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <pipe_t pipe>
inline void PipeBarrier() {
  static_assert(pipe == PIPE_S || pipe == PIPE_V || pipe == PIPE_M || pipe == PIPE_MTE1 || pipe == PIPE_MTE2 ||
                    pipe == PIPE_MTE3 || pipe == PIPE_ALL || pipe == PIPE_FIX || pipe == PIPE_MTE4 ||
                    pipe == PIPE_MTE5 || pipe == PIPE_V2,
                "PipeBarrier: invalid pipe");
}

template <HardEvent event>
inline void SetFlag(int32_t eventID, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::DoSetFlag(event, eventID, simnpuLoc);
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::DoWaitFlag(event, eventID, simnpuLoc);
}

// Synchronisation object for one pipe pair.
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  static constexpr HardEvent kEvent = ::simnpu::ascendc::detail::EventOfPipes(src, dst);
  static_assert(kEvent != HardEvent::MAX, "TQueSync: there is no hardware event between these pipes");
  void SetFlag(TEventID id, SIMNPU_ASCENDC_LOC_PARAM) { ::simnpu::ascendc::detail::DoSetFlag(kEvent, id, simnpuLoc); }
  void WaitFlag(TEventID id, SIMNPU_ASCENDC_LOC_PARAM) { ::simnpu::ascendc::detail::DoWaitFlag(kEvent, id, simnpuLoc); }
};

}  // namespace AscendC

// CCE intrinsics used by lower-level kernel code.
inline void set_flag(pipe_t src, pipe_t dst, int32_t id, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const AscendC::HardEvent e = d::EventOfPipes(src, dst);
  if (e == AscendC::HardEvent::MAX) d::NoEventForPipes("set_flag", src, dst, simnpuLoc);
  d::DoSetFlag(e, id, simnpuLoc);
}
inline void wait_flag(pipe_t src, pipe_t dst, int32_t id, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const AscendC::HardEvent e = d::EventOfPipes(src, dst);
  if (e == AscendC::HardEvent::MAX) d::NoEventForPipes("wait_flag", src, dst, simnpuLoc);
  d::DoWaitFlag(e, id, simnpuLoc);
}
inline void pipe_barrier(pipe_t /*pipe*/) {}

#endif  // SIMNPU_ASCENDC_SYNC_H_
