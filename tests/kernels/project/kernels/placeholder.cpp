// Kernel tests: two int32 parameters that the host passes as placeholder
// data (aclrtKernelArgsAppendPlaceHolder + GetPlaceHolderBuffer). Block b
// handles elements [b*len, (b+1)*len): z = x * mul.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kt_placeholder(GM_ADDR x, GM_ADDR z, __gm__ int32_t* len, __gm__ int32_t* mul)
{
    const int32_t n = *len;
    const int32_t m = *mul;
    const int64_t first = AscendC::GetBlockIdx() * n;
    const __gm__ int32_t* xs = reinterpret_cast<const __gm__ int32_t*>(x);
    __gm__ int32_t* zs = reinterpret_cast<__gm__ int32_t*>(z);
    for (int32_t k = 0; k < n; ++k) {
        zs[first + k] = xs[first + k] * m;
    }
}
