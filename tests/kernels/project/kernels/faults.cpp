// Kernel tests: kernels that fail or break the rules.
#include "kernel_operator.h"

// Every block but trapBlock writes 1 to out[block]; trapBlock executes a trap.
extern "C" __global__ __aicore__ void kt_trap(GM_ADDR out, int32_t trapBlock)
{
    const int64_t b = AscendC::GetBlockIdx();
    if (b == trapBlock) {
        asm("trap");
    }
    reinterpret_cast<__gm__ int32_t*>(out)[b] = 1;
}

// Writes through an address that is not mapped (given by the host).
extern "C" __global__ __aicore__ void kt_wild(uint64_t address)
{
    *reinterpret_cast<volatile __gm__ int32_t*>(address) = 42;
}

// Asks for more unified buffer than the core has.
extern "C" __global__ __aicore__ void kt_ub_overflow(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 128 * 1024);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 8);
    AscendC::DataCopy(t, g, 8);
    q.FreeTensor(t);
}

// Copies `count` floats GM -> UB -> GM with contiguous DataCopy, breaking the
// 32-byte rule when count * 4 is not a multiple of 32 (the NPU rounds down).
extern "C" __global__ __aicore__ void kt_copy_unaligned(GM_ADDR x, GM_ADDR z, uint32_t count)
{
    const int64_t first = AscendC::GetBlockIdx() * 64;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first, 64);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + first, 64);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, count);
    AscendC::DataCopy(zGm, t, count);
}

namespace {
// recursion with a large frame the compiler cannot drop
__aicore__ uint32_t Deep(uint32_t depth)
{
    volatile uint8_t frame[1024];  // below the size of a stack guard page
    frame[0] = static_cast<uint8_t>(depth);
    frame[1023] = 1;
    if (depth == 0) {
        return 0;
    }
    return Deep(depth - 1) + frame[0] * frame[1023];  // depth + (depth-1) + ... (small depths)
}
}  // namespace

// Overflows the stack of the core (what -cce-aicore-stack-size limits on the NPU).
extern "C" __global__ __aicore__ void kt_stack_overflow(GM_ADDR out, uint32_t depth)
{
    reinterpret_cast<__gm__ uint32_t*>(out)[AscendC::GetBlockIdx()] = Deep(depth);
}

// Traps in a cube (AIC) kernel and in a mixed kernel: the AI-core exception
// code instead of the vector-core one. core[block] records which of
// ASCEND_IS_AIC (1) / ASCEND_IS_AIV (2) hold before the trap.
extern "C" __global__ __aicore__ void kt_trap_aic(GM_ADDR core)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    reinterpret_cast<__gm__ int32_t*>(core)[AscendC::GetBlockIdx()] = (ASCEND_IS_AIC ? 1 : 0) | (ASCEND_IS_AIV ? 2 : 0);
    asm volatile("trap");
}

// A mixed block runs as one AIC and two AIV sub-cores, each seeing only its
// own guard: the AIC writes core[0], AIV n writes core[1 + n].
extern "C" __global__ __aicore__ void kt_trap_mix(GM_ADDR core)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const int32_t slot = ASCEND_IS_AIC ? 0 : 1 + static_cast<int32_t>(AscendC::GetSubBlockIdx());
    reinterpret_cast<__gm__ int32_t*>(core)[slot] = (ASCEND_IS_AIC ? 1 : 0) | (ASCEND_IS_AIV ? 2 : 0);
    __asm__ __volatile__("trap");
}
