// simnpu: LayerNormTiling (LayerNorm with mean and variance outputs) and
// RmsNormTiling, the field lists of the LayerNorm and RmsNorm Tiling pages.
// The model's kernels read the shape fields (bLength, sLength, hLength,
// originalHLength); the buffer-plan fields are filled by the host tiling
// functions with the plan of a one-row-at-a-time computation.
#ifndef SIMNPU_KERNEL_TILING_LAYERNORM_TILING_FIELDS_H_
#define SIMNPU_KERNEL_TILING_LAYERNORM_TILING_FIELDS_H_
#define SIMNPU_LAYERNORM_TILING_FIELDS(F, A, S)                                                   \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength)     \
  F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf)                    \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos)  \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize)              \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos)      \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize)                   \
  F(uint32_t, inputTailPos) F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize)            \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength)                  \
  F(float, lastDimValueBack)
#define SIMNPU_RMSNORM_TILING_FIELDS(F, A, S)                                                     \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength)     \
  F(float, reciprocalOfHLength) F(uint32_t, mainBshLength) F(uint32_t, mainBsLength)              \
  F(uint32_t, mainBsLengthAlign) F(uint32_t, loopRound) F(uint32_t, inputTailPos)                 \
  F(uint32_t, tailBshLength) F(uint32_t, tailBsLength)
// LayerNormSeparateTiling: the LayerNorm form with rstd output ([A, R]
// source); the model's kernel reads LayerNormPara, not these fields.
#define SIMNPU_LAYERNORM_SEPARATE_TILING_FIELDS(F, A, S)                                          \
  F(uint32_t, aLength) F(uint32_t, rLength) F(uint32_t, halfAddRepeatTimes) F(uint32_t, rHeadLength) \
  F(float, k2Rec) F(float, k2RRec) F(uint32_t, inputXSize) F(uint32_t, meanVarSize)                \
  F(uint32_t, numberOfTmpBuf) F(uint32_t, varianceTmpTensorPos) F(uint32_t, varianceTmpTensorSize) \
  F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) F(uint32_t, firstTmpStartPos)                   \
  F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) F(uint32_t, loopRound)             \
  F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos)                \
  F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos)          \
  F(uint32_t, arCurLength) F(uint32_t, aCurLength) F(float, rValueBack)
#endif
