// simnpu Ascend C model: the repeat reductions. WholeReduceSum/Max/Min
// (ReduceRepeat<ReduceType>: one result per repeat, optionally with the
// index), BlockReduceSum/Max/Min (ReduceDataBlock: one result per 32-byte
// block), PairReduceSum (ReducePairElem: adjacent pairs) and the
// high-dimension forms of ReduceSum/ReduceMax/ReduceMin.
//
// Order of the sums (bit-exact with the pages): a binary tree of adjacent
// pairs inside the reduced group (a block, or a whole repeat), an odd last
// element passing up unchanged; elements switched off by the mask are left
// out of the tree (their partner passes up). half sums round each step to
// half and saturate like the existing ReduceSum (ReduceTraits in
// cast_reduce.h). Max/Min return the first (smallest) index of the extreme.
// A group with no active element writes nothing (A2/A3 rule). Indices are
// stored in the bits of the value type (uint16_t for half, uint32_t for
// float); ORDER_ONLY_INDEX stores uint32_t indices.
#ifndef SIMNPU_ASCENDC_VEC_REDUCE_H_
#define SIMNPU_ASCENDC_VEC_REDUCE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE,
  ORDER_ONLY_VALUE,
  ORDER_ONLY_INDEX,
};

enum class ReduceMode : uint8_t {
  REDUCE_MAX = 0,
  REDUCE_MIN,
  REDUCE_SUM,
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr int KindOf(AscendC::ReduceType t) {
  return t == AscendC::ReduceType::SUM ? kReduceSum : (t == AscendC::ReduceType::MAX ? kReduceMax : kReduceMin);
}

// A reduction result: value in float, index of the first extreme.
struct Reduced {
  float value = 0.0f;
  uint32_t index = 0;
  bool any = false;
};

template <int Kind, typename T>
inline Reduced ReduceGroup(const float* v, const bool* on, uint32_t n) {
  Reduced out;
  if constexpr (Kind == kReduceSum) {
    float val[256];
    bool pres[256];
    for (uint32_t i = 0; i < n; ++i) {
      val[i] = v[i];
      pres[i] = on[i];
    }
    uint32_t m = n;
    while (m > 1) {
      const uint32_t h = m / 2;
      for (uint32_t i = 0; i < h; ++i) {
        const bool a = pres[2 * i], b = pres[2 * i + 1];
        val[i] = a && b ? ReduceTraits<T>::Sum(val[2 * i], val[2 * i + 1]) : (a ? val[2 * i] : val[2 * i + 1]);
        pres[i] = a || b;
      }
      if ((m & 1u) != 0) {
        val[h] = val[m - 1];
        pres[h] = pres[m - 1];
      }
      m = h + (m & 1u);
    }
    out.value = n > 0 ? val[0] : 0.0f;
    out.any = n > 0 && pres[0];
  } else {
    for (uint32_t i = 0; i < n; ++i) {
      if (!on[i]) continue;
      const bool better = !out.any || (Kind == kReduceMax ? v[i] > out.value : v[i] < out.value);
      if (better) {
        out.value = v[i];
        out.index = i;
        out.any = true;
      }
    }
  }
  return out;
}

template <typename T>
inline void StoreValue(uint8_t* p, float v) {
  const T t = T(v);
  std::memcpy(p, &t, sizeof(T));
}
template <typename T>
inline void StoreIndexBits(uint8_t* p, uint32_t idx) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t u = static_cast<uint16_t>(idx);
    std::memcpy(p, &u, 2);
  } else {
    std::memcpy(p, &idx, 4);
  }
}

// Loads the active elements of repeat r of src as floats; on[] marks them.
template <typename T>
inline void LoadRepeat(const Operand& s, const RepeatPlan& p, uint32_t r, float* v, bool* on) {
  for (uint32_t j = 0; j < p.per_repeat; ++j) on[j] = false;
  const uint32_t n = p.ActiveIn(r);
  for (uint32_t k = 0; k < n; ++k) {
    T x;
    std::memcpy(&x, s.base + s.At(r, k), sizeof(T));
    v[p.idx[k]] = static_cast<float>(x);
    on[p.idx[k]] = true;
  }
}

inline void CheckDstRange(const char* api, uint64_t end, uint64_t cap, const SrcLoc& loc) {
  if (end > cap) {
    CheckFail(loc, "%s: the dst operand reaches byte %llu but its LocalTensor has %llu bytes (check repeatTime and "
                   "dstRepStride)", api, static_cast<unsigned long long>(end), static_cast<unsigned long long>(cap));
  }
}

inline void CheckDstAlign(const char* api, const void* p, uint32_t align, const SrcLoc& loc) {
  if ((reinterpret_cast<uintptr_t>(p) % align) != 0) {
    CheckFail(loc, "%s: the dst operand must be %u-byte aligned here", api, align);
  }
}

template <int Kind, typename T>
inline void WholeReduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const uint64_t* bits, uint64_t len, int32_t repeat, int32_t dst_rep, int32_t src_blk,
                        int32_t src_rep, AscendC::ReduceOrder order, bool set_mask, const SrcLoc& loc) {
  static_assert(kIsVecFloat<T>, "the repeat reductions support half and float");
  if (repeat < 0 || repeat > 255) CheckFail(loc, "%s: repeatTime %d is outside [0, 255]", api, repeat);
  RepeatPlan p;
  MakePlan(p, sizeof(T), bits, len, static_cast<uint8_t>(repeat), set_mask, loc);
  Operand s = MakeOperand(src, static_cast<uint32_t>(src_blk), static_cast<uint32_t>(src_rep), "src");
  Prepare(api, s, p, loc);
  uint32_t unit = sizeof(T);
  if (Kind != kReduceSum) {
    unit = order == AscendC::ReduceOrder::ORDER_ONLY_VALUE ? sizeof(T)
           : order == AscendC::ReduceOrder::ORDER_ONLY_INDEX ? 4u
                                                            : 2u * static_cast<uint32_t>(sizeof(T));
  }
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  CheckDstAlign(api, d, unit, loc);
  if (p.repeats == 0) return;
  CheckDstRange(api, static_cast<uint64_t>(p.repeats - 1) * static_cast<uint32_t>(dst_rep) * unit + unit,
                dst.GetLength(), loc);
  float v[256];
  bool on[256];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    LoadRepeat<T>(s, p, r, v, on);
    const Reduced red = ReduceGroup<Kind, T>(v, on, p.per_repeat);
    if (!red.any) continue;
    uint8_t* o = d + static_cast<uint64_t>(r) * static_cast<uint32_t>(dst_rep) * unit;
    if (Kind == kReduceSum || order == AscendC::ReduceOrder::ORDER_ONLY_VALUE) {
      StoreValue<T>(o, red.value);
    } else if (order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) {
      std::memcpy(o, &red.index, 4);
    } else if (order == AscendC::ReduceOrder::ORDER_INDEX_VALUE) {
      StoreIndexBits<T>(o, red.index);
      StoreValue<T>(o + sizeof(T), red.value);
    } else {
      StoreValue<T>(o, red.value);
      StoreIndexBits<T>(o + sizeof(T), red.index);
    }
  }
}

template <int Kind, typename T>
inline void BlockReduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const uint64_t* bits, uint64_t len, int32_t repeat, int32_t dst_rep, int32_t src_blk,
                        int32_t src_rep, bool set_mask, const SrcLoc& loc) {
  static_assert(kIsVecFloat<T>, "the block reductions support half and float");
  if (repeat < 0 || repeat > 255) CheckFail(loc, "%s: repeatTime %d is outside [0, 255]", api, repeat);
  RepeatPlan p;
  MakePlan(p, sizeof(T), bits, len, static_cast<uint8_t>(repeat), set_mask, loc);
  Operand s = MakeOperand(src, static_cast<uint32_t>(src_blk), static_cast<uint32_t>(src_rep), "src");
  Prepare(api, s, p, loc);
  constexpr uint32_t kEpb = 32 / sizeof(T);
  const uint32_t unit = 8u * sizeof(T);  // one repeat's 8 results
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  CheckDstAlign(api, d, unit, loc);
  if (p.repeats == 0) return;
  CheckDstRange(api, static_cast<uint64_t>(p.repeats - 1) * static_cast<uint32_t>(dst_rep) * unit + unit,
                dst.GetLength(), loc);
  float v[256];
  bool on[256];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    LoadRepeat<T>(s, p, r, v, on);
    uint8_t* o = d + static_cast<uint64_t>(r) * static_cast<uint32_t>(dst_rep) * unit;
    for (uint32_t b = 0; b < 8; ++b) {
      const Reduced red = ReduceGroup<Kind, T>(v + b * kEpb, on + b * kEpb, kEpb);
      if (red.any) StoreValue<T>(o + b * sizeof(T), red.value);
    }
  }
}

template <typename T>
inline void PairReduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const uint64_t* bits, uint64_t len, int32_t repeat, int32_t dst_rep, int32_t src_blk,
                       int32_t src_rep, bool set_mask, const SrcLoc& loc) {
  static_assert(kIsVecFloat<T>, "PairReduceSum supports half and float");
  if (repeat < 0 || repeat > 255) CheckFail(loc, "%s: repeatTime %d is outside [0, 255]", api, repeat);
  RepeatPlan p;
  MakePlan(p, sizeof(T), bits, len, static_cast<uint8_t>(repeat), set_mask, loc);
  Operand s = MakeOperand(src, static_cast<uint32_t>(src_blk), static_cast<uint32_t>(src_rep), "src");
  Prepare(api, s, p, loc);
  const uint32_t unit = 128;  // half a repeat: one repeat's pair sums
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  CheckAligned(api, "dst", d, loc);
  if (p.repeats == 0) return;
  CheckDstRange(api, static_cast<uint64_t>(p.repeats - 1) * static_cast<uint32_t>(dst_rep) * unit + unit,
                dst.GetLength(), loc);
  float v[256];
  bool on[256];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    LoadRepeat<T>(s, p, r, v, on);
    uint8_t* o = d + static_cast<uint64_t>(r) * static_cast<uint32_t>(dst_rep) * unit;
    for (uint32_t i = 0; i < p.per_repeat / 2; ++i) {
      const Reduced red = ReduceGroup<kReduceSum, T>(v + 2 * i, on + 2 * i, 2);
      if (red.any) StoreValue<T>(o + i * sizeof(T), red.value);
    }
  }
}

// High-dimension ReduceSum/Max/Min: a tree in each repeat, repeats combined
// in order; result (and index for Max/Min) at dst[0] (dst[1]).
template <int Kind, typename T>
inline void ReduceL0(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const uint64_t* bits, uint64_t len, int32_t repeat, int32_t src_rep, bool cal_index,
                     const SrcLoc& loc) {
  static_assert(kIsVecFloat<T>, "Reduce APIs support half and float");
  if (repeat < 0 || repeat > 255) CheckFail(loc, "%s: repeatTime %d is outside [0, 255]", api, repeat);
  RepeatPlan p;
  MakePlan(p, sizeof(T), bits, len, static_cast<uint8_t>(repeat), true, loc);
  Operand s = MakeOperand(src, 1, static_cast<uint32_t>(src_rep), "src");
  Prepare(api, s, p, loc);
  const uint32_t need = cal_index ? 2u : 1u;
  if (dst.GetSize() < need) CheckFail(loc, "%s: the destination needs %u elements, it has %u", api, need, dst.GetSize());
  if (p.repeats == 0) return;
  float v[256];
  bool on[256];
  Reduced acc;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    LoadRepeat<T>(s, p, r, v, on);
    const Reduced red = ReduceGroup<Kind, T>(v, on, p.per_repeat);
    if (!red.any) continue;
    const uint32_t gidx = r * p.per_repeat + red.index;
    if (!acc.any) {
      acc = red;
      acc.index = gidx;
    } else if (Kind == kReduceSum) {
      acc.value = ReduceTraits<T>::Sum(acc.value, red.value);
    } else if (Kind == kReduceMax ? red.value > acc.value : red.value < acc.value) {
      acc.value = red.value;
      acc.index = gidx;
    }
  }
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  StoreValue<T>(d, acc.value);
  if (cal_index) StoreIndexBits<T>(d + sizeof(T), acc.index);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

#define SIMNPU_ASCENDC_WHOLE_REDUCE(Name, Kind, OrderParam, OrderArg)                                              \
  template <typename T, bool isSetMask = true>                                                                    \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],                  \
                   const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                   const int32_t srcRepStride OrderParam SIMNPU_ASCENDC_LOC_PARAM) {                             \
    ::simnpu::ascendc::detail::WholeReduce<Kind, T>(#Name, dst, src, mask, 0, repeatTime, dstRepStride,           \
                                                    srcBlkStride, srcRepStride, OrderArg, isSetMask, simnpuLoc);  \
  }                                                                                                               \
  template <typename T, bool isSetMask = true>                                                                    \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,                     \
                   const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                   const int32_t srcRepStride OrderParam SIMNPU_ASCENDC_LOC_PARAM) {                             \
    ::simnpu::ascendc::detail::WholeReduce<Kind, T>(#Name, dst, src, nullptr, static_cast<uint64_t>(mask),         \
                                                    repeatTime, dstRepStride, srcBlkStride, srcRepStride, OrderArg, \
                                                    isSetMask, simnpuLoc);                                        \
  }

#define SIMNPU_ASCENDC_NO_ORDER ,
#define SIMNPU_ASCENDC_ORDER , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
SIMNPU_ASCENDC_WHOLE_REDUCE(WholeReduceSum, ::simnpu::ascendc::detail::kReduceSum, SIMNPU_ASCENDC_NO_ORDER,
                            ReduceOrder::ORDER_ONLY_VALUE)
SIMNPU_ASCENDC_WHOLE_REDUCE(WholeReduceMax, ::simnpu::ascendc::detail::kReduceMax, SIMNPU_ASCENDC_ORDER, order)
SIMNPU_ASCENDC_WHOLE_REDUCE(WholeReduceMin, ::simnpu::ascendc::detail::kReduceMin, SIMNPU_ASCENDC_ORDER, order)
#undef SIMNPU_ASCENDC_NO_ORDER
#undef SIMNPU_ASCENDC_ORDER
#undef SIMNPU_ASCENDC_WHOLE_REDUCE

#define SIMNPU_ASCENDC_BLOCK_REDUCE(Name, Kind)                                                                     \
  template <typename T, bool isSetMask = true>                                                                    \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                \
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,                \
                   const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {                                        \
    ::simnpu::ascendc::detail::BlockReduce<Kind, T>(#Name, dst, src, mask, 0, repeatTime, dstRepStride,           \
                                                    srcBlkStride, srcRepStride, isSetMask, simnpuLoc);            \
  }                                                                                                               \
  template <typename T, bool isSetMask = true>                                                                    \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,                \
                   const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                   \
                   const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {                                        \
    ::simnpu::ascendc::detail::BlockReduce<Kind, T>(#Name, dst, src, nullptr, static_cast<uint64_t>(mask),         \
                                                    repeatTime, dstRepStride, srcBlkStride, srcRepStride,         \
                                                    isSetMask, simnpuLoc);                                        \
  }
SIMNPU_ASCENDC_BLOCK_REDUCE(BlockReduceSum, ::simnpu::ascendc::detail::kReduceSum)
SIMNPU_ASCENDC_BLOCK_REDUCE(BlockReduceMax, ::simnpu::ascendc::detail::kReduceMax)
SIMNPU_ASCENDC_BLOCK_REDUCE(BlockReduceMin, ::simnpu::ascendc::detail::kReduceMin)
#undef SIMNPU_ASCENDC_BLOCK_REDUCE

template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                          const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                          const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::PairReduce<T>("PairReduceSum", dst, src, mask, 0, repeatTime, dstRepStride, srcBlkStride,
                                           srcRepStride, isSetMask, simnpuLoc);
}
template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                          const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                          const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::PairReduce<T>("PairReduceSum", dst, src, nullptr, static_cast<uint64_t>(mask), repeatTime,
                                           dstRepStride, srcBlkStride, srcRepStride, isSetMask, simnpuLoc);
}

// The newer names: ReduceRepeat / ReduceDataBlock / ReducePairElem.
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                         SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_same<T, U>::value, "ReduceRepeat: dst and src types must match on this SOC");
  constexpr int kKind = ::simnpu::ascendc::detail::KindOf(reduceType);
  ::simnpu::ascendc::detail::WholeReduce<kKind, T>("ReduceRepeat", dst, src, mask, 0, repeatTime, dstRepStride,
                                                   srcBlkStride, srcRepStride, order, isSetMask, simnpuLoc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                         const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                         const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,
                         SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_same<T, U>::value, "ReduceRepeat: dst and src types must match on this SOC");
  constexpr int kKind = ::simnpu::ascendc::detail::KindOf(reduceType);
  ::simnpu::ascendc::detail::WholeReduce<kKind, T>("ReduceRepeat", dst, src, nullptr, static_cast<uint64_t>(mask),
                                                   repeatTime, dstRepStride, srcBlkStride, srcRepStride, order,
                                                   isSetMask, simnpuLoc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_same<T, U>::value, "ReduceDataBlock: dst and src types must match");
  constexpr int kKind = ::simnpu::ascendc::detail::KindOf(reduceType);
  ::simnpu::ascendc::detail::BlockReduce<kKind, T>("ReduceDataBlock", dst, src, mask, 0, repeatTime, dstRepStride,
                                                   srcBlkStride, srcRepStride, isSetMask, simnpuLoc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                            const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(std::is_same<T, U>::value, "ReduceDataBlock: dst and src types must match");
  constexpr int kKind = ::simnpu::ascendc::detail::KindOf(reduceType);
  ::simnpu::ascendc::detail::BlockReduce<kKind, T>("ReduceDataBlock", dst, src, nullptr, static_cast<uint64_t>(mask),
                                                   repeatTime, dstRepStride, srcBlkStride, srcRepStride, isSetMask,
                                                   simnpuLoc);
}

// ReducePairElem<SUM>: the newer name of PairReduceSum (adjacent pairs of
// each repeat's elements summed; the only reduction the form has).
template <ReduceType reduceType, typename T, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM exists for pair reduction");
  ::simnpu::ascendc::detail::PairReduce<T>("ReducePairElem", dst, src, mask, 0, repeatTime, dstRepStride,
                                           srcBlkStride, srcRepStride, isSetMask, simnpuLoc);
}
template <ReduceType reduceType, typename T, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM exists for pair reduction");
  ::simnpu::ascendc::detail::PairReduce<T>("ReducePairElem", dst, src, nullptr, static_cast<uint64_t>(mask),
                                           repeatTime, dstRepStride, srcBlkStride, srcRepStride, isSetMask, simnpuLoc);
}

// High-dimension ReduceSum / ReduceMax / ReduceMin.
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                      const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,
                      SIMNPU_ASCENDC_LOC_PARAM) {
  (void)work;
  ::simnpu::ascendc::detail::ReduceL0<::simnpu::ascendc::detail::kReduceSum, T>("ReduceSum", dst, src, mask, 0,
                                                                                repeatTime, srcRepStride, false, simnpuLoc);
}
template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, SIMNPU_ASCENDC_LOC_PARAM) {
  (void)work;
  ::simnpu::ascendc::detail::ReduceL0<::simnpu::ascendc::detail::kReduceSum, T>(
      "ReduceSum", dst, src, nullptr, static_cast<uint64_t>(mask), repeatTime, srcRepStride, false, simnpuLoc);
}
#define SIMNPU_ASCENDC_REDUCE_L0_MAXMIN(Name, Kind)                                                              \
  template <typename T>                                                                                         \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,            \
                   const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,                 \
                   bool calIndex = false, SIMNPU_ASCENDC_LOC_PARAM) {                                          \
    (void)work;                                                                                                 \
    ::simnpu::ascendc::detail::ReduceL0<Kind, T>(#Name, dst, src, mask, 0, repeatTime, srcRepStride, calIndex,  \
                                                 simnpuLoc);                                                   \
  }                                                                                                             \
  template <typename T>                                                                                         \
  inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,            \
                   const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,                   \
                   bool calIndex = false, SIMNPU_ASCENDC_LOC_PARAM) {                                          \
    (void)work;                                                                                                 \
    ::simnpu::ascendc::detail::ReduceL0<Kind, T>(#Name, dst, src, nullptr, static_cast<uint64_t>(mask),         \
                                                 repeatTime, srcRepStride, calIndex, simnpuLoc);               \
  }
SIMNPU_ASCENDC_REDUCE_L0_MAXMIN(ReduceMax, ::simnpu::ascendc::detail::kReduceMax)
SIMNPU_ASCENDC_REDUCE_L0_MAXMIN(ReduceMin, ::simnpu::ascendc::detail::kReduceMin)
#undef SIMNPU_ASCENDC_REDUCE_L0_MAXMIN

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_REDUCE_H_
