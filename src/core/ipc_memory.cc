// IpcMemory: export, whitelist, import and close of IPC memory keys.
#include "core/ipc_memory.h"

#include <unistd.h>

#include "core/allocation_map.h"
#include "core/runtime.h"
#include "sim/npu_system.h"
#include "sim/registry.h"

namespace simnpu::core {
namespace {
constexpr int kParam = 107000;
constexpr int kNoPermission = 207006;  // ACL_ERROR_RT_NO_PERMISSION

void WaitDevice(int phys) {
  if (Device* d = Runtime::Get().DeviceForPhys(phys)) d->WaitIdle();
}
}  // namespace

IpcMemory& IpcMemory::Get() {
  static IpcMemory* m = new IpcMemory();  // never destroyed
  return *m;
}

StatusOr<std::string> IpcMemory::Export(void* p, size_t size, uint64_t flags) {
  sim::NpuDevice* dev = sim::NpuSystem::Get().DeviceOwning(p);
  auto live = AllocationMap::Get().Find(p);
  if (!dev || !live || live->kind != MemKind::kDevice)
    return Status(kParam, "the address is not device memory from aclrtMalloc (only that can be exported)");
  auto span = dev->arena().Export(p, size);
  if (!span.ok()) return span.status();
  // Work already submitted that writes the range finishes before anyone can
  // import it (programs publish the key without synchronising).
  WaitDevice(dev->phys_id());
  sim::RegExport rec{};
  rec.kind = static_cast<uint32_t>(sim::ExportKind::kMemory);
  rec.flags = static_cast<uint32_t>(flags);
  rec.device = dev->phys_id();
  rec.first_chunk = span.value().first_chunk;
  rec.chunks = span.value().chunks;
  rec.offset = span.value().offset;
  rec.size = size;
  std::string key;
  auto slot = sim::Registry::Get().AddExport(rec, &key);
  if (!slot.ok()) return slot.status();
  std::lock_guard<std::mutex> g(mu_);
  exports_[key] = Exported{slot.value(), reinterpret_cast<uintptr_t>(p), size};
  return key;
}

Status IpcMemory::SetImportPid(const std::string& key, const int32_t* pids, size_t n) {
  int slot = -1;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = exports_.find(key);
    if (it == exports_.end()) return Status(kParam, "the key '" + key + "' was not exported by this process");
    slot = it->second.slot;
  }
  return sim::Registry::Get().AddWhitelist(slot, pids, n);
}

StatusOr<void*> IpcMemory::Import(const std::string& key, uint64_t flags, int phys, int* owner_phys) {
  (void)flags;
  Status reg_error;
  auto rec = sim::Registry::Get().FindExport(key, sim::ExportKind::kMemory, nullptr, &reg_error);
  if (!reg_error.ok()) return reg_error;
  if (!rec)
    return Status(kParam, "no IPC memory is exported under the key '" + key +
                              "' (unknown, closed, freed, or its exporter exited)");
  if (rec->owner_pid == getpid())
    return Status(kParam, "the key '" + key + "' was exported by this process; import it in another process");
  if (!sim::MayImport(*rec, getpid(), rec->flags & 1))
    return Status(kNoPermission, "process " + std::to_string(getpid()) + " is not on the whitelist of the key '" +
                                     key + "' (aclrtIpcMemSetImportPid)");
  auto dev = sim::NpuSystem::Get().Open(phys);
  if (!dev.ok()) return dev.status();
  auto base = dev.value()->arena().MapForeign(rec->owner_stem, rec->device, rec->first_chunk, rec->chunks);
  if (!base.ok()) return base.status();
  void* ptr = static_cast<char*>(base.value()) + rec->offset;
  Status reg = AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(ptr), rec->size, rec->size,
                                             MemKind::kIpcImported, phys);
  if (!reg.ok()) {
    (void)dev.value()->arena().UnmapForeign(base.value());
    return reg;
  }
  if (owner_phys) *owner_phys = rec->device;
  std::lock_guard<std::mutex> g(mu_);
  imports_[key].push_back(Mapping{phys, base.value(), ptr});
  return ptr;
}

Status IpcMemory::Close(const std::string& key) {
  std::unique_lock<std::mutex> g(mu_);
  auto imp = imports_.find(key);
  if (imp != imports_.end() && !imp->second.empty()) {
    Mapping m = imp->second.back();
    imp->second.pop_back();
    if (imp->second.empty()) imports_.erase(imp);
    g.unlock();
    WaitDevice(m.phys);  // queued work that reads the memory still sees it
    AllocationMap::Get().Unregister(reinterpret_cast<uintptr_t>(m.ptr));
    if (sim::NpuDevice* d = sim::NpuSystem::Get().Find(m.phys)) return d->arena().UnmapForeign(m.base);
    return Status::Ok();
  }
  auto ex = exports_.find(key);
  if (ex != exports_.end()) {
    sim::Registry::Get().RemoveExport(ex->second.slot);
    exports_.erase(ex);
    return Status::Ok();
  }
  return Status(kParam, "the key '" + key + "' is neither exported nor imported by this process");
}

void IpcMemory::ForgetRange(uintptr_t base, size_t size) {
  std::lock_guard<std::mutex> g(mu_);
  for (auto it = exports_.begin(); it != exports_.end();) {
    if (it->second.ptr >= base && it->second.ptr - base < size) {
      sim::Registry::Get().RemoveExport(it->second.slot);
      it = exports_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace simnpu::core
