// IpcSignal: the cross-process side of an IPC event or notify. Its words
// live in the object's registry slot (sim/registry.h: recorded, signal,
// waiters); any process that has the slot records into it and any process
// waits on it with a shared futex (platform/futex.h), so a record in one
// process releases a wait in another without polling.
//
// Counters are 32-bit and compared modulo 2^32. A slot whose exporter died
// (kind 0) releases every waiter: a wait never outlives its peer.
#ifndef SIMNPU_CORE_IPC_SIGNAL_H_
#define SIMNPU_CORE_IPC_SIGNAL_H_

#include <atomic>
#include <cstdint>

#include "sim/registry.h"

namespace simnpu::core {

class IpcSignal {
 public:
  IpcSignal(sim::RegExport* slot, int index) : s_(slot), index_(index) {}
  int index() const { return index_; }
  uint64_t handle() const { return s_->handle; }

  // Events: a record submitted (returns its generation) / executed.
  uint32_t BeginRecord() { return __atomic_add_fetch(&s_->recorded, 1, __ATOMIC_SEQ_CST); }
  uint32_t recorded() const { return __atomic_load_n(&s_->recorded, __ATOMIC_SEQ_CST); }
  uint32_t signalled() const { return __atomic_load_n(&s_->signal, __ATOMIC_SEQ_CST); }
  // Starting state of a fresh export (before its handle is handed out).
  void Init(uint32_t recorded, uint32_t signalled) {
    __atomic_store_n(&s_->recorded, recorded, __ATOMIC_SEQ_CST);
    __atomic_store_n(&s_->signal, signalled, __ATOMIC_SEQ_CST);
  }
  // Raises the signal word to at least gen and wakes waiters.
  void Complete(uint32_t gen);
  // Notifies: one more signal.
  void Bump();
  // Waits until signal - gen >= 0 (mod 2^32); timeout_ms < 0 = forever.
  // false on timeout or once *cancel is set.
  bool WaitFor(uint32_t gen, int32_t timeout_ms, const std::atomic<bool>* cancel);

 private:
  sim::RegExport* const s_;
  const int index_;
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_IPC_SIGNAL_H_
