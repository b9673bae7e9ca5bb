// Kernels written for the Ascend C model tests (defined in kernels.cpp).
#ifndef SIMNPU_TESTS_ASCENDC_MODEL_KERNELS_H_
#define SIMNPU_TESTS_ASCENDC_MODEL_KERNELS_H_

#include "kernel_operator.h"

struct TilingData {
  uint32_t totalLength;
  uint32_t tileNum;
  float scale;
  uint8_t flag;
};

enum class TestMode : int32_t { kA = 1, kB = 7 };

extern "C" {
// z = x op y over totalLength elements split evenly over the blocks, tiles of tileLength.
__global__ __aicore__ void vadd_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength);
__global__ __aicore__ void vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength);
__global__ __aicore__ void vmul_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength);
__global__ __aicore__ void vmul_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength);
// out[0] = ReduceSum(x[0..n)), out[1] = ReduceMax, out[2] = bits of the max index (float)
__global__ __aicore__ void reduce_float(GM_ADDR x, GM_ADDR out, uint32_t n);
__global__ __aicore__ void reduce_half(GM_ADDR x, GM_ADDR out, uint32_t n);
// writes its scalar params into out (int64 slots)
__global__ __aicore__ void scalar_params(GM_ADDR out, int32_t a, float b, half h, int64_t c, uint8_t d, bool e,
                                         TestMode mode, double f, TilingData t, bfloat16_t bf);
__global__ __aicore__ void print_kernel(int32_t v);
__global__ __aicore__ void print_flood(uint32_t lines);
__global__ __aicore__ void trap_kernel();
__global__ __aicore__ void assert_kernel(int32_t v);
__global__ __aicore__ void ub_overflow(uint32_t bytes, uint32_t num);
__global__ __aicore__ void copy_count(GM_ADDR x, GM_ADDR y, uint32_t count);
__global__ __aicore__ void copy_too_small(GM_ADDR x);
// strided DataCopy, all three forms: GM->UB reads cnt blocks of len x 32 bytes
// from x (srcStride blocks apart) into UB buffer a (16 KiB, gap blocks apart),
// UB->UB packs them into buffer b (8 KiB), UB->GM writes them to y (dstStride apart)
__global__ __aicore__ void strided_copy(GM_ADDR x, GM_ADDR y, uint32_t cnt, uint32_t len, uint32_t srcStride,
                                        uint32_t gap, uint32_t dstStride);
// twelve unaligned (52-byte) GM->UB DataCopy call sites, each hit three times
__global__ __aicore__ void unaligned_sites(GM_ADDR x);
// misuse: 0 DeQue on empty, 1 AllocTensor none free, 2 too many outstanding, 3 double free, 4 no InitBuffer
__global__ __aicore__ void queue_misuse(int32_t which);
// 0 paired ok, 1 WaitFlag without SetFlag, 2 SetFlag left unconsumed, 3 event ids via TPipe
__global__ __aicore__ void flag_kernel(int32_t which);
// GetValue/SetValue scalar access: y[i] = x[i] * 2 for i < n
__global__ __aicore__ void scalar_gm(GM_ADDR x, GM_ADDR y, uint32_t n);
// y = op(x) for float (op: 0 Exp 1 Ln 2 Abs 3 Sqrt 4 Relu 5 Adds 6 Muls 7 Maxs 8 Mins 9 Sub 10 Div 11 Max 12 Min 13 Duplicate)
__global__ __aicore__ void unary_float(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t op, float s);
__global__ __aicore__ void unary_half(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t op, float s);
// Cast: x (float) -> half with mode -> float, y holds the half bits as float values
__global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR yh, GM_ADDR yi, uint32_t n, int32_t mode);
__global__ __aicore__ void tbuf_kernel(GM_ADDR x, GM_ADDR y, uint32_t n);
__global__ __aicore__ void core_type_kernel(GM_ADDR out);
__global__ __aicore__ void throw_kernel();
}

#endif  // SIMNPU_TESTS_ASCENDC_MODEL_KERNELS_H_
