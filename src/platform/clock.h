// Monotonic time helpers.
#ifndef SIMNPU_PLATFORM_CLOCK_H_
#define SIMNPU_PLATFORM_CLOCK_H_

#include <sched.h>

#include <cstdint>
#include <ctime>

namespace simnpu::platform {

inline uint64_t NowNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The simulated device system counter ("syscnt") runs at 50 MHz.
constexpr uint64_t kSysCntHz = 50000000ull;
inline uint64_t NowSysCnt() { return NowNs() / (1000000000ull / kSysCntHz); }

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls `done` for up to budget_ns, then returns its last value. Every few
// hundred polls it yields the CPU, so a spinning thread never starves the
// thread it is waiting for when both share one CPU (on this machine kind a
// pure spin there costs a whole scheduler tick per hand-off).
template <typename Pred>
inline bool SpinUntil(Pred done, uint64_t budget_ns) {
  if (done()) return true;
  if (budget_ns == 0) return false;
  const uint64_t deadline = NowNs() + budget_ns;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    if ((i & 255) == 0) {
      if (NowNs() >= deadline) return done();
      sched_yield();
    } else {
      CpuRelax();
    }
  }
}

// Locks `m`, first trying for a short while without sleeping: the locks on
// the hand-off paths are held for a few instructions, and sleeping on a
// contended futex there costs a wake-up (microseconds) instead.
template <typename Mutex>
inline void LockSpinning(Mutex& m) {
  for (int i = 0; i < 200; ++i) {
    if (m.try_lock()) return;
    CpuRelax();
  }
  m.lock();
}

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_CLOCK_H_
