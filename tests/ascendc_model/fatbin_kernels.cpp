// A tiny fatbin image for the registry/table test: two kernels in this TU,
// one more in fatbin_kernels2.cpp, the table defined here.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void fb_scale(GM_ADDR x, float s, uint32_t n) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x, n);
  for (uint32_t i = 0; i < n; ++i) g.SetValue(i, g.GetValue(i) * s);
  AscendC::printf("fb_scale block %d\n", (int)AscendC::GetBlockIdx());
}

extern "C" __global__ __aicore__ void fb_trap() { ::simnpu::ascendc::Trap(); }

SIMNPU_ASCENDC_REGISTER_KERNEL(fb_scale, SIMNPU_KERNEL_AIV, SIMNPU_KERNEL_FLAG_PRINTF);
SIMNPU_ASCENDC_REGISTER_KERNEL(fb_trap, SIMNPU_KERNEL_MIX);
SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE("Ascend910B1");
