// Cube kernels of the in-process tests (basic cube API in the style of the
// devkit's examples): GM ND -> L1 NZ (DataCopy Nd2NzParams) -> L0A/L0B
// (LoadData) -> Mmad -> Fixpipe to GM ND. One tile per block.
#ifndef SIMNPU_TESTS_ASCENDC_CUBE_KERNELS_H_
#define SIMNPU_TESTS_ASCENDC_CUBE_KERNELS_H_

#include "kernel_operator.h"

namespace cube_test {

struct MmArgs {
  uint32_t m, n, k;
  uint32_t b_trans;   // 1: B is given as n x k in GM
  uint32_t split_k;   // Mmad calls along k (accumulating in L0C)
  uint32_t relu;
  uint32_t quant;     // QuantMode_t
  float scale;
  uint32_t bias;      // 1: add bias (float/int32 row of n) through the bias table
  uint32_t hf32 = 0;  // 1: SetHF32Mode(true) (float inputs)
};

inline uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// A (m x k, ND) x B (k x n or n x k, ND) -> C (m x n, ND) of type CT.
template <typename AT, typename LT, typename CT>
inline void CubeMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, MmArgs t) {
  using namespace AscendC;
  constexpr uint32_t c0 = 32 / sizeof(AT);
  const uint32_t mA = Align(t.m, 16), nA = Align(t.n, t.b_trans ? 16 : (sizeof(AT) == 1 ? 32 : 16));
  const uint32_t kA = Align(t.k, sizeof(AT) == 1 && !t.b_trans ? 32 : c0);
  const uint32_t mB = mA / 16, nB = nA / 16, kB = kA / c0;
  TPipe pipe;
  if (t.hf32) SetHF32Mode(true);
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  TBuf<TPosition::C1> bias1;
  TBuf<TPosition::C2> bias2;
  pipe.InitBuffer(qa1, 1, mA * kA * sizeof(AT));
  pipe.InitBuffer(qb1, 1, kA * nA * sizeof(AT));
  pipe.InitBuffer(qa2, 1, mA * kA * sizeof(AT));
  pipe.InitBuffer(qb2, 1, kA * nA * sizeof(AT));
  pipe.InitBuffer(qc, 1, mA * nA * sizeof(LT));
  pipe.InitBuffer(bias1, nA * sizeof(LT));
  pipe.InitBuffer(bias2, nA * sizeof(LT));
  GlobalTensor<AT> ga, gb;
  GlobalTensor<CT> gc;
  GlobalTensor<LT> gbias;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(a), t.m * t.k);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ AT*>(b), t.k * t.n);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ CT*>(c), t.m * t.n);
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ LT*>(bias), t.n);

  LocalTensor<AT> a1 = qa1.AllocTensor<AT>();
  LocalTensor<AT> b1 = qb1.AllocTensor<AT>();
  DataCopy(a1, ga, Nd2NzParams(1, t.m, t.k, 0, t.k, mA, 1, 0));
  if (t.b_trans) {
    DataCopy(b1, gb, Nd2NzParams(1, t.n, t.k, 0, t.k, nA, 1, 0));
  } else {
    DataCopy(b1, gb, Nd2NzParams(1, t.k, t.n, 0, t.n, kA, 1, 0));
  }
  qa1.EnQue(a1);
  qb1.EnQue(b1);
  a1 = qa1.DeQue<AT>();
  b1 = qb1.DeQue<AT>();

  LocalTensor<AT> a2 = qa2.AllocTensor<AT>();
  LocalTensor<AT> b2 = qb2.AllocTensor<AT>();
  if (t.b_trans) {
    LoadData(b2, b1, LoadData2DParams(0, kB * nB, 1, 0, 0, false, 0));
  } else if (sizeof(AT) == 2) {
    for (uint32_t i = 0; i < kB; ++i) LoadData(b2[i * nB * 256], b1, LoadData2DParams(i, nB, kB, 0, 0, true, 0));
  } else {
    // 1-byte types: 32 x 32 squares transposed, two ZN fractals each
    const uint32_t kS = kA / 32;
    for (uint32_t i = 0; i < kS; ++i) {
      LoadDataWithTranspose(b2[i * nB * 512], b1, LoadData2dTransposeParams(i, nA / 32, kS, 1, 0));
    }
  }
  qb2.EnQue(b2);
  b2 = qb2.DeQue<AT>();

  LocalTensor<LT> c1 = qc.AllocTensor<LT>();
  LocalTensor<LT> bt = bias2.Get<LT>();
  if (t.bias) {
    LocalTensor<LT> b1s = bias1.Get<LT>();
    DataCopy(b1s, gbias, t.n);
    DataCopy(bt, b1s, t.n);
  }
  // split k: each part a whole number of fractal columns, loaded into L0A
  // on its own, accumulated in L0C (cmatrixInitVal false after the first)
  const uint32_t parts = t.split_k == 0 ? 1 : t.split_k;
  const uint32_t kPart = Align((t.k + parts - 1) / parts, c0);
  for (uint32_t p = 0, k0 = 0; k0 < t.k; ++p, k0 += kPart) {
    const uint32_t kk = t.k - k0 < kPart ? t.k - k0 : kPart;
    const uint32_t kbp = (kk + c0 - 1) / c0;
    for (uint32_t i = 0; i < mB; ++i) {
      LoadData(a2[i * kbp * 16 * c0], a1, LoadData2DParams((k0 / c0) * mB + i, kbp, mB, 0, 0, false, 0));
    }
    LocalTensor<AT> bp = b2[(k0 / c0) * nB * 16 * c0];
    MmadParams mp;
    mp.m = t.m;
    // B2 holds nA / 16 fractal columns (32-aligned for the 1-byte transpose
    // path): Mmad's n must describe that layout; Fixpipe drops the padding
    mp.n = sizeof(AT) == 1 && !t.b_trans ? nA : t.n;
    mp.k = kk;
    mp.cmatrixInitVal = p == 0;
    if (t.bias && p == 0) {
      Mmad(c1, a2, bp, bt, mp);
    } else {
      Mmad(c1, a2, bp, mp);
    }
  }
  qc.EnQue(c1);
  c1 = qc.DeQue<LT>();
  FixpipeParamsV220 fp(t.n, t.m, mA, t.n, t.relu != 0);
  fp.quantPre = static_cast<QuantMode_t>(t.quant);
  uint32_t sbits;
  std::memcpy(&sbits, &t.scale, 4);
  fp.deqScalar = sbits;
  Fixpipe(gc, c1, fp);
  qc.FreeTensor(c1);
  qa2.FreeTensor(a2);
  qb2.FreeTensor(b2);
  qa1.FreeTensor(a1);
  qb1.FreeTensor(b1);
}

}  // namespace cube_test

#endif  // SIMNPU_TESTS_ASCENDC_CUBE_KERNELS_H_
