// Device printf outbox (see device_printf.h).
#include "core/device_printf.h"

#include <atomic>
#include <cstdio>
#include <mutex>

#include <pthread.h>

namespace simnpu::core {
namespace {

// Lock order: mu is a leaf (nothing else is taken while it is held, and
// stdout's own lock is taken inside it so the queue is written in order).
struct Outbox {
  std::mutex mu;
  std::string text;                  // queued output, in kernel completion order
  std::atomic<bool> nonempty{false};  // !text.empty(), a lock-free peek for Flush

  void WriteLocked() {
    if (text.empty()) return;
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    text.clear();
    nonempty.store(false, std::memory_order_release);
  }
};

Outbox* g_box = nullptr;
Outbox* g_parent_box = nullptr;  // a forked child's copy of its parent's (kept reachable)

// A forked child starts with an empty outbox: the parent prints its own
// kernels' text, the child never repeats it.
void ForgetInChild() {
  if (!g_box) return;
  g_parent_box = g_box;  // left as it was (its mutex may have been held at the fork)
  g_box = new Outbox;
}

Outbox& Box() {
  static Outbox* box = [] {
    g_box = new Outbox;  // never destroyed: kernels may end during exit
    pthread_atfork(nullptr, nullptr, ForgetInChild);
    return g_box;
  }();
  (void)box;
  return *g_box;
}

// Process exit: nothing a kernel printed is lost.
struct ExitFlush {
  ~ExitFlush() { FlushDevicePrintf(); }
} g_exit_flush;

}  // namespace

void PostDevicePrintf(std::string text) {
  if (text.empty()) return;
  Outbox& b = Box();
  std::lock_guard<std::mutex> g(b.mu);
  if (b.text.empty())
    b.text = std::move(text);
  else
    b.text += text;
  b.nonempty.store(true, std::memory_order_release);
  if (b.text.size() > kDevicePrintfHoldBytes) b.WriteLocked();
}

void FlushDevicePrintf() {
  Outbox& b = Box();
  if (!b.nonempty.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> g(b.mu);
  b.WriteLocked();
}

}  // namespace simnpu::core
