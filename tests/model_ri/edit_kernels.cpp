// A kernel for the task-parameter tests (an in-process image).
#include "kernel_operator.h"

// z[block] = v + block for every block.
extern "C" __global__ __aicore__ void me_mark(GM_ADDR z, uint32_t v) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z), 64);
  const uint32_t b = static_cast<uint32_t>(AscendC::GetBlockIdx());
  g.SetValue(b, static_cast<int32_t>(v + b));
}
SIMNPU_ASCENDC_REGISTER_KERNEL(me_mark, SIMNPU_KERNEL_AIV);

const simnpu_kernel_table* ModelEditKernelTable() { return ::simnpu::ascendc::ProcessKernelTable(); }
