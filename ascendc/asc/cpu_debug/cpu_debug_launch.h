// simnpu: cpu_debug_launch.h, the header that .asc programs include under
// #ifdef ASCENDC_CPU_DEBUG (CMAKE_ASC_RUN_MODE=cpu puts it on the include
// path). In the devkit's CPU-debug mode it declares what the compiler turns
// <<<...>>> into and the CPU-debug harness; in simnpu the launch glue is the
// same in every mode (kernels run on the simnpu runtime, asynchronously on
// their stream, as on the NPU), so this header adds only the older harness
// of CPU-debug programs:
//   ICPU_RUN_KF(kernel, numBlocks, args...)  launch on the default stream and
//                                            wait (the launch is synchronous
//                                            in CPU debug); the device of the
//                                            thread is set to 0 if none is
//   ICPU_SET_TILING_KEY(key)                 accepted (no tiling keys here)
//   AscendC::GmAlloc(bytes), AscendC::GmFree(ptr)
//                                            global memory for such launches
//                                            (64-byte aligned host memory)
//   AscendC::SetKernelMode(mode)             accepted (AIV_MODE, AIC_MODE, MIX_MODE)
#ifndef SIMNPU_CPU_DEBUG_LAUNCH_H_
#define SIMNPU_CPU_DEBUG_LAUNCH_H_

#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "simnpu_ascendc_host/launch.h"

namespace AscendC {

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };
inline void SetKernelMode(KernelMode /*mode*/) {}

inline void* GmAlloc(size_t size) {
  void* p = nullptr;
  if (posix_memalign(&p, 64, size == 0 ? 64 : size) != 0) return nullptr;
  return p;
}
inline void GmFree(void* ptr) { std::free(ptr); }

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace host {

// A launch of the CPU-debug harness: on the default stream, then wait.
// Returns the aclError of the launch or of the synchronisation.
template <auto Fn, typename... A>
inline uint32_t CpuRunKernel(const char* name, uint32_t numBlocks, A&&... args) {
  aclrtContext ctx = nullptr;
  if (aclrtGetCurrentContext(&ctx) != ACL_SUCCESS || ctx == nullptr) {
    const aclError rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS) return static_cast<uint32_t>(rc);
  }
  uint32_t rc = Chevron<Fn>(name, numBlocks, nullptr, nullptr)(std::forward<A>(args)...);
  if (rc == 0) rc = static_cast<uint32_t>(aclrtSynchronizeStream(nullptr));
  if (rc != 0) std::fprintf(stderr, "[ERROR] ICPU_RUN_KF(%s): error %u\n", name, rc);
  return rc;
}

}  // namespace host
}  // namespace ascendc
}  // namespace simnpu

#define ICPU_RUN_KF(func, numBlocks, ...) \
  ((void)::simnpu::ascendc::host::CpuRunKernel<&func>(#func, (numBlocks), ##__VA_ARGS__))
#define ICPU_SET_TILING_KEY(key) ((void)(key))

#endif  // SIMNPU_CPU_DEBUG_LAUNCH_H_
