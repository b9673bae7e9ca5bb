// simnpu Ascend C model: sorting: Sort32, MrgSort (2 to 4 sorted lists),
// Sort (full or per-32 sort of repeatTime * 32 elements), Concat, Extract,
// GetSortLen, GetSortOffset (the A2/A3 layout).
//
// A sorted element is 8 bytes: the score (float: 4 bytes; half: 2 bytes and
// 2 bytes of zero padding) then its uint32 index. Order: descending score;
// equal scores keep their input order (the merge takes from the earlier
// list first); NaN scores sort after every number. Sort32 sorts each group
// of 32 elements (one repeat); MrgSort merges up to 4 sorted lists of
// (score, index) elements into one.
#ifndef SIMNPU_ASCENDC_ADV_SORT_H_
#define SIMNPU_ASCENDC_ADV_SORT_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <algorithm>
#include <vector>

namespace AscendC {

template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
  return elemCount * 8u / static_cast<uint32_t>(sizeof(T));
}
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
  return elemOffset * 8u / static_cast<uint32_t>(sizeof(T));
}

template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() = default;
  MrgSortSrcList(const LocalTensor<T>& s1, const LocalTensor<T>& s2) : src1(s1), src2(s2) {}
  MrgSortSrcList(const LocalTensor<T>& s1, const LocalTensor<T>& s2, const LocalTensor<T>& s3)
      : src1(s1), src2(s2), src3(s3) {}
  MrgSortSrcList(const LocalTensor<T>& s1, const LocalTensor<T>& s2, const LocalTensor<T>& s3, const LocalTensor<T>& s4)
      : src1(s1), src2(s2), src3(s3), src4(s4) {}
  LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
  MrgSort4Info() = default;
  MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
               const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
constexpr bool kIsSortType = std::is_same<T, half>::value || std::is_same<T, float>::value;

struct SortItem {
  float score;
  uint32_t index;
  uint64_t order;  // position in the input: equal scores keep it
};

// true when a sorts before b: higher score first, NaN last, then input order
inline bool SortsBefore(const SortItem& a, const SortItem& b) {
  const bool an = a.score != a.score, bn = b.score != b.score;
  if (an != bn) return bn;
  if (!an && a.score != b.score) return a.score > b.score;
  return a.order < b.order;
}

template <typename T>
inline SortItem ReadItem(const T* base, uint64_t k) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(base) + k * 8u;
  T v;
  std::memcpy(&v, p, sizeof(T));
  SortItem it;
  it.score = static_cast<float>(v);
  std::memcpy(&it.index, p + 4, 4);
  it.order = k;
  return it;
}
template <typename T>
inline void WriteItem(T* base, uint64_t k, const SortItem& it) {
  uint8_t* p = reinterpret_cast<uint8_t*>(base) + k * 8u;
  const T v = T(it.score);
  std::memset(p, 0, 4);
  std::memcpy(p, &v, sizeof(T));
  std::memcpy(p + 4, &it.index, 4);
}

template <typename T>
inline void SortGroups(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& values,
                       const AscendC::LocalTensor<uint32_t>& indices, int32_t repeat, uint32_t group, const SrcLoc& loc) {
  if (repeat < 0 || repeat > 255) CheckFail(loc, "%s: repeatTime %d is outside [0, 255]", api, repeat);
  const uint64_t n = static_cast<uint64_t>(repeat) * 32u;
  NeedElems(api, "src0Local (scores)", values, n, loc);
  NeedElems(api, "src1Local (indices)", indices, n, loc);
  NeedElems(api, "dstLocal", dst, n * 8u / sizeof(T), loc);
  std::vector<SortItem> items(n);
  for (uint64_t i = 0; i < n; ++i) {
    items[i].score = static_cast<float>(values.GetPhyAddr()[i]);
    items[i].index = indices.GetPhyAddr()[i];
    items[i].order = i;
  }
  const uint64_t g = group == 0 ? n : group;
  for (uint64_t b = 0; b < n; b += g) {
    std::stable_sort(items.begin() + b, items.begin() + std::min(n, b + g), SortsBefore);
  }
  for (uint64_t i = 0; i < n; ++i) WriteItem(dst.GetPhyAddr(), i, items[i]);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// Each group of 32 (score, index) pairs sorted by descending score.
template <typename T>
inline void Sort32(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<uint32_t>& src1Local,
                   const int32_t repeatTime, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsSortType<T>, "Sort32: unsupported data type (half, float)");
  ::simnpu::ascendc::detail::SortGroups("Sort32", dstLocal, src0Local, src1Local, repeatTime, 32, simnpuLoc);
}

// The A2/A3 region-proposal concatenation is the scores as they are.
template <typename T>
inline void Concat(LocalTensor<T>& concatLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& tmpLocal,
                   const int32_t repeatTime, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)tmpLocal;
  namespace d = ::simnpu::ascendc::detail;
  const uint64_t n = static_cast<uint64_t>(repeatTime) * 16u;
  d::NeedElems("Concat", "srcLocal", srcLocal, n, simnpuLoc);
  d::NeedElems("Concat", "concatLocal", concatLocal, n, simnpuLoc);
  if (concatLocal.GetPhyAddr() != srcLocal.GetPhyAddr()) {
    std::memmove(concatLocal.GetPhyAddr(), srcLocal.GetPhyAddr(), n * sizeof(T));
  }
}

// Sorts repeatTime * 32 scores (concatLocal) with their indices:
// isFullSort: one descending order of all; else each group of 32.
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal, const LocalTensor<uint32_t>& indexLocal,
                 LocalTensor<T>& tmpLocal, const int32_t repeatTime, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(::simnpu::ascendc::detail::kIsSortType<T>, "Sort: unsupported data type (half, float)");
  (void)tmpLocal;
  ::simnpu::ascendc::detail::SortGroups("Sort", dstLocal, concatLocal, indexLocal, repeatTime, isFullSort ? 0u : 32u,
                                        simnpuLoc);
}

// Splits repeatTime * 32 sorted (score, index) pairs into scores and indices.
template <typename T>
inline void Extract(const LocalTensor<T>& dstValueLocal, const LocalTensor<uint32_t>& dstIndexLocal,
                    const LocalTensor<T>& sortedLocal, const int32_t repeatTime, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSortType<T>, "Extract: unsupported data type (half, float)");
  const uint64_t n = static_cast<uint64_t>(repeatTime) * 32u;
  d::NeedElems("Extract", "sortedLocal", sortedLocal, n * 8u / sizeof(T), simnpuLoc);
  d::NeedElems("Extract", "dstValueLocal", dstValueLocal, n, simnpuLoc);
  d::NeedElems("Extract", "dstIndexLocal", dstIndexLocal, n, simnpuLoc);
  for (uint64_t i = 0; i < n; ++i) {
    const d::SortItem it = d::ReadItem(sortedLocal.GetPhyAddr(), i);
    dstValueLocal.GetPhyAddr()[i] = T(it.score);
    dstIndexLocal.GetPhyAddr()[i] = it.index;
  }
}

// Merges the valid lists (validBit 0b11, 0b111 or 0b1111) of
// elementLengths[i] sorted pairs each into dstLocal. With
// ifExhaustedSuspension the merge stops when the first list runs out.
template <typename T>
inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& srcLocal, const MrgSort4Info& params,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSortType<T>, "MrgSort: unsupported data type (half, float)");
  int lists = 0;
  if (params.validBit == 0x3) lists = 2;
  else if (params.validBit == 0x7) lists = 3;
  else if (params.validBit == 0xf) lists = 4;
  else d::CheckFail(simnpuLoc, "MrgSort: validBit 0x%x is not 0b11, 0b111 or 0b1111", params.validBit);
  const LocalTensor<T>* src[4] = {&srcLocal.src1, &srcLocal.src2, &srcLocal.src3, &srcLocal.src4};
  static const char* const kNames[4] = {"src1", "src2", "src3", "src4"};
  uint64_t total = 0;
  for (int i = 0; i < lists; ++i) {
    d::NeedElems("MrgSort", kNames[i], *src[i], static_cast<uint64_t>(params.elementLengths[i]) * 8u / sizeof(T), simnpuLoc);
    total += params.elementLengths[i];
  }
  d::NeedElems("MrgSort", "dstLocal", dstLocal, total * 8u / sizeof(T), simnpuLoc);
  std::vector<d::SortItem> out;
  out.reserve(total);
  uint64_t pos[4] = {0, 0, 0, 0};
  for (;;) {
    int best = -1;
    d::SortItem bi{};
    bool exhausted = false;
    for (int i = 0; i < lists; ++i) {
      if (pos[i] >= params.elementLengths[i]) {
        exhausted = true;
        continue;
      }
      d::SortItem it = d::ReadItem(src[i]->GetPhyAddr(), pos[i]);
      it.order = static_cast<uint64_t>(i);  // ties: the earlier list first
      if (best < 0 || d::SortsBefore(it, bi)) {
        best = i;
        bi = it;
      }
    }
    if (best < 0 || (exhausted && params.ifExhaustedSuspension)) break;
    ++pos[best];
    out.push_back(bi);
  }
  for (uint64_t k = 0; k < out.size(); ++k) d::WriteItem(dstLocal.GetPhyAddr(), k, out[k]);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_ADV_SORT_H_
