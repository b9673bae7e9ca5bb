// A kernel for the misuse suite's argument and launch rows (an in-process image).
#include "kernel_operator.h"

// z[0..n) = 3 (block 0).
extern "C" __global__ __aicore__ void mu_fill(GM_ADDR z, uint32_t n) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z), n);
  if (AscendC::GetBlockIdx() == 0)
    for (uint32_t i = 0; i < n; ++i) g.SetValue(i, 3);
}
SIMNPU_ASCENDC_REGISTER_KERNEL(mu_fill, SIMNPU_KERNEL_AIV);

const simnpu_kernel_table* MisuseKernelTable() { return ::simnpu::ascendc::ProcessKernelTable(); }
