// simnpu: the fields of TCubeTiling, the Matmul API's tiling struct (see
// tiling_struct.h for the two forms made from this list). All int32_t, in
// the order of the TCubeTiling page.
#ifndef SIMNPU_KERNEL_TILING_MATMUL_TILING_FIELDS_H_
#define SIMNPU_KERNEL_TILING_MATMUL_TILING_FIELDS_H_

#define SIMNPU_TCUBE_TILING_FIELDS(F, A, S)                                                                        \
  F(int32_t, usedCoreNum) F(int32_t, M) F(int32_t, N) F(int32_t, Ka) F(int32_t, Kb) F(int32_t, singleCoreM)          \
  F(int32_t, singleCoreN) F(int32_t, singleCoreK) F(int32_t, baseM) F(int32_t, baseN) F(int32_t, baseK)              \
  F(int32_t, depthA1) F(int32_t, depthB1) F(int32_t, stepM) F(int32_t, stepN) F(int32_t, isBias)                     \
  F(int32_t, transLength) F(int32_t, iterateOrder) F(int32_t, shareMode) F(int32_t, shareL1Size)                     \
  F(int32_t, shareL0CSize) F(int32_t, shareUbSize) F(int32_t, batchM) F(int32_t, batchN) F(int32_t, singleBatchM)    \
  F(int32_t, singleBatchN) F(int32_t, stepKa) F(int32_t, stepKb) F(int32_t, depthAL1CacheUB)                         \
  F(int32_t, depthBL1CacheUB) F(int32_t, dbL0A) F(int32_t, dbL0B) F(int32_t, dbL0C) F(int32_t, ALayoutInfoB)         \
  F(int32_t, ALayoutInfoS) F(int32_t, ALayoutInfoN) F(int32_t, ALayoutInfoG) F(int32_t, ALayoutInfoD)                \
  F(int32_t, BLayoutInfoB) F(int32_t, BLayoutInfoS) F(int32_t, BLayoutInfoN) F(int32_t, BLayoutInfoG)                \
  F(int32_t, BLayoutInfoD) F(int32_t, CLayoutInfoB) F(int32_t, CLayoutInfoS1) F(int32_t, CLayoutInfoN)               \
  F(int32_t, CLayoutInfoG) F(int32_t, CLayoutInfoS2) F(int32_t, BatchNum) F(int32_t, mxTypePara) F(int32_t, reserved)

#endif  // SIMNPU_KERNEL_TILING_MATMUL_TILING_FIELDS_H_
