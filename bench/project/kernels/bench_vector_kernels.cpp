// Vector-API benchmark kernel (Ascend C, built by ascendc.cmake).
//
//   reduce_sum_float  partial[b] = ReduceSum of block b's share of x (n
//                     floats): tiles of `tile` floats move GM -> UB through a
//                     double-buffered queue, ReduceSum folds each tile to one
//                     value (the documented tree inside each 256-byte repeat),
//                     and the tile sums are added in order.
// Work split as in bench_kernels.cpp: block b takes tiles [T*b/B, T*(b+1)/B).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_sum_float(GM_ADDR x, GM_ADDR partial, uint64_t n, uint32_t tile) {
  const uint64_t tiles = (n + tile - 1) / tile;
  const uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
  const uint64_t idx = static_cast<uint64_t>(GetBlockIdx());
  uint64_t begin = tiles * idx / blocks * tile;
  uint64_t end = tiles * (idx + 1) / blocks * tile;
  if (end > n) end = n;
  if (begin > end) begin = end;

  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQ;
  TBuf<TPosition::VECCALC> outBuf, workBuf;
  pipe.InitBuffer(inQ, 2, tile * sizeof(float));
  pipe.InitBuffer(outBuf, 32);
  pipe.InitBuffer(workBuf, tile * sizeof(float));
  GlobalTensor<float> xGm, pGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  pGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(partial), blocks * 8);
  LocalTensor<float> sum = outBuf.Get<float>();
  LocalTensor<float> work = workBuf.Get<float>();
  float acc = 0.0f;
  for (uint64_t off = begin; off < end; off += tile) {
    const uint32_t len = static_cast<uint32_t>(end - off < tile ? end - off : tile);
    LocalTensor<float> t = inQ.AllocTensor<float>();
    DataCopy(t, xGm[off], len);
    inQ.EnQue(t);
    LocalTensor<float> u = inQ.DeQue<float>();
    ReduceSum(sum, u, work, static_cast<int32_t>(len));
    acc += sum.GetValue(0);
    inQ.FreeTensor(u);
  }
  pGm.SetValue(idx * 8, acc);
}
