// Device memory teardown on reset, and utilisation.
#include "api/device_teardown.h"

#include "core/allocation_map.h"
#include "core/mem_pool.h"
#include "core/runtime.h"
#include "loader/scheduler.h"
#include "sim/npu_system.h"
#include "uvm/engine.h"

namespace simnpu::api {

namespace {
__attribute__((constructor)) void InstallTeardownHook() { core::Device::SetTeardownHook(&TeardownDeviceMemory); }
}  // namespace

void TeardownDeviceMemory(core::Device* dev) {
  uvm::Engine::Get().EvacuateDevice(dev->phys_id());
  (void)core::MemPools::Get().OnDeviceReset(dev->phys_id());  // pools die with their device
  dev->npu()->arena().FreeAllPlain();
  core::AllocationMap::Get().UnregisterDevice(dev->phys_id(), core::MemKind::kDevice);
}

int DeviceBusyPercent(int phys_id) { return loader::BlockScheduler::Get().BusyPercent(phys_id); }

}  // namespace simnpu::api
