// simnpu Ascend C model: the SoftMax family (ND and NZ formats): SoftMax,
// SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2, SoftmaxGrad,
// SoftmaxGradFront, AdjustSoftMaxRes, and the kernel-side
// SoftMaxFlashV2TilingFunc.
//
// The source [m0, ..., mt, k] is seen as [m, k] rows: m = srcM, k = srcK
// from the SoftMaxShapeInfo when it is given (srcM != 0), else from the
// tiling; a non-zero oriSrcK is the number of real columns (the others are
// padding: left out of max and sum, and dst keeps them as they were). The
// max/sum tensors hold one 32-byte block per row, the row's value repeated
// (8 floats or 16 halves), as the pages' [m, 32 / sizeof(T)] shape says.
//
// Arithmetic: in float, whatever T is (half sources are widened); the row
// max, then e^(x - max) for each element (single-precision expf), their sum
// in column order, then each e^(x - max) / sum, rounded once to T.
//
// The NZ data format (isDataFormatNZ = true; SoftMax, SimpleSoftMax,
// SoftmaxFlashV2, SoftmaxGrad, SoftmaxGradFront, AdjustSoftMaxRes): the
// [m, k] data is stored as 16 x 16 fractals with the column (N) blocks
// outermost, [k / 16, m, 16]: element (r, j) is at (j / 16) * m * 16 +
// r * 16 + j % 16. srcK is the reduce axis W1 * W0 (a multiple of 16), srcM
// the rows H1 * H0 (any count; it is only the column-block stride). The row
// outputs (max, sum, expMax, SoftmaxGrad's isFront result) keep their ND
// [m, 32 / sizeof(U)] blocks. Each row is reduced along the original row, in
// the same order and precision as ND, so an NZ result is the ND result of
// the same data re-laid out, bit for bit.
#ifndef SIMNPU_ASCENDC_ADV_SOFTMAX_H_
#define SIMNPU_ASCENDC_ADV_SOFTMAX_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
  constexpr SoftmaxConfig() = default;
  constexpr SoftmaxConfig(bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}  // NOLINT
  constexpr SoftmaxConfig(bool isCheckTilingIn, uint32_t oriSrcMIn, uint32_t oriSrcKIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  constexpr SoftmaxConfig(bool isCheckTilingIn, uint32_t oriSrcMIn, uint32_t oriSrcKIn, SoftmaxMode modeIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kSoftmaxNzC0 = 16;  // columns (W0) and rows (H0) of an NZ fractal

struct SoftmaxGeom {
  uint32_t m = 0, k = 0, cols = 0;
  bool nz = false;
};

// Element (r, j) of the [m, k] view, in the tensor's layout.
inline size_t SoftmaxAt(const SoftmaxGeom& g, uint32_t r, uint32_t j) {
  if (!g.nz) return static_cast<size_t>(r) * g.k + j;
  return static_cast<size_t>(j / kSoftmaxNzC0) * g.m * kSoftmaxNzC0 + static_cast<size_t>(r) * kSoftmaxNzC0 +
         j % kSoftmaxNzC0;
}

// A row of an input: in ND a pointer into the tensor, in NZ the row's real
// columns gathered into a buffer of its own.
template <typename T>
class SoftmaxRowIn {
 public:
  SoftmaxRowIn(const T* base, const SoftmaxGeom& g) : base_(base), g_(g) {
    if (g.nz) buf_.reset(new T[g.cols]);
  }
  const T* Row(uint32_t r) {
    if (!g_.nz) return base_ + static_cast<size_t>(r) * g_.k;
    for (uint32_t j = 0; j < g_.cols; ++j) buf_[j] = base_[SoftmaxAt(g_, r, j)];
    return buf_.get();
  }

 private:
  const T* base_;
  const SoftmaxGeom& g_;
  std::unique_ptr<T[]> buf_;
};

// A row of an output: Row(r) gives where the real columns go (in NZ a
// buffer, filled from the tensor when load is set) and Done() puts them in
// place; the padding columns are never touched.
template <typename T>
class SoftmaxRowOut {
 public:
  SoftmaxRowOut(T* base, const SoftmaxGeom& g) : base_(base), g_(g) {
    if (g.nz) buf_.reset(new T[g.cols]);
  }
  T* Row(uint32_t r, bool load = false) {
    if (!g_.nz) return base_ + static_cast<size_t>(r) * g_.k;
    row_ = r;
    if (load) {
      for (uint32_t j = 0; j < g_.cols; ++j) buf_[j] = base_[SoftmaxAt(g_, r, j)];
    }
    return buf_.get();
  }
  void Done() {
    if (!g_.nz) return;
    for (uint32_t j = 0; j < g_.cols; ++j) base_[SoftmaxAt(g_, row_, j)] = buf_[j];
  }

 private:
  T* base_;
  const SoftmaxGeom& g_;
  std::unique_ptr<T[]> buf_;
  uint32_t row_ = 0;
};

inline SoftmaxGeom SoftmaxShape(const char* api, const ::SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info,
                                const AscendC::SoftmaxConfig& cfg, const SrcLoc& loc, bool nz = false) {
  SoftmaxGeom g;
  g.nz = nz;
  if (info.srcM != 0 || info.srcK != 0) {
    g.m = info.srcM;
    g.k = info.srcK;
    g.cols = info.oriSrcK != 0 ? info.oriSrcK : info.srcK;
  } else {
    g.m = tiling.srcM;
    g.k = tiling.srcK;
    g.cols = cfg.oriSrcK != 0 ? cfg.oriSrcK : tiling.srcK;
  }
  if (g.cols > g.k) CheckFail(loc, "%s: oriSrcK (%u) is larger than srcK (%u)", api, g.cols, g.k);
  return g;
}

template <typename T>
inline void CheckSoftmaxRows(const char* api, const AscendC::LocalTensor<T>& t, const char* what, const SoftmaxGeom& g,
                             const SrcLoc& loc) {
  if (g.nz && g.k % kSoftmaxNzC0 != 0) {
    CheckFail(loc, "%s: srcK (%u) must be a multiple of 16 in the NZ format (the reduce axis is W1 * W0, W0 = 16)", api,
              g.k);
  }
  if ((static_cast<uint64_t>(g.k) * sizeof(T)) % 32u != 0) {
    CheckFail(loc, "%s: srcK (%u) * sizeof(T) must be a multiple of 32 bytes (the last axis is 32-byte aligned)", api,
              g.k);
  }
  NeedElems(api, what, t, static_cast<uint64_t>(g.m) * g.k, loc);
}

template <typename U>
inline void CheckReduceRows(const char* api, const AscendC::LocalTensor<U>& t, const char* what, const SoftmaxGeom& g,
                            const SrcLoc& loc) {
  NeedElems(api, what, t, static_cast<uint64_t>(g.m) * (32u / sizeof(U)), loc);
}

template <typename U>
inline void PutRow(U* base, uint32_t row, float v) {
  constexpr uint32_t per = 32u / sizeof(U);
  const U u = U(v);
  for (uint32_t j = 0; j < per; ++j) base[row * per + j] = u;
}
template <typename U>
inline float GetRow(const U* base, uint32_t row) {
  return static_cast<float>(base[row * (32u / sizeof(U))]);
}

// One row: max over cols, e = exp(x - max) into buf (float), sum of buf.
template <typename T>
inline void RowExp(const T* x, uint32_t cols, float max, float* buf, float& sum) {
  float s = 0.0f;
  for (uint32_t j = 0; j < cols; ++j) {
    const float e = std::exp(static_cast<float>(x[j]) - max);
    buf[j] = e;
    s += e;
  }
  sum = s;
}
template <typename T>
inline float RowMax(const T* x, uint32_t cols) {
  float m = -INFINITY;
  for (uint32_t j = 0; j < cols; ++j) {
    const float v = static_cast<float>(x[j]);
    m = v > m ? v : m;
  }
  return m;
}

// The row buffer of e^(x - max): on the stack for rows up to 4096 columns.
struct RowBuf {
  float small[4096];
  std::unique_ptr<float[]> big;
  float* Get(uint32_t n) {
    if (n <= 4096) return small;
    big.reset(new float[n]);
    return big.get();
  }
};

template <typename T, typename U>
inline void SoftMaxImpl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                        const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src, const SoftmaxGeom& g,
                        const SrcLoc& loc) {
  CheckSoftmaxRows(api, src, "srcTensor", g, loc);
  CheckSoftmaxRows(api, dst, "dstTensor", g, loc);
  if (sum != nullptr) CheckReduceRows(api, *sum, "sumTensor", g, loc);
  if (max != nullptr) CheckReduceRows(api, *max, "maxTensor", g, loc);
  RowBuf rb;
  float* buf = rb.Get(g.cols);
  SoftmaxRowIn<T> in(src.GetPhyAddr(), g);
  SoftmaxRowOut<T> out(dst.GetPhyAddr(), g);
  for (uint32_t r = 0; r < g.m; ++r) {
    const T* x = in.Row(r);
    const float mx = RowMax(x, g.cols);
    float sm = 0.0f;
    RowExp(x, g.cols, mx, buf, sm);
    T* o = out.Row(r);
    for (uint32_t j = 0; j < g.cols; ++j) o[j] = T(buf[j] / sm);
    out.Done();
    if (sum != nullptr) PutRow(sum->GetPhyAddr(), r, sm);
    if (max != nullptr) PutRow(max->GetPhyAddr(), r, mx);
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// dst = softmax(src) per row; sum and max get each row's e-sum and max.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "SoftMax: unsupported data type (half, float)");
  const d::SoftmaxGeom g = d::SoftmaxShape("SoftMax", tiling, softmaxShapeInfo, config, simnpuLoc, isDataFormatNZ);
  d::SoftMaxImpl<T, T>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, g, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftMax", sharedTmpBuffer, simnpuLoc);
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                                                                  softmaxShapeInfo, simnpuLoc);
}
// half source and destination, float sum and max
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const d::SoftmaxGeom g = d::SoftmaxShape("SoftMax", tiling, softmaxShapeInfo, config, simnpuLoc, isDataFormatNZ);
  d::SoftMaxImpl<half, float>("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, g, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftMax", sharedTmpBuffer, simnpuLoc);
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                                                                  softmaxShapeInfo, simnpuLoc);
}
// no sum/max outputs
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "SoftMax: unsupported data type (half, float)");
  const d::SoftmaxGeom g = d::SoftmaxShape("SoftMax", tiling, softmaxShapeInfo, config, simnpuLoc);
  d::SoftMaxImpl<T, T>("SoftMax", dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                       static_cast<const LocalTensor<T>*>(nullptr), srcTensor, g, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftMax", sharedTmpBuffer, simnpuLoc);
  SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, tiling, softmaxShapeInfo, simnpuLoc);
}

// dst = e^(src - inMax) / inSum with the row values given.
template <typename T, typename U, bool isReuseSource, bool isBasicBlock, bool isDataFormatNZ>
inline void SimpleSoftMaxImpl(const LocalTensor<T>& dst, const LocalTensor<U>& inSum, const LocalTensor<U>& inMax,
                              const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& info,
                              const SoftmaxConfig& config, const ::simnpu::ascendc::SrcLoc& loc) {
  namespace d = ::simnpu::ascendc::detail;
  const d::SoftmaxGeom g = d::SoftmaxShape("SimpleSoftMax", tiling, info, config, loc, isDataFormatNZ);
  d::CheckSoftmaxRows("SimpleSoftMax", src, "srcTensor", g, loc);
  d::CheckSoftmaxRows("SimpleSoftMax", dst, "dstTensor", g, loc);
  d::CheckReduceRows("SimpleSoftMax", inSum, "inSumTensor", g, loc);
  d::CheckReduceRows("SimpleSoftMax", inMax, "inMaxTensor", g, loc);
  d::SoftmaxRowIn<T> in(src.GetPhyAddr(), g);
  d::SoftmaxRowOut<T> out(dst.GetPhyAddr(), g);
  for (uint32_t r = 0; r < g.m; ++r) {
    const T* x = in.Row(r);
    T* o = out.Row(r);
    const float mx = d::GetRow(inMax.GetPhyAddr(), r);
    const float sm = d::GetRow(inSum.GetPhyAddr(), r);
    for (uint32_t j = 0; j < g.cols; ++j) o[j] = T(std::exp(static_cast<float>(x[j]) - mx) / sm);
    out.Done();
  }
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                          const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  SimpleSoftMaxImpl<T, T, isReuseSource, isBasicBlock, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                                       tiling, softmaxShapeInfo, config, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                          const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SimpleSoftMax", sharedTmpBuffer, simnpuLoc);
  SimpleSoftMaxImpl<T, T, isReuseSource, isBasicBlock, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                                       tiling, softmaxShapeInfo, config, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                          const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                          const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                          SIMNPU_ASCENDC_LOC_PARAM) {
  SimpleSoftMaxImpl<half, float, isReuseSource, isBasicBlock, isDataFormatNZ>(
      dstTensor, inSumTensor, inMaxTensor, srcTensor, tiling, softmaxShapeInfo, config, simnpuLoc);
}

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

// FlashV2 step over rows: new max = max(inMax, rowmax) (rowmax alone when
// !update), dst = e^(x - max), expMax = e^(inMax - max), expSum = expMax *
// inExpSum + rowsum(dst) (rowsum alone when !update).
template <typename T, typename U>
inline void FlashV2(const char* api, bool update, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& expSum,
                    const AscendC::LocalTensor<U>& maxT, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<U>* expMax, const AscendC::LocalTensor<U>& inExpSum,
                    const AscendC::LocalTensor<U>& inMax, const SoftmaxGeom& g, const SrcLoc& loc) {
  CheckSoftmaxRows(api, src, "srcTensor", g, loc);
  CheckSoftmaxRows(api, dst, "dstTensor", g, loc);
  CheckReduceRows(api, expSum, "expSumTensor", g, loc);
  CheckReduceRows(api, maxT, "maxTensor", g, loc);
  if (update) {
    if (expMax != nullptr) CheckReduceRows(api, *expMax, "expMaxTensor", g, loc);
    CheckReduceRows(api, inExpSum, "inExpSumTensor", g, loc);
    CheckReduceRows(api, inMax, "inMaxTensor", g, loc);
  }
  RowBuf rb;
  float* buf = rb.Get(g.cols);
  SoftmaxRowIn<T> in(src.GetPhyAddr(), g);
  SoftmaxRowOut<T> out(dst.GetPhyAddr(), g);
  for (uint32_t r = 0; r < g.m; ++r) {
    const T* x = in.Row(r);
    T* o = out.Row(r);
    float mx = RowMax(x, g.cols);
    float old_max = 0.0f, old_sum = 0.0f;
    if (update) {
      old_max = GetRow(inMax.GetPhyAddr(), r);
      old_sum = GetRow(inExpSum.GetPhyAddr(), r);
      mx = old_max > mx ? old_max : mx;
    }
    float sm = 0.0f;
    RowExp(x, g.cols, mx, buf, sm);
    for (uint32_t j = 0; j < g.cols; ++j) o[j] = T(buf[j]);
    out.Done();
    if (update) {
      const float em = std::exp(old_max - mx);
      sm = em * old_sum + sm;
      if (expMax != nullptr) PutRow(expMax->GetPhyAddr(), r, em);
    }
    PutRow(expSum.GetPhyAddr(), r, sm);
    PutRow(maxT.GetPhyAddr(), r, mx);
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                           const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "SoftmaxFlashV2: unsupported data type (half, float)");
  const d::SoftmaxGeom g =
      d::SoftmaxShape("SoftmaxFlashV2", tiling, softmaxShapeInfo, config, simnpuLoc, isDataFormatNZ);
  d::FlashV2<T, T>("SoftmaxFlashV2", isUpdate, dstTensor, expSumTensor, maxTensor, srcTensor, &expMaxTensor,
                   inExpSumTensor, inMaxTensor, g, simnpuLoc);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                           const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                           SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftmaxFlashV2", sharedTmpBuffer, simnpuLoc);
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, tiling,
      softmaxShapeInfo, simnpuLoc);
}
// half data, float row values
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                           const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                           const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                           const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  const d::SoftmaxGeom g =
      d::SoftmaxShape("SoftmaxFlashV2", tiling, softmaxShapeInfo, config, simnpuLoc, isDataFormatNZ);
  // expMax is a half tensor here: computed in float and rounded
  d::FlashV2<half, float>("SoftmaxFlashV2", isUpdate, dstTensor, expSumTensor, maxTensor, srcTensor, nullptr,
                          inExpSumTensor, inMaxTensor, g, simnpuLoc);
  if (isUpdate) {
    d::CheckReduceRows("SoftmaxFlashV2", expMaxTensor, "expMaxTensor", g, simnpuLoc);
    for (uint32_t r = 0; r < g.m; ++r) {
      const float em = std::exp(d::GetRow(inMaxTensor.GetPhyAddr(), r) - d::GetRow(maxTensor.GetPhyAddr(), r));
      d::PutRow(expMaxTensor.GetPhyAddr(), r, em);
    }
  }
}

// The kernel-side tiling of the SoftmaxFlashV2 page, for a shape known only
// in the kernel: the plan the host SoftMaxFlashV2TilingFunc makes for
// [srcM, srcK] (localWorkSpaceSize in bytes; one row of srcK floats plus a
// 32-byte block per row; row blocks of 32 / dataTypeSize2 elements). The
// flags do not change it: the model works a row at a time, and an NZ row is
// gathered and reduced as an ND one.
__aicore__ inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isBasicBlock;
  (void)isDataFormatNZ;
  (void)isFlashOutputBrc;
  const uint32_t size = dataTypeSize2 != 0 ? dataTypeSize2 : dataTypeSize1;
  return ::simnpu::tiling::SoftMaxPlan(shapeInfo.srcM, shapeInfo.srcK, size == 0 ? 8u : 32u / size,
                                       localWorkSpaceSize);
}

// The older flash form: when isUpdate, the previous rows' max/sum are
// inMax/inSum; expMax = e^(inMax - max); sum = expMax * inSum + rowsum;
// dst = e^(x - max) / sum (normalised, unlike FlashV2).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                         const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                         const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                         const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsAdvFloat<T>, "SoftmaxFlash: unsupported data type (half, float)");
  const d::SoftmaxGeom g = d::SoftmaxShape("SoftmaxFlash", tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, simnpuLoc);
  d::FlashV2<T, T>("SoftmaxFlash", isUpdate, dstTensor, sumTensor, maxTensor, srcTensor, &expMaxTensor, inSumTensor,
                   inMaxTensor, g, simnpuLoc);
  d::SoftmaxRowOut<T> out(dstTensor.GetPhyAddr(), g);
  for (uint32_t r = 0; r < g.m; ++r) {
    T* o = out.Row(r, true);
    const float sm = d::GetRow(sumTensor.GetPhyAddr(), r);
    for (uint32_t j = 0; j < g.cols; ++j) o[j] = T(static_cast<float>(o[j]) / sm);
    out.Done();
  }
}

// SoftmaxGrad: d = rowsum(grad * src) in float (column order); isFront:
// dst gets d per row (a 32-byte block per row, as max/sum); else dst =
// (grad - d) * src, rounded once. SoftmaxGradFront is the isFront form.
template <typename T, bool isDataFormatNZ>
inline void SoftmaxGradImpl(const char* api, const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                            const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront,
                            const SoftMaxShapeInfo& softmaxShapeInfo, const ::simnpu::ascendc::SrcLoc& loc) {
  namespace d = ::simnpu::ascendc::detail;
  const d::SoftmaxGeom g = d::SoftmaxShape(api, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, loc, isDataFormatNZ);
  d::CheckSoftmaxRows(api, srcTensor, "srcTensor", g, loc);
  d::CheckSoftmaxRows(api, gradTensor, "gradTensor", g, loc);
  if (isFront) {
    d::CheckReduceRows(api, dstTensor, "dstTensor", g, loc);
  } else {
    d::CheckSoftmaxRows(api, dstTensor, "dstTensor", g, loc);
  }
  d::SoftmaxRowIn<T> ys(srcTensor.GetPhyAddr(), g);
  d::SoftmaxRowIn<T> dys(gradTensor.GetPhyAddr(), g);
  d::SoftmaxRowOut<T> out(dstTensor.GetPhyAddr(), g);
  for (uint32_t r = 0; r < g.m; ++r) {
    const T* y = ys.Row(r);
    const T* dy = dys.Row(r);
    float dot = 0.0f;
    for (uint32_t j = 0; j < g.cols; ++j) dot += static_cast<float>(dy[j]) * static_cast<float>(y[j]);
    if (isFront) {
      d::PutRow(dstTensor.GetPhyAddr(), r, dot);
      continue;
    }
    T* o = out.Row(r);
    for (uint32_t j = 0; j < g.cols; ++j) o[j] = T((static_cast<float>(dy[j]) - dot) * static_cast<float>(y[j]));
    out.Done();
  }
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "SoftmaxGrad: unsupported data type (half, float)");
  SoftmaxGradImpl<T, isDataFormatNZ>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, tiling, isFront,
                                     softmaxShapeInfo, simnpuLoc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                        const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                        SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftmaxGrad", sharedTmpBuffer, simnpuLoc);
  SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, isFront, softmaxShapeInfo,
                                                simnpuLoc);
}
// dst = rowsum(grad * src) per row, a 32-byte block per row.
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsAdvFloat<T>, "SoftmaxGradFront: unsupported data type (half, float)");
  SoftmaxGradImpl<T, isDataFormatNZ>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, tiling, true,
                                     softmaxShapeInfo, simnpuLoc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                             SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("SoftmaxGradFront", sharedTmpBuffer, simnpuLoc);
  SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dstTensor, gradTensor, srcTensor, tiling, softmaxShapeInfo,
                                                    simnpuLoc);
}

// Rows whose max equals `from` (bit pattern compare, as the page says) get
// every softmax result set to `to`; returns true when any row matched.
template <typename T1, typename T2, bool isDataFormatNZ = false>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::SoftmaxGeom g;
  g.m = softmaxShapeInfo.srcM;
  g.k = softmaxShapeInfo.srcK;
  g.cols = softmaxShapeInfo.oriSrcK != 0 ? softmaxShapeInfo.oriSrcK : g.k;
  g.nz = isDataFormatNZ;
  if (g.cols > g.k) {
    d::CheckFail(simnpuLoc, "AdjustSoftMaxRes: oriSrcK (%u) is larger than srcK (%u)", g.cols, g.k);
  }
  if (g.nz && g.k % d::kSoftmaxNzC0 != 0) {
    d::CheckFail(simnpuLoc,
                 "AdjustSoftMaxRes: srcK (%u) must be a multiple of 16 in the NZ format (the reduce axis is W1 * W0, "
                 "W0 = 16)",
                 g.k);
  }
  d::NeedElems("AdjustSoftMaxRes", "softMaxRes", softMaxRes, static_cast<uint64_t>(g.m) * g.k, simnpuLoc);
  d::CheckReduceRows("AdjustSoftMaxRes", maxTensor, "maxTensor", g, simnpuLoc);
  bool any = false;
  for (uint32_t r = 0; r < g.m; ++r) {
    const T2 v = maxTensor.GetPhyAddr()[r * (32u / sizeof(T2))];
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T2) < 4 ? sizeof(T2) : 4);
    if (bits != from) continue;
    any = true;
    T1* o = softMaxRes.GetPhyAddr();
    for (uint32_t j = 0; j < g.cols; ++j) o[d::SoftmaxAt(g, r, j)] = to;
  }
  return any;
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_SOFTMAX_H_
