// simnpu Ascend C model: the advanced Sum (the sum of each row's elements):
//   Sum<T, reduceDim = -1, isReuseSource = false, isBasicBlock = false>
//       (dst, src, [sharedTmpBuffer,] const SumParams& {outter, inner, n})
// src holds outter rows of inner elements (inner * sizeof(T) a multiple of
// 32 bytes, n <= inner the elements of a row that count); dst[i] is the sum
// of src[i * inner .. i * inner + n). The elements of dst past outter are
// not written. half and float. The row is summed the way the vector unit's
// reduction does it, in a pairwise tree (in float for half, then rounded to
// half once); the temporary buffer is accepted and not needed.
#ifndef SIMNPU_ASCENDC_ADV_SUM_H_
#define SIMNPU_ASCENDC_ADV_SUM_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
inline float PairwiseSum(const T* p, uint32_t n) {
  if (n <= 8) {
    float acc = 0.0f;
    for (uint32_t i = 0; i < n; ++i) acc += static_cast<float>(p[i]);
    return acc;
  }
  const uint32_t h = n / 2;
  return PairwiseSum(p, h) + PairwiseSum(p + h, n - h);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SumParams& params,
                SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "Sum: unsupported data type (half, float)");
  if (params.n == 0 || params.n > params.inner) {
    d::CheckFail(simnpuLoc, "Sum: n %u must be in [1, inner %u]", params.n, params.inner);
  }
  if ((static_cast<uint64_t>(params.inner) * sizeof(T)) % 32u != 0) {
    d::CheckFail(simnpuLoc, "Sum: inner %u elements is not a multiple of 32 bytes", params.inner);
  }
  if (!d::CheckCount("Sum", static_cast<int32_t>(params.outter), simnpuLoc, dst)) return;
  const uint64_t need = static_cast<uint64_t>(params.outter) * params.inner;
  if (need > src.GetSize()) {
    d::CheckFail(simnpuLoc, "Sum: outter * inner = %llu exceeds the source LocalTensor (%u elements)",
                 static_cast<unsigned long long>(need), src.GetSize());
  }
  d::CheckAligned("Sum", "src", src.GetPhyAddr(), simnpuLoc);
  const T* s = src.GetPhyAddr();
  T* o = dst.GetPhyAddr();
  for (uint32_t r = 0; r < params.outter; ++r) o[r] = T(d::PairwiseSum(s + static_cast<size_t>(r) * params.inner, params.n));
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const SumParams& params, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)sharedTmpBuffer;
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dst, src, params, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_SUM_H_
