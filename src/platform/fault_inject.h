// Fault injection: named seams in the platform layer that can be made to
// fail a given number of times, so tests prove that every failing step
// gives a clean error, leaks nothing, and that a retry works.
//
//   reserve_va   platform::ReserveVa (address space for arenas, the managed window)
//   commit       platform::CommitRw (making reserved memory usable)
//   uffd         opening a userfaultfd (the engine then runs host-pinned)
//   thread       starting a runtime thread (a stream's worker)
//   file_read    platform::ReadFile (kernel binaries, aclInit configuration)
//   shm          platform::CreateMemfd (memory objects: kernel images loaded from data)
//
// Armed by tests through Arm(), or by SIMNPU_FAULT_INJECT="site=N[:skip],..."
// (fail N times after letting `skip` calls through) read at the first check.
// Each check of an armed site is one atomic decrement; an unarmed site costs
// one relaxed load. Thread safe; no locks.
#ifndef SIMNPU_PLATFORM_FAULT_INJECT_H_
#define SIMNPU_PLATFORM_FAULT_INJECT_H_

#include <cstdint>

namespace simnpu::platform {

enum class FaultSite : int { kReserveVa = 0, kCommit, kUffd, kThread, kFileRead, kShm, kCount };

const char* FaultSiteName(FaultSite s);
// True when this call at `s` must fail (and counts it).
bool InjectFault(FaultSite s);
// Makes the next `times` checks of `s` fail, after `skip` checks that pass.
void ArmFault(FaultSite s, int times, int skip = 0);
void DisarmAllFaults();
// Failures injected at `s` so far.
uint64_t InjectedFaults(FaultSite s);

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_FAULT_INJECT_H_
