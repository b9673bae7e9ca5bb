// What happens to a device's memory when the device is reset, and device
// utilisation bookkeeping shared by the device entry points.
#ifndef SIMNPU_API_DEVICE_TEARDOWN_H_
#define SIMNPU_API_DEVICE_TEARDOWN_H_

namespace simnpu::core {
class Device;
}

namespace simnpu::api {
// Frees every plain allocation of the device and moves managed pages that are
// resident on it back to the host (their data is kept).
void TeardownDeviceMemory(core::Device* dev);
// Percentage of the last second the device spent running kernels.
int DeviceBusyPercent(int phys_id);
}  // namespace simnpu::api

#endif  // SIMNPU_API_DEVICE_TEARDOWN_H_
