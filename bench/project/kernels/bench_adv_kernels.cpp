// Advanced-API benchmark kernels (Ascend C, built by ascendc.cmake), issue 14c.
//
//   softmax_rows_float   y = SoftMax(x) over rows of `cols` floats: tiles of
//                        `tile_rows` rows move GM -> UB through a
//                        double-buffered queue, SoftMax (with its sum and max
//                        outputs) runs on each tile, the result goes back.
//   layernorm_float      y = LayerNorm(x, gamma, beta) over rows of `cols`
//                        floats, mean and variance per row, the same tiling.
// Block b takes rows [R*b/B, R*(b+1)/B) (whole tiles).
#include "kernel_operator.h"

using namespace AscendC;

namespace {
struct Range {
  uint64_t begin, end;
};
__aicore__ inline Range Rows(uint64_t rows, uint32_t tile_rows) {
  const uint64_t tiles = (rows + tile_rows - 1) / tile_rows;
  const uint64_t blocks = static_cast<uint64_t>(GetBlockNum());
  const uint64_t idx = static_cast<uint64_t>(GetBlockIdx());
  Range r{tiles * idx / blocks * tile_rows, tiles * (idx + 1) / blocks * tile_rows};
  if (r.end > rows) r.end = rows;
  if (r.begin > r.end) r.begin = r.end;
  return r;
}
}  // namespace

extern "C" __global__ __aicore__ void softmax_rows_float(GM_ADDR x, GM_ADDR y, uint64_t rows, uint32_t cols,
                                                         uint32_t tile_rows) {
  const Range r = Rows(rows, tile_rows);
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQ;
  TQue<TPosition::VECOUT, 2> outQ;
  TBuf<TPosition::VECCALC> sumBuf, maxBuf;
  pipe.InitBuffer(inQ, 2, tile_rows * cols * sizeof(float));
  pipe.InitBuffer(outQ, 2, tile_rows * cols * sizeof(float));
  pipe.InitBuffer(sumBuf, tile_rows * 32);
  pipe.InitBuffer(maxBuf, tile_rows * 32);
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), rows * cols);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), rows * cols);
  LocalTensor<float> sum = sumBuf.Get<float>(), max = maxBuf.Get<float>();
  for (uint64_t row = r.begin; row < r.end; row += tile_rows) {
    const uint32_t m = static_cast<uint32_t>(r.end - row < tile_rows ? r.end - row : tile_rows);
    LocalTensor<float> t = inQ.AllocTensor<float>();
    DataCopy(t, xGm[row * cols], m * cols);
    inQ.EnQue(t);
    LocalTensor<float> u = inQ.DeQue<float>();
    LocalTensor<float> o = outQ.AllocTensor<float>();
    SoftMaxTiling tiling;
    tiling.srcM = m;
    tiling.srcK = cols;
    SoftMax<float>(o, sum, max, u, tiling);
    outQ.EnQue(o);
    inQ.FreeTensor(u);
    LocalTensor<float> v = outQ.DeQue<float>();
    DataCopy(yGm[row * cols], v, m * cols);
    outQ.FreeTensor(v);
  }
}

extern "C" __global__ __aicore__ void layernorm_float(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                      GM_ADDR mean, GM_ADDR var, uint64_t rows, uint32_t cols,
                                                      uint32_t tile_rows) {
  const Range r = Rows(rows, tile_rows);
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inQ;
  TQue<TPosition::VECOUT, 2> outQ;
  TBuf<TPosition::VECCALC> gBuf, bBuf, mBuf, vBuf;
  pipe.InitBuffer(inQ, 2, tile_rows * cols * sizeof(float));
  pipe.InitBuffer(outQ, 2, tile_rows * cols * sizeof(float));
  pipe.InitBuffer(gBuf, cols * sizeof(float));
  pipe.InitBuffer(bBuf, cols * sizeof(float));
  pipe.InitBuffer(mBuf, tile_rows * sizeof(float) < 32 ? 32 : tile_rows * sizeof(float));
  pipe.InitBuffer(vBuf, tile_rows * sizeof(float) < 32 ? 32 : tile_rows * sizeof(float));
  GlobalTensor<float> xGm, yGm, gGm, bGm, mGm, vGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), rows * cols);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), rows * cols);
  gGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gamma), cols);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(beta), cols);
  mGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(mean), rows);
  vGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(var), rows);
  LocalTensor<float> g = gBuf.Get<float>(), b = bBuf.Get<float>(), mt = mBuf.Get<float>(), vt = vBuf.Get<float>();
  DataCopy(g, gGm, cols);
  DataCopy(b, bGm, cols);
  PipeBarrier<PIPE_ALL>();
  for (uint64_t row = r.begin; row < r.end; row += tile_rows) {
    const uint32_t m = static_cast<uint32_t>(r.end - row < tile_rows ? r.end - row : tile_rows);
    LocalTensor<float> t = inQ.AllocTensor<float>();
    DataCopy(t, xGm[row * cols], m * cols);
    inQ.EnQue(t);
    LocalTensor<float> u = inQ.DeQue<float>();
    LocalTensor<float> o = outQ.AllocTensor<float>();
    LayerNormTiling tiling;
    tiling.bLength = 1;
    tiling.sLength = m;
    tiling.hLength = cols;
    tiling.originalHLength = cols;
    LayerNorm<float>(o, mt, vt, u, g, b, 1e-5f, tiling);
    outQ.EnQue(o);
    inQ.FreeTensor(u);
    LocalTensor<float> v = outQ.DeQue<float>();
    DataCopy(yGm[row * cols], v, m * cols);
    DataCopyPad(mGm[row], mt, DataCopyExtParams(1, m * 4, 0, 0, 0));
    DataCopyPad(vGm[row], vt, DataCopyExtParams(1, m * 4, 0, 0, 0));
    outQ.FreeTensor(v);
  }
}
