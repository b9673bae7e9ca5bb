// simnpu: PadTiling and UnPadTiling, the field lists of the Pad Tiling and
// UnPad Tiling pages. The model's kernels read the shape fields (srcHeight,
// srcWidth, srcOriWidth); the host tiling functions fill the rest with the
// plan of a row-at-a-time copy (see tiling/pad/pad_tiling.h).
#ifndef SIMNPU_KERNEL_TILING_PAD_TILING_FIELDS_H_
#define SIMNPU_KERNEL_TILING_PAD_TILING_FIELDS_H_
#define SIMNPU_UNPAD_TILING_FIELDS(F, A, S)                                                          \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, tmpBuffer1BlockNum)                       \
  F(uint32_t, tmpBuffer1RowNum) F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling)               \
  F(uint32_t, widthFractal) F(uint32_t, widthFractalTail)
#define SIMNPU_PAD_TILING_FIELDS(F, A, S)                                                            \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, srcOriWidth)                              \
  F(uint32_t, widthWithoutLastBlock) F(uint32_t, blocksPerRow) F(uint32_t, heightTiling)             \
  F(uint32_t, heightFractal) F(uint32_t, heightFractalTail) F(uint32_t, mainLoopOffset)              \
  F(uint32_t, tailBlockOffset) F(uint32_t, tmpBuffer1BlockNum) F(uint32_t, tmpBuffer1RowNum)         \
  F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling) F(uint32_t, widthFractal)                   \
  F(uint32_t, widthFractalTail) F(uint32_t, widthFractalTailAlingned) F(uint32_t, brcbTiling)        \
  F(uint32_t, brcbFractal) F(uint32_t, brcbFractalTail) F(uint32_t, maxRepeatTimes)                  \
  F(uint32_t, brcbTilingRepeatTimes) F(uint32_t, brcbTilingRepeatTimesTail)                          \
  F(uint32_t, brcbFractalTailRepeatTimes) F(uint32_t, brcbFractalTailRepeatTimesTail)                \
  F(uint32_t, reserved)
#endif
