// Kernels of the advanced-API golden tests: static tensors (LocalMemAllocator)
// and event ids, the way the devkit's single-source examples are written.
#include "ascendc_advanced/adv_kernels.h"

using namespace AscendC;

namespace {

constexpr uint32_t kIn = 32768;   // bytes of a and b
constexpr uint32_t kIn2 = 16384;  // bytes of c
constexpr uint32_t kSeg = 32768;  // bytes of each output segment (d, w, e)
constexpr uint32_t kTmp = 8192;

template <typename T>
LocalTensor<T> As(const LocalTensor<uint8_t>& t) {
  return t.ReinterpretCast<T>();
}
float F(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

struct Bufs {
  LocalTensor<uint8_t> a, b, c, d, w, e, tmp;
};

template <typename T>
void RunPad(Bufs& u, uint32_t n, uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3) {
  PadTiling t;
  t.srcHeight = p0;
  t.srcWidth = p1;
  t.srcOriWidth = n;
  PadParams pp{static_cast<uint16_t>(p2 & 0xffff), static_cast<uint16_t>(p2 >> 16), static_cast<int32_t>(p3)};
  if (p0 % 2 == 0) {
    Pad(As<T>(u.d), As<T>(u.a), pp, u.tmp, t);
  } else {
    Pad(As<T>(u.d), As<T>(u.a), pp, t);
  }
}
template <typename T>
void RunUnPad(Bufs& u, uint32_t p0, uint32_t p1, uint32_t p2) {
  UnPadTiling t;
  t.srcHeight = p0;
  t.srcWidth = p1;
  UnPadParams up{static_cast<uint16_t>(p2 & 0xffff), static_cast<uint16_t>(p2 >> 16)};
  if (p0 % 2 == 0) {
    UnPad(As<T>(u.d), As<T>(u.a), up, u.tmp, t);
  } else {
    UnPad(As<T>(u.d), As<T>(u.a), up, t);
  }
}

void RunOp(uint32_t op, Bufs& u, uint32_t n, uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3) {
  switch (op) {
    case kAdvErfF32: Erf(As<float>(u.d), As<float>(u.a), u.tmp, n); break;
    case kAdvErfF16: Erf(As<half>(u.d), As<half>(u.a), n); break;
    case kAdvTanhF32: Tanh(As<float>(u.d), As<float>(u.a), u.tmp, n); break;
    case kAdvSigmoidF32: Sigmoid(As<float>(u.d), As<float>(u.a), u.tmp, n); break;
    case kAdvSigmoidF16: Sigmoid(As<half>(u.d), As<half>(u.a), n); break;
    case kAdvGeluF32: Gelu(As<float>(u.d), As<float>(u.a), u.tmp, n); break;
    case kAdvFasterGeluF32: FasterGelu(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvSiluF32: Silu(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvSwishF32: Swish(As<float>(u.d), As<float>(u.a), n, F(p0)); break;
    case kAdvSwiGLUF32: {
      LocalTensor<float> dst = As<float>(u.d);
      SwiGLU(dst, As<float>(u.a), As<float>(u.b), F(p0), u.tmp, n);
      break;
    }
    case kAdvGeGLUF16: GeGLU(As<half>(u.d), As<half>(u.a), As<half>(u.b), n); break;
    case kAdvReGluF32: ReGlu(As<float>(u.d), As<float>(u.a), As<float>(u.b), u.tmp, n); break;
    case kAdvLogF32: Log(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvLog2F16: Log2(As<half>(u.d), As<half>(u.a), u.tmp, n); break;
    case kAdvExpF32: Exp<float, 15>(As<float>(u.d), As<float>(u.a), u.tmp, n); break;
    case kAdvPowerTTF32: Power(As<float>(u.d), As<float>(u.a), As<float>(u.b), u.tmp, n); break;
    case kAdvPowerTSI32: Power(As<int32_t>(u.d), As<int32_t>(u.a), static_cast<int32_t>(p0), n); break;
    case kAdvPowerSTF32: Power(As<float>(u.d), F(p0), As<float>(u.b), n); break;
    case kAdvClampMaxF32: ClampMax(As<float>(u.d), As<float>(u.a), u.tmp, F(p0), n); break;
    case kAdvClampMinF16: ClampMin(As<half>(u.d), As<half>(u.a), half(F(p0)), n); break;
    case kAdvFloorF32: Floor(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvSignF32: Sign(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvSinF32: Sin(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvCosF32: Cos(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvAtanF32: Atan(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvLog10F32: Log10(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvErfcF32: Erfc(As<float>(u.d), As<float>(u.a), n); break;
    case kAdvCumSumLastF32: {
      static constexpr CumSumConfig cfg = {true, false, true};
      LocalTensor<float> dst = As<float>(u.d), last = As<float>(u.w);
      CumSum<float, cfg>(dst, last, As<float>(u.a), u.tmp, CumSumInfo{p0, p1});
      break;
    }
    case kAdvCumSumFirstF16: {
      static constexpr CumSumConfig cfg = {false, false, false};
      LocalTensor<half> dst = As<half>(u.d), last = As<half>(u.w);
      CumSum<half, cfg>(dst, last, As<half>(u.a), CumSumInfo{p0, p1});
      break;
    }
    // ---- SoftMax family: p0 = m, p1 = k, p2 = real columns
    case kAdvSoftMaxF32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftMax<float>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), u.tmp, t);
      break;
    }
    case kAdvSoftMaxF16: {
      SoftMaxTiling t;
      SoftMax<half>(As<half>(u.d), As<half>(u.w), As<half>(u.e), As<half>(u.a), t, SoftMaxShapeInfo{p0, p1, p0, p1});
      break;
    }
    case kAdvSoftMaxHalfFloat: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftMax<half>(As<half>(u.d), As<float>(u.w), As<float>(u.e), As<half>(u.a), t);
      break;
    }
    case kAdvSoftMaxNoSumF16: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftMax<half>(As<half>(u.d), As<half>(u.a), t);
      break;
    }
    case kAdvSoftMaxPadF32: {
      SoftMaxTiling t;
      SoftMax<float>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), t, SoftMaxShapeInfo{p0, p1, p0, p2});
      break;
    }
    case kAdvSimpleSoftMaxF32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SimpleSoftMax<float>(As<float>(u.d), As<float>(u.b), As<float>(u.c), As<float>(u.a), t);
      break;
    }
    case kAdvFlashV2F32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftmaxFlashV2<float, false>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), As<float>(u.tmp),
                                   As<float>(u.b), As<float>(u.c), t);
      break;
    }
    case kAdvFlashV2UpdF32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftmaxFlashV2<float, true>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), As<float>(u.tmp),
                                  As<float>(u.b), As<float>(u.c), t);
      break;
    }
    case kAdvFlashV2UpdExpMax: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftmaxFlashV2<float, true>(As<float>(u.d), As<float>(u.w), As<float>(u.tmp), As<float>(u.a), As<float>(u.e),
                                  As<float>(u.b), As<float>(u.c), t);
      break;
    }
    case kAdvSoftmaxFlashUpdF32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftmaxFlash<float>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), As<float>(u.tmp),
                          As<float>(u.b), As<float>(u.c), t, true);
      break;
    }
    case kAdvSoftmaxGradF32: {
      SoftMaxTiling t;
      t.srcM = p0;
      t.srcK = p1;
      SoftmaxGrad<float>(As<float>(u.d), As<float>(u.b), As<float>(u.a), u.tmp, t);
      break;
    }
    case kAdvSoftmaxGradFrontF16: {
      SoftMaxTiling t;
      SoftmaxGrad<half>(As<half>(u.d), As<half>(u.b), As<half>(u.a), t, true, SoftMaxShapeInfo{p0, p1, p0, p1});
      break;
    }
    // ---- normalisation: p0 = b, p1 = s, p2 = h, p3 = eps bits
    case kAdvLayerNormF32: {
      LayerNormTiling t;
      t.bLength = p0;
      t.sLength = p1;
      t.hLength = p2;
      t.originalHLength = p2;
      LayerNorm<float>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), As<float>(u.b), As<float>(u.c),
                       u.tmp, F(p3), t);
      break;
    }
    case kAdvLayerNormF16: {
      LayerNormTiling t;
      t.bLength = p0;
      t.sLength = p1;
      t.hLength = p2;
      t.originalHLength = p2;
      LayerNorm<half>(As<half>(u.d), As<half>(u.w), As<half>(u.e), As<half>(u.a), As<half>(u.b), As<half>(u.c),
                      half(F(p3)), t);
      break;
    }
    case kAdvRmsNormF32: {
      RmsNormTiling t;
      t.bLength = p0;
      t.sLength = p1;
      t.hLength = p2;
      t.originalHLength = p2;
      RmsNorm<float>(As<float>(u.d), As<float>(u.a), As<float>(u.b), u.tmp, F(p3), t);
      break;
    }
    case kAdvRmsNormF16: {
      RmsNormTiling t;
      t.bLength = p0;
      t.sLength = p1;
      t.hLength = p2;
      t.originalHLength = p2;
      RmsNorm<half>(As<half>(u.d), As<half>(u.a), As<half>(u.b), half(F(p3)), t);
      break;
    }
    case kAdvWelfordUpdate: {
      WelfordUpdateParam para;
      para.rnLength = p0;
      para.abLength = p1;
      para.abComputeLength = p2;
      para.nRec = F(p3);
      WelfordUpdate<float, float>(As<float>(u.d), As<float>(u.w), As<float>(u.b), As<float>(u.c), As<float>(u.a), u.tmp,
                                  para);
      break;
    }
    case kAdvWelfordFinalize: {
      WelfordFinalizePara para;
      para.rnLength = 1;
      para.abLength = p0;
      para.headCount = p1;
      para.headCountLength = p2;
      para.tailCount = p3;
      para.tailCountLength = p0 - p2;
      WelfordFinalize(As<float>(u.d), As<float>(u.w), As<float>(u.a), As<float>(u.b), u.tmp, para);
      break;
    }
    // ---- quantisation
    case kAdvQuantF32: AscendQuant<float>(As<int8_t>(u.d), As<float>(u.a), u.tmp, F(p0), F(p1), n); break;
    case kAdvQuantF16: AscendQuant<half>(As<int8_t>(u.d), As<half>(u.a), F(p0), F(p1), n); break;
    case kAdvDequantF32: {
      DequantParams dp;
      dp.m = p0;
      dp.n = p1;
      dp.calCount = p2;
      AscendDequant<float, float>(As<float>(u.d), As<int32_t>(u.a), As<float>(u.b), u.tmp, dp);
      break;
    }
    case kAdvDequantF16: {
      DequantParams dp;
      dp.m = p0;
      dp.n = p1;
      dp.calCount = p2;
      AscendDequant<half, float>(As<half>(u.d), As<int32_t>(u.a), As<float>(u.b), dp);
      break;
    }
    case kAdvAntiQuantChannel: {
      LocalTensor<int8_t> src = As<int8_t>(u.a);
      src.SetSize(n);
      AscendAntiQuant<int8_t, half, false>(As<half>(u.d), src, As<half>(u.b), As<half>(u.c), u.tmp, p0);
      break;
    }
    case kAdvAntiQuantScalar: {
      LocalTensor<int8_t> src = As<int8_t>(u.a);
      src.SetSize(n);
      AscendAntiQuant<int8_t, half, false>(As<half>(u.d), src, half(F(p0)), half(F(p1)), p2);
      break;
    }
    // ---- sort: p0 = repeatTime; scores in a, uint32 indices in b
    case kAdvSort32F32: Sort32(As<float>(u.d), As<float>(u.a), As<uint32_t>(u.b), static_cast<int32_t>(p0)); break;
    case kAdvSortFullF32: {
      LocalTensor<float> concat = As<float>(u.c), tmp = As<float>(u.tmp);
      Concat(concat, As<float>(u.a), tmp, static_cast<int32_t>(p0) * 2);
      Sort<float, true>(As<float>(u.d), concat, As<uint32_t>(u.b), tmp, static_cast<int32_t>(p0));
      Extract(As<float>(u.w), As<uint32_t>(u.e), As<float>(u.d), static_cast<int32_t>(p0));
      break;
    }
    case kAdvSortFullF16: {
      LocalTensor<half> tmp = As<half>(u.tmp);
      Sort<half, true>(As<half>(u.d), As<half>(u.a), As<uint32_t>(u.b), tmp, static_cast<int32_t>(p0));
      break;
    }
    case kAdvMrgSort3F32: {
      // three lists of p0, p1, p2 pairs at a, b, c (already sorted)
      const uint16_t lens[4] = {static_cast<uint16_t>(p0), static_cast<uint16_t>(p1), static_cast<uint16_t>(p2), 0};
      MrgSortSrcList<float> list(As<float>(u.a), As<float>(u.b), As<float>(u.c), As<float>(u.c));
      MrgSort(As<float>(u.d), list, MrgSort4Info(lens, false, 0x7, 1));
      break;
    }
    case kAdvBroadcastAxis0F32: {
      const uint32_t dstShape[2] = {p0, p1}, srcShape[2] = {1, p1};
      LocalTensor<float> dst = As<float>(u.d);
      Broadcast<float, 2, 0>(dst, As<float>(u.a), dstShape, srcShape, u.tmp);
      break;
    }
    case kAdvBroadcastAxis1F16: {
      const uint32_t dstShape[2] = {p0, p1}, srcShape[2] = {p0, 1};
      LocalTensor<half> dst = As<half>(u.d);
      Broadcast<half, 2, 1>(dst, As<half>(u.a), dstShape, srcShape);
      break;
    }
    case kAdvDropOutByteF32:
      DropOut(As<float>(u.d), As<float>(u.a), u.b, u.tmp, F(p3), DropOutShapeInfo{p0, p1, p2});
      break;
    case kAdvDropOutBitF16:
      DropOut(As<half>(u.d), As<half>(u.a), u.b, F(p3), DropOutShapeInfo{p0, p1, p2});
      break;
    // ---- logical / bitwise / where: bool results and conditions are bytes
    case kAdvLogicalAndF16: LogicalAnd(As<bool>(u.d), As<half>(u.a), As<half>(u.b), n); break;
    case kAdvLogicalXorI32: LogicalXor(As<bool>(u.d), As<int32_t>(u.a), As<int32_t>(u.b), n); break;
    case kAdvLogicalNotF32: LogicalNot(As<bool>(u.d), As<float>(u.a), n); break;
    case kAdvLogicalOrU8: LogicalOr(As<bool>(u.d), As<uint8_t>(u.a), As<uint8_t>(u.b), n); break;
    case kAdvBitwiseAndU16: BitwiseAnd(As<uint16_t>(u.d), As<uint16_t>(u.a), As<uint16_t>(u.b), n); break;
    case kAdvBitwiseOrI32: BitwiseOr(As<int32_t>(u.d), As<int32_t>(u.a), As<int32_t>(u.b), n); break;
    case kAdvBitwiseXorI64: BitwiseXor(As<int64_t>(u.d), As<int64_t>(u.a), As<int64_t>(u.b), n); break;
    case kAdvBitwiseNotI8: BitwiseNot(As<int8_t>(u.d), As<int8_t>(u.a), n); break;
    case kAdvWhereTTF32: Where(As<float>(u.d), As<float>(u.a), As<float>(u.b), As<bool>(u.c), n); break;
    case kAdvWhereTSI16: Where(As<int16_t>(u.d), As<int16_t>(u.a), static_cast<int16_t>(p0), As<bool>(u.c), n); break;
    // ---- pad / unpad: p0 = height, p1 = srcWidth, p2 = leftPad | rightPad << 16,
    // p3 = padValue, n = srcOriWidth
    case kAdvPadF16: RunPad<half>(u, n, p0, p1, p2, p3); break;
    case kAdvPadF32: RunPad<float>(u, n, p0, p1, p2, p3); break;
    case kAdvPadI16: RunPad<int16_t>(u, n, p0, p1, p2, p3); break;
    case kAdvPadU32: RunPad<uint32_t>(u, n, p0, p1, p2, p3); break;
    case kAdvUnPadF16: RunUnPad<half>(u, p0, p1, p2); break;
    case kAdvUnPadI32: RunUnPad<int32_t>(u, p0, p1, p2); break;
    // ---- LayerNorm with rstd: p0 = aLength, p1 = rLength, p2 = rLengthWithPadding, p3 = eps bits;
    // x in a, gamma in b, beta in c; y to d, mean to w, rstd (or variance) to e
    case kAdvLayerNormRstdF32: {
      LayerNormSeparateTiling t;
      LayerNorm<float, float>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a), As<float>(u.b),
                              As<float>(u.c), F(p3), u.tmp, LayerNormPara{p0, p1, p2}, t);
      break;
    }
    case kAdvLayerNormVarF16: {
      static constexpr LayerNormConfig cfg = {true, false, false, false};  // no beta, variance out
      LayerNormSeparateTiling t;
      LayerNorm<float, half, false, cfg>(As<half>(u.d), As<float>(u.w), As<float>(u.e), As<half>(u.a), As<float>(u.b),
                                         As<float>(u.c), F(p3), LayerNormPara{p0, p1, p2}, t);
      break;
    }
    case kAdvLayerNormOnlyF32: {
      static constexpr LayerNormConfig cfg = {false, true, true, true};  // no gamma, y only
      LayerNormSeparateTiling t;
      LayerNorm<float, float, false, cfg>(As<float>(u.d), As<float>(u.w), As<float>(u.e), As<float>(u.a),
                                          As<float>(u.b), As<float>(u.c), F(p3), LayerNormPara{p0, p1, p2}, t);
      break;
    }
    // ---- Gatherb / Scatter: src in a, uint32 offsets in b; p0 = repeatTime,
    // p1 = dstBlkStride (Gatherb) / mask (Scatter), p2 = rep stride, p3 = dstBaseAddr, n = count
    case kAdvGatherbU32:
      Gatherb(As<uint32_t>(u.d), As<uint32_t>(u.a), As<uint32_t>(u.b), static_cast<uint8_t>(p0),
              GatherRepeatParams(static_cast<uint8_t>(p1), static_cast<uint8_t>(p2)));
      break;
    case kAdvGatherbU16: {
      GatherRepeatParams gp;
      gp.dstBlkStride = static_cast<uint8_t>(p1);
      gp.dstRepStride = static_cast<uint16_t>(p2);
      Gatherb(As<uint16_t>(u.d), As<uint16_t>(u.a), As<uint32_t>(u.b), static_cast<uint8_t>(p0), gp);
      break;
    }
    case kAdvScatterF32: Scatter(As<float>(u.d), As<float>(u.a), As<uint32_t>(u.b), p3, n); break;
    case kAdvScatterMaskF16:
      Scatter(As<half>(u.d), As<half>(u.a), As<uint32_t>(u.b), p3, static_cast<uint64_t>(p1), static_cast<uint8_t>(p0),
              static_cast<uint8_t>(p2));
      break;
    case kAdvScatterMaskBitsI32: {
      const uint64_t bits[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
      Scatter(As<int32_t>(u.d), As<int32_t>(u.a), As<uint32_t>(u.b), p3, bits, static_cast<uint8_t>(p0),
              static_cast<uint8_t>(p2));
      break;
    }
    // ---- the 950 Sort forms (SortConfig): n values in a (indices in b); values to d, indices to w
    case kAdvSortCfgF32: {
      LocalTensor<float> dst = As<float>(u.d);
      Sort<float>(dst, As<float>(u.a), n);
      break;
    }
    case kAdvSortCfgMergeF16: {
      static constexpr SortConfig cfg = {SortType::MERGE_SORT, true};
      LocalTensor<half> dst = As<half>(u.d);
      LocalTensor<uint32_t> idx = As<uint32_t>(u.w);
      Sort<half, false, cfg>(dst, idx, As<half>(u.a), n);
      break;
    }
    case kAdvSortCfgI32Idx64: {
      static constexpr SortConfig cfg = {SortType::RADIX_SORT, true};
      LocalTensor<int32_t> dst = As<int32_t>(u.d);
      LocalTensor<int64_t> idx = As<int64_t>(u.w);
      Sort<int32_t, int64_t, false, cfg>(dst, idx, As<int32_t>(u.a), As<int64_t>(u.b), u.tmp, n);
      break;
    }
    // ---- TopK: p0 = outter, p1 = inner, p2 = n, p3 = k, n = isLargest;
    // values in a, indices in b, finish flags in c; values to d, indices to w
    case kAdvTopKNormalF32: {
      TopkTiling t;
      TopK<float, true, true>(As<float>(u.d), As<int32_t>(u.w), As<float>(u.a), As<int32_t>(u.b), As<bool>(u.c),
                              u.tmp, static_cast<int32_t>(p3), t, TopKInfo{int32_t(p0), int32_t(p1), int32_t(p2)}, n != 0);
      break;
    }
    case kAdvTopKSmallF32: {
      TopkTiling t;
      TopK<float, true, false, false, TopKMode::TOPK_NSMALL>(As<float>(u.d), As<int32_t>(u.w), As<float>(u.a),
                                                            As<int32_t>(u.b), As<bool>(u.c), static_cast<int32_t>(p3), t,
                                                            TopKInfo{int32_t(p0), int32_t(p1), int32_t(p2)}, n != 0);
      break;
    }
    case kAdvTopKNormalF16: {
      TopkTiling t;
      TopK<half>(As<half>(u.d), As<int32_t>(u.w), As<half>(u.a), As<int32_t>(u.b), As<bool>(u.c),
                 static_cast<int32_t>(p3), t, TopKInfo{int32_t(p0), int32_t(p1), int32_t(p2)}, n != 0);
      break;
    }
    case kAdvTopKRadixI32: {
      static constexpr TopKConfig cfg = {TopKAlgo::RADIX_SELECT, TopKOrder::SMALLEST, true};
      TopkTiling t;
      TopK<int32_t, false, false, false, TopKMode::TOPK_NORMAL, cfg>(
          As<int32_t>(u.d), As<int32_t>(u.w), As<int32_t>(u.a), As<int32_t>(u.b), As<bool>(u.c), u.tmp,
          static_cast<int32_t>(p3), t, TopKInfo{int32_t(p0), int32_t(p1), int32_t(p2)}, /*isLargest (overridden)*/ true);
      break;
    }
    default: break;
  }
}

}  // namespace

extern "C" __global__ __aicore__ void adv_case(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out,
                                               uint32_t op, uint32_t in_bytes, uint32_t out_bytes, uint32_t n,
                                               uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3) {
  InitSocState();
  GlobalTensor<uint8_t> g0, g1, g2, g3, go;
  g0.SetGlobalBuffer(in0, in_bytes);
  g1.SetGlobalBuffer(in1, in_bytes);
  g2.SetGlobalBuffer(in2, in_bytes / 2);
  g3.SetGlobalBuffer(in3, out_bytes);
  go.SetGlobalBuffer(out, out_bytes);
  LocalMemAllocator<Hardware::UB> ub;
  Bufs u;
  u.a = ub.Alloc<uint8_t, kIn>();
  u.b = ub.Alloc<uint8_t, kIn>();
  u.c = ub.Alloc<uint8_t, kIn2>();
  u.d = ub.Alloc<uint8_t, kSeg>();
  u.w = ub.Alloc<uint8_t, kSeg>();
  u.e = ub.Alloc<uint8_t, kSeg>();
  u.tmp = ub.Alloc<uint8_t, kTmp>();
  const uint32_t seg = out_bytes / 3;
  DataCopy(u.a, g0, in_bytes);
  DataCopy(u.b, g1, in_bytes);
  DataCopy(u.c, g2, in_bytes / 2);
  DataCopy(u.d, g3, seg);
  DataCopy(u.w, g3[seg], seg);
  DataCopy(u.e, g3[2 * seg], seg);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  RunOp(op, u, n, p0, p1, p2, p3);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  DataCopy(go, u.d, seg);
  DataCopy(go[seg], u.w, seg);
  DataCopy(go[2 * seg], u.e, seg);
}

extern "C" __global__ __aicore__ void adv_misuse(uint32_t which) {
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> a = ub.Alloc<float, 1024>();
  LocalTensor<float> b = ub.Alloc<float, 1024>();
  LocalTensor<float> c = ub.Alloc<float, 64>();
  switch (which) {
    case 0: Sigmoid(b, a, 2048u); break;  // count beyond the tensors
    case 1: {  // softmax rows that are not 32-byte multiples
      SoftMaxTiling t;
      t.srcM = 2;
      t.srcK = 12;
      SoftMax<float>(b, a, t);
      break;
    }
    case 2: {  // sum tensor too small for the rows (8 floats per row)
      SoftMaxTiling t;
      t.srcM = 16;
      t.srcK = 64;
      SoftMax<float>(b, c, c, a, t);
      break;
    }
    case 3: {  // LayerNorm gamma shorter than H
      LayerNormTiling t;
      t.bLength = 1;
      t.sLength = 2;
      t.hLength = 128;
      t.originalHLength = 128;
      LayerNorm<float>(b, c, c, a, c, c, 1e-5f, t);
      break;
    }
    case 4: {  // unaligned operand
      Erf(b, a[3], 16u);
      break;
    }
    case 5: {  // CumSum inner not 32-byte aligned
      LocalTensor<float> last = c;
      CumSumInfo info{4, 6};
      CumSum<float>(b, last, a, info);
      break;
    }
    case 6: {  // Pad: left padding of an aligned width
      PadTiling t;
      t.srcHeight = 4;
      t.srcWidth = 16;
      t.srcOriWidth = 14;
      PadParams pp{1, 1, 0};
      Pad(b, a, pp, t);
      break;
    }
    case 7: {  // UnPad: rightPad of 32 bytes
      UnPadTiling t;
      t.srcHeight = 4;
      t.srcWidth = 16;
      UnPadParams up{0, 8};
      UnPad(b, a, up, t);
      break;
    }
    case 8: {  // Fill on a vector buffer
      Fill(a, InitConstValueParams<float>{1, 1, 0, 1.0f});
      break;
    }
    case 9: {  // Pad: more padding than the aligned width holds
      PadTiling t;
      t.srcHeight = 4;
      t.srcWidth = 5;
      t.srcOriWidth = 5;
      PadParams pp{2, 2, 0};
      Pad(b, a, pp, t);
      break;
    }
    case 10: {  // Fill beyond the tensor
      LocalMemAllocator<Hardware::L1> l1;
      LocalTensor<float> t = l1.Alloc<TPosition::A1, float, 64>();
      Fill(t, InitConstValueParams<float>{2, 4, 1, 1.0f});
      break;
    }
    case 11: {  // Fill: an A2 tensor not 512-byte aligned
      LocalMemAllocator<Hardware::L0A> l0a;
      LocalTensor<half> t = l0a.Alloc<TPosition::A2, half, 1024>();
      Fill(t[16], InitConstValueParams<half>{1, half(1.0f)});
      break;
    }
    case 12: {  // TopK: k above n
      LocalTensor<int32_t> idx = b.ReinterpretCast<int32_t>();
      TopkTiling t;
      TopK<float>(b, idx, a, idx, a.ReinterpretCast<bool>(), 20, t, TopKInfo{2, 32, 17});
      break;
    }
    case 14: {  // LayerNorm (rstd form): rLength above rLengthWithPadding
      LayerNormSeparateTiling t;
      LayerNorm<float, float>(b, c, c, a, c, c, 1e-5f, LayerNormPara{2, 40, 32}, t);
      break;
    }
    case 15: {  // Gatherb: an offset that is not a whole block
      LocalTensor<uint32_t> off = c.ReinterpretCast<uint32_t>();
      for (uint32_t i = 0; i < 8; ++i) off.SetValue(i, i * 32u);
      off.SetValue(5, 40);
      Gatherb(b.ReinterpretCast<uint32_t>(), a.ReinterpretCast<uint32_t>(), off, 1, GatherRepeatParams(1, 8));
      break;
    }
    case 16: {  // Scatter: an offset outside dst
      LocalTensor<uint32_t> off = c.ReinterpretCast<uint32_t>();
      for (uint32_t i = 0; i < 16; ++i) off.SetValue(i, i * 4u);
      off.SetValue(3, 4096);
      Scatter(b, a, off, 0, 16u);
      break;
    }
    case 13: {  // TopK: Small mode with inner 64
      LocalTensor<int32_t> idx = b.ReinterpretCast<int32_t>();
      TopkTiling t;
      TopK<float, false, false, false, TopKMode::TOPK_NSMALL>(b, idx, a, idx, a.ReinterpretCast<bool>(), 4, t,
                                                            TopKInfo{2, 64, 64});
      break;
    }
    default: break;
  }
}

extern "C" __global__ __aicore__ void adv_fill(GM_ADDR out, uint32_t which) {
  GlobalTensor<uint8_t> go;
  go.SetGlobalBuffer(out, 4096);
  LocalTensor<uint8_t> bytes;
  if (which == 0) {  // A1 float: 2 repeats of 3 blocks, 1 block gap
    LocalMemAllocator<Hardware::L1> l1;
    LocalTensor<float> t = l1.Alloc<TPosition::A1, float, 1024>();
    bytes = t.ReinterpretCast<uint8_t>();
    for (uint32_t i = 0; i < 4096; ++i) bytes.SetValue(i, 0xA5);
    Fill(t, InitConstValueParams<float>{2, 3, 1, 5.0f});
  } else if (which == 1) {  // B2 half: repeatTimes and value only (512-byte repeats)
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalTensor<half> t = l0b.Alloc<TPosition::B2, half, 2048>();
    bytes = t.ReinterpretCast<uint8_t>();
    for (uint32_t i = 0; i < 4096; ++i) bytes.SetValue(i, 0xA5);
    InitConstValue(t, InitConstValueParams<half>(3, half(2.5f)));
  } else if (which == 2) {  // A2 int32: 2 repeats of 2 blocks (512 bytes each), 1 block gap
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalTensor<int32_t> t = l0a.Alloc<TPosition::A2, int32_t, 1024>();
    bytes = t.ReinterpretCast<uint8_t>();
    for (uint32_t i = 0; i < 4096; ++i) bytes.SetValue(i, 0xA5);
    InitConstValueParams<int32_t> p;
    p.SetRepeatTimes(2);
    p.SetBlockNum(2);
    p.SetDstGap(1);
    p.SetInitValue(-7);
    Fill(t, p);
  } else {  // B1 uint16: one repeat of 5 blocks
    LocalMemAllocator<Hardware::L1> l1;
    LocalTensor<uint16_t> t = l1.Alloc<TPosition::B1, uint16_t, 2048>();
    bytes = t.ReinterpretCast<uint8_t>();
    for (uint32_t i = 0; i < 4096; ++i) bytes.SetValue(i, 0xA5);
    Fill(t, InitConstValueParams<uint16_t>{1, 5, 0, static_cast<uint16_t>(0xBEEF)});
  }
  for (uint32_t i = 0; i < 4096; ++i) go.SetValue(i, bytes.GetValue(i));
}

