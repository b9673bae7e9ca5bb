// Trace clock (see trace_clock.h).
#include "dfx/trace/trace_clock.h"

#include <cstdio>
#include <cstring>
#include <mutex>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "platform/env.h"

namespace simnpu::dfx::trace {

std::atomic<bool> g_clock_ticks{false};

namespace {

// The pair read when the mode was chosen: a long baseline for the rate of
// sessions too short to fit one of their own.
ClockPair g_first;

// The TSC is usable when it runs at a constant rate through every power
// state (CPUID 0x80000007 EDX bit 8) and the kernel trusts it across CPUs
// enough to keep its own time with it.
bool TscUsable() {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d) || !(d & (1u << 8))) return false;
  FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (!f) return false;
  char buf[32] = {};
  const bool ok = std::fgets(buf, sizeof buf, f) != nullptr && std::strncmp(buf, "tsc", 3) == 0 &&
                  (buf[3] == '\n' || buf[3] == 0);
  std::fclose(f);
  return ok;
#else
  return false;
#endif
}

}  // namespace

void ChooseTraceClock() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string mode = platform::GetEnv("SIMNPU_TRACE_CLOCK").value_or("auto");
    if (mode != "monotonic" && TscUsable()) g_clock_ticks.store(true, std::memory_order_relaxed);
    g_first = ReadClockPair();
  });
}

bool TraceClockIsTsc() { return g_clock_ticks.load(std::memory_order_relaxed); }

ClockPair ReadClockPair() {
  ClockPair best;
  if (!TraceClockIsTsc()) {
    best.ns = platform::NowNs();
    best.ticks = best.ns;
    return best;
  }
#if defined(__x86_64__)
  // The ns reading was taken somewhere between the two tick readings: of a
  // few tries keep the tightest bracket (a preempted one is useless) and
  // pair the ns with its midpoint.
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < 5; ++i) {
    const uint64_t t0 = __builtin_ia32_rdtsc();
    const uint64_t ns = platform::NowNs();
    const uint64_t t1 = __builtin_ia32_rdtsc();
    if (t1 >= t0 && t1 - t0 < best_gap) {
      best_gap = t1 - t0;
      best.ticks = t0 + (t1 - t0) / 2;
      best.ns = ns;
    }
  }
#endif
  return best;
}

TickToNs::TickToNs(ClockPair a, ClockPair b) : identity_(!TraceClockIsTsc()), a_(a) {
  if (identity_) return;
  // The pairs are exact to a few ns, so a session of a millisecond or more
  // fits its own rate to a few ppm; a shorter one borrows the longer
  // baseline from the first pair of the process.
  ClockPair from = a;
  if (b.ns - a.ns < 1000000 && g_first.ticks < a.ticks && g_first.ns < a.ns) from = g_first;
  if (b.ticks > from.ticks && b.ns > from.ns)
    ns_per_tick_ = static_cast<long double>(b.ns - from.ns) / static_cast<long double>(b.ticks - from.ticks);
}

uint64_t TickToNs::operator()(uint64_t ticks) const {
  if (identity_) return ticks;
  const long double off = (static_cast<long double>(ticks) - static_cast<long double>(a_.ticks)) * ns_per_tick_;
  const long double ns = static_cast<long double>(a_.ns) + off;
  return ns <= 0 ? 0 : static_cast<uint64_t>(ns + 0.5L);
}

}  // namespace simnpu::dfx::trace
