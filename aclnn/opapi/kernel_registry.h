// Where libopapi.so finds its kernels: one kernel image per NPU
// architecture (opapi_kernels/aclnn_kernels_dav-<arch>.o next to
// libopapi.so, built from aclnn/kernels/*.asc by simnpu's Ascend C
// toolchain), chosen by the SOC the runtime simulates, loaded once with
// aclrtBinaryLoadFromFile; kernels are looked up once by name.
//
// Thread safety: one mutex guards the image handle and the name -> handle
// map; it is held across aclrtBinaryLoadFromFile / aclrtBinaryGetFunction
// (runtime locks nest inside it), never across a launch.
#ifndef SIMNPU_ACLNN_OPAPI_KERNEL_REGISTRY_H_
#define SIMNPU_ACLNN_OPAPI_KERNEL_REGISTRY_H_

#include <string>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"

namespace simnpu {
namespace aclnn {

// The function handle of kernel `name`, loading the image on first use.
// `forget_first`: drop the cached image and handles first (the runtime
// reported them stale, e.g. after aclFinalize and a new aclInit).
// Returns ACLNN_SUCCESS or ACLNN_ERR_INNER_FIND_KERNEL_ERROR (with a message).
aclnnStatus FindKernel(const std::string& name, bool forget_first, aclrtFuncHandle* out);

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_OPAPI_KERNEL_REGISTRY_H_
