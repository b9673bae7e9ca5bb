// simnpu Ascend C model: TopK: the k largest (or smallest) values of each
// row of a [outter, inner] LocalTensor and their indices (TopKInfo; inner a
// multiple of 32, n <= inner real elements per row).
//
// Row r's candidates are its first n elements; their index is the column j
// (isInitIndex false), srcIndexLocal[j] (isInitIndex, Normal mode: one index
// row shared by every row) or srcIndexLocal[r * inner + j] (isInitIndex,
// Small mode). Order: NaN first (either direction), then descending values
// (largest) or ascending (smallest); equal values keep column order (the
// page: of srcLocal[i] == srcLocal[j], i > j, j comes first). Outputs:
// Normal mode rows of k_pad values (k rounded up to 32 bytes of T) and
// kpad_index indices (k rounded up to 8), Small mode (inner 32) rows of k;
// the padding elements are left as they were. isHasfinish (Normal mode):
// where finishLocal[r] is true the row's k indices are n (values as
// computed). TopKConfig (the 950 form): RADIX_SELECT takes the integer
// types and bfloat16 too, order LARGEST / SMALLEST overrides isLargest;
// `sorted = false` may return the k in any order, and the model returns
// them sorted. Values are copied, never computed: bit-exact.
#ifndef SIMNPU_ASCENDC_ADV_TOPK_H_
#define SIMNPU_ASCENDC_ADV_TOPK_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <algorithm>
#include <vector>

namespace AscendC {

// Also declared by tiling/sort/topk_tiling.h (host code may include both).
#ifndef SIMNPU_TOPK_MODE_DEFINED
#define SIMNPU_TOPK_MODE_DEFINED
enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};
#endif
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
  TopKAlgo algo = TopKAlgo::MERGE_SORT;
  TopKOrder order = TopKOrder::UNSET;
  bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {TopKAlgo::MERGE_SORT, TopKOrder::UNSET, true};

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner = 0;
  int32_t n = 0;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsTopKMergeType = std::is_same<T, half>::value || std::is_same<T, float>::value;
template <typename T>
constexpr bool kIsTopKRadixType =
    kIsTopKMergeType<T> || std::is_same<T, bfloat16_t>::value || std::is_same<T, uint8_t>::value ||
    std::is_same<T, int8_t>::value || std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value ||
    std::is_same<T, uint32_t>::value || std::is_same<T, int32_t>::value || std::is_same<T, uint64_t>::value ||
    std::is_same<T, int64_t>::value;

// A comparable view of an element: floating types as double (NaN kept),
// integers as themselves.
template <typename T>
struct TopKKey {
  using type = typename std::conditional<std::is_integral<T>::value, T, double>::type;
  static type Of(T v) {
    if constexpr (std::is_integral<T>::value) {
      return v;
    } else {
      return static_cast<double>(static_cast<float>(v));
    }
  }
  static bool IsNan(type v) {
    if constexpr (std::is_integral<T>::value) {
      (void)v;
      return false;
    } else {
      return v != v;
    }
  }
};

template <typename T, bool isInitIndex, bool isHasfinish, AscendC::TopKMode mode>
inline void TopKImpl(const AscendC::LocalTensor<T>& dstValue, const AscendC::LocalTensor<int32_t>& dstIndex,
                     const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<int32_t>& srcIndex,
                     const AscendC::LocalTensor<bool>& finish, int32_t k, const AscendC::TopKInfo& info,
                     bool largest, const SrcLoc& loc) {
  const bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  const int32_t outter = info.outter, inner = info.inner, n = info.n;
  if (outter < 1) CheckFail(loc, "TopK: topKInfo.outter (%d) must be at least 1", outter);
  if (inner <= 0 || inner % 32 != 0) CheckFail(loc, "TopK: topKInfo.inner (%d) must be a positive multiple of 32", inner);
  if (small && inner != 32) CheckFail(loc, "TopK: topKInfo.inner (%d) must be 32 in the Small mode (TOPK_NSMALL)", inner);
  if (!small && inner > 4096) CheckFail(loc, "TopK: topKInfo.inner (%d) is above 4096, the Normal mode's limit", inner);
  if (n < 1 || n > inner) CheckFail(loc, "TopK: topKInfo.n (%d) must be in [1, inner = %d]", n, inner);
  if (k < 1 || k > n) CheckFail(loc, "TopK: k (%d) must be in [1, n = %d]", k, n);
  const uint32_t vpad = small ? static_cast<uint32_t>(k) : (static_cast<uint32_t>(k) + 32u / sizeof(T) - 1) / (32u / sizeof(T)) * (32u / sizeof(T));
  const uint32_t ipad = small ? static_cast<uint32_t>(k) : (static_cast<uint32_t>(k) + 7u) / 8u * 8u;
  const uint64_t rows = static_cast<uint64_t>(outter);
  NeedElems("TopK", "srcLocal", src, rows * inner, loc);
  if (isInitIndex) NeedElems("TopK", "srcIndexLocal", srcIndex, small ? rows * inner : static_cast<uint64_t>(inner), loc);
  if (isHasfinish) NeedElems("TopK", "finishLocal", finish, rows, loc);
  NeedElems("TopK", "dstValueLocal", dstValue, (rows - 1) * vpad + k, loc);
  NeedElems("TopK", "dstIndexLocal", dstIndex, (rows - 1) * ipad + k, loc);
  using Key = TopKKey<T>;
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::vector<typename Key::type> keys(static_cast<size_t>(n));
  std::vector<T> vals(static_cast<size_t>(n));
  std::vector<int32_t> idx(static_cast<size_t>(n));
  for (int32_t r = 0; r < outter; ++r) {
    const T* s = src.GetPhyAddr() + static_cast<size_t>(r) * inner;
    for (int32_t j = 0; j < n; ++j) {
      vals[j] = s[j];
      keys[j] = Key::Of(s[j]);
      order[j] = j;
      if (isInitIndex) {
        idx[j] = small ? srcIndex.GetPhyAddr()[static_cast<size_t>(r) * inner + j] : srcIndex.GetPhyAddr()[j];
      } else {
        idx[j] = j;
      }
    }
    auto before = [&](int32_t a, int32_t b) {
      const bool na = Key::IsNan(keys[a]), nb = Key::IsNan(keys[b]);
      if (na != nb) return na;
      if (!na && keys[a] != keys[b]) return largest ? keys[a] > keys[b] : keys[a] < keys[b];
      return a < b;
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
    const bool finished = isHasfinish && finish.GetPhyAddr()[r];
    T* dv = dstValue.GetPhyAddr() + static_cast<size_t>(r) * vpad;
    int32_t* di = dstIndex.GetPhyAddr() + static_cast<size_t>(r) * ipad;
    for (int32_t i = 0; i < k; ++i) {
      dv[i] = vals[order[i]];
      di[i] = finished ? n : idx[order[i]];
    }
  }
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                 const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true,
                 SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(config.algo == TopKAlgo::RADIX_SELECT || d::kIsTopKMergeType<T>,
                "TopK: unsupported data type (half, float; the RADIX_SELECT config also takes bfloat16_t and 8- to "
                "64-bit integers)");
  static_assert(d::kIsTopKRadixType<T>, "TopK: unsupported data type");
  static_assert(!(isHasfinish && topkMode == TopKMode::TOPK_NSMALL), "TopK: isHasfinish needs the Normal mode");
  static_assert(!(isHasfinish && config.algo == TopKAlgo::RADIX_SELECT),
                "TopK: the RADIX_SELECT algorithm cannot take a finish flag");
  (void)tilling;
  d::CheckTmp("TopK", tmpLocal, simnpuLoc);
  const bool largest = config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  d::TopKImpl<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                     finishLocal, k, topKInfo, largest, simnpuLoc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                 const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                 const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                 const TopKInfo& topKInfo, const bool isLargest = true, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(config.algo == TopKAlgo::RADIX_SELECT || d::kIsTopKMergeType<T>,
                "TopK: unsupported data type (half, float; the RADIX_SELECT config also takes bfloat16_t and 8- to "
                "64-bit integers)");
  static_assert(d::kIsTopKRadixType<T>, "TopK: unsupported data type");
  static_assert(!(isHasfinish && topkMode == TopKMode::TOPK_NSMALL), "TopK: isHasfinish needs the Normal mode");
  static_assert(!(isHasfinish && config.algo == TopKAlgo::RADIX_SELECT),
                "TopK: the RADIX_SELECT algorithm cannot take a finish flag");
  (void)tilling;
  const bool largest = config.order == TopKOrder::UNSET ? isLargest : config.order == TopKOrder::LARGEST;
  d::TopKImpl<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                     finishLocal, k, topKInfo, largest, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_TOPK_H_
