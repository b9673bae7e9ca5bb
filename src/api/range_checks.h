// Range and handle checks of the memory entry points, on top of the
// allocation map (core/allocation_map.h): what each call accepts, decided
// once here so that the synchronous and the asynchronous form of a call
// check the same thing, and the asynchronous one checks it at submission
// (nothing that would fail reaches a stream).
//
//   copies   each side the kind (or, for ACL_MEMCPY_DEFAULT, the address)
//            says the device accesses must lie in one live allocation the
//            device can reach; a host side that lies in a known allocation
//            must stay inside it, and one in no allocation (pageable memory
//            of the program) must at least be mapped. Freed memory on either
//            side is an error.
//   fills    the whole range in one live allocation of any kind (never the
//            program's own stack or heap).
//   values   the 8 bytes in device memory proper (aclrtMalloc, VMM, IPC).
//   peers    a device-to-device copy, or a kernel launch, issued on one
//            device that reaches device memory (aclrtMalloc, VMM-mapped,
//            IPC-imported) of another device of the process needs peer
//            access from the issuing device to that one
//            (aclrtDeviceEnablePeerAccess); IPC-imported memory belongs to
//            the device that imported it.
// Every failure is ACL_ERROR_RT_PARAM_INVALID (107000) with a message that
// names the allocation and the excess (allocation_map.h), or the two
// devices and the missing peer access.
#ifndef SIMNPU_API_RANGE_CHECKS_H_
#define SIMNPU_API_RANGE_CHECKS_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "simnpu/kernel_abi.h"

namespace simnpu::api {

// After the ACL-layer checks of a copy (NULLs, kind, count <= destMax):
// decides which sides the device accesses (*dst_dev, *src_dev) and checks
// both ranges. count > 0.
aclError CheckCopyRanges(const char* func, void* dst, const void* src, size_t count, int kind, bool* dst_dev,
                         bool* src_dev);
// A copy the device `phys` (logical `logical`) performs, after
// CheckCopyRanges: when both sides are device memory, each side on another
// device needs peer access from `logical` to its device.
aclError CheckPeerCopy(const char* func, const void* dst, const void* src, int logical, int phys);
// A kernel launched on device `phys` (logical `logical`) with the argument
// pointers argv (argv[i] points at parameter i of desc): each pointer
// parameter that points into another device's memory needs peer access to
// that device. Arithmetic only unless an argument lies in another device's
// address window.
aclError CheckPeerKernelArgs(const char* func, const simnpu_kernel_desc& desc, void* const* argv, size_t argc,
                             int logical, int phys);
// The range of a memset. count > 0.
aclError CheckFillRange(const char* func, const void* p, size_t count);
// The 64-bit word of aclrtValueWrite / aclrtValueWait.
aclError CheckValueWord(const char* func, const void* p);

}  // namespace simnpu::api

#endif  // SIMNPU_API_RANGE_CHECKS_H_
