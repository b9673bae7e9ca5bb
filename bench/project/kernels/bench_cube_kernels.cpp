// Cube benchmark kernel (issue 15, Ascend C, built by ascendc.cmake).
//
//   matmul_half_float  C (M x N, float) = A (M x K, half) x B (K x N, half)
//                      with the Matmul API (CFG_NORM): block b takes its
//                      singleCoreM x singleCoreN part of C (TCubeTiling from
//                      MultiCoreMatmulTiling, read from GM), IterateAll.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_half_float(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tiling);
  using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<AT, AT, CT, CT> mm;
  TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
  const int blk = static_cast<int>(GetBlockIdx());
  if (blk >= t.usedCoreNum) return;
  const int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
  const int mi = blk % mBlocks, ni = blk / mBlocks;
  const int tailM = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
  const int tailN = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetTensorA(ga[static_cast<uint64_t>(mi) * t.singleCoreM * t.Ka]);
  mm.SetTensorB(gb[static_cast<uint64_t>(ni) * t.singleCoreN]);
  mm.SetTail(tailM, tailN);
  mm.IterateAll(gc[static_cast<uint64_t>(mi) * t.singleCoreM * t.N + static_cast<uint64_t>(ni) * t.singleCoreN]);
  mm.End();
}
