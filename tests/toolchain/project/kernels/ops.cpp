// Toolchain test: a C++ (not extern "C") kernel in a namespace with float
// and uint32_t scalar parameters, and the host wrappers that launch the
// kernels of this library with <<<...>>>.
#include "kernel_operator.h"
#include "ops_config.h"

extern "C" __global__ __aicore__ void vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total);
extern "C" __global__ __aicore__ void trap_kernel();

namespace demo {
// out[i] = scale * in[i] + offset + kOffsetBase, one element per block
__global__ __aicore__ void axpb(__gm__ float* out, float scale, uint32_t offset, __gm__ const float* in)
{
    const int64_t i = AscendC::GetBlockIdx();
    out[i] = scale * in[i] + static_cast<float>(offset + kOffsetBase);
}
}  // namespace demo

uint32_t VaddDo(uint32_t blockDim, void* stream, float* x, float* y, float* z, uint32_t total)
{
    return vadd_float<<<blockDim, nullptr, stream>>>(x, y, z, total);
}

int32_t AxpbDo(uint32_t blockDim, void* stream, float* out, double scale, int offset, const float* in)
{
    // the value of the launch expression is used, as in the CANN samples
    return static_cast<int32_t>(demo::axpb<<<blockDim,
                                             nullptr,
                                             stream>>>(out, scale, offset, in));
}

uint32_t TrapDo(uint32_t blockDim, void* stream)
{
    return ::trap_kernel<<<blockDim, nullptr, stream>>>();
}
