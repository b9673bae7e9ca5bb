// Process-shared futex wait/wake on a 32-bit word in a MAP_SHARED mapping
// (the registry's signal words): a waiter sleeps in the kernel, no polling.
#ifndef SIMNPU_PLATFORM_FUTEX_H_
#define SIMNPU_PLATFORM_FUTEX_H_

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

namespace simnpu::platform {

// Sleeps while *word == expected, at most timeout_ms (< 0: no limit).
inline void FutexWaitShared(uint32_t* word, uint32_t expected, int timeout_ms) {
  struct timespec ts;
  struct timespec* tp = nullptr;
  if (timeout_ms >= 0) {
    ts.tv_sec = timeout_ms / 1000;
    ts.tv_nsec = static_cast<long>(timeout_ms % 1000) * 1000000L;
    tp = &ts;
  }
  syscall(SYS_futex, word, FUTEX_WAIT, expected, tp, nullptr, 0);
}

inline void FutexWakeShared(uint32_t* word) { syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, nullptr, nullptr, 0); }

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_FUTEX_H_
