// simnpu Ascend C model: system includes, the kernel-language keywords
// (keywords.h), the pipe_t enum, dcci and core-type macros.
#ifndef SIMNPU_ASCENDC_PRELUDE_H_
#define SIMNPU_ASCENDC_PRELUDE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "simnpu/kernel_abi.h"

// ---- the kernel-language keywords (empty on the CPU), GM_ADDR, __NPU_ARCH__
#include "simnpu_ascendc/keywords.h"

#define SIMNPU_ASCENDC_HIDDEN __attribute__((visibility("hidden")))
#define SIMNPU_ASCENDC_NOINLINE __attribute__((noinline))
#define SIMNPU_ASCENDC_COLD __attribute__((cold))
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define SIMNPU_ASCENDC_X86 1
#else
#define SIMNPU_ASCENDC_X86 0
#endif

// ---- hardware pipes (global unscoped enum, as kernels write PIPE_V bare).
enum pipe_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
  PIPE_NUM
};

// ---- data cache maintenance (needed by 950 code paths): no-op on a coherent CPU.
enum class cache_line_t : int { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum class dcci_dst_t : int { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };
template <typename T>
inline void dcci(T* /*addr*/, cache_line_t /*entire*/, dcci_dst_t /*dst*/) {}
template <typename T>
inline void dcci(T* /*addr*/, cache_line_t /*entire*/) {}

// ---- kernel type markers. The source pre-pass reads KERNEL_TASK_TYPE_DEFAULT
// textually; in the compiled model it is a statement with no effect.
enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY = 0,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(x)
#endif
#ifndef KERNEL_TASK_TYPE
#define KERNEL_TASK_TYPE(key, x)
#endif

// Core-type guards, used as `if ASCEND_IS_AIV { ... }`; they test the core
// type of the core that is running. On the split SOCs a block of a MIX
// kernel runs as one AIC and two AIV sub-cores (mix.h), each seeing its own
// type; on coupled SOCs it runs on one core and both guards are true.
#define ASCEND_IS_AIV (::simnpu::ascendc::detail::CurrentCoreType() != SIMNPU_KERNEL_AIC)
#define ASCEND_IS_AIC (::simnpu::ascendc::detail::CurrentCoreType() != SIMNPU_KERNEL_AIV)
#define ASCEND_IS_NOT_AIV (!ASCEND_IS_AIV)
#define ASCEND_IS_NOT_AIC (!ASCEND_IS_AIC)

#endif  // SIMNPU_ASCENDC_PRELUDE_H_
