// Vmm: virtual memory management (aclrtMallocPhysical, aclrtReserveMemAddress,
// aclrtMapMem, shareable handles).
//
// A physical handle is a run of 2 MiB plain chunks of a device arena whose
// shared objects (sim/device_arena.h) it holds open as fds: its own chunks
// (MallocPhysical allocates them in the arena, counted against the capacity,
// marked exported so freeing never recycles an object another process may
// hold), or another process's (an import opens the exporter's objects). A
// reserved range is a run of unbacked chunks in the current device's arena,
// so a mapped range is device memory of that device for copies, memsets and
// kernels; MapMem maps the handle's fds over it (the same pages, in every
// process that maps them) and registers it as kVmmMapped.
//
// The MINIMUM and RECOMMENDED granularity is 2 MiB (one chunk), what real
// devices report for the samples' properties.
//
// Shareable handles: a registry record (kind kVmm) with a 64-bit id, the
// owner, its chunk span and whitelist; the id is the uint64 handle (V2
// DEFAULT) and the first 8 bytes of the 128-byte FABRIC handle.
//
// Lifetimes: pages live while any process maps or holds a handle to them
// (the kernel counts the fds and mappings). FreePhysical of a mapped handle
// defers nothing: the mapping keeps the pages, as the reference says.
//
// Lock: mu_ guards the tables; taken before the arena and registry locks.
#ifndef SIMNPU_CORE_VMM_H_
#define SIMNPU_CORE_VMM_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "platform/status.h"

namespace simnpu::core {

struct PhysHandle {
  int phys = -1;              // device whose arena holds the chunks (owner's device)
  size_t size = 0;            // bytes (multiple of 2 MiB)
  void* arena_base = nullptr; // own handles: the arena allocation
  std::vector<int> fds;       // one per chunk
  bool imported = false;
  uint64_t share_id = 0;      // shareable handle once exported
  int share_slot = -1;
  int maps = 0;               // live MapMem of this handle in this process
};

class Vmm {
 public:
  static constexpr size_t kGranularity = 2u << 20;
  static Vmm& Get();

  StatusOr<PhysHandle*> MallocPhysical(int phys, size_t size);
  Status FreePhysical(void* handle);
  StatusOr<void*> Reserve(int phys, size_t size);
  Status Release(void* va);
  Status Map(void* va, size_t size, size_t offset, void* handle);
  Status Unmap(void* va);
  bool Mapped(void* va, size_t size);
  StatusOr<uint64_t> Export(void* handle, bool no_pid_check);
  Status SetPids(uint64_t share, const int32_t* pids, size_t n);
  StatusOr<PhysHandle*> Import(uint64_t share, int phys);
  PhysHandle* Find(void* handle);

 private:
  struct Range {
    int phys;
    size_t size;
    std::map<uintptr_t, std::pair<PhysHandle*, size_t>> maps;  // start -> handle, bytes
  };
  std::mutex mu_;
  std::map<void*, std::unique_ptr<PhysHandle>> handles_;  // GUARDED_BY(mu_)
  std::map<uintptr_t, Range> ranges_;                    // by start. GUARDED_BY(mu_)
  std::map<uint64_t, int> shares_;                       // own share id -> slot. GUARDED_BY(mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_VMM_H_
