// simnpu Ascend C model: the 950 (arch35) Sort forms with a SortConfig:
// the first calCount values (and optionally their indices) sorted whole,
// ascending unless config.isDescend, stable (equal values keep their input
// order, as both algorithms the pages name produce on equal keys). NaN
// sorts as the largest value (last ascending, first descending). Indices:
// srcIndexTensor's when given, else 0, 1, ... (uint32). SortType
// MERGE_SORT takes half and float only (as the page); RADIX_SORT also
// bfloat16 and 16/32-bit integers. The older A2/A3 forms are adv_sort.h;
// the model compiles these on every architecture. Bit-exact.
#ifndef SIMNPU_ASCENDC_ADV_SORT_CONFIG_H_
#define SIMNPU_ASCENDC_ADV_SORT_CONFIG_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <algorithm>
#include <vector>

namespace AscendC {

enum class SortType { RADIX_SORT, MERGE_SORT };
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsSortCfgType = std::is_same<T, half>::value || std::is_same<T, float>::value ||
                                std::is_same<T, bfloat16_t>::value || std::is_same<T, int16_t>::value ||
                                std::is_same<T, uint16_t>::value || std::is_same<T, int32_t>::value ||
                                std::is_same<T, uint32_t>::value;
template <typename U>
constexpr bool kIsSortCfgIndex = std::is_same<U, uint32_t>::value || std::is_same<U, int32_t>::value ||
                                 std::is_same<U, uint64_t>::value || std::is_same<U, int64_t>::value;

template <typename T, typename U, const AscendC::SortConfig& config>
inline void SortCfgImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* dstIndex,
                        const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<U>* srcIndex, uint32_t n,
                        const SrcLoc& loc) {
  static_assert(kIsSortCfgType<T>, "Sort: unsupported data type (half, float, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t)");
  static_assert(kIsSortCfgIndex<U>, "Sort: unsupported index type (uint32_t, int32_t, uint64_t, int64_t)");
  static_assert(config.type == AscendC::SortType::RADIX_SORT || std::is_same<T, half>::value ||
                    std::is_same<T, float>::value,
                "Sort: SortType::MERGE_SORT supports half and float");
  NeedElems("Sort", "srcTensor", src, n, loc);
  NeedElems("Sort", "dstTensor", dst, n, loc);
  if (srcIndex != nullptr) NeedElems("Sort", "srcIndexTensor", *srcIndex, n, loc);
  if (dstIndex != nullptr) NeedElems("Sort", "dstIndexTensor", *dstIndex, n, loc);
  using Key = TopKKey<T>;
  std::vector<uint32_t> order(n);
  std::vector<typename Key::type> keys(n);
  std::vector<T> vals(src.GetPhyAddr(), src.GetPhyAddr() + n);
  std::vector<U> idx(n);
  for (uint32_t i = 0; i < n; ++i) {
    order[i] = i;
    keys[i] = Key::Of(vals[i]);
    idx[i] = srcIndex != nullptr ? srcIndex->GetPhyAddr()[i] : static_cast<U>(i);
  }
  // a < b in sort order; NaN is the largest value
  auto less = [&](uint32_t a, uint32_t b) {
    const bool na = Key::IsNan(keys[a]), nb = Key::IsNan(keys[b]);
    if (na || nb) return config.isDescend ? (na && !nb) : (!na && nb);
    return config.isDescend ? keys[a] > keys[b] : keys[a] < keys[b];
  };
  std::stable_sort(order.begin(), order.end(), less);
  for (uint32_t i = 0; i < n; ++i) {
    dst.GetPhyAddr()[i] = vals[order[i]];
    if (dstIndex != nullptr) dstIndex->GetPhyAddr()[i] = idx[order[i]];
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("Sort", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::SortCfgImpl<T, U, config>(dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor,
                                                       calCount, simnpuLoc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::SortCfgImpl<T, U, config>(dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor,
                                                       calCount, simnpuLoc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("Sort", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::SortCfgImpl<T, uint32_t, config>(dstTensor, nullptr, srcTensor, nullptr, calCount,
                                                              simnpuLoc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::SortCfgImpl<T, uint32_t, config>(dstTensor, nullptr, srcTensor, nullptr, calCount,
                                                              simnpuLoc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::CheckTmp("Sort", sharedTmpBuffer, simnpuLoc);
  ::simnpu::ascendc::detail::SortCfgImpl<T, uint32_t, config>(dstTensor, &dstIndexTensor, srcTensor, nullptr, calCount,
                                                              simnpuLoc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const uint32_t calCount, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::SortCfgImpl<T, uint32_t, config>(dstTensor, &dstIndexTensor, srcTensor, nullptr, calCount,
                                                              simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_SORT_CONFIG_H_
