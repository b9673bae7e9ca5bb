// simnpu Ascend C model: the Matmul high-level API (lib/matmul_intf.h).
//
// Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG> computes one core's
// C[singleM x singleN] = A[singleM x singleK] x B[singleK x singleN] (+ bias)
// in base blocks of baseM x baseN (TCubeTiling), reading A and B from global
// memory or local buffers in ND (optionally transposed) or NZ format, and
// writing C to global memory or a local buffer (ND or NZ). The arithmetic is
// Mmad's (cube_gemm.h): bias or 0, then the products in ascending k, each
// rounded to fp32 (int32 for int8/int4), so results equal the basic-API
// kernels' bit for bit whatever the base block and step sizes.
//
// All configurations (CFG_NORM, CFG_MDL, CFG_IBSHARE_NORM, basic-block and
// special configs) compute the same; they differ on the NPU in how data is
// staged in L1/L0, which the model does not time. A basic-block config's
// basicM/basicN replace the tiling's baseM/baseN. Iterate order follows
// tiling.iterateOrder (0: M first) unless the config sets one.
//
// MIX kernels: the AIC of a MIX block is the Matmul server on the NPU; in
// the model each AIV computes its own Matmul calls, so REGIST_MATMUL_OBJ
// ends the AIC's part of the kernel (as the server loop does). State is per
// object (per core); the atomic-add output (enAtomic = 1) of several cores
// to one C is serialised by one lock per image.
#ifndef SIMNPU_ASCENDC_LIB_MATMUL_INTF_H_
#define SIMNPU_ASCENDC_LIB_MATMUL_INTF_H_

#include <vector>

#include "kernel_operator.h"

namespace AscendC {

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
};

struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t stepM = 0;
  uint32_t stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
};

constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false) {
  MatmulConfig c{};
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false) {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}
constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false, bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.doMultiDataLoad = false;
  c.doSpecialMDL = true;
  return c;
}
constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c{};
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  return c;
}
constexpr MatmulConfig GetSpecialBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, uint32_t singleCoreM,
                                             uint32_t singleCoreN, uint32_t singleCoreK, uint32_t stepM, uint32_t stepN,
                                             bool intrinsicsLimit = false, bool batchLoop = false,
                                             BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
  c.doBasicBlock = false;
  c.doSpecialBasicBlock = true;
  c.singleCoreM = singleCoreM;
  c.singleCoreN = singleCoreN;
  c.singleCoreK = singleCoreK;
  c.stepM = stepM;
  c.stepN = stepN;
  return c;
}
constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                            BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isDoubleCache = false,
                                            bool enUnitFlag = true) {
  MatmulConfig c{};
  c.doIBShareNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};

// The system workspace (the library APIs' GM scratch). The model's Matmul
// needs none; kernels pass it to REGIST_MATMUL_OBJ as on the NPU.
namespace simnpu_mm {
SIMNPU_ASCENDC_HIDDEN inline thread_local __gm__ uint8_t* tls_sys_workspace = nullptr;
SIMNPU_ASCENDC_HIDDEN inline std::mutex& AtomicOutLock() {
  static std::mutex mu;
  return mu;
}
}  // namespace simnpu_mm
inline void SetSysWorkspace(GM_ADDR workspace) { simnpu_mm::tls_sys_workspace = workspace; }
inline __gm__ uint8_t* GetSysWorkSpacePtr() { return simnpu_mm::tls_sys_workspace; }

namespace simnpu_mm {

namespace d = ::simnpu::ascendc::detail;

// One input matrix: where it is, its format, and how to read a tile.
template <typename T, CubeFormat F>
struct Operand {
  const T* base = nullptr;
  bool gm = true;
  bool trans = false;
  bool scalar = false;
  T value{};

  // Copies rows [r0, r0+nr) x cols [c0, c0+nc) of the logical (untransposed)
  // matrix into dense row-major out. rows/cols: the org shape in storage
  // order (stored rows x stored cols, i.e. transposed when trans).
  void Fetch(std::vector<T>& out, int r0, int nr, int c0, int nc, int ld, int storedRows, const ::simnpu::ascendc::SrcLoc& loc) const {
    out.assign(static_cast<size_t>(nr) * nc, T{});
    if (scalar) {
      for (T& v : out) v = value;
      return;
    }
    auto read = [&](T* dst, const T* src, size_t n) {
      if (gm) {
        d::GmRead(dst, src, n * sizeof(T), loc);
      } else {
        std::memcpy(dst, src, n * sizeof(T));
      }
    };
    if constexpr (F == CubeFormat::NZ) {
      // stored matrix in NZ: (sr, sc) at (sc / c0) * align16(storedRows) * c0 + sr * c0 + sc % c0
      constexpr int kC0 = static_cast<int>(32 / sizeof(T));
      const int rowsA = (storedRows + 15) / 16 * 16;
      for (int i = 0; i < nr; ++i) {
        for (int j = 0; j < nc; ++j) {
          const int sr = trans ? c0 + j : r0 + i;
          const int sc = trans ? r0 + i : c0 + j;
          read(&out[static_cast<size_t>(i) * nc + j], base + static_cast<size_t>(sc / kC0) * rowsA * kC0 + static_cast<size_t>(sr) * kC0 + sc % kC0, 1);
        }
      }
    } else {
      if (!trans) {
        for (int i = 0; i < nr; ++i) read(&out[static_cast<size_t>(i) * nc], base + static_cast<size_t>(r0 + i) * ld + c0, nc);
      } else {
        // stored transposed: stored row = logical col
        std::vector<T> row(nr);
        for (int j = 0; j < nc; ++j) {
          read(row.data(), base + static_cast<size_t>(c0 + j) * ld + r0, nr);
          for (int i = 0; i < nr; ++i) out[static_cast<size_t>(i) * nc + j] = row[i];
        }
      }
    }
  }
};

template <typename T>
constexpr bool kIntIn = std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value || std::is_same<T, int4b_t>::value;

}  // namespace simnpu_mm

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>, class... POLICY>
class Matmul {
 public:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = typename std::conditional<simnpu_mm::kIntIn<SrcAT>, int32_t, float>::type;
  static_assert(!std::is_same<SrcAT, int4b_t>::value, "Matmul: int4b_t inputs are not modelled by the Matmul API (use Mmad)");
  // A half x B int8 is the anti-quantised form: B becomes half on its way in.
  static constexpr bool kAntiQuant = std::is_same<SrcAT, half>::value && std::is_same<SrcBT, int8_t>::value;
  static_assert(kAntiQuant || simnpu_mm::kIntIn<SrcAT> == simnpu_mm::kIntIn<SrcBT>,
                "Matmul: A and B are both integer or both floating-point (or A half and B int8_t, anti-quantised)");

  Matmul() = default;

  void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, SIMNPU_ASCENDC_LOC_PARAM) {
    (void)tpipe;
    if (cubeTiling == nullptr) ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::Init: the tiling is null");
    tiling_ = *cubeTiling;
    if (tiling_.baseM <= 0 || tiling_.baseN <= 0 || tiling_.singleCoreM <= 0 || tiling_.singleCoreN <= 0 ||
        tiling_.singleCoreK <= 0) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc,
                                           "Matmul::Init: the tiling has no shape (baseM %d, baseN %d, singleCoreM %d, "
                                           "singleCoreN %d, singleCoreK %d): was GetTiling successful?",
                                           tiling_.baseM, tiling_.baseN, tiling_.singleCoreM, tiling_.singleCoreN,
                                           tiling_.singleCoreK);
    }
    if constexpr (MM_CFG.doBasicBlock || MM_CFG.doSpecialBasicBlock) {
      if (MM_CFG.basicM != 0) tiling_.baseM = static_cast<int32_t>(MM_CFG.basicM);
      if (MM_CFG.basicN != 0) tiling_.baseN = static_cast<int32_t>(MM_CFG.basicN);
    }
    orgM_ = tiling_.M;
    orgN_ = tiling_.N;
    orgKa_ = tiling_.Ka;
    orgKb_ = tiling_.Kb;
    orgKc_ = tiling_.N;
    singleM_ = tiling_.singleCoreM;
    singleN_ = tiling_.singleCoreN;
    singleK_ = tiling_.singleCoreK;
    hasBias_ = tiling_.isBias != 0;
    inited_ = true;
    ResetIter();
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb;
    orgKc_ = orgKc != 0 ? orgKc : orgN;
  }
  void SetSingleShape(int singleM, int singleN, int singleK) {
    singleM_ = singleM;
    singleN_ = singleN;
    singleK_ = singleK;
    ResetIter();
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    if (tailM > 0) singleM_ = tailM;
    if (tailN > 0) singleN_ = tailN;
    if (tailK > 0) singleK_ = tailK;
    ResetIter();
  }

  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    a_.base = gm.GetPhyAddr();
    a_.gm = true;
    a_.trans = isTransposeA;
    a_.scalar = false;
    ResetIter();
  }
  void SetTensorA(const LocalTensor<SrcAT>& t, bool isTransposeA = false) {
    a_.base = t.GetPhyAddr();
    a_.gm = false;
    a_.trans = isTransposeA;
    a_.scalar = false;
    ResetIter();
  }
  void SetTensorA(SrcAT aScalar) {
    a_.scalar = true;
    a_.value = aScalar;
    ResetIter();
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    b_.base = gm.GetPhyAddr();
    b_.gm = true;
    b_.trans = isTransposeB;
    b_.scalar = false;
    ResetIter();
  }
  void SetTensorB(const LocalTensor<SrcBT>& t, bool isTransposeB = false) {
    b_.base = t.GetPhyAddr();
    b_.gm = false;
    b_.trans = isTransposeB;
    b_.scalar = false;
    ResetIter();
  }
  void SetTensorB(SrcBT bScalar) {
    b_.scalar = true;
    b_.value = bScalar;
    ResetIter();
  }
  void SetBias(const GlobalTensor<BiasT>& gm) {
    bias_ = gm.GetPhyAddr();
    biasGm_ = true;
    hasBias_ = true;
  }
  void SetBias(const LocalTensor<BiasT>& t) {
    bias_ = t.GetPhyAddr();
    biasGm_ = false;
    hasBias_ = true;
  }
  void DisableBias() { hasBias_ = false; }
  void ClearBias() { hasBias_ = false; }
  void SetQuantScalar(const uint64_t quantScalar) { quantScalar_ = quantScalar; }
  void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) { quantVec_ = quantTensor.GetPhyAddr(); }
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
    (void)transMode;
    hf32_ = enableHF32;
  }
  // The GM cache of the asynchronous Iterate<false> results. The model keeps
  // the blocks itself; the space is checked to hold singleM x singleN of C.
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    workspace_ = addr != nullptr;
    workspaceBytes_ = size > 0 ? static_cast<uint64_t>(size) * sizeof(T) : 0;
  }
  template <class T>
  void SetWorkspace(GlobalTensor<T>& addr) {
    workspace_ = addr.GetPhyAddr() != nullptr;
    workspaceBytes_ = static_cast<uint64_t>(addr.GetSize()) * sizeof(T);
  }

  // Anti-quantisation of an int8 B (A half): each element becomes
  // half(half(b + offset) * scale), with one offset/scale for all of B or one
  // per column of this core's C (vectors of singleN elements).
  void SetAntiQuantScalar(const SrcAT offsetScalar, const SrcAT scaleScalar) {
    static_assert(kAntiQuant, "Matmul::SetAntiQuantScalar: A is half and B int8_t");
    aqOffset_ = offsetScalar;
    aqScale_ = scaleScalar;
    aqOffVec_ = aqScaleVec_ = nullptr;
  }
  void SetAntiQuantVector(const LocalTensor<SrcAT>& offsetTensor, const LocalTensor<SrcAT>& scaleTensor) {
    static_assert(kAntiQuant, "Matmul::SetAntiQuantVector: A is half and B int8_t");
    aqOffVec_ = offsetTensor.GetPhyAddr();
    aqScaleVec_ = scaleTensor.GetPhyAddr();
    aqVecLen_ = offsetTensor.GetSize() < scaleTensor.GetSize() ? offsetTensor.GetSize() : scaleTensor.GetSize();
  }

  // Batch counts for the IterateBatch form without them.
  void SetBatchNum(int32_t batchA, int32_t batchB) {
    batchA_ = batchA;
    batchB_ = batchB;
  }
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) { (void)tmpBuffer; }
  void SetSubBlockIdx(uint8_t subBlockIdx) { (void)subBlockIdx; }

  // Computes the next baseM x baseN block of C; false after the last one.
  // Synchronous: computes the next baseM x baseN block of C; false after the
  // last one. Asynchronous (Iterate<false>): computes every remaining block
  // at once into the workspace (SetWorkspace first); each GetTensorC<false>
  // then takes the next block in iterate order.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false, SIMNPU_ASCENDC_LOC_PARAM) {
    Require(simnpuLoc, "Iterate");
    if constexpr (!sync) {
      if (!workspace_) {
        ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::Iterate<false>: SetWorkspace must be called first (the asynchronous results are cached there)");
      }
      const uint64_t need = static_cast<uint64_t>(singleM_) * singleN_ * sizeof(DstT);
      if (workspaceBytes_ != 0 && workspaceBytes_ < need) {
        ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::Iterate<false>: the workspace has %llu bytes; %d x %d results need %llu",
                                             static_cast<unsigned long long>(workspaceBytes_), singleM_, singleN_,
                                             static_cast<unsigned long long>(need));
      }
      bool any = false;
      while (Iterate<true>(enPartialSum, simnpuLoc)) {
        async_.push_back(AsyncBlock{curM_, curN_, ldc16_, std::move(c_)});
        any = true;
      }
      return any;
    }
    const int mIter = CeilDiv(singleM_, tiling_.baseM);
    const int nIter = CeilDiv(singleN_, tiling_.baseN);
    if (iter_ >= mIter * nIter) return false;
    const bool orderN = MM_CFG.iterateOrder == IterateOrder::ORDER_N ||
                        (MM_CFG.iterateOrder == IterateOrder::UNDEF && tiling_.iterateOrder == 1);
    curM_ = orderN ? iter_ / nIter : iter_ % mIter;
    curN_ = orderN ? iter_ % nIter : iter_ / mIter;
    ++iter_;
    ComputeBlock(curM_, curN_, enPartialSum, simnpuLoc);
    return true;
  }

  // The current block to GM, at its place in C (or packed block after block
  // with enSequentialWrite); enAtomic 1 adds it to what C holds.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  SIMNPU_ASCENDC_LOC_PARAM) {
    Require(simnpuLoc, "GetTensorC");
    if constexpr (!sync) NextAsync(simnpuLoc);
    WriteBlockGm(gm.GetPhyAddr(), enAtomic, enSequentialWrite, simnpuLoc);
  }
  // The current block to a local buffer (VECIN/UB or L1), dense baseM x baseN (ND) or NZ.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  SIMNPU_ASCENDC_LOC_PARAM) {
    (void)enSequentialWrite;
    Require(simnpuLoc, "GetTensorC");
    if constexpr (!sync) NextAsync(simnpuLoc);
    const int bm = BlockRows(), bn = BlockCols();
    const uint64_t need = C_TYPE::format == CubeFormat::NZ
                              ? static_cast<uint64_t>(CeilDiv(bn, 16)) * Align(bm, 16) * 16
                              : static_cast<uint64_t>(bm) * Align(bn, static_cast<int>(32 / sizeof(DstT)));
    if (need > c.GetSize()) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::GetTensorC: the %d x %d block needs %llu elements; the LocalTensor has %u",
                                           bm, bn, static_cast<unsigned long long>(need), c.GetSize());
    }
    DstT* out = c.GetPhyAddr();
    const int ld = Align(bn, static_cast<int>(32 / sizeof(DstT)));
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) {
        const size_t idx = C_TYPE::format == CubeFormat::NZ
                               ? static_cast<size_t>(j / 16) * Align(bm, 16) * 16 + static_cast<size_t>(i) * 16 + j % 16
                               : static_cast<size_t>(i) * ld + j;
        const DstT v = Convert(At(i, j), j);
        out[idx] = enAtomic == 1 ? Add(out[idx], v) : v;
      }
    }
  }

  // Every block of this core's C to GM.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                  bool waitIterateAll = false, bool fakeMsg = false, SIMNPU_ASCENDC_LOC_PARAM) {
    (void)waitIterateAll, (void)fakeMsg;
    // asynchronous or not, the result is complete when WaitIterateAll returns
    while (Iterate<true>(false, simnpuLoc)) GetTensorC<true>(gm, enAtomic, enSequentialWrite, simnpuLoc);
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0, SIMNPU_ASCENDC_LOC_PARAM) {
    // the whole singleM x singleN result, ND with singleN columns
    Require(simnpuLoc, "IterateAll");
    DstT* out = ubCmatrix.GetPhyAddr();
    if (static_cast<uint64_t>(singleM_) * singleN_ > ubCmatrix.GetSize()) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::IterateAll: %d x %d results do not fit the LocalTensor (%u elements)",
                                           singleM_, singleN_, ubCmatrix.GetSize());
    }
    while (Iterate<true>(false, simnpuLoc)) {
      for (int i = 0; i < BlockRows(); ++i) {
        for (int j = 0; j < BlockCols(); ++j) {
          const size_t idx = static_cast<size_t>(curM_ * tiling_.baseM + i) * singleN_ + curN_ * tiling_.baseN + j;
          const DstT v = Convert(At(i, j), curN_ * tiling_.baseN + j);
          out[idx] = enAtomic == 1 ? Add(out[idx], v) : v;
        }
      }
    }
  }
  void WaitIterateAll() {}
  void WaitIterateBatch() {}

  // Batch matmul of the NORMAL (BMNK) layout: batch i multiplies A matrix
  // i * batchA / batches by B matrix i * batchB / batches (batches =
  // max(batchA, batchB), the smaller count dividing it: broadcast), each
  // a full singleM x singleN x singleK product; matrices are matrixStrideA/B/C
  // elements apart (0: orgM x orgKa, orgKb x orgN, orgM x orgN), the bias one
  // row of orgN per batch (isBiasBatch) or shared. C to GM at its batch
  // place, to a local buffer as dense singleM x singleN ND matrices.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0, SIMNPU_ASCENDC_LOC_PARAM) {
    (void)enPartialSum;
    const uint64_t strideC = matrixStrideC != 0 ? matrixStrideC : static_cast<uint64_t>(orgM_) * orgKc_;
    RunBatch(batchA, batchB, matrixStrideA, matrixStrideB, simnpuLoc, [&](uint32_t i) {
      while (Iterate<true>(false, simnpuLoc)) WriteBlockGm(gm.GetPhyAddr() + i * strideC, enAtomic, enSequentialWrite, simnpuLoc);
    });
  }
  template <bool sync = true>
  void IterateBatch(const LocalTensor<DstT>& ubCmatrix, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0, SIMNPU_ASCENDC_LOC_PARAM) {
    (void)enPartialSum, (void)enSequentialWrite;
    const uint64_t one = static_cast<uint64_t>(singleM_) * singleN_;
    const uint64_t strideC = matrixStrideC != 0 ? matrixStrideC : one;
    const uint32_t batches = batchA > batchB ? batchA : batchB;
    if (batches != 0 && (batches - 1) * strideC + one > ubCmatrix.GetSize()) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "Matmul::IterateBatch: %u batches of %d x %d results do not fit the LocalTensor (%u elements)",
                                           batches, singleM_, singleN_, ubCmatrix.GetSize());
    }
    RunBatch(batchA, batchB, matrixStrideA, matrixStrideB, simnpuLoc, [&](uint32_t i) {
      DstT* out = ubCmatrix.GetPhyAddr() + i * strideC;
      while (Iterate<true>(false, simnpuLoc)) {
        for (int r = 0; r < BlockRows(); ++r) {
          for (int j = 0; j < BlockCols(); ++j) {
            const size_t idx = static_cast<size_t>(curM_ * tiling_.baseM + r) * singleN_ + curN_ * tiling_.baseN + j;
            const DstT v = Convert(At(r, j), curN_ * tiling_.baseN + j);
            out[idx] = enAtomic == 1 ? Add(out[idx], v) : v;
          }
        }
      }
    });
  }
  // The forms with the counts of SetBatchNum.
  void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    SIMNPU_ASCENDC_LOC_PARAM) {
    IterateBatch<true, false>(gm, static_cast<uint32_t>(batchA_), static_cast<uint32_t>(batchB_), enSequentialWrite, matrixStrideA,
                              matrixStrideB, matrixStrideC, enPartialSum, enAtomic, simnpuLoc);
  }
  void IterateBatch(const LocalTensor<DstT>& ubCmatrix, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                    SIMNPU_ASCENDC_LOC_PARAM) {
    IterateBatch<true>(ubCmatrix, static_cast<uint32_t>(batchA_), static_cast<uint32_t>(batchB_), enSequentialWrite, matrixStrideA,
                       matrixStrideB, matrixStrideC, enPartialSum, enAtomic, simnpuLoc);
  }
  template <bool sync = true>
  void WaitGetTensorC() {}
  void End() {
    inited_ = false;
  }

 private:
  static int CeilDiv(int a, int b) { return (a + b - 1) / b; }
  static int Align(int a, int b) { return CeilDiv(a, b) * b; }
  void ResetIter() {
    iter_ = 0;
    async_.clear();
  }

  struct AsyncBlock {
    int m, n;
    size_t ldc16;
    std::vector<L0cT> c;
  };
  void NextAsync(const ::simnpu::ascendc::SrcLoc& loc) {
    if (async_.empty()) {
      ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::GetTensorC<false>: no asynchronously computed block is left (call Iterate<false> first; it computes %d blocks)",
                                           CeilDiv(singleM_, tiling_.baseM) * CeilDiv(singleN_, tiling_.baseN));
    }
    AsyncBlock& b = async_.front();
    curM_ = b.m;
    curN_ = b.n;
    ldc16_ = b.ldc16;
    c_ = std::move(b.c);
    async_.erase(async_.begin());
  }

  template <class PerBatch>
  void RunBatch(uint32_t batchA, uint32_t batchB, uint32_t strideA, uint32_t strideB, const ::simnpu::ascendc::SrcLoc& loc,
                PerBatch per_batch) {
    Require(loc, "IterateBatch");
    if constexpr (A_TYPE::layout != LayoutMode::NONE && A_TYPE::layout != LayoutMode::NORMAL) {
      ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::IterateBatch: layout %d of A (BSNGD/SBNGD/BNGS1S2) is not modelled; use LayoutMode::NORMAL",
                                           static_cast<int>(A_TYPE::layout));
    }
    if (batchA == 0 || batchB == 0) {
      ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::IterateBatch: batchA %u and batchB %u must be >= 1", batchA, batchB);
    }
    const uint32_t batches = batchA > batchB ? batchA : batchB;
    if (batches % batchA != 0 || batches % batchB != 0) {
      ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::IterateBatch: batchA %u and batchB %u: the smaller must divide the larger (broadcast)",
                                           batchA, batchB);
    }
    if (a_.scalar || b_.scalar) ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::IterateBatch: A and B are tensors");
    const uint64_t sa = strideA != 0 ? strideA : static_cast<uint64_t>(orgM_) * orgKa_;
    const uint64_t sb = strideB != 0 ? strideB : static_cast<uint64_t>(orgKb_) * orgN_;
    const SrcAT* a0 = a_.base;
    const SrcBT* b0 = b_.base;
    const BiasT* bias0 = bias_;
    for (uint32_t i = 0; i < batches; ++i) {
      a_.base = a0 + (static_cast<uint64_t>(i) * batchA / batches) * sa;
      b_.base = b0 + (static_cast<uint64_t>(i) * batchB / batches) * sb;
      if (bias0 != nullptr && MM_CFG.isBiasBatch) bias_ = bias0 + static_cast<uint64_t>(i) * orgN_;
      ResetIter();
      per_batch(i);
    }
    a_.base = a0;
    b_.base = b0;
    bias_ = bias0;
    ResetIter();
  }

  void Require(const ::simnpu::ascendc::SrcLoc& loc, const char* what) const {
    if (!inited_) ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::%s: the object was not initialised (REGIST_MATMUL_OBJ / Init)", what);
    if ((a_.base == nullptr && !a_.scalar) || (b_.base == nullptr && !b_.scalar)) {
      ::simnpu::ascendc::detail::CheckFail(loc, "Matmul::%s: SetTensorA and SetTensorB must be called first", what);
    }
  }
  int BlockRows() const { return singleM_ - curM_ * tiling_.baseM < tiling_.baseM ? singleM_ - curM_ * tiling_.baseM : tiling_.baseM; }
  int BlockCols() const { return singleN_ - curN_ * tiling_.baseN < tiling_.baseN ? singleN_ - curN_ * tiling_.baseN : tiling_.baseN; }
  L0cT At(int i, int j) const { return c_[static_cast<size_t>(j / 16) * ldc16_ + static_cast<size_t>(i) * 16 + j % 16]; }

  static DstT Add(DstT a, DstT b) {
    if constexpr (std::is_same<DstT, half>::value || std::is_same<DstT, bfloat16_t>::value) {
      return DstT(static_cast<float>(a) + static_cast<float>(b));
    } else {
      return static_cast<DstT>(a + b);
    }
  }

  DstT Convert(L0cT v, int col) const {
    if constexpr (std::is_same<DstT, L0cT>::value) {
      return v;
    } else if constexpr (std::is_same<L0cT, int32_t>::value) {
      // dequantisation: the scalar or the per-channel vector (low 32 bits: a float scale)
      uint64_t q = quantScalar_;
      if (quantVec_ != nullptr) {
        ::simnpu::ascendc::detail::GmRead(&q, quantVec_ + col, sizeof q, ::simnpu::ascendc::SrcLoc::Here());
      }
      const float scale = q == 0 ? 1.0f : ::simnpu::ascendc::detail::cube::DeqScale(q);
      const float f = static_cast<float>(static_cast<double>(v) * scale);
      if constexpr (std::is_same<DstT, int8_t>::value || std::is_same<DstT, uint8_t>::value) {
        return ::simnpu::ascendc::detail::cube::Saturate8<DstT>(f);
      } else {
        return static_cast<DstT>(f);
      }
    } else {
      return static_cast<DstT>(v);
    }
  }

  void ComputeBlock(int mi, int ni, bool partial, const ::simnpu::ascendc::SrcLoc& loc) {
    const int bm = BlockRows(), bn = BlockCols();
    const int k = singleK_;
    ldc16_ = static_cast<size_t>(Align(bm, 16)) * 16;
    c_.assign(ldc16_ * CeilDiv(bn, 16), L0cT{});
    (void)partial;
    // initial value: the bias row
    if (hasBias_ && bias_ != nullptr) {
      std::vector<BiasT> b(bn);
      if (biasGm_) {
        ::simnpu::ascendc::detail::GmRead(b.data(), bias_ + ni * tiling_.baseN, bn * sizeof(BiasT), loc);
      } else {
        std::memcpy(b.data(), bias_ + ni * tiling_.baseN, bn * sizeof(BiasT));
      }
      for (int i = 0; i < bm; ++i) {
        for (int j = 0; j < bn; ++j) {
          L0cT v;
          if constexpr (std::is_same<L0cT, int32_t>::value) {
            v = static_cast<int32_t>(b[j]);
          } else {
            v = static_cast<float>(b[j]);
          }
          c_[static_cast<size_t>(j / 16) * ldc16_ + static_cast<size_t>(i) * 16 + j % 16] = v;
        }
      }
    }
    // A tile bm x k, B tile k x bn, from the stored layouts
    const int r0 = mi * tiling_.baseM, c0 = ni * tiling_.baseN;
    a_.Fetch(at_, r0, bm, 0, k, a_.trans ? orgM_ : orgKa_, a_.trans ? orgKa_ : orgM_, loc);
    b_.Fetch(bt_, 0, k, c0, bn, b_.trans ? orgKb_ : orgN_, b_.trans ? orgN_ : orgKb_, loc);
    if constexpr (kAntiQuant) AntiQuant(c0, k, bn, loc);
    const bool prev = ::simnpu::ascendc::detail::cube::tls_hf32;
    ::simnpu::ascendc::detail::cube::tls_hf32 = hf32_ || prev;
    if constexpr (std::is_same<L0cT, float>::value) {
      ::simnpu::ascendc::detail::cube::GemmF32(
          bm, bn, k, [&](int i, int kk) { return ::simnpu::ascendc::detail::cube::ToF(at_[static_cast<size_t>(i) * k + kk]); },
          [&](int kk, int j) {
            if constexpr (kAntiQuant) {
              return btq_[static_cast<size_t>(kk) * bn + j];
            } else {
              return ::simnpu::ascendc::detail::cube::ToF(bt_[static_cast<size_t>(kk) * bn + j]);
            }
          },
          c_.data(), ldc16_);
    } else {
      ::simnpu::ascendc::detail::cube::GemmI32(
          bm, bn, k, [&](int i, int kk) { return static_cast<int32_t>(at_[static_cast<size_t>(i) * k + kk]); },
          [&](int kk, int j) { return static_cast<int32_t>(bt_[static_cast<size_t>(kk) * bn + j]); }, c_.data(), ldc16_);
    }
    ::simnpu::ascendc::detail::cube::tls_hf32 = prev;
  }

  // B tile (k x bn from column col0 of this core's C) -> half values.
  void AntiQuant(int col0, int k, int bn, const ::simnpu::ascendc::SrcLoc& loc) {
    btq_.resize(static_cast<size_t>(k) * bn);
    for (int j = 0; j < bn; ++j) {
      SrcAT off = aqOffset_, sc = aqScale_;
      if (aqOffVec_ != nullptr) {
        if (static_cast<uint32_t>(col0 + j) >= aqVecLen_) {
          ::simnpu::ascendc::detail::CheckFail(loc, "Matmul: column %d needs an anti-quantisation parameter but the vectors have %u elements",
                                               col0 + j, aqVecLen_);
        }
        off = aqOffVec_[col0 + j];
        sc = aqScaleVec_[col0 + j];
      }
      for (int kk = 0; kk < k; ++kk) {
        const size_t i = static_cast<size_t>(kk) * bn + j;
        const half h(static_cast<float>(bt_[i]) + static_cast<float>(off));
        btq_[i] = static_cast<float>(half(static_cast<float>(h) * static_cast<float>(sc)));
      }
    }
  }

  void WriteBlockGm(DstT* g, uint8_t enAtomic, bool sequential, const ::simnpu::ascendc::SrcLoc& loc) {
    namespace dd = ::simnpu::ascendc::detail;
    const int bm = BlockRows(), bn = BlockCols();
    std::vector<DstT> row(bn);
    std::unique_lock<std::mutex> lk(simnpu_mm::AtomicOutLock(), std::defer_lock);
    if (enAtomic == 1) lk.lock();
    for (int i = 0; i < bm; ++i) {
      for (int j = 0; j < bn; ++j) row[j] = Convert(At(i, j), curN_ * tiling_.baseN + j);
      if constexpr (C_TYPE::format == CubeFormat::NZ) {
        // C in NZ over the org shape: (r, c) at (c / 16) * align16(orgM) * 16 + r * 16 + c % 16
        const int rowsA = Align(orgM_, 16);
        for (int j = 0; j < bn; ++j) {
          const int r = curM_ * tiling_.baseM + i, c = curN_ * tiling_.baseN + j;
          DstT* p = g + static_cast<size_t>(c / 16) * rowsA * 16 + static_cast<size_t>(r) * 16 + c % 16;
          DstT v = row[j];
          if (enAtomic == 1) {
            DstT old;
            dd::GmRead(&old, p, sizeof old, loc);
            v = Add(old, v);
          }
          dd::GmWrite(p, &v, sizeof v, loc);
        }
      } else {
        DstT* p = sequential ? g + static_cast<size_t>(i) * bn
                             : g + static_cast<size_t>(curM_ * tiling_.baseM + i) * orgKc_ + curN_ * tiling_.baseN;
        if (enAtomic == 1) {
          std::vector<DstT> old(bn);
          dd::GmRead(old.data(), p, bn * sizeof(DstT), loc);
          for (int j = 0; j < bn; ++j) row[j] = Add(old[j], row[j]);
        }
        dd::GmWrite(p, row.data(), bn * sizeof(DstT), loc);
      }
    }
  }

  TCubeTiling tiling_{};
  bool inited_ = false;
  simnpu_mm::Operand<SrcAT, A_TYPE::format> a_;
  simnpu_mm::Operand<SrcBT, B_TYPE::format> b_;
  const BiasT* bias_ = nullptr;
  bool biasGm_ = true;
  bool hasBias_ = false;
  bool hf32_ = false;
  uint64_t quantScalar_ = 0;
  const uint64_t* quantVec_ = nullptr;
  int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
  int singleM_ = 0, singleN_ = 0, singleK_ = 0;
  int iter_ = 0, curM_ = 0, curN_ = 0;
  size_t ldc16_ = 0;
  std::vector<L0cT> c_;
  std::vector<SrcAT> at_;
  std::vector<SrcBT> bt_;
  std::vector<float> btq_;  // anti-quantised B tile
  std::vector<AsyncBlock> async_;  // Iterate<false> results not yet taken
  bool workspace_ = false;
  uint64_t workspaceBytes_ = 0;
  SrcAT aqOffset_ = SrcAT(0.0f), aqScale_ = SrcAT(1.0f);
  const SrcAT* aqOffVec_ = nullptr;
  const SrcAT* aqScaleVec_ = nullptr;
  uint32_t aqVecLen_ = 0;
  int32_t batchA_ = 1, batchB_ = 1;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>, class... POLICY>
using MatmulImpl = Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, POLICY...>;

namespace simnpu_mm {
inline void Regist() {}
template <class MM, class... Rest>
inline void Regist(MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
  mm.Init(tiling);
  Regist(rest...);
}
template <class MM, class... Rest>
inline void Regist(MM& mm, TCubeTiling* tiling, Rest&&... rest) {
  mm.Init(tiling);
  Regist(rest...);
}
template <class MM, class... Rest>
inline void Regist(MM& mm, std::nullptr_t, Rest&&... rest) {
  (void)mm;
  Regist(rest...);
}
template <class W>
inline GM_ADDR AsWorkspace(W w) {
  if constexpr (std::is_same<W, std::nullptr_t>::value) {
    return nullptr;
  } else {
    return (GM_ADDR)(w);
  }
}
// True on the AIC of a MIX block: the AIVs compute the Matmul calls.
inline bool ServerCore() {
  const ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
  return c != nullptr && c->mix_group != nullptr && c->core_type == SIMNPU_KERNEL_AIC;
}
}  // namespace simnpu_mm

}  // namespace AscendC

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...])
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)               \
  if (::AscendC::simnpu_mm::ServerCore()) {                     \
    return;                                                     \
  }                                                             \
  (void)(tpipe);                                                \
  ::AscendC::SetSysWorkspace(::AscendC::simnpu_mm::AsWorkspace(workspace)); \
  ::AscendC::simnpu_mm::Regist(__VA_ARGS__)

#endif  // SIMNPU_ASCENDC_LIB_MATMUL_INTF_H_
