// Monotonic time helpers.
#ifndef SIMNPU_PLATFORM_CLOCK_H_
#define SIMNPU_PLATFORM_CLOCK_H_

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

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_CLOCK_H_
