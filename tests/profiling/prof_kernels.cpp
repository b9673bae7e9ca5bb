// Kernels for the profiling and dump tests (a fatbin image loaded with
// aclrtBinaryLoadFromFile): z = x + y over n floats split across blocks,
// and a kernel that traps in block 1.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void prof_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer((__gm__ float*)x, n);
  gy.SetGlobalBuffer((__gm__ float*)y, n);
  gz.SetGlobalBuffer((__gm__ float*)z, n);
  const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t per = (n + blocks - 1) / blocks;
  const uint32_t b = static_cast<uint32_t>(AscendC::GetBlockIdx());
  for (uint32_t i = b * per; i < n && i < (b + 1) * per; ++i) gz.SetValue(i, gx.GetValue(i) + gy.GetValue(i));
}

extern "C" __global__ __aicore__ void prof_trap(GM_ADDR x) {
  AscendC::GlobalTensor<float> gx;
  gx.SetGlobalBuffer((__gm__ float*)x, 1);
  if (AscendC::GetBlockIdx() == 1) ::simnpu::ascendc::Trap();
  gx.SetValue(0, 1.0f);
}

SIMNPU_ASCENDC_REGISTER_KERNEL(prof_add, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(prof_trap, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_DEFINE_KERNEL_TABLE("Ascend910B1");
