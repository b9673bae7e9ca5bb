// Float overflow (saturation) state: the device's overflow mode, each
// stream's overflow-detection switch, and the device's overflow status word.
//
// The mode (aclrtSetDeviceSatMode) belongs to a device and is copied into a
// stream when the stream is created (streams created before a change keep
// the old mode). The switch (aclrtSetStreamOverflowSwitch) belongs to a
// stream. A task whose float results overflowed (a kernel block that raised
// the host FPU's overflow or invalid flag, a reduce task whose result left
// the finite range) calls Raise: when its stream's switch is on, the status
// of the stream's device becomes non-zero until a reset task clears it.
//
// Chips (sim::SocInfo::npu_arch): 2201 (Atlas A2/A3) allow both modes,
// default INFNAN, switch default off; 3510 (Ascend 950) INFNAN only; every
// other chip SATURATION only and no switch (always on).
//
// Lock order: the module's mutex is a leaf.
#ifndef SIMNPU_CORE_OVERFLOW_H_
#define SIMNPU_CORE_OVERFLOW_H_

#include <cstdint>

namespace simnpu::core::overflow {

constexpr int kModeSaturation = 0;  // ACL_RT_OVERFLOW_MODE_SATURATION
constexpr int kModeInfNan = 1;      // ACL_RT_OVERFLOW_MODE_INFNAN

// What the current SOC supports.
bool ModeSupported(int mode);
int DefaultMode();
bool HasSwitch();  // false: the switch cannot be set and reads as 1

// Mode of simulated device `phys` (DefaultMode until set).
int DeviceMode(int phys);
void SetDeviceMode(int phys, int mode);

// Stream bookkeeping (called by core::Stream's constructor / destructor).
void StreamCreated(int32_t stream_id, int phys);
void StreamDestroyed(int32_t stream_id);
int StreamMode(int32_t stream_id);  // the device's mode when the stream was created
uint32_t StreamSwitch(int32_t stream_id);
void SetStreamSwitch(int32_t stream_id, uint32_t flag);

// A task on stream `stream_id` of device `phys` overflowed.
void Raise(int32_t stream_id, int phys);
uint32_t Status(int phys);
void Reset(int phys);

// Clamps like the vector unit in SATURATION mode: +-inf -> +-max finite,
// NaN -> 0. Returns true when the value was not finite.
bool SaturateFloat(float* v);
bool SaturateDouble(double* v);

}  // namespace simnpu::core::overflow

#endif  // SIMNPU_CORE_OVERFLOW_H_
