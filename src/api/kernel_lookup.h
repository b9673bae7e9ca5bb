// Kernel lookups shared with the model API: a function handle's loader
// function and a launch configuration in loader terms (both defined in
// acl_kernel.cc, next to the function registry and the launch calls, so a
// re-parametrised model task is checked exactly as a launch is).
#ifndef SIMNPU_API_KERNEL_LOOKUP_H_
#define SIMNPU_API_KERNEL_LOOKUP_H_

#include <memory>

#include "acl/acl_rt.h"
#include "loader/kernel_task.h"

namespace simnpu::api {
// The live function of handle h, or null.
std::shared_ptr<loader::Function> FindFunction(const void* h);
// As the launch calls parse aclrtLaunchKernelCfg (NULL: defaults).
aclError ParseLaunchConfig(const char* func, const aclrtLaunchKernelCfg* cfg, loader::LaunchConfig* out);
}  // namespace simnpu::api

#endif  // SIMNPU_API_KERNEL_LOOKUP_H_
