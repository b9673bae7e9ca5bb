// Kernel tests: x[block] += 1 through a plain pointer dereference (no
// DataCopy), as the CANN stream samples do.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kt_incr(GM_ADDR x)
{
    __gm__ uint32_t* p = reinterpret_cast<__gm__ uint32_t*>(x);
    p[AscendC::GetBlockIdx()] += 1;
}
