// NpuSystem: the simulated NPUs of this process.
//
// SIMNPU_DEVICE_COUNT physical devices (default 8, as on an Atlas A2 server; at most kMaxDevices), all
// of the SOC named by SIMNPU_SOC. A device is opened (its memory arena
// reserved) on first use. Each device's memory capacity is the SOC's memory
// size unless SIMNPU_DEVICE_MEMORY (bytes, K/M/G suffixes) overrides it.
// Physical ids are what ASCEND_RT_VISIBLE_DEVICES lists; the runtime core
// maps user-visible ids onto them.
#ifndef SIMNPU_SIM_NPU_SYSTEM_H_
#define SIMNPU_SIM_NPU_SYSTEM_H_

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "platform/status.h"
#include "sim/device_arena.h"
#include "sim/soc.h"

namespace simnpu::sim {

constexpr int kMaxDevices = 16;

class NpuDevice {
 public:
  NpuDevice(int phys_id, const SocInfo* soc, uint64_t capacity);
  int phys_id() const { return phys_id_; }
  const SocInfo& soc() const { return *soc_; }
  DeviceArena& arena() { return arena_; }
  Status Init() { return arena_.Init(); }

 private:
  const int phys_id_;
  const SocInfo* soc_;
  DeviceArena arena_;
};

// Called once per device when it opens, under NpuSystem::open_mu_ and before
// the device is visible to Find; the UVM engine registers the arena with its
// userfaultfd from it.
using DeviceOpenHook = void (*)(NpuDevice* dev);

class NpuSystem {
 public:
  static NpuSystem& Get();

  // Physical device count (0 when SIMNPU_DEVICE_COUNT=0 or the SOC is unknown).
  int physical_count() const { return count_; }
  uint64_t capacity_per_device() const { return capacity_; }
  // The opened device, or nullptr if it was never opened. Lock-free.
  NpuDevice* Find(int phys) const {
    return (phys >= 0 && phys < count_) ? devices_[phys].load(std::memory_order_acquire) : nullptr;
  }
  // Opens the device on first use.
  StatusOr<NpuDevice*> Open(int phys);
  // Finds the opened device whose arena contains p (nullptr if none).
  NpuDevice* DeviceOwning(const void* p) const;

  // Installs the hook called (under open_mu_, before the device becomes
  // visible to Find) for every device opened afterwards. Taking open_mu_
  // here means that once it returns, a device is either already visible to
  // Find or will be passed to the hook: a caller that installs the hook and
  // then scans Find misses none.
  void SetDeviceOpenHook(DeviceOpenHook hook) {
    std::lock_guard<std::mutex> g(open_mu_);
    hook_.store(hook, std::memory_order_release);
  }

 private:
  NpuSystem();
  int count_ = 0;
  uint64_t capacity_ = 0;
  std::mutex open_mu_;  // serialises Open
  std::array<std::atomic<NpuDevice*>, kMaxDevices> devices_{};
  std::atomic<DeviceOpenHook> hook_{nullptr};  // written under open_mu_
};

}  // namespace simnpu::sim

#endif  // SIMNPU_SIM_NPU_SYSTEM_H_
