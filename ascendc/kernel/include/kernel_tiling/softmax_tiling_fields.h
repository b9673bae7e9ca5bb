// simnpu: SoftMaxTiling (the SoftMax family: SoftMax, SimpleSoftMax,
// SoftmaxFlash, SoftmaxFlashV2), the field list of the SoftMax Tiling page.
// The model's kernels read srcM/srcK (the shape of the source) and
// outMaxK (elements per row of the max/sum tensors); the other fields are
// filled by SoftMaxTilingFunc for programs that read them.
#ifndef SIMNPU_KERNEL_TILING_SOFTMAX_TILING_FIELDS_H_
#define SIMNPU_KERNEL_TILING_SOFTMAX_TILING_FIELDS_H_
#define SIMNPU_SOFTMAX_TILING_FIELDS(F, A, S)                                                   \
  F(uint32_t, srcM) F(uint32_t, srcK) F(uint32_t, srcSize) F(uint32_t, outMaxM)                 \
  F(uint32_t, outMaxK) F(uint32_t, outMaxSize) F(uint32_t, splitM) F(uint32_t, splitK)          \
  F(uint32_t, splitSize) F(uint32_t, reduceM) F(uint32_t, reduceK) F(uint32_t, reduceSize)      \
  F(uint32_t, rangeM) F(uint32_t, tailM) F(uint32_t, tailSplitSize) F(uint32_t, tailReduceSize)
#endif
