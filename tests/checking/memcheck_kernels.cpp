// Kernels for the memory-check tests, registered in the test executable (an
// in-process image loaded with aclrtBinaryLoadFromData).
#include "memcheck_kernels.h"

#include "kernel_operator.h"

using namespace AscendC;

// z[i] = x[i] + y[i] for the n floats of block's share (n a multiple of 8 per block).
extern "C" __global__ __aicore__ void mc_vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  const uint32_t per = n / static_cast<uint32_t>(GetBlockNum());
  const uint32_t off = per * static_cast<uint32_t>(GetBlockIdx());
  GlobalTensor<float> xg, yg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + off, per);
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + off, per);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + off, per);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * per * sizeof(float));
  LocalTensor<float> all = buf.Get<float>();
  LocalTensor<float> a = all[0], b = all[per], c = all[2 * per];
  DataCopy(a, xg, per);
  DataCopy(b, yg, per);
  Add(c, a, b, static_cast<int32_t>(per));
  DataCopy(zg, c, per);
}

// The last block writes one element past the end of z (n floats).
extern "C" __global__ __aicore__ void mc_write_past(GM_ADDR z, uint32_t n) {
  GlobalTensor<float> zg;
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n + 1);
  const uint32_t idx = GetBlockIdx() == GetBlockNum() - 1 ? n : static_cast<uint32_t>(GetBlockIdx());
  zg.SetValue(idx, 1.0f);  // MC_WRITE_PAST_LINE
}

// DataCopy of `count` floats from x into UB and back to z: count past the
// end of x is an out-of-bounds read.
extern "C" __global__ __aicore__ void mc_copy(GM_ADDR x, GM_ADDR z, uint32_t count) {
  GlobalTensor<float> xg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), count);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), count);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, count * sizeof(float));
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, xg, count);
  DataCopy(zg, t, count);
}

// Reaches memory through a pointer inside a struct argument (resolved by the
// runtime, not from the argument table): out[i] = 7 for i < n.
extern "C" __global__ __aicore__ void mc_indirect(McIndirect args) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(args.ptr), args.n);
  for (uint32_t i = 0; i < args.n; ++i) g.SetValue(i, 7);
}

// Every block writes element 0 of z (a race), or element blockIdx (none).
extern "C" __global__ __aicore__ void mc_race(GM_ADDR z, uint32_t shared) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z), 64);
  g.SetValue(shared ? 0 : static_cast<uint32_t>(GetBlockIdx()), static_cast<int32_t>(GetBlockIdx()));
}

// Block 0 writes element 1, block 1 reads it (a read/write race).
extern "C" __global__ __aicore__ void mc_race_rw(GM_ADDR z) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z), 64);
  if (GetBlockIdx() == 0) g.SetValue(1, 5);
  else g.SetValue(2, g.GetValue(1));
}

// Reads x[0..n) and writes the sum to z[0] (block 0 only).
extern "C" __global__ __aicore__ void mc_sum(GM_ADDR x, GM_ADDR z, uint32_t n) {
  GlobalTensor<int32_t> xg, zg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x), n);
  zg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(z), 1);
  int32_t s = 0;
  for (uint32_t i = 0; i < n; ++i) s += xg.GetValue(i);
  zg.SetValue(0, s);
}

// Reads its element count from a tiling block passed as a placeholder (the
// data lives in the launch's argument block) and writes n to z[0..n).
extern "C" __global__ __aicore__ void mc_tiling(GM_ADDR z, GM_ADDR tiling) {
  GlobalTensor<uint32_t> t;
  t.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(tiling), 1);
  const uint32_t n = t.GetValue(0);
  GlobalTensor<uint32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(z), n);
  for (uint32_t i = 0; i < n; ++i) g.SetValue(i, n);
}

SIMNPU_ASCENDC_REGISTER_KERNEL(mc_tiling, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_vadd, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_write_past, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_copy, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_indirect, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_race, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_race_rw, SIMNPU_KERNEL_AIV);
SIMNPU_ASCENDC_REGISTER_KERNEL(mc_sum, SIMNPU_KERNEL_AIC);

const simnpu_kernel_table* McKernelTable() { return ::simnpu::ascendc::ProcessKernelTable(); }
