// Trace clock: the recorder's timestamps, cheap enough for every launch.
//
// On x86-64 with an invariant TSC that the kernel itself uses as its
// clocksource, a reading is one rdtsc (~10 ns; clock_gettime costs about
// three times that here). Events hold these ticks while a session records;
// Stop() turns them into ns of platform::NowNs by interpolating between
// (ticks, ns) pairs read when the session started and when it stopped, so
// the writers only ever see ns. Elsewhere (no invariant TSC, another
// clocksource, SIMNPU_TRACE_CLOCK=monotonic) a reading is platform::NowNs
// and the conversion is the identity.
//
// The mode is chosen once, by the first session's Start(), before any event
// site can read the clock (the sites read it only while a session records),
// and never changes afterwards.
#ifndef SIMNPU_DFX_TRACE_TRACE_CLOCK_H_
#define SIMNPU_DFX_TRACE_TRACE_CLOCK_H_

#include <atomic>
#include <cstdint>

#include "platform/clock.h"

namespace simnpu::dfx::trace {

// True once the TSC was chosen (set by ChooseTraceClock, read relaxed).
extern std::atomic<bool> g_clock_ticks;

// A reading of the trace clock (ticks or ns, see above).
inline uint64_t TraceNow() {
#if defined(__x86_64__)
  if (g_clock_ticks.load(std::memory_order_relaxed)) return __builtin_ia32_rdtsc();
#endif
  return platform::NowNs();
}

// Chooses the mode (idempotent; called by Start).
void ChooseTraceClock();
bool TraceClockIsTsc();

// A simultaneous reading of both clocks.
struct ClockPair {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};
ClockPair ReadClockPair();

// The linear map from trace-clock readings to ns fitted through two pairs.
class TickToNs {
 public:
  TickToNs(ClockPair a, ClockPair b);
  uint64_t operator()(uint64_t ticks) const;

 private:
  bool identity_;
  ClockPair a_;
  long double ns_per_tick_ = 1.0L;
};

}  // namespace simnpu::dfx::trace

#endif  // SIMNPU_DFX_TRACE_TRACE_CLOCK_H_
