// The simulated device's memory path: every access a device makes to global
// memory (kernel DataCopy traffic, device-side memcpy and memset, DMA of
// stream copies) goes through here.
//
// Plain addresses (device arenas, host memory) are accessed directly.
// Managed addresses are handed to the ManagedAccessHandler (the UVM engine),
// which translates them through the device's page table, services device
// faults on misses (migrating pages to the device) and then lets the copy run
// on the device frames while the affected blocks are pinned.
#ifndef SIMNPU_SIM_MEMORY_PATH_H_
#define SIMNPU_SIM_MEMORY_PATH_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "platform/status.h"

namespace simnpu::sim {

enum class AccessKind : uint8_t { kRead, kWrite };

// Why a device touches memory (for counters and traces).
enum class AccessCause : uint8_t { kKernel, kCopy, kMemset };

class ManagedAccessHandler {
 public:
  virtual ~ManagedAccessHandler() = default;
  // True if [p, p+n) intersects managed memory.
  virtual bool IsManaged(uintptr_t p, size_t n) const = 0;
  // Makes [va, va+n) accessible to device `dev` for `kind`, then calls
  // fn(device_ptr, offset, len) for consecutive pieces covering the range;
  // device_ptr is where the device sees those bytes (a device frame, or the
  // host page for remote mappings). The range stays pinned during fn.
  virtual Status DeviceAccess(int dev, uintptr_t va, size_t n, AccessKind kind, AccessCause cause,
                              const std::function<void(char* ptr, size_t off, size_t len)>& fn) = 0;
};

void SetManagedAccessHandler(ManagedAccessHandler* h);
ManagedAccessHandler* GetManagedAccessHandler();

// Device `dev` reads n bytes at global address src into local buffer dst.
Status DeviceRead(int dev, void* dst, const void* src, size_t n, AccessCause cause);
// Device `dev` writes n bytes from local buffer src to global address dst.
Status DeviceWrite(int dev, void* dst, const void* src, size_t n, AccessCause cause);
// Device-side copy between two global addresses (either may be managed).
Status DeviceCopy(int dev, void* dst, const void* src, size_t n);
// Device-side byte fill of a global range.
Status DeviceFill(int dev, void* dst, uint8_t value, size_t n);

// Copies with the device's DMA (one memcpy).
void FastCopy(void* dst, const void* src, size_t n);

}  // namespace simnpu::sim

#endif  // SIMNPU_SIM_MEMORY_PATH_H_
