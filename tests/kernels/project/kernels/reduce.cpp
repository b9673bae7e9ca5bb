// Kernel tests: per-block reductions. Block b reduces elements
// [b*perBlock, (b+1)*perBlock) of `in` and stores the sum and the maximum at
// index b of sumOut and maxOut (float), or only the maximum (half).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kt_reduce_float(GM_ADDR in, GM_ADDR sumOut, GM_ADDR maxOut, uint32_t perBlock)
{
    const int64_t b = AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> inGm;
    AscendC::GlobalTensor<float> sumGm;
    AscendC::GlobalTensor<float> maxGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in) + b * perBlock, perBlock);
    sumGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(sumOut), AscendC::GetBlockNum());
    maxGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(maxOut), AscendC::GetBlockNum());

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qin;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> work;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> res;
    pipe.InitBuffer(qin, 1, perBlock * sizeof(float));
    pipe.InitBuffer(work, perBlock * sizeof(float));
    pipe.InitBuffer(res, 64);

    AscendC::LocalTensor<float> x = qin.AllocTensor<float>();
    AscendC::DataCopy(x, inGm, perBlock);
    qin.EnQue(x);
    x = qin.DeQue<float>();
    AscendC::LocalTensor<float> w = work.Get<float>();
    AscendC::LocalTensor<float> r = res.Get<float>();
    AscendC::ReduceSum(r, x, w, static_cast<int32_t>(perBlock));
    sumGm.SetValue(b, r.GetValue(0));
    AscendC::ReduceMax(r, x, w, static_cast<int32_t>(perBlock));
    maxGm.SetValue(b, r.GetValue(0));
    qin.FreeTensor(x);
}

extern "C" __global__ __aicore__ void kt_reduce_max_half(GM_ADDR in, GM_ADDR maxOut, uint32_t perBlock)
{
    const int64_t b = AscendC::GetBlockIdx();
    AscendC::GlobalTensor<half> inGm;
    AscendC::GlobalTensor<half> maxGm;
    inGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(in) + b * perBlock, perBlock);
    maxGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(maxOut), AscendC::GetBlockNum());

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> src;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> work;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> res;
    pipe.InitBuffer(src, perBlock * sizeof(half));
    pipe.InitBuffer(work, perBlock * sizeof(half));
    pipe.InitBuffer(res, 32);
    AscendC::LocalTensor<half> x = src.Get<half>();
    AscendC::LocalTensor<half> w = work.Get<half>();
    AscendC::LocalTensor<half> r = res.Get<half>();
    AscendC::DataCopy(x, inGm, perBlock);
    AscendC::ReduceMax(r, x, w, static_cast<int32_t>(perBlock));
    maxGm.SetValue(b, r.GetValue(0));
}
