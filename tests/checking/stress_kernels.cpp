// The stress test's kernel: x[i] += 1 over n int32 values (n a multiple of
// 8), tile by tile, blocks splitting the tiles.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void st_incr(GM_ADDR x, uint32_t n) {
  constexpr uint32_t kTile = 2048;
  const uint32_t tiles = (n + kTile - 1) / kTile;
  const uint32_t blocks = static_cast<uint32_t>(GetBlockNum()), b = static_cast<uint32_t>(GetBlockIdx());
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x), n);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(int32_t));
  LocalTensor<int32_t> t = buf.Get<int32_t>();
  for (uint32_t k = tiles * b / blocks; k < tiles * (b + 1) / blocks; ++k) {
    const uint32_t off = k * kTile, len = n - off < kTile ? n - off : kTile;
    DataCopy(t, g[off], len);
    Adds(t, t, 1, static_cast<int32_t>(len));
    DataCopy(g[off], t, len);
  }
}
SIMNPU_ASCENDC_REGISTER_KERNEL(st_incr, SIMNPU_KERNEL_AIV);

const simnpu_kernel_table* StressKernelTable() { return ::simnpu::ascendc::ProcessKernelTable(); }
