// Toolchain test kernels without host code: a float vector add (each block
// adds one contiguous chunk) and a kernel that only traps.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total)
{
    const __gm__ float* xs = reinterpret_cast<const __gm__ float*>(x);
    const __gm__ float* ys = reinterpret_cast<const __gm__ float*>(y);
    __gm__ float* zs = reinterpret_cast<__gm__ float*>(z);
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t chunk = (total + blocks - 1) / blocks;
    const uint32_t begin = static_cast<uint32_t>(AscendC::GetBlockIdx()) * chunk;
    for (uint32_t i = begin; i < begin + chunk && i < total; ++i) {
        zs[i] = xs[i] + ys[i];
    }
}

/* a comment with a launch-like text: vadd_float<<<8, nullptr, stream>>>(x, y, z, 8) */
extern "C" __global__ __aicore__ void trap_kernel()
{
    asm("trap");
}
