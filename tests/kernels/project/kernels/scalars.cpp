// Kernel tests: scalar parameters of several widths and a struct passed by
// value. Block i computes out[i] = alpha * in[i] + beta + small + p.a * p.b + p.c
// (in float); block 0 also writes every parameter it received to echo.
#include "kernel_operator.h"
#include "kt_types.h"

extern "C" __global__ __aicore__ void kt_scalars(GM_ADDR out, GM_ADDR echo, GM_ADDR in, float alpha, int32_t beta,
                                                 uint64_t big, int8_t small, KtParams p, uint32_t n)
{
    const int64_t i = AscendC::GetBlockIdx();
    const __gm__ float* src = reinterpret_cast<const __gm__ float*>(in);
    __gm__ float* dst = reinterpret_cast<__gm__ float*>(out);
    if (static_cast<uint32_t>(i) < n) {
        dst[i] = alpha * src[i] + static_cast<float>(beta) + static_cast<float>(small) +
                 p.a * static_cast<float>(p.b) + static_cast<float>(p.c);
    }
    if (i == 0) {
        __gm__ KtEcho* e = reinterpret_cast<__gm__ KtEcho*>(echo);
        e->alpha = alpha;
        e->beta = beta;
        e->big = big;
        e->small = small;
        e->n = n;
        e->p = p;
        e->blockNum = AscendC::GetBlockNum();
    }
}

// A 16-byte-aligned vector after a pointer (at offset 8 of the appended
// arguments): out[i] = w.v[i] * scale for i < 4.
extern "C" __global__ __aicore__ void kt_wide(GM_ADDR out, KtWide w, float scale)
{
    __gm__ float* dst = reinterpret_cast<__gm__ float*>(out);
    const KtWide copy = w * scale;
    for (int i = 0; i < 4; ++i) {
        dst[AscendC::GetBlockIdx() * 4 + i] = copy[i];
    }
}
