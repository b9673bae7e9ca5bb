// NpuSystem: device count, capacity, lazy device opening.
#include "sim/npu_system.h"

#include "dfx/log.h"
#include "platform/env.h"
#include "sim/registry.h"

namespace simnpu::sim {

NpuDevice::NpuDevice(int phys_id, const SocInfo* soc, uint64_t capacity)
    : phys_id_(phys_id), soc_(soc), arena_(phys_id, capacity) {}

NpuSystem& NpuSystem::Get() {
  static NpuSystem* sys = new NpuSystem();  // never destroyed: threads may outlive exit
  return *sys;
}

NpuSystem::NpuSystem() {
  const SocInfo* soc = CurrentSoc();
  int64_t n = platform::GetEnvInt("SIMNPU_DEVICE_COUNT", 8);
  if (n < 0) n = 0;
  if (n > kMaxDevices) {
    SIMNPU_LOGW(kDrv, "SIMNPU_DEVICE_COUNT=%ld exceeds %d; using %d", static_cast<long>(n),
                kMaxDevices, kMaxDevices);
    n = kMaxDevices;
  }
  count_ = soc ? static_cast<int>(n) : 0;
  uint64_t dflt = soc ? soc->memory_gib << 30 : 0;
  capacity_ = platform::GetEnvSize("SIMNPU_DEVICE_MEMORY", dflt);
  if (capacity_ < DeviceArena::kChunk) capacity_ = DeviceArena::kChunk;
  capacity_ -= capacity_ % DeviceArena::kChunk;
  for (auto& d : devices_) d.store(nullptr);
}

StatusOr<NpuDevice*> NpuSystem::Open(int phys) {
  if (phys < 0 || phys >= count_)
    return Status(107001, "physical device " + std::to_string(phys) + " does not exist");
  NpuDevice* d = devices_[phys].load(std::memory_order_acquire);
  if (d) return d;
  std::lock_guard<std::mutex> g(open_mu_);
  d = devices_[phys].load(std::memory_order_acquire);
  if (d) return d;
  auto dev = std::make_unique<NpuDevice>(phys, CurrentSoc(), capacity_);
  SIMNPU_RETURN_IF_ERROR(dev->Init());
  Registry::Get().NoteDeviceOpen(phys);
  dev->arena().SetUsageSink(Registry::Get().UsageWord(phys));
  if (DeviceOpenHook hook = hook_.load(std::memory_order_acquire)) hook(dev.get());
  d = dev.release();  // devices live until process exit
  devices_[phys].store(d, std::memory_order_release);
  SIMNPU_LOGI(kDrv, "opened device %d (%s, %lu MiB)", phys, d->soc().name,
              static_cast<unsigned long>(capacity_ >> 20));
  return d;
}

NpuDevice* NpuSystem::DeviceOwning(const void* p) const {
  for (int i = 0; i < count_; ++i) {
    NpuDevice* d = devices_[i].load(std::memory_order_acquire);
    if (d && d->arena().Contains(p)) return d;
  }
  return nullptr;
}

}  // namespace simnpu::sim
