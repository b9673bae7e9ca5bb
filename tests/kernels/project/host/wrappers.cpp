// Host code compiled into the kernel libraries kt_static / kt_shared: thin
// wrappers that launch the kernels with <<<numBlocks, l2ctrl, stream>>> and
// return the value of the launch expression (0 = enqueued), like the
// wrappers of the CANN samples.
#include <cstdint>

#include "kernel_operator.h"
#include "kt_types.h"

extern "C" __global__ __aicore__ void kt_vadd_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile);
extern "C" __global__ __aicore__ void kt_vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile);
extern "C" __global__ __aicore__ void kt_scalars(GM_ADDR out, GM_ADDR echo, GM_ADDR in, float alpha, int32_t beta,
                                                 uint64_t big, int8_t small, KtParams p, uint32_t n);
extern "C" __global__ __aicore__ void kt_printf(int32_t tag, float value);
extern "C" __global__ __aicore__ void kt_trap(GM_ADDR out, int32_t trapBlock);
extern "C" __global__ __aicore__ void kt_incr(GM_ADDR x);

uint32_t KtVaddHalfDo(uint32_t blocks, void* stream, void* x, void* y, void* z, uint32_t total, uint32_t tile)
{
    return kt_vadd_half<<<blocks, nullptr, stream>>>(x, y, z, total, tile);
}

uint32_t KtVaddFloatDo(uint32_t blocks, void* stream, float* x, float* y, float* z, uint32_t total, uint32_t tile)
{
    // float* arguments for GM_ADDR parameters; the launch value is kept in a variable
    const uint32_t rc = kt_vadd_float<<<blocks, nullptr, stream>>>(x, y, z, total, tile);
    return rc;
}

// double and int arguments for float and int8_t/int32_t parameters: converted
// to the kernel's parameter types; the struct goes by value
int32_t KtScalarsDo(uint32_t blocks, void* stream, void* out, void* echo, void* in, double alpha, int beta,
                    uint64_t big, int small, const KtParams& p, uint32_t n)
{
    return static_cast<int32_t>(kt_scalars<<<blocks, nullptr, stream>>>(out, echo, in, alpha, beta, big,
                                                                         static_cast<int8_t>(small), p, n));
}

uint32_t KtPrintfDo(uint32_t blocks, void* stream, int32_t tag, float value)
{
    return kt_printf<<<blocks, nullptr, stream>>>(tag, value);
}

uint32_t KtTrapDo(uint32_t blocks, void* stream, void* out, int32_t trapBlock)
{
    if (const uint32_t rc = kt_trap<<<blocks, nullptr, stream>>>(out, trapBlock); rc != 0) {
        return rc;
    }
    return 0;
}

uint32_t KtIncrDo(uint32_t blocks, void* stream, uint32_t* x)
{
    return kt_incr<<<blocks, nullptr, stream>>>(x);
}

// launched with a null stream literal: the default stream
uint32_t KtIncrDefaultStreamDo(uint32_t blocks, uint32_t* x)
{
    return kt_incr<<<blocks, nullptr, nullptr>>>(x);
}
