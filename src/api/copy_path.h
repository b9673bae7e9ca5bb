// How the runtime performs copies and fills for aclrtMemcpy/aclrtMemset
// (sync and async).
//
// The side of a copy that the kind (or, for ACL_MEMCPY_DEFAULT, the address)
// says is device memory is accessed by the simulated device through its
// memory path, so managed pages there fault and migrate to the device like
// a DMA would; the side that is host memory is read or written by the CPU,
// so managed pages there take ordinary host faults. A managed range is
// never accessed by the CPU while a device access holds one of its blocks
// (a bounce buffer separates the two).
#ifndef SIMNPU_API_COPY_PATH_H_
#define SIMNPU_API_COPY_PATH_H_

#include <cstddef>
#include <cstdint>

#include "platform/status.h"

namespace simnpu::api {

bool IsManagedAddr(const void* p);
bool IsDeviceArenaAddr(const void* p);

// Copies n bytes; dst_dev/src_dev tell whether each side is accessed by the
// device `phys` (phys < 0: no device, everything by the CPU).
Status CopyRange(void* dst, bool dst_dev, const void* src, bool src_dev, size_t n, int phys);
// Fills n bytes, by the device when `dev_side`.
Status FillRange(void* dst, bool dev_side, uint8_t value, size_t n, int phys);

}  // namespace simnpu::api

#endif  // SIMNPU_API_COPY_PATH_H_
