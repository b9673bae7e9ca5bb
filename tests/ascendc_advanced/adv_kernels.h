// Kernels of the advanced-API golden tests (adv_kernels.cpp). The op ids are
// shared with gen_golden.py, which writes each case's inputs and the numpy
// result. adv_case copies in0 (32 KiB max), in1 (32 KiB), in2 (16 KiB) into
// UB tensors a, b, c and in3 (the initial contents of the three output
// segments) into d | w | e (out_bytes / 3 bytes each), runs op, and copies
// d | w | e back to out.
#ifndef SIMNPU_TESTS_ASCENDC_ADVANCED_ADV_KERNELS_H_
#define SIMNPU_TESTS_ASCENDC_ADVANCED_ADV_KERNELS_H_

#include "kernel_operator.h"

enum AdvOp : uint32_t {
  kAdvErfF32 = 1,
  kAdvErfF16 = 2,
  kAdvTanhF32 = 3,
  kAdvSigmoidF32 = 4,
  kAdvSigmoidF16 = 5,
  kAdvGeluF32 = 6,
  kAdvFasterGeluF32 = 7,
  kAdvSiluF32 = 8,
  kAdvSwishF32 = 9,
  kAdvSwiGLUF32 = 10,
  kAdvGeGLUF16 = 11,
  kAdvReGluF32 = 12,
  kAdvLogF32 = 13,
  kAdvLog2F16 = 14,
  kAdvExpF32 = 15,
  kAdvPowerTTF32 = 16,
  kAdvPowerTSI32 = 17,
  kAdvPowerSTF32 = 18,
  kAdvClampMaxF32 = 19,
  kAdvClampMinF16 = 20,
  kAdvFloorF32 = 21,
  kAdvSignF32 = 22,
  kAdvCumSumLastF32 = 23,
  kAdvCumSumFirstF16 = 24,
  kAdvSinF32 = 25,
  kAdvCosF32 = 26,
  kAdvAtanF32 = 27,
  kAdvLog10F32 = 28,
  kAdvErfcF32 = 29,
  kAdvSoftMaxF32 = 30,
  kAdvSoftMaxF16 = 31,
  kAdvSoftMaxHalfFloat = 32,
  kAdvSimpleSoftMaxF32 = 33,
  kAdvFlashV2F32 = 34,
  kAdvFlashV2UpdF32 = 35,
  kAdvFlashV2UpdExpMax = 36,
  kAdvSoftMaxPadF32 = 37,
  kAdvSoftmaxFlashUpdF32 = 38,
  kAdvSoftMaxNoSumF16 = 39,
  kAdvSoftmaxGradF32 = 46,
  kAdvSoftmaxGradFrontF16 = 47,
  kAdvLayerNormF32 = 40,
  kAdvLayerNormF16 = 41,
  kAdvRmsNormF32 = 42,
  kAdvRmsNormF16 = 43,
  kAdvWelfordUpdate = 44,
  kAdvWelfordFinalize = 45,
  kAdvQuantF32 = 50,
  kAdvQuantF16 = 51,
  kAdvDequantF32 = 52,
  kAdvDequantF16 = 53,
  kAdvAntiQuantChannel = 54,
  kAdvAntiQuantScalar = 55,
  kAdvSort32F32 = 60,
  kAdvSortFullF32 = 61,
  kAdvSortFullF16 = 62,
  kAdvMrgSort3F32 = 63,
  kAdvBroadcastAxis0F32 = 64,
  kAdvBroadcastAxis1F16 = 65,
  kAdvDropOutByteF32 = 66,
  kAdvDropOutBitF16 = 67,
  kAdvLogicalAndF16 = 70,
  kAdvLogicalXorI32 = 71,
  kAdvLogicalNotF32 = 72,
  kAdvBitwiseAndU16 = 73,
  kAdvBitwiseXorI64 = 74,
  kAdvBitwiseNotI8 = 75,
  kAdvWhereTTF32 = 76,
  kAdvWhereTSI16 = 77,
  kAdvBitwiseOrI32 = 78,
  kAdvLogicalOrU8 = 79,
  kAdvPadF16 = 80,
  kAdvPadF32 = 81,
  kAdvPadI16 = 82,
  kAdvPadU32 = 83,
  kAdvUnPadF16 = 84,
  kAdvUnPadI32 = 85,
  kAdvTopKNormalF32 = 86,
  kAdvTopKSmallF32 = 87,
  kAdvTopKNormalF16 = 88,
  kAdvTopKRadixI32 = 89,
  kAdvLayerNormRstdF32 = 90,
  kAdvLayerNormVarF16 = 91,
  kAdvLayerNormOnlyF32 = 92,
  kAdvGatherbU32 = 93,
  kAdvGatherbU16 = 94,
  kAdvScatterF32 = 95,
  kAdvScatterMaskF16 = 96,
  kAdvScatterMaskBitsI32 = 97,
  kAdvSortCfgF32 = 98,
  kAdvSortCfgMergeF16 = 99,
  kAdvSortCfgI32Idx64 = 100,
};

extern "C" __global__ __aicore__ void adv_case(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out,
                                               uint32_t op, uint32_t in_bytes, uint32_t out_bytes, uint32_t n,
                                               uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3);

// Misuse probes (rule tests): each makes one documented mistake.
extern "C" __global__ __aicore__ void adv_misuse(uint32_t which);

// Fill / InitConstValue on the matrix buffers: fills a 4096-byte tensor
// (first set to 0xA5 bytes) in the position of case `which` and copies its
// bytes to out (4096 bytes).
extern "C" __global__ __aicore__ void adv_fill(GM_ADDR out, uint32_t which);

#endif  // SIMNPU_TESTS_ASCENDC_ADVANCED_ADV_KERNELS_H_
