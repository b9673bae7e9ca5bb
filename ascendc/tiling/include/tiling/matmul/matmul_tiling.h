// simnpu: the Matmul API's host tiling (matmul_tiling::MatmulApiTiling for
// one core, MultiCoreMatmulTiling for several), filling TCubeTiling (the
// host class optiling::TCubeTiling or the kernel struct ::TCubeTiling).
// Header-only; included from tiling/tiling_api.h.
//
// The split (a decision of the model; the pages describe the fields, not the
// algorithm): singleCore shapes divide M and N over the cores (mDim x nDim
// <= dim, the pair with the most cores used, then the squarest tiles), K is
// not split unless SetSplitK(true) (then over the cores left); baseM/baseN
// are at most 128 (16-aligned), baseK at most 64 bytes x 4 of the input type
// (c0-aligned), all within L0A/L0B (double-buffered) and L0C; stepKa/stepKb
// as many baseK as fit in half of L1 each; depths = step products x 2.
// GetTiling returns 0, or -1 with a message on stderr for a setting it
// cannot tile (no shape, unknown type, buffer space too small).
#ifndef SIMNPU_TILING_MATMUL_MATMUL_TILING_H_
#define SIMNPU_TILING_MATMUL_MATMUL_TILING_H_

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "tiling/tiling_api.h"  // optiling::TCubeTiling (includes this header at its end)

namespace matmul_tiling {

enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX };
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class DataType {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_INT4 = 29,
};
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT16;
  bool isTrans = false;
  bool set = false;
};

inline int32_t SimnpuBitsOf(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32:
      return 32;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_INT16:
    case DataType::DT_UINT16:
      return 16;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
      return 8;
    case DataType::DT_INT4:
      return 4;
    default:
      return 0;
  }
}

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() = default;
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) {
    uint64_t v = 0;
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, v);
    if (v != 0) l1_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, v);
    if (v != 0) l0a_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, v);
    if (v != 0) l0b_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, v);
    if (v != 0) l0c_ = static_cast<int64_t>(v);
    p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, v);
    if (v != 0) ub_ = static_cast<int64_t>(v);
    cores_ = static_cast<int32_t>(p.GetCoreNumAic());
  }
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    a_ = MatTilingType{pos, type, dataType, isTrans, true};
    return 0;
  }
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
    b_ = MatTilingType{pos, type, dataType, isTrans, true};
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
    c_ = MatTilingType{pos, type, dataType, false, true};
    return 0;
  }
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
    bias_ = MatTilingType{pos, type, dataType, false, true};
    return 0;
  }
  int32_t SetShape(int32_t m, int32_t n, int32_t k) {
    if (m <= 0 || n <= 0 || k <= 0) return -1;
    m_ = m;
    n_ = n;
    k_ = k;
    return 0;
  }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) { return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn); }
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
    if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
    orgM_ = orgMIn;
    orgN_ = orgNIn;
    orgKa_ = orgKaIn;
    orgKb_ = orgKbIn;
    return 0;
  }
  int32_t SetBias(bool isBiasIn = false) {
    isBias_ = isBiasIn;
    return 0;
  }
  int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
    if (l1Size > 0) l1_ = l1Size;
    if (l0CSize > 0) l0c_ = l0CSize;
    if (ubSize > 0) ub_ = ubSize;
    (void)btSize;
    return 0;
  }
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
    fixM_ = baseMIn;
    fixN_ = baseNIn;
    fixK_ = baseKIn;
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
    (void)a, (void)b, (void)c, (void)bias, (void)transND2NZ, (void)transNZ2ND;
    return 0;
  }

  // Batch matmul: the NORMAL (BMNK) layout's batch counts and shape, or the
  // axes of the BSNGD/SBNGD/BNGS1S2 layouts, and the batch count of one
  // IterateBatch (BatchNum; default the larger of batchA, batchB).
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
    if (batchA <= 0 || batchB <= 0 || SetShape(m, n, k) != 0) return -1;
    aLayout_[0] = batchA;
    bLayout_[0] = batchB;
    cLayout_[0] = std::max(batchA, batchB);
    return 0;
  }
  int32_t SetBatchNum(int32_t batch) {
    if (batch <= 0) return -1;
    batchNum_ = batch;
    return 0;
  }
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return SetLayout(aLayout_, b, s, n, g, d); }
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return SetLayout(bLayout_, b, s, n, g, d); }
  int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) { return SetLayout(cLayout_, b, s1, n, g, s2); }

  int64_t GetTiling(::TCubeTiling& t) {
    if (Compute() != 0) return -1;
    t = result_;
    return 0;
  }
  int64_t GetTiling(optiling::TCubeTiling& t);

  // the last tiling computed (model helper for the host form)
  const ::TCubeTiling& SimnpuResult() const { return result_; }

 protected:
  virtual int32_t Split(int32_t& sm, int32_t& sn, int32_t& sk, int32_t& used) = 0;

  static int32_t Align(int32_t v, int32_t a) { return (v + a - 1) / a * a; }
  static int32_t CeilDiv(int32_t v, int32_t a) { return (v + a - 1) / a; }

  int32_t Fail(const char* why) {
    std::fprintf(stderr, "[ERROR] matmul_tiling: %s\n", why);
    return -1;
  }

  int32_t Compute() {
    if (m_ <= 0 || n_ <= 0 || k_ <= 0) return Fail("SetShape was not called with positive M, N, K");
    if (!a_.set || !b_.set || !c_.set) return Fail("SetAType, SetBType and SetCType must be called first");
    const int32_t bits = SimnpuBitsOf(a_.dataType);
    if (bits == 0 || SimnpuBitsOf(b_.dataType) == 0) return Fail("unsupported A/B data type");
    const int32_t orgM = orgM_ > 0 ? orgM_ : m_;
    const int32_t orgN = orgN_ > 0 ? orgN_ : n_;
    const int32_t orgKa = orgKa_ > 0 ? orgKa_ : k_;
    const int32_t orgKb = orgKb_ > 0 ? orgKb_ : k_;
    int32_t sm = m_, sn = n_, sk = k_, used = 1;
    if (Split(sm, sn, sk, used) != 0) return -1;
    const int32_t c0 = 256 / bits;  // elements in 32 bytes
    const int32_t inBytes2 = bits;  // bytes x 8 of one element
    int32_t baseM = fixM_ > 0 ? fixM_ : std::min(128, Align(sm, 16));
    int32_t baseN = fixN_ > 0 ? fixN_ : std::min(128, Align(sn, 16));
    int32_t baseK = fixK_ > 0 ? fixK_ : std::min(c0 * 4, Align(sk, c0));
    // fit L0A/L0B (double-buffered) and L0C (4-byte accumulators)
    while (static_cast<int64_t>(baseM) * baseK * inBytes2 / 8 > l0a_ / 2 && baseK > c0) baseK -= c0;
    while (static_cast<int64_t>(baseN) * baseK * inBytes2 / 8 > l0b_ / 2 && baseK > c0) baseK -= c0;
    while (static_cast<int64_t>(baseM) * baseN * 4 > l0c_ && baseN > 16) baseN -= 16;
    if (static_cast<int64_t>(baseM) * baseK * inBytes2 / 8 > l0a_ || static_cast<int64_t>(baseN) * baseK * inBytes2 / 8 > l0b_ ||
        static_cast<int64_t>(baseM) * baseN * 4 > l0c_) {
      return Fail("the base block does not fit the L0 buffers");
    }
    const int64_t kTiles = CeilDiv(sk, baseK);
    int32_t stepK = static_cast<int32_t>(std::max<int64_t>(1, std::min<int64_t>(kTiles, (l1_ / 4) / (static_cast<int64_t>(baseM) * baseK * inBytes2 / 8))));
    ::TCubeTiling& t = result_;
    t = ::TCubeTiling{};
    t.usedCoreNum = used;
    t.M = orgM;
    t.N = orgN;
    t.Ka = orgKa;
    t.Kb = orgKb;
    t.singleCoreM = sm;
    t.singleCoreN = sn;
    t.singleCoreK = sk;
    t.baseM = baseM;
    t.baseN = baseN;
    t.baseK = baseK;
    t.stepM = 1;
    t.stepN = 1;
    t.stepKa = stepK;
    t.stepKb = stepK;
    t.depthA1 = stepK * 2;
    t.depthB1 = stepK * 2;
    t.isBias = isBias_ ? 1 : 0;
    t.transLength = 0;
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
    t.shareMode = 0;
    t.shareL1Size = static_cast<int32_t>(l1_);
    t.shareL0CSize = static_cast<int32_t>(l0c_);
    t.shareUbSize = 0;
    t.batchM = 1;
    t.batchN = 1;
    t.singleBatchM = 1;
    t.singleBatchN = 1;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = static_cast<int64_t>(baseM) * baseN * 4 * 2 <= l0c_ ? 2 : 1;
    t.ALayoutInfoB = aLayout_[0];
    t.ALayoutInfoS = aLayout_[1];
    t.ALayoutInfoN = aLayout_[2];
    t.ALayoutInfoG = aLayout_[3];
    t.ALayoutInfoD = aLayout_[4];
    t.BLayoutInfoB = bLayout_[0];
    t.BLayoutInfoS = bLayout_[1];
    t.BLayoutInfoN = bLayout_[2];
    t.BLayoutInfoG = bLayout_[3];
    t.BLayoutInfoD = bLayout_[4];
    t.CLayoutInfoB = cLayout_[0];
    t.CLayoutInfoS1 = cLayout_[1];
    t.CLayoutInfoN = cLayout_[2];
    t.CLayoutInfoG = cLayout_[3];
    t.CLayoutInfoS2 = cLayout_[4];
    t.BatchNum = batchNum_ > 0 ? batchNum_ : std::max(1, std::max(aLayout_[0], bLayout_[0]));
    return 0;
  }

  static int32_t SetLayout(int32_t* dst, int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    if (b <= 0 || s <= 0 || n <= 0 || g <= 0 || d <= 0) return -1;
    dst[0] = b;
    dst[1] = s;
    dst[2] = n;
    dst[3] = g;
    dst[4] = d;
    return 0;
  }

  MatTilingType a_, b_, c_, bias_;
  int32_t m_ = 0, n_ = 0, k_ = 0;
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
  bool isBias_ = false;
  int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  int64_t l1_ = 524288, l0a_ = 65536, l0b_ = 65536, l0c_ = 131072, ub_ = 196608;
  int32_t cores_ = 24;
  int32_t aLayout_[5] = {1, 1, 1, 1, 1}, bLayout_[5] = {1, 1, 1, 1, 1}, cLayout_[5] = {1, 1, 1, 1, 1};  // B, S, N, G, D
  int32_t batchNum_ = 0;
  ::TCubeTiling result_{};
};

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() = default;
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}

 protected:
  int32_t Split(int32_t& sm, int32_t& sn, int32_t& sk, int32_t& used) override {
    sm = m_;
    sn = n_;
    sk = k_;
    used = 1;
    return 0;
  }
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() = default;
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}

  int32_t SetDim(int32_t dim) {
    if (dim <= 0) return -1;
    dim_ = dim;
    return 0;
  }
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
    singleM_ = singleMIn;
    singleN_ = singleNIn;
    singleK_ = singleKIn;
    return 0;
  }
  int32_t SetSplitK(bool splitK) {
    splitK_ = splitK;
    return 0;
  }
  int32_t EnableMultiCoreSplitK(bool splitK) { return SetSplitK(splitK); }
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
    shapeM = result_.singleCoreM;
    shapeN = result_.singleCoreN;
    shapeK = result_.singleCoreK;
    return 0;
  }
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
    dim = result_.usedCoreNum;
    mDim = mDim_;
    nDim = nDim_;
    return 0;
  }

 protected:
  int32_t Split(int32_t& sm, int32_t& sn, int32_t& sk, int32_t& used) override {
    const int32_t dim = dim_ > 0 ? dim_ : cores_;
    if (singleM_ > 0 || singleN_ > 0 || singleK_ > 0) {
      sm = singleM_ > 0 ? singleM_ : m_;
      sn = singleN_ > 0 ? singleN_ : n_;
      sk = singleK_ > 0 ? singleK_ : k_;
      mDim_ = CeilDiv(m_, sm);
      nDim_ = CeilDiv(n_, sn);
      used = mDim_ * nDim_ * CeilDiv(k_, sk);
      if (used > dim) return Fail("SetSingleShape needs more cores than SetDim gives");
      return 0;
    }
    int32_t bestM = 1, bestN = 1, bestUsed = 0;
    double bestRatio = 0;
    for (int32_t md = 1; md <= dim; ++md) {
      for (int32_t nd = 1; md * nd <= dim; ++nd) {
        const int32_t tm = Align(CeilDiv(m_, md), 16);
        const int32_t tn = Align(CeilDiv(n_, nd), 16);
        const int32_t u = CeilDiv(m_, tm) * CeilDiv(n_, tn);
        const double ratio = static_cast<double>(std::min(tm, tn)) / std::max(tm, tn);
        if (u > bestUsed || (u == bestUsed && ratio > bestRatio)) {
          bestUsed = u;
          bestRatio = ratio;
          bestM = md;
          bestN = nd;
        }
      }
    }
    sm = Align(CeilDiv(m_, bestM), 16);
    sn = Align(CeilDiv(n_, bestN), 16);
    if (sm > m_) sm = m_;
    if (sn > n_) sn = n_;
    mDim_ = CeilDiv(m_, sm);
    nDim_ = CeilDiv(n_, sn);
    used = mDim_ * nDim_;
    sk = k_;
    if (splitK_) {
      const int32_t kd = std::max(1, dim / used);
      sk = Align(CeilDiv(k_, kd), 256 / SimnpuBitsOf(a_.dataType));
      used *= CeilDiv(k_, sk);
    }
    return 0;
  }

  int32_t dim_ = 0;
  int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1;
  bool splitK_ = false;
  int32_t mDim_ = 1, nDim_ = 1;
};

inline int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& t) {
  if (Compute() != 0) return -1;
#define SIMNPU_MM_SET_F(type, name) t.set_##name(result_.name);
#define SIMNPU_MM_SET_A(type, count, name)
#define SIMNPU_MM_SET_S(stype, name)
  SIMNPU_TCUBE_TILING_FIELDS(SIMNPU_MM_SET_F, SIMNPU_MM_SET_A, SIMNPU_MM_SET_S)
#undef SIMNPU_MM_SET_F
#undef SIMNPU_MM_SET_A
#undef SIMNPU_MM_SET_S
  return 0;
}

}  // namespace matmul_tiling

#endif  // SIMNPU_TILING_MATMUL_MATMUL_TILING_H_
