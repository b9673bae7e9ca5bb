// Kernels registered in the test executable itself (an in-process image).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void ip_one(GM_ADDR out) { *(__gm__ int32_t*)out = 1; }
extern "C" __global__ __aicore__ void ip_two(GM_ADDR out, int32_t v) { *(__gm__ int32_t*)out = v; }

SIMNPU_ASCENDC_REGISTER_KERNEL(ip_one, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(ip_two, SIMNPU_KERNEL_AIV);
