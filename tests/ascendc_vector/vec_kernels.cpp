// Kernels of the vector-API golden tests. One kernel, vec_case, runs one
// case: it copies three inputs from GM into static UB tensors (in0, in1 and
// the destination's initial contents in2), runs the operation named by `op`
// (the ids are shared with gen_golden.py) and copies the destination back.
// Static tensor programming throughout (LocalMemAllocator, EVENT_ID sync),
// the way the devkit's single-source examples are written.
#include "ascendc_vector/vec_kernels.h"

using namespace AscendC;

namespace {

constexpr uint32_t kBuf = 32768;  // bytes per UB tensor

template <typename T>
LocalTensor<T> As(const LocalTensor<uint8_t>& t) {
  return t.ReinterpretCast<T>();
}

// p0..p3 are case parameters; their meaning depends on the op (gen_golden.py).
void RunOp(uint32_t op, const LocalTensor<uint8_t>& a, const LocalTensor<uint8_t>& b, const LocalTensor<uint8_t>& d,
           const LocalTensor<uint8_t>& w, uint32_t n, uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3) {
  switch (op) {
    // ---- bitwise
    case kOpAndU16: And(As<uint16_t>(d), As<uint16_t>(a), As<uint16_t>(b), n); break;
    case kOpOrI16: Or(As<int16_t>(d), As<int16_t>(a), As<int16_t>(b), n); break;
    case kOpNotU16: Not(As<uint16_t>(d), As<uint16_t>(a), n); break;
    case kOpShlU16: ShiftLeft(As<uint16_t>(d), As<uint16_t>(a), static_cast<uint16_t>(p0), n); break;
    case kOpShrI16: ShiftRight(As<int16_t>(d), As<int16_t>(a), static_cast<int16_t>(p0), n); break;
    case kOpShrI32RoundL0: {
      uint64_t mask = p1;
      ShiftRight(As<int32_t>(d), As<int32_t>(a), static_cast<int32_t>(p0), mask, static_cast<uint8_t>(p2),
                 UnaryRepeatParams(1, 1, 8, 8), true);
      break;
    }
    case kOpAndL0Strided: {
      uint64_t mask[2] = {0xf0f0f0f0f0f0f0f0ull, 0x00000000ffffffffull};
      And(As<uint16_t>(d), As<uint16_t>(a), As<uint16_t>(b), mask, static_cast<uint8_t>(p0),
          BinaryRepeatParams(1, 2, 1, 8, 16, 8));
      break;
    }
    // ---- compare / select
    case kOpCmpLtF32: Compare(As<uint8_t>(d), As<float>(a), As<float>(b), CMPMODE::LT, n); break;
    case kOpCmpGeF16L0:
      Compare(As<uint8_t>(d), As<half>(a), As<half>(b), CMPMODE::GE, FULL_MASK, static_cast<uint8_t>(p0),
              BinaryRepeatParams(1, 1, 2, 8, 8, 16));
      break;
    case kOpCmpsGtF32: Compares(As<uint8_t>(d), As<float>(a), 0.25f, CMPMODE::GT, n); break;
    case kOpCmpEqI32: Compare(As<uint8_t>(d), As<int32_t>(a), As<int32_t>(b), CMPMODE::EQ, n); break;
    case kOpSelMode2F32:
      Select(As<float>(d), As<uint8_t>(w), As<float>(a), As<float>(b), SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
      break;
    case kOpSelMode1F16:
      Select(As<half>(d), As<uint8_t>(w), As<half>(a), half(-7.5f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
      break;
    case kOpSelMode0F32L0: {
      uint64_t mask = p1;
      Select(As<float>(d), As<uint8_t>(w), As<float>(a), As<float>(b), SELMODE::VSEL_CMPMASK_SPR, mask,
             static_cast<uint8_t>(p0), BinaryRepeatParams(1, 1, 1, 8, 8, 8));
      break;
    }
    case kOpCmpThenSelect: {
      // Compare -> bits in w, then Select mode 2 with them: d = a < b ? a : b
      Compare(As<uint8_t>(w), As<float>(a), As<float>(b), CMPMODE::LT, n);
      PipeBarrier<PIPE_V>();
      Select(As<float>(d), As<uint8_t>(w), As<float>(a), As<float>(b), SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
      break;
    }
    case kOpGatherMaskBuiltin: {
      uint64_t kept = 0;
      GatherMask(As<float>(d), As<float>(a), static_cast<uint8_t>(p0), false, 0,
                 GatherMaskParams(1, static_cast<uint16_t>(p1), 8, 0), kept);
      As<uint32_t>(w).SetValue(0, static_cast<uint32_t>(kept));
      break;
    }
    case kOpGatherMaskUser: {
      uint64_t kept = 0;
      GatherMask(As<half>(d), As<half>(a), As<uint16_t>(b), true, p0,
                 GatherMaskParams(1, static_cast<uint16_t>(p1), static_cast<uint16_t>(p2), static_cast<uint8_t>(p3)),
                 kept);
      As<uint32_t>(w).SetValue(0, static_cast<uint32_t>(kept));
      break;
    }
    // ---- reductions
    case kOpWholeSumF32: WholeReduceSum(As<float>(d), As<float>(a), static_cast<int32_t>(p1), static_cast<int32_t>(p0), 1, 1, 8); break;
    case kOpWholeMaxF16:
      WholeReduceMax(As<half>(d), As<half>(a), static_cast<int32_t>(p1), static_cast<int32_t>(p0), 1, 1, 8);
      break;
    case kOpWholeMinF32IdxOnly:
      WholeReduceMin(As<float>(d), As<float>(a), static_cast<int32_t>(p1), static_cast<int32_t>(p0), 1, 1, 8,
                     ReduceOrder::ORDER_ONLY_INDEX);
      break;
    case kOpBlockSumF32: BlockReduceSum(As<float>(d), As<float>(a), static_cast<int32_t>(p0), static_cast<int32_t>(p1), 1, 1, 8); break;
    case kOpBlockMaxF16: BlockReduceMax(As<half>(d), As<half>(a), static_cast<int32_t>(p0), static_cast<int32_t>(p1), 1, 1, 8); break;
    case kOpPairSumF32: PairReduceSum(As<float>(d), As<float>(a), static_cast<int32_t>(p0), static_cast<int32_t>(p1), 1, 1, 8); break;
    case kOpReduceSumF16L0: ReduceSum(As<half>(d), As<half>(a), As<half>(w), static_cast<int32_t>(p1), static_cast<int32_t>(p0), 8); break;
    case kOpWholeSumF16Masked: {
      uint64_t mask[2] = {0x00ff00ff00ff00ffull, 0xffff0000ffff0000ull};
      WholeReduceSum(As<half>(d), As<half>(a), mask, static_cast<int32_t>(p0), 1, 1, 8);
      break;
    }
    // ---- masked / strided element-wise (repeat engine)
    case kOpAddF16L0Strided: {
      uint64_t mask[2] = {0x5555555555555555ull, 0xffff0000ffff0000ull};
      Add(As<half>(d), As<half>(a), As<half>(b), mask, static_cast<uint8_t>(p0), BinaryRepeatParams(2, 1, 1, 16, 8, 8));
      break;
    }
    case kOpAddsF32Counter: {
      SetMaskCount();
      SetVectorMask<float, MaskMode::COUNTER>(0, p0);
      Adds<float, false>(As<float>(d), As<float>(a), 1.5f, MASK_PLACEHOLDER, 1, UnaryRepeatParams(1, 1, 8, 8));
      SetMaskNorm();
      ResetMask();
      break;
    }
    case kOpMulF32NormalRegister: {
      SetMaskNorm();
      SetVectorMask<float, MaskMode::NORMAL>(p1);
      Mul<float, false>(As<float>(d), As<float>(a), As<float>(b), MASK_PLACEHOLDER, static_cast<uint8_t>(p0),
                        BinaryRepeatParams(1, 1, 1, 8, 8, 8));
      ResetMask();
      break;
    }
    case kOpDupI16L0: {
      uint64_t mask = p1;
      Duplicate(As<int16_t>(d), static_cast<int16_t>(-1234), mask, static_cast<uint8_t>(p0), 2, 16);
      break;
    }
    case kOpMaxsI32Count: Maxs(As<int32_t>(d), As<int32_t>(a), 100, n); break;
    // ---- gather / broadcast / layout
    case kOpGatherF32: Gather(As<float>(d), As<float>(a), As<uint32_t>(b), p0, n); break;
    case kOpBrcbF16: Brcb(As<half>(d), As<half>(a), static_cast<uint8_t>(p0), BrcbRepeatParams(1, 8)); break;
    case kOpVecIndexI32: CreateVecIndex(As<int32_t>(d), static_cast<int32_t>(p0) - 50, n); break;
    case kOpTransposeF16: Transpose(As<half>(d), As<half>(a)); break;
    // ---- Cast
    case kOpCastF32E4M3: Cast(As<fp8_e4m3fn_t>(d), As<float>(a), RoundMode::CAST_RINT, n); break;
    case kOpCastF32E5M2: Cast(As<fp8_e5m2_t>(d), As<float>(a), RoundMode::CAST_RINT, n); break;
    case kOpCastF32HiF8: Cast(As<hifloat8_t>(d), As<float>(a), RoundMode::CAST_ROUND, n); break;
    case kOpCastBf16E2M1: Cast(As<fp4x2_e2m1_t>(d), As<bfloat16_t>(a), RoundMode::CAST_RINT, n); break;
    case kOpCastF16Int4: Cast(As<int4b_t>(d), As<half>(a), RoundMode::CAST_FLOOR, n); break;
    case kOpCastE4M3F32: Cast(As<float>(d), As<fp8_e4m3fn_t>(a), RoundMode::CAST_NONE, n); break;
    case kOpCastI32F16Deq:
      SetDeqScale(half(0.125f));
      Cast(As<half>(d), As<int32_t>(a), RoundMode::CAST_NONE, n);
      break;
    case kOpCastF16I32CeilL0:
      Cast(As<int32_t>(d), As<half>(a), RoundMode::CAST_CEIL, static_cast<uint64_t>(64), static_cast<uint8_t>(p0),
           UnaryRepeatParams(1, 1, 8, 4));
      break;
    case kOpCastF32Bf16Trunc: Cast(As<bfloat16_t>(d), As<float>(a), RoundMode::CAST_TRUNC, n); break;
    default: break;
  }
  (void)p2;
  (void)p3;
}

}  // namespace

extern "C" __global__ __aicore__ void vec_case(GM_ADDR in0, GM_ADDR in1, GM_ADDR in2, GM_ADDR in3, GM_ADDR out,
                                               uint32_t op, uint32_t in_bytes, uint32_t out_bytes, uint32_t n,
                                               uint32_t p0, uint32_t p1, uint32_t p2, uint32_t p3) {
  GlobalTensor<uint8_t> g0, g1, g2, g3, go;
  g0.SetGlobalBuffer(in0, in_bytes);
  g1.SetGlobalBuffer(in1, in_bytes);
  g2.SetGlobalBuffer(in2, out_bytes);
  g3.SetGlobalBuffer(in3, in_bytes);
  go.SetGlobalBuffer(out, out_bytes);

  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<uint8_t> a = ub.Alloc<uint8_t, kBuf>();
  LocalTensor<uint8_t> b = ub.Alloc<uint8_t, kBuf>();
  LocalTensor<uint8_t> d = ub.Alloc<uint8_t, kBuf>();
  LocalTensor<uint8_t> w = ub.Alloc<uint8_t, kBuf>();

  DataCopy(a, g0, in_bytes);
  DataCopy(b, g1, in_bytes);
  DataCopy(d, g2, out_bytes);
  DataCopy(w, g3, in_bytes);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

  if (op == kOpDataCopyPadGm) {
    // p0 bursts of p1 bytes, source gap p2 bytes, right padding p3 elements of 37.0f
    DataCopyExtParams cp(static_cast<uint16_t>(p0), p1, p2, 0, 0);
    DataCopyPadExtParams<float> pad(true, 0, static_cast<uint8_t>(p3), 0.0f);
    SetPadValue(37.0f);
    GlobalTensor<float> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(in0), in_bytes / 4);
    DataCopyPad(As<float>(d), src, cp, pad);
  } else {
    RunOp(op, a, b, d, w, n, p0, p1, p2, p3);
  }

  SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
  if (op == kOpGatherMaskBuiltin || op == kOpGatherMaskUser) {
    // the kept count goes out in the last 32 bytes
    DataCopy(go, d, out_bytes - 32);
    DataCopy(go[out_bytes - 32], w, 32);
  } else {
    DataCopy(go, d, out_bytes);
  }
  PipeBarrier<PIPE_ALL>();
}
