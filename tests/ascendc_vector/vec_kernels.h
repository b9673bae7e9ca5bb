// Kernels of the vector-API golden tests (vec_kernels.cpp). The op ids are
// shared with gen_golden.py, which writes each case's inputs and the numpy
// result the kernel must reproduce byte for byte.
#ifndef SIMNPU_TESTS_ASCENDC_VECTOR_VEC_KERNELS_H_
#define SIMNPU_TESTS_ASCENDC_VECTOR_VEC_KERNELS_H_

#include "kernel_operator.h"

enum VecOp : uint32_t {
  kOpAndU16 = 1,
  kOpOrI16 = 2,
  kOpNotU16 = 3,
  kOpShlU16 = 4,
  kOpShrI16 = 5,
  kOpShrI32RoundL0 = 6,
  kOpAndL0Strided = 7,
  kOpCmpLtF32 = 20,
  kOpCmpGeF16L0 = 21,
  kOpCmpsGtF32 = 22,
  kOpCmpEqI32 = 23,
  kOpSelMode2F32 = 24,
  kOpSelMode1F16 = 25,
  kOpSelMode0F32L0 = 26,
  kOpCmpThenSelect = 27,
  kOpGatherMaskBuiltin = 28,
  kOpGatherMaskUser = 29,
  kOpWholeSumF32 = 40,
  kOpWholeMaxF16 = 41,
  kOpWholeMinF32IdxOnly = 42,
  kOpBlockSumF32 = 43,
  kOpBlockMaxF16 = 44,
  kOpPairSumF32 = 45,
  kOpReduceSumF16L0 = 46,
  kOpWholeSumF16Masked = 47,
  kOpAddF16L0Strided = 60,
  kOpAddsF32Counter = 61,
  kOpMulF32NormalRegister = 62,
  kOpDupI16L0 = 63,
  kOpMaxsI32Count = 64,
  kOpGatherF32 = 80,
  kOpBrcbF16 = 81,
  kOpVecIndexI32 = 82,
  kOpTransposeF16 = 83,
  kOpCastF32E4M3 = 90,
  kOpCastF32E5M2 = 91,
  kOpCastF32HiF8 = 92,
  kOpCastBf16E2M1 = 93,
  kOpCastF16Int4 = 94,
  kOpCastE4M3F32 = 95,
  kOpCastI32F16Deq = 96,
  kOpCastF16I32CeilL0 = 97,
  kOpCastF32Bf16Trunc = 98,
  kOpDataCopyPadGm = 100,
};

extern "C" {
// One golden case: in0/in1/in3 are inputs (in_bytes each), in2 the initial
// destination (out_bytes); out receives the destination (out_bytes).
__global__ __aicore__ void vec_case(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out, uint32_t op,
                                    uint32_t in_bytes, uint32_t out_bytes, uint32_t n, uint32_t p0, uint32_t p1,
                                    uint32_t p2, uint32_t p3);
}

#endif  // SIMNPU_TESTS_ASCENDC_VECTOR_VEC_KERNELS_H_
