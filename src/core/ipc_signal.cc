// IpcSignal: shared futex words of IPC events and notifies.
#include "core/ipc_signal.h"

#include "platform/clock.h"
#include "platform/futex.h"

namespace simnpu::core {
namespace {
bool Reached(uint32_t have, uint32_t want) { return static_cast<int32_t>(have - want) >= 0; }
}  // namespace

void IpcSignal::Complete(uint32_t gen) {
  uint32_t cur = signalled();
  while (!Reached(cur, gen) &&
         !__atomic_compare_exchange_n(&s_->signal, &cur, gen, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
  if (__atomic_load_n(&s_->waiters, __ATOMIC_SEQ_CST) != 0) platform::FutexWakeShared(&s_->signal);
}

void IpcSignal::Bump() {
  __atomic_add_fetch(&s_->signal, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&s_->waiters, __ATOMIC_SEQ_CST) != 0) platform::FutexWakeShared(&s_->signal);
}

bool IpcSignal::WaitFor(uint32_t gen, int32_t timeout_ms, const std::atomic<bool>* cancel) {
  const uint64_t start = platform::NowNs();
  for (;;) {
    const uint32_t seen = signalled();
    if (Reached(seen, gen)) return true;
    if (__atomic_load_n(&s_->kind, __ATOMIC_SEQ_CST) == 0) return true;  // exporter gone: release
    if (cancel && cancel->load()) return false;
    int slice = cancel ? 20 : 1000;  // cancellation and peer death are rechecked this often
    if (timeout_ms >= 0) {
      const uint64_t spent = (platform::NowNs() - start) / 1000000;
      if (spent >= static_cast<uint64_t>(timeout_ms)) return false;
      if (static_cast<uint64_t>(timeout_ms) - spent < static_cast<uint64_t>(slice))
        slice = static_cast<int>(static_cast<uint64_t>(timeout_ms) - spent);
    }
    __atomic_add_fetch(&s_->waiters, 1, __ATOMIC_SEQ_CST);
    platform::FutexWaitShared(&s_->signal, seen, slice);
    __atomic_sub_fetch(&s_->waiters, 1, __ATOMIC_SEQ_CST);
  }
}

}  // namespace simnpu::core
