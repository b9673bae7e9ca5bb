// Vmm: physical handles, reserved ranges, mappings, shareable handles.
#include "core/vmm.h"

#include <unistd.h>

#include <cstring>

#include "core/allocation_map.h"
#include "platform/shm_dir.h"
#include "sim/npu_system.h"
#include "sim/registry.h"

namespace simnpu::core {
namespace {
constexpr int kParam = 107000;
constexpr size_t kChunk = Vmm::kGranularity;
}  // namespace

Vmm& Vmm::Get() {
  static Vmm* v = new Vmm();  // never destroyed
  return *v;
}

PhysHandle* Vmm::Find(void* handle) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = handles_.find(handle);
  return it == handles_.end() ? nullptr : it->second.get();
}

StatusOr<PhysHandle*> Vmm::MallocPhysical(int phys, size_t size) {
  if (size % kChunk != 0)
    return Status(kParam, "size " + std::to_string(size) + " is not a multiple of the granularity (2097152)");
  auto dev = sim::NpuSystem::Get().Open(phys);
  if (!dev.ok()) return dev.status();
  sim::DeviceArena& arena = dev.value()->arena();
  auto p = arena.Allocate(size);
  if (!p.ok()) return p.status();
  auto span = arena.Export(p.value(), size);  // never recycled: others may hold its objects
  if (!span.ok()) {
    (void)arena.Free(p.value());
    return span.status();
  }
  auto h = std::make_unique<PhysHandle>();
  h->phys = phys;
  h->size = size;
  h->arena_base = p.value();
  const std::string stem = platform::ShmDir::Get().stem();
  for (uint32_t k = 0; k < span.value().chunks; ++k) {
    int fd = sim::DeviceArena::OpenChunkObject(stem, phys, span.value().first_chunk + k);
    if (fd < 0) {
      for (int f : h->fds) close(f);
      (void)arena.Free(p.value());
      return Status(207001, std::string("cannot open physical memory: ") + std::strerror(-fd));
    }
    h->fds.push_back(fd);
  }
  PhysHandle* raw = h.get();
  std::lock_guard<std::mutex> g(mu_);
  handles_[raw] = std::move(h);
  return raw;
}

Status Vmm::FreePhysical(void* handle) {
  std::unique_ptr<PhysHandle> h;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = handles_.find(handle);
    if (it == handles_.end()) return Status(kParam, "not a physical memory handle of this process");
    h = std::move(it->second);
    handles_.erase(it);
    // Mappings keep their pages; forget the handle in them.
    for (auto& [start, r] : ranges_)
      for (auto& [at, m] : r.maps)
        if (m.first == h.get()) m.first = nullptr;
    if (h->share_slot >= 0) {
      sim::Registry::Get().RemoveExport(h->share_slot);
      shares_.erase(h->share_id);
    }
  }
  for (int f : h->fds) close(f);
  if (!h->imported && h->arena_base)
    if (sim::NpuDevice* d = sim::NpuSystem::Get().Find(h->phys)) (void)d->arena().Free(h->arena_base);
  return Status::Ok();
}

StatusOr<void*> Vmm::Reserve(int phys, size_t size) {
  auto dev = sim::NpuSystem::Get().Open(phys);
  if (!dev.ok()) return dev.status();
  const size_t chunks = (size + kChunk - 1) / kChunk;
  auto va = dev.value()->arena().ReserveRange(static_cast<uint32_t>(chunks));
  if (!va.ok()) return va.status();
  std::lock_guard<std::mutex> g(mu_);
  ranges_[reinterpret_cast<uintptr_t>(va.value())] = Range{phys, chunks * kChunk, {}};
  return va.value();
}

Status Vmm::Release(void* va) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = ranges_.find(reinterpret_cast<uintptr_t>(va));
  if (it == ranges_.end()) return Status(kParam, "not an address aclrtReserveMemAddress returned");
  if (!it->second.maps.empty()) return Status(kParam, "the range is still mapped; aclrtUnmapMem first");
  sim::NpuDevice* d = sim::NpuSystem::Get().Find(it->second.phys);
  ranges_.erase(it);
  return d ? d->arena().UnmapForeign(va) : Status::Ok();
}

Status Vmm::Map(void* va, size_t size, size_t offset, void* handle) {
  std::lock_guard<std::mutex> g(mu_);
  auto hit = handles_.find(handle);
  if (hit == handles_.end()) return Status(kParam, "not a physical memory handle of this process");
  PhysHandle* h = hit->second.get();
  if (offset != 0) return Status(kParam, "offset must be 0");
  if (size != h->size)
    return Status(kParam, "size " + std::to_string(size) + " differs from the handle's " + std::to_string(h->size));
  const auto a = reinterpret_cast<uintptr_t>(va);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return Status(kParam, "the address is not in a reserved range");
  --it;
  Range& r = it->second;
  if (a < it->first || a - it->first >= r.size || size > r.size - (a - it->first) || (a - it->first) % kChunk)
    return Status(kParam, "the mapping does not fit its reserved range at a 2 MiB boundary");
  for (auto& [at, m] : r.maps)
    if (a < at + m.second && at < a + size) return Status(kParam, "the range overlaps an existing mapping");
  sim::NpuDevice* d = sim::NpuSystem::Get().Find(r.phys);
  if (!d) return Status(kParam, "the range's device is gone");
  for (size_t k = 0; k < h->fds.size(); ++k) {
    Status st = d->arena().MapObjectAt(reinterpret_cast<void*>(a + k * kChunk), h->fds[k]);
    if (!st.ok()) {
      for (size_t j = 0; j < k; ++j) d->arena().UnmapAt(reinterpret_cast<void*>(a + j * kChunk));
      return st;
    }
  }
  Status reg = AllocationMap::Get().Register(a, size, size, MemKind::kVmmMapped, r.phys);
  if (!reg.ok()) {
    for (size_t j = 0; j < h->fds.size(); ++j) d->arena().UnmapAt(reinterpret_cast<void*>(a + j * kChunk));
    return reg;
  }
  r.maps[a] = {h, size};
  ++h->maps;
  return Status::Ok();
}

Status Vmm::Unmap(void* va) {
  std::lock_guard<std::mutex> g(mu_);
  const auto a = reinterpret_cast<uintptr_t>(va);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return Status(kParam, "the address is not a mapping");
  --it;
  auto m = it->second.maps.find(a);
  if (m == it->second.maps.end()) return Status(kParam, "the address is not the start of a mapping");
  sim::NpuDevice* d = sim::NpuSystem::Get().Find(it->second.phys);
  for (size_t off = 0; off < m->second.second; off += kChunk)
    if (d) d->arena().UnmapAt(reinterpret_cast<void*>(a + off));
  AllocationMap::Get().Unregister(a);
  if (m->second.first) --m->second.first->maps;
  it->second.maps.erase(m);
  return Status::Ok();
}

bool Vmm::Mapped(void* va, size_t size) {
  std::lock_guard<std::mutex> g(mu_);
  const auto a = reinterpret_cast<uintptr_t>(va);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return false;
  --it;
  auto m = it->second.maps.find(a);
  return m != it->second.maps.end() && m->second.second == size;
}

StatusOr<uint64_t> Vmm::Export(void* handle, bool no_pid_check) {
  std::lock_guard<std::mutex> g(mu_);
  auto hit = handles_.find(handle);
  if (hit == handles_.end()) return Status(kParam, "not a physical memory handle of this process");
  PhysHandle* h = hit->second.get();
  if (h->imported) return Status(kParam, "an imported handle cannot be exported");
  if (h->share_id) return Status(kParam, "the handle was exported already (one shareable handle per handle)");
  uintptr_t b = 0;
  size_t sz = 0;
  sim::NpuDevice* d = sim::NpuSystem::Get().Find(h->phys);
  if (!d || !d->arena().FindAllocation(h->arena_base, &b, &sz)) return Status(kParam, "the handle's memory is gone");
  sim::RegExport rec{};
  rec.kind = static_cast<uint32_t>(sim::ExportKind::kVmm);
  rec.flags = no_pid_check ? 1 : 0;
  rec.device = h->phys;
  rec.first_chunk = static_cast<uint32_t>((b - d->arena().base()) / kChunk);
  rec.chunks = static_cast<uint32_t>(h->fds.size());
  rec.size = h->size;
  rec.handle = sim::Registry::Get().NextId() | (uint64_t{0x5E} << 56);
  std::string key;
  auto slot = sim::Registry::Get().AddExport(rec, &key);
  if (!slot.ok()) return slot.status();
  h->share_id = rec.handle;
  h->share_slot = slot.value();
  shares_[rec.handle] = slot.value();
  return rec.handle;
}

Status Vmm::SetPids(uint64_t share, const int32_t* pids, size_t n) {
  int slot = -1;
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = shares_.find(share);
    if (it == shares_.end()) return Status(kParam, "the shareable handle was not exported by this process");
    slot = it->second;
  }
  return sim::Registry::Get().AddWhitelist(slot, pids, n);
}

StatusOr<PhysHandle*> Vmm::Import(uint64_t share, int phys) {
  Status reg_error;
  auto rec = sim::Registry::Get().FindByHandle(share, sim::ExportKind::kVmm, nullptr, &reg_error);
  if (!reg_error.ok()) return reg_error;
  if (!rec) return Status(kParam, "no memory is exported under this shareable handle (unknown, freed, or its exporter exited)");
  if (rec->owner_pid == getpid()) return Status(kParam, "importing in the exporting process is not supported");
  if (!sim::MayImport(*rec, getpid(), rec->flags & 1))
    return Status(207006, "process " + std::to_string(getpid()) + " is not on the whitelist of the shareable handle");
  auto h = std::make_unique<PhysHandle>();
  h->phys = phys;  // mappings go to the importer's device
  h->size = rec->size;
  h->imported = true;
  for (uint32_t k = 0; k < rec->chunks; ++k) {
    int fd = sim::DeviceArena::OpenChunkObject(rec->owner_stem, rec->device, rec->first_chunk + k);
    if (fd < 0) {
      for (int f : h->fds) close(f);
      return Status(kParam, std::string("the exported memory no longer exists: ") + std::strerror(-fd));
    }
    h->fds.push_back(fd);
  }
  PhysHandle* raw = h.get();
  std::lock_guard<std::mutex> g(mu_);
  handles_[raw] = std::move(h);
  return raw;
}

}  // namespace simnpu::core
