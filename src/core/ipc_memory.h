// IpcMemory: this process's side of IPC memory sharing (aclrtIpcMem*).
//
// An export names a range of one aclrtMalloc allocation: the arena marks the
// chunks whose shared objects hold it (sim/device_arena.h) and the registry
// (sim/registry.h) gets a record with a fresh key, the owner and the chunk
// span. An importer finds the record by key, checks the whitelist, and maps
// the same objects into its current device's arena: the same pages, never a
// copy. The imported range is registered in the allocation map as
// kIpcImported on the importer's device, so copies, memsets and kernel
// arguments take it like any device memory.
//
// Lifetimes: the kernel reference-counts the pages, so an importer keeps
// valid memory when the exporter frees, closes or dies; a key whose exporter
// closed it, freed its allocation or died cannot be imported any more
// (107000). Close in an importer waits for the importing device's queued
// work first, so a kernel already submitted still sees the memory.
//
// Lock: mu_ guards the two tables (a leaf except for the registry lock and
// the arena lock, taken inside it in that order; neither calls back here).
#ifndef SIMNPU_CORE_IPC_MEMORY_H_
#define SIMNPU_CORE_IPC_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "platform/status.h"

namespace simnpu::core {

class IpcMemory {
 public:
  static IpcMemory& Get();
  // Exports [p, p+size) under a new key.
  StatusOr<std::string> Export(void* p, size_t size, uint64_t flags);
  Status SetImportPid(const std::string& key, const int32_t* pids, size_t n);
  // Maps the memory of `key` on physical device `phys` of this process.
  StatusOr<void*> Import(const std::string& key, uint64_t flags, int phys, int* owner_phys);
  Status Close(const std::string& key);
  // aclrtFree of [base, base+size): the exports inside it are withdrawn.
  void ForgetRange(uintptr_t base, size_t size);

 private:
  struct Mapping {
    int phys;
    void* base;  // what the arena mapped (chunk aligned)
    void* ptr;   // what the caller got
  };
  struct Exported {
    int slot;
    uintptr_t ptr;
    size_t size;
  };
  std::mutex mu_;
  std::map<std::string, Exported> exports_;              // GUARDED_BY(mu_)
  std::map<std::string, std::vector<Mapping>> imports_;  // GUARDED_BY(mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_IPC_MEMORY_H_
