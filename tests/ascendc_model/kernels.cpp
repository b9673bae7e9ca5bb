// Kernels written for the Ascend C model tests, in the style of the CANN
// samples (TPipe + TQue double buffering, GlobalTensor views).
#include "kernels.h"

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

enum class BinKind { kAdd, kMul };

template <typename T, BinKind K>
class KernelBinary {
 public:
  __aicore__ inline KernelBinary() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength) {
    blockLength = totalLength / GetBlockNum();
    tileLen = tileLength;
    tileCount = blockLength / tileLength;
    xGm.SetGlobalBuffer((__gm__ T*)x + blockLength * GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ T*)z + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLen * sizeof(T));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLen * sizeof(T));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLen * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileCount; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
    LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
    DataCopy(xLocal, xGm[progress * tileLen], tileLen);
    DataCopy(yLocal, yGm[progress * tileLen], tileLen);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<T> xLocal = inQueueX.DeQue<T>();
    LocalTensor<T> yLocal = inQueueY.DeQue<T>();
    LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
    if constexpr (K == BinKind::kAdd) {
      Add(zLocal, xLocal, yLocal, tileLen);
    } else {
      Mul(zLocal, xLocal, yLocal, tileLen);
    }
    outQueueZ.EnQue<T>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
    DataCopy(zGm[progress * tileLen], zLocal, tileLen);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<T> xGm, yGm, zGm;
  uint32_t blockLength = 0;
  uint32_t tileLen = 0;
  uint32_t tileCount = 0;
};

template <typename T>
__aicore__ inline void ReduceImpl(GM_ADDR x, GM_ADDR out, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> srcBuf, dstBuf, workBuf;
  GlobalTensor<T> xGm, outGm;
  xGm.SetGlobalBuffer((__gm__ T*)x, n);
  outGm.SetGlobalBuffer((__gm__ T*)out, 32 / sizeof(T) * 3);
  const uint32_t padded = n == 0 ? 32u : (n * sizeof(T) + 31) / 32 * 32;
  pipe.InitBuffer(srcBuf, padded);
  pipe.InitBuffer(dstBuf, 32);
  pipe.InitBuffer(workBuf, padded);
  LocalTensor<T> src = srcBuf.Get<T>();
  LocalTensor<T> dst = dstBuf.Get<T>();
  LocalTensor<T> work = workBuf.Get<T>();
  DataCopy(src, xGm, n == 0 ? 0u : padded / static_cast<uint32_t>(sizeof(T)));
  ReduceSum(dst, src, work, n);
  outGm.SetValue(0, dst.GetValue(0));
  ReduceMax(dst, src, work, n, true);
  outGm.SetValue(1, dst.GetValue(0));
  outGm.SetValue(2, dst.GetValue(1));
  ReduceMin(dst, src, work, n);
  outGm.SetValue(3, dst.GetValue(0));
}

template <typename T>
__aicore__ inline void UnaryImpl(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t op, float s) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQ;
  TQue<QuePosition::VECOUT, 1> outQ;
  GlobalTensor<T> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ T*)x, n);
  yGm.SetGlobalBuffer((__gm__ T*)y, n);
  pipe.InitBuffer(inQ, 1, n * sizeof(T));
  pipe.InitBuffer(outQ, 1, n * sizeof(T));
  LocalTensor<T> in = inQ.AllocTensor<T>();
  DataCopy(in, xGm, n);
  inQ.EnQue(in);
  LocalTensor<T> a = inQ.DeQue<T>();
  LocalTensor<T> o = outQ.AllocTensor<T>();
  const T sv = T(s);
  constexpr uint32_t kStep = 32 / sizeof(T);  // the second operand is a 32-byte aligned view
  switch (op) {
    case 0: Exp(o, a, n); break;
    case 1: Ln(o, a, n); break;
    case 2: Abs(o, a, n); break;
    case 3: Sqrt(o, a, n); break;
    case 4: Relu(o, a, n); break;
    case 5: Adds(o, a, sv, n); break;
    case 6: Muls(o, a, sv, n); break;
    case 7: Maxs(o, a, sv, n); break;
    case 8: Mins(o, a, sv, n); break;
    case 9: Sub(o, a, a[kStep], n - kStep); break;
    case 10: Div(o, a, a[kStep], n - kStep); break;
    case 11: Max(o, a, a[kStep], n - kStep); break;
    case 12: Min(o, a, a[kStep], n - kStep); break;
    case 13: Duplicate(o, sv, n); break;
    case 14: Reciprocal(o, a, n); break;
    case 15: Rsqrt(o, a, n); break;
    case 16: LeakyRelu(o, a, sv, n); break;
    default: break;
  }
  outQ.EnQue(o);
  inQ.FreeTensor(a);
  LocalTensor<T> r = outQ.DeQue<T>();
  DataCopy(yGm, r, n);
  outQ.FreeTensor(r);
}

}  // namespace

extern "C" __global__ __aicore__ void vadd_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                uint32_t tileLength) {
  KernelBinary<half, BinKind::kAdd> op;
  op.Init(x, y, z, totalLength, tileLength);
  op.Process();
}

extern "C" __global__ __aicore__ void vadd_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                 uint32_t tileLength) {
  KernelBinary<float, BinKind::kAdd> op;
  op.Init(x, y, z, totalLength, tileLength);
  op.Process();
}

extern "C" __global__ __aicore__ void vmul_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                 uint32_t tileLength) {
  KernelBinary<float, BinKind::kMul> op;
  op.Init(x, y, z, totalLength, tileLength);
  op.Process();
}

extern "C" __global__ __aicore__ void vmul_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                uint32_t tileLength) {
  KernelBinary<half, BinKind::kMul> op;
  op.Init(x, y, z, totalLength, tileLength);
  op.Process();
}

extern "C" __global__ __aicore__ void reduce_float(GM_ADDR x, GM_ADDR out, uint32_t n) { ReduceImpl<float>(x, out, n); }
extern "C" __global__ __aicore__ void reduce_half(GM_ADDR x, GM_ADDR out, uint32_t n) { ReduceImpl<half>(x, out, n); }

extern "C" __global__ __aicore__ void scalar_params(GM_ADDR out, int32_t a, float b, half h, int64_t c, uint8_t d,
                                                   bool e, TestMode mode, double f, TilingData t, bfloat16_t bf) {
  GlobalTensor<double> o;
  o.SetGlobalBuffer((__gm__ double*)out, 12);
  o.SetValue(0, a);
  o.SetValue(1, b);
  o.SetValue(2, static_cast<float>(h));
  o.SetValue(3, static_cast<double>(c));
  o.SetValue(4, d);
  o.SetValue(5, e ? 1.0 : 0.0);
  o.SetValue(6, static_cast<int32_t>(mode));
  o.SetValue(7, f);
  o.SetValue(8, t.totalLength);
  o.SetValue(9, t.tileNum * 1000.0 + t.scale + t.flag * 100.0);
  o.SetValue(10, static_cast<float>(bf));
}

extern "C" __global__ __aicore__ void print_kernel(int32_t v) {
  AscendC::printf("block %d of %d: v=%d i=%i u=%u x=%x\n", (int)GetBlockIdx(), (int)GetBlockNum(), v, -v, 42u, 255);
  AscendC::printf("ld=%ld lu=%lu lld=%lld llu=%llu\n", -1234567890123L, 1234567890123UL, -5LL, 18446744073709551615ULL);
  AscendC::printf("f=%f half=%.2f bf=%.1f s=%s c=%c pct=%% w=[%5d] p=%p\n", 1.5f, half(2.25f), bfloat16_t(3.0f), "str",
                  'Z', 7, (void*)0x1234);
  PRINTF("legacy %d\n", 1);
}

extern "C" __global__ __aicore__ void print_flood(uint32_t lines) {
  for (uint32_t i = 0; i < lines; ++i) AscendC::printf("line %05u ..................................................\n", i);
}

extern "C" __global__ __aicore__ void trap_kernel() {
  AscendC::printf("before trap\n");
  ::simnpu::ascendc::Trap();
}

extern "C" __global__ __aicore__ void assert_kernel(int32_t v) {
  assert(v > 0);
  assert(v < 100, "v is %d\n", v);
}

extern "C" __global__ __aicore__ void ub_overflow(uint32_t bytes, uint32_t num) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, num, bytes);
  LocalTensor<float> t = q.AllocTensor<float>();
  t.SetValue(0, 1.0f);
  q.FreeTensor(t);
}

extern "C" __global__ __aicore__ void copy_count(GM_ADDR x, GM_ADDR y, uint32_t count) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
  yGm.SetGlobalBuffer((__gm__ float*)y, 1024);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, xGm, count);
  DataCopy(yGm, t, count);
}

extern "C" __global__ __aicore__ void copy_too_small(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, xGm, 32);  // 128 bytes into a 64-byte buffer
}

extern "C" __global__ __aicore__ void strided_copy(GM_ADDR x, GM_ADDR y, uint32_t cnt, uint32_t len,
                                                   uint32_t srcStride, uint32_t gap, uint32_t dstStride) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 16384);
  pipe.InitBuffer(b, 8192);
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 8192);
  yGm.SetGlobalBuffer((__gm__ float*)y, 8192);
  LocalTensor<float> ta = a.Get<float>();
  LocalTensor<float> tb = b.Get<float>();
  const auto u16 = [](uint32_t v) { return static_cast<uint16_t>(v); };
  DataCopy(ta, xGm, DataCopyParams(u16(cnt), u16(len), u16(srcStride), u16(gap)));
  DataCopy(tb, ta, DataCopyParams(u16(cnt), u16(len), u16(gap), 0));
  DataCopy(yGm, tb, DataCopyParams(u16(cnt), u16(len), 0, u16(dstStride)));
}

extern "C" __global__ __aicore__ void unaligned_sites(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 64);
  LocalTensor<float> t = buf.Get<float>();
  for (int rep = 0; rep < 3; ++rep) {
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
    DataCopy(t, xGm, 13);
  }
}

extern "C" __global__ __aicore__ void queue_misuse(int32_t which) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  TQue<QuePosition::VECIN, 8> big;
  if (which == 4) {
    q.AllocTensor<half>();
    return;
  }
  pipe.InitBuffer(q, 2, 256);
  pipe.InitBuffer(big, 8, 256);
  if (which == 0) {
    q.DeQue<half>();
  } else if (which == 1) {
    q.AllocTensor<half>();
    q.AllocTensor<half>();
    q.AllocTensor<half>();
  } else if (which == 2) {
    q.AllocTensor<half>();
    for (int i = 0; i < 8; ++i) big.AllocTensor<half>();  // 9 outstanding in VECIN
  } else if (which == 3) {
    LocalTensor<half> t = q.AllocTensor<half>();
    q.FreeTensor(t);
    q.FreeTensor(t);
  } else if (which == 5) {  // correct use, 8 outstanding is fine
    for (int i = 0; i < 8; ++i) big.AllocTensor<half>();
  }
}

extern "C" __global__ __aicore__ void flag_kernel(int32_t which) {
  if (which == 0) {
    SetFlag<HardEvent::MTE2_V>(0);
    PipeBarrier<PIPE_V>();
    WaitFlag<HardEvent::MTE2_V>(0);
    SetFlag<HardEvent::V_MTE3>(1);
    WaitFlag<HardEvent::V_MTE3>(1);
  } else if (which == 1) {
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
  } else if (which == 2) {
    SetFlag<HardEvent::S_MTE3>(3);
  } else if (which == 3) {
    TPipe pipe;
    TEventID a = pipe.AllocEventID<HardEvent::V_S>();
    TEventID peek = pipe.FetchEventID<HardEvent::V_S>();
    SetFlag<HardEvent::V_S>(a);
    WaitFlag<HardEvent::V_S>(a);
    pipe.ReleaseEventID<HardEvent::V_S>(a);
    if (a != 0 || peek != 1) Trap();
  }
}

extern "C" __global__ __aicore__ void scalar_gm(GM_ADDR x, GM_ADDR y, uint32_t n) {
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  yGm.SetGlobalBuffer((__gm__ float*)y, n);
  for (uint32_t i = 0; i < n; ++i) yGm.SetValue(i, xGm.GetValue(i) * 2.0f);
}

extern "C" __global__ __aicore__ void unary_float(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t op, float s) {
  UnaryImpl<float>(x, y, n, op, s);
}
extern "C" __global__ __aicore__ void unary_half(GM_ADDR x, GM_ADDR y, uint32_t n, int32_t op, float s) {
  UnaryImpl<half>(x, y, n, op, s);
}

extern "C" __global__ __aicore__ void cast_kernel(GM_ADDR x, GM_ADDR yh, GM_ADDR yi, uint32_t n, int32_t mode) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> fb, hb, ib, f2;
  pipe.InitBuffer(fb, n * 4);
  pipe.InitBuffer(hb, n * 2);
  pipe.InitBuffer(ib, n * 4);
  pipe.InitBuffer(f2, n * 4);
  GlobalTensor<float> xGm;
  GlobalTensor<half> yhGm;
  GlobalTensor<int32_t> yiGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  yhGm.SetGlobalBuffer((__gm__ half*)yh, n);
  yiGm.SetGlobalBuffer((__gm__ int32_t*)yi, n);
  LocalTensor<float> f = fb.Get<float>();
  LocalTensor<half> h = hb.Get<half>();
  LocalTensor<int32_t> i = ib.Get<int32_t>();
  DataCopy(f, xGm, n);
  const RoundMode rm = static_cast<RoundMode>(mode);
  Cast(h, f, rm, n);
  Cast(i, f, rm, n);
  LocalTensor<float> back = f2.Get<float>();
  Cast(back, h, RoundMode::CAST_NONE, n);  // exact, must round-trip
  for (uint32_t k = 0; k < n; ++k) {
    if (half(back.GetValue(k)).val != h.GetValue(k).val) Trap();
  }
  DataCopy(yhGm, h, n);
  DataCopy(yiGm, i, n);
}

extern "C" __global__ __aicore__ void tbuf_kernel(GM_ADDR x, GM_ADDR y, uint32_t n) {
  TPipe pipe;
  TBuf<> tmp;
  pipe.InitBuffer(tmp, n * sizeof(float) * 2);
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, n);
  yGm.SetGlobalBuffer((__gm__ float*)y, n);
  LocalTensor<float> all = tmp.Get<float>();
  LocalTensor<float> a = tmp.Get<float>(n);
  LocalTensor<float> b = all[n];
  DataCopy(a, xGm, n);
  Muls(b, a, 3.0f, n);
  LocalTensor<int32_t> bits = b.ReinterpretCast<int32_t>();
  if (bits.GetSize() != n) Trap();
  DataCopy(yGm, b, n);
}

extern "C" __global__ __aicore__ void core_type_kernel(GM_ADDR out) {
  __gm__ int32_t* o = (__gm__ int32_t*)out;
  o[0] = 0;
  if ASCEND_IS_AIV {
    o[0] |= 1;
  }
  if ASCEND_IS_AIC {
    o[0] |= 2;
  }
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  dcci(o, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
}

extern "C" __global__ __aicore__ void throw_kernel() { throw 42; }
