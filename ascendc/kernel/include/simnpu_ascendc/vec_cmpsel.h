// simnpu Ascend C model: compare and select. Compare (tensor vs tensor),
// Compares (tensor vs scalar), Compare into the CMPMASK register,
// SetCmpMask/GetCmpMask, Select (modes 0, 1, 2) and GatherMask.
//
// Compare results are bits, little-endian: bit i of byte k is element 8k+i.
// A2/A3 rules modelled (the compare and select pages):
//  - count forms compare whole 256-byte repeats only; elements of a partial
//    last repeat are not compared (a count that is not a multiple of the
//    repeat is reported once per call site);
//  - the high-dimension Compare/Compares ignore mask (a reserved parameter on
//    these SOCs; every element of each repeat is compared) and write their
//    bits back to back: repeat r at dst + r * (256 / sizeof(T) / 8) bytes;
//  - int32_t compares support EQ only;
//  - Select mode 0 reuses the first 256 / sizeof(T) selMask bits (the CMPMASK
//    register) in every repeat; modes 1 and 2 consume selMask bit by bit
//    across repeats; bit 1 takes src0, bit 0 takes src1 (tensor or scalar);
//  - GatherMask packs the selected elements of src0 into dst and returns the
//    count; after it the mask register is in Normal mode.
#ifndef SIMNPU_ASCENDC_VEC_CMPSEL_H_
#define SIMNPU_ASCENDC_VEC_CMPSEL_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class CMPMODE : uint8_t {
  LT = 0,
  GT,
  EQ,
  LE,
  GE,
  NE,
};

enum class SELMODE : uint8_t {
  VSEL_CMPMASK_SPR = 0,
  VSEL_TENSOR_SCALAR_MODE,
  VSEL_TENSOR_TENSOR_MODE,
};

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                   const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

constexpr uint32_t kSiteCompareTail = 4;

template <typename T>
constexpr bool kIsCmpType = std::is_same<T, half>::value || std::is_same<T, float>::value ||
                            std::is_same<T, int32_t>::value
#if __NPU_ARCH__ == 3510
                            || std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                            std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                            std::is_same<T, bfloat16_t>::value || std::is_same<T, uint32_t>::value ||
                            std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value ||
                            std::is_same<T, double>::value
#endif
    ;
template <typename U>
constexpr bool kIsBitsType = std::is_same<U, uint8_t>::value || std::is_same<U, int8_t>::value;
template <typename U>
constexpr bool kIsSelMaskType = std::is_same<U, uint8_t>::value || std::is_same<U, uint16_t>::value ||
                                std::is_same<U, uint32_t>::value || std::is_same<U, uint64_t>::value;
template <typename T>
constexpr bool kIsSelType = std::is_same<T, half>::value || std::is_same<T, float>::value;

SIMNPU_ASCENDC_HIDDEN inline const char* CmpName(AscendC::CMPMODE m) {
  static const char* const kNames[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
  const unsigned i = static_cast<unsigned>(m);
  return i < 6 ? kNames[i] : "?";
}

template <typename T>
inline bool CmpOne(T a, T b, AscendC::CMPMODE m) {
  using C = typename std::conditional<fp::IsHalfLike<T>::value, float, T>::type;
  const C x = static_cast<C>(a);
  const C y = static_cast<C>(b);
  switch (m) {
    case AscendC::CMPMODE::LT: return x < y;
    case AscendC::CMPMODE::GT: return x > y;
    case AscendC::CMPMODE::EQ: return x == y;
    case AscendC::CMPMODE::LE: return x <= y;
    case AscendC::CMPMODE::GE: return x >= y;
    default: return x != y;
  }
}

template <typename T>
inline void CheckCmpMode(const char* api, AscendC::CMPMODE m, const SrcLoc& loc) {
  if (static_cast<unsigned>(m) > 5) CheckFail(loc, "%s: invalid CMPMODE %u", api, static_cast<unsigned>(m));
#if __NPU_ARCH__ != 3510
  if (std::is_same<T, int32_t>::value && m != AscendC::CMPMODE::EQ) {
    CheckFail(loc, "%s: int32_t operands support CMPMODE::EQ only on arch %d (got %s)", api, __NPU_ARCH__, CmpName(m));
  }
#endif
}

inline void SetBit(uint8_t* bits, uint64_t i, bool v) {
  uint8_t& b = bits[i / 8];
  const uint8_t m = static_cast<uint8_t>(1u << (i % 8));
  b = v ? static_cast<uint8_t>(b | m) : static_cast<uint8_t>(b & ~m);
}
inline bool GetBit(const uint8_t* bits, uint64_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

// Compares `repeats` whole repeats; src1 is null for the scalar form.
template <typename T>
inline void CompareRepeats(const char* api, uint8_t* dst, uint64_t dst_cap, const Operand& s0, const Operand* s1, T scalar,
                           AscendC::CMPMODE mode, uint32_t repeats, const SrcLoc& loc) {
  constexpr uint32_t kPer = 256 / sizeof(T);
  const uint64_t need = static_cast<uint64_t>(repeats) * kPer / 8;
  if (need > dst_cap) {
    CheckFail(loc, "%s: %u repeats write %llu bytes of result bits but dst has %llu bytes", api, repeats,
              static_cast<unsigned long long>(need), static_cast<unsigned long long>(dst_cap));
  }
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t j = 0; j < kPer; ++j) {
      T a, b;
      std::memcpy(&a, s0.base + s0.At(r, j), sizeof(T));
      if (s1 != nullptr) {
        std::memcpy(&b, s1->base + s1->At(r, j), sizeof(T));
      } else {
        b = scalar;
      }
      SetBit(dst, static_cast<uint64_t>(r) * kPer + j, CmpOne<T>(a, b, mode));
    }
  }
}

// Plan for a whole-repeat compare: every element of each repeat.
inline void FullPlan(RepeatPlan& p, size_t elem, uint32_t repeats) {
  p.per_repeat = static_cast<uint32_t>(256 / elem);
  p.counter = false;
  p.repeats = repeats;
  p.n_active = p.per_repeat;
  for (uint32_t j = 0; j < p.per_repeat; ++j) p.idx[j] = static_cast<uint16_t>(j);
}

template <typename T>
inline uint32_t CompareCountRepeats(const char* api, uint32_t count, const SrcLoc& loc) {
  constexpr uint32_t kPer = 256 / sizeof(T);
  if (count % kPer != 0 && FirstTimeAtSite(loc, kSiteCompareTail)) {
    Diagnostic(2, loc,
               "%s: count %u is not a multiple of %u (256 bytes of elements); the last %u elements are not compared "
               "(reported once per call site)",
               api, count, kPer, count % kPer);
  }
  return count / kPer;
}

// Select: element j of repeat r -> bit index in selMask.
inline uint64_t SelBit(AscendC::SELMODE m, uint32_t r, uint32_t j, uint32_t per) {
  return m == AscendC::SELMODE::VSEL_CMPMASK_SPR ? j : static_cast<uint64_t>(r) * per + j;
}

template <typename T>
inline void SelectRun(const char* api, AscendC::SELMODE mode, const uint8_t* sel, uint64_t sel_bits, Operand (&ops)[3],
                      bool scalar_form, T scalar, RepeatPlan& p, const SrcLoc& loc) {
  if (static_cast<unsigned>(mode) > 2) CheckFail(loc, "%s: invalid SELMODE %u", api, static_cast<unsigned>(mode));
  if (scalar_form && mode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    CheckFail(loc, "%s: a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE", api);
  }
  if (!scalar_form && mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    CheckFail(loc, "%s: SELMODE::VSEL_TENSOR_SCALAR_MODE needs a scalar src1", api);
  }
  const size_t n_ops = scalar_form ? 2 : 3;
  for (size_t i = 0; i < n_ops; ++i) Prepare(api, ops[i], p, loc);
  if (p.repeats == 0) return;
  // the highest selMask bit read
  const uint32_t last = p.repeats - 1;
  uint64_t hi = 0;
  for (uint32_t k = 0; k < p.n_active; ++k) {
    if (p.counter && last == 0 && k >= p.ActiveIn(0)) break;
    const uint32_t r = p.counter && k >= p.ActiveIn(last) && last > 0 ? last - 1 : last;
    const uint64_t b = SelBit(mode, r, p.idx[k], p.per_repeat);
    hi = b > hi ? b : hi;
  }
  if (hi >= sel_bits) {
    CheckFail(loc, "%s: reads selMask bit %llu but selMask has %llu bits", api, static_cast<unsigned long long>(hi),
              static_cast<unsigned long long>(sel_bits));
  }
  for (uint32_t r = 0; r < p.repeats; ++r) {
    const uint32_t n = p.ActiveIn(r);
    T out[256];
    for (uint32_t k = 0; k < n; ++k) {
      const bool take0 = GetBit(sel, SelBit(mode, r, p.idx[k], p.per_repeat));
      if (take0) {
        std::memcpy(&out[k], ops[1].base + ops[1].At(r, k), sizeof(T));
      } else if (scalar_form) {
        out[k] = scalar;
      } else {
        std::memcpy(&out[k], ops[2].base + ops[2].At(r, k), sizeof(T));
      }
    }
    for (uint32_t k = 0; k < n; ++k) std::memcpy(ops[0].base + ops[0].At(r, k), &out[k], sizeof(T));
  }
}

inline bool BuiltinPatternBit(uint8_t pattern, uint32_t j) {
  switch (pattern) {
    case 1: return (j & 1u) == 0;
    case 2: return (j & 1u) == 1;
    case 3: return (j & 3u) == 0;
    case 4: return (j & 3u) == 1;
    case 5: return (j & 3u) == 2;
    case 6: return (j & 3u) == 3;
    default: return true;
  }
}

// GatherMask: src1 null for a built-in pattern.
template <typename T>
inline uint64_t GatherMaskRun(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                              const uint8_t* pat, uint64_t pat_bytes, uint8_t builtin, bool reduce, uint32_t mask,
                              const AscendC::GatherMaskParams& gp, const SrcLoc& loc) {
  const char* api = "GatherMask";
  CheckAligned(api, "dst", dst.GetPhyAddr(), loc);
  CheckAligned(api, "src0", src0.GetPhyAddr(), loc);
  if (pat == nullptr && (builtin < 1 || builtin > 7)) CheckFail(loc, "%s: built-in pattern %u is outside [1, 7]", api, builtin);
  constexpr uint32_t kPer = 256 / sizeof(T);
  constexpr uint32_t kEpb = 32 / sizeof(T);
  const uint32_t per = reduce ? mask : kPer;  // elements of one repeat
  if (reduce && mask == 0) CheckFail(loc, "%s: Counter mode (reduceMode = true) needs mask >= 1", api);
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src0.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint64_t s_cap = src0.GetLength();
  const uint64_t d_cap = dst.GetLength();
  // gather into a temporary first: dst may be src0 (the page's example)
  std::vector<T> kept;
  kept.reserve(static_cast<size_t>(per) * gp.repeatTimes);
  for (uint32_t r = 0; r < gp.repeatTimes; ++r) {
    const uint64_t pat_base = static_cast<uint64_t>(r) * gp.src1RepeatStride * 32u;
    for (uint32_t j = 0; j < per; ++j) {
      bool take;
      if (pat != nullptr) {
        const uint64_t bit = pat_base * 8 + j;
        if (bit / 8 >= pat_bytes) {
          CheckFail(loc, "%s: repeat %u reads pattern byte %llu but src1Pattern has %llu bytes", api, r,
                    static_cast<unsigned long long>(bit / 8), static_cast<unsigned long long>(pat_bytes));
        }
        take = GetBit(pat, bit);
      } else {
        take = BuiltinPatternBit(builtin, j);
      }
      if (!take) continue;
      const uint64_t off = (static_cast<uint64_t>(r) * gp.src0RepeatStride + (j / kEpb) * gp.src0BlockStride) * 32u +
                           (j % kEpb) * sizeof(T);
      if (off + sizeof(T) > s_cap) {
        CheckFail(loc, "%s: repeat %u reads src0 byte %llu but src0 has %llu bytes", api, r,
                  static_cast<unsigned long long>(off + sizeof(T)), static_cast<unsigned long long>(s_cap));
      }
      T v;
      std::memcpy(&v, s + off, sizeof(T));
      kept.push_back(v);
    }
  }
  if (kept.size() * sizeof(T) > d_cap) {
    CheckFail(loc, "%s: keeps %zu elements but dst holds %llu", api, kept.size(),
              static_cast<unsigned long long>(d_cap / sizeof(T)));
  }
  if (!kept.empty()) std::memcpy(d, kept.data(), kept.size() * sizeof(T));
  VecRegs& regs = Regs(loc);
  regs.counter_mode = false;
  regs.rsvd_count = kept.size();
  return kept.size();
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// ---- Compare: dst bits = src0 <cmp> src1.
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsCmpType<T>, "Compare: unsupported source type (half, float, int32_t)");
  static_assert(d::kIsBitsType<U>, "Compare: the destination type must be uint8_t or int8_t");
  d::CheckCmpMode<T>("Compare", cmpMode, simnpuLoc);
  d::CheckAligned("Compare", "dst", dst.GetPhyAddr(), simnpuLoc);
  const uint32_t repeats = d::CompareCountRepeats<T>("Compare", count, simnpuLoc);
  d::RepeatPlan p;
  d::FullPlan(p, sizeof(T), repeats);
  d::Operand s0 = d::MakeOperand(src0, 1, 8, "src0");
  d::Operand s1 = d::MakeOperand(src1, 1, 8, "src1");
  d::Prepare("Compare", s0, p, simnpuLoc);
  d::Prepare("Compare", s1, p, simnpuLoc);
  d::CompareRepeats<T>("Compare", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), dst.GetLength(), s0, &s1, T(), cmpMode,
                       repeats, simnpuLoc);
}

template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsCmpType<T>, "Compare: unsupported source type (half, float, int32_t)");
  static_assert(d::kIsBitsType<U>, "Compare: the destination type must be uint8_t or int8_t");
  (void)mask;
  d::CheckCmpMode<T>("Compare", cmpMode, simnpuLoc);
  d::CheckAligned("Compare", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::FullPlan(p, sizeof(T), repeatTime);
  d::Operand s0 = d::MakeOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride, "src0");
  d::Operand s1 = d::MakeOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, "src1");
  d::Prepare("Compare", s0, p, simnpuLoc);
  d::Prepare("Compare", s1, p, simnpuLoc);
  d::CompareRepeats<T>("Compare", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), dst.GetLength(), s0, &s1, T(), cmpMode,
                       repeatTime, simnpuLoc);
}

template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  const uint64_t bits[2] = {mask, 0};
  Compare<T, U, isSetMask>(dst, src0, src1, cmpMode, bits, repeatTime, repeatParams, simnpuLoc);
}

// ---- Compare of one repeat into the CMPMASK register (read by Select mode 0).
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
                    const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsCmpType<T>, "Compare: unsupported source type (half, float, int32_t)");
  d::CheckCmpMode<T>("Compare", cmpMode, simnpuLoc);
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), mask, 0, 1, isSetMask, simnpuLoc);
  d::Operand s0 = d::MakeOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride, "src0");
  d::Operand s1 = d::MakeOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, "src1");
  d::Prepare("Compare", s0, p, simnpuLoc);
  d::Prepare("Compare", s1, p, simnpuLoc);
  uint8_t bits[16] = {};
  for (uint32_t k = 0; k < p.ActiveIn(0) && p.repeats > 0; ++k) {
    T a, b;
    std::memcpy(&a, s0.base + s0.At(0, k), sizeof(T));
    std::memcpy(&b, s1.base + s1.At(0, k), sizeof(T));
    d::SetBit(bits, p.idx[k], d::CmpOne<T>(a, b, cmpMode));
  }
  d::VecRegs& regs = d::Regs(simnpuLoc);
  std::memcpy(regs.cmp_mask, bits, 16);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
                    const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  uint64_t bits[2];
  ::simnpu::ascendc::detail::ContinuousMask(mask, 256 / sizeof(T), bits);
  Compare<T, true>(src0, src1, cmpMode, bits, repeatParams, simnpuLoc);
}

// CMPMASK register <-> 128 bits of a tensor.
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (dst.GetLength() < 16) d::CheckFail(simnpuLoc, "GetCmpMask: dst needs 16 bytes, it has %u", dst.GetLength());
  std::memcpy(dst.GetPhyAddr(), d::Regs(simnpuLoc).cmp_mask, 16);
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (src.GetLength() < 16) d::CheckFail(simnpuLoc, "SetCmpMask: src needs 16 bytes, it has %u", src.GetLength());
  std::memcpy(d::Regs(simnpuLoc).cmp_mask, src.GetPhyAddr(), 16);
}

// ---- Compares: dst bits = src0 <cmp> scalar.
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1Scalar, CMPMODE cmpMode,
                     uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsCmpType<T>, "Compares: unsupported source type (half, float, int32_t)");
  static_assert(d::kIsBitsType<U>, "Compares: the destination type must be uint8_t or int8_t");
  d::CheckCmpMode<T>("Compares", cmpMode, simnpuLoc);
  d::CheckAligned("Compares", "dst", dst.GetPhyAddr(), simnpuLoc);
  const uint32_t repeats = d::CompareCountRepeats<T>("Compares", count, simnpuLoc);
  d::RepeatPlan p;
  d::FullPlan(p, sizeof(T), repeats);
  d::Operand s0 = d::MakeOperand(src0, 1, 8, "src0");
  d::Prepare("Compares", s0, p, simnpuLoc);
  d::CompareRepeats<T>("Compares", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), dst.GetLength(), s0, nullptr,
                       src1Scalar, cmpMode, repeats, simnpuLoc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsCmpType<T>, "Compares: unsupported source type (half, float, int32_t)");
  static_assert(d::kIsBitsType<U>, "Compares: the destination type must be uint8_t or int8_t");
  (void)mask;
  d::CheckCmpMode<T>("Compares", cmpMode, simnpuLoc);
  d::CheckAligned("Compares", "dst", dst.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::FullPlan(p, sizeof(T), repeatTime);
  d::Operand s0 = d::MakeOperand(src0, repeatParams.srcBlkStride, repeatParams.srcRepStride, "src0");
  d::Prepare("Compares", s0, p, simnpuLoc);
  d::CompareRepeats<T>("Compares", reinterpret_cast<uint8_t*>(dst.GetPhyAddr()), dst.GetLength(), s0, nullptr,
                       src1Scalar, cmpMode, repeatTime, simnpuLoc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                     const typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1Scalar, CMPMODE cmpMode,
                     const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  const uint64_t bits[2] = {mask, 0};
  Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, bits, repeatTime, repeatParams, simnpuLoc);
}

// ---- Select.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSelType<T>, "Select: unsupported data type (half, float)");
  static_assert(d::kIsSelMaskType<U>, "Select: selMask must be uint8_t, uint16_t, uint32_t or uint64_t");
  d::CheckAligned("Select", "selMask", selMask.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::CountPlan(p, sizeof(T), count);
  d::Operand ops[3] = {d::MakeOperand(dst, 1, 8, "dst"), d::MakeOperand(src0, 1, 8, "src0"),
                       d::MakeOperand(src1, 1, 8, "src1")};
  d::SelectRun<T>("Select", selMode, reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()),
                  static_cast<uint64_t>(selMask.GetLength()) * 8, ops, false, T(), p, simnpuLoc);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1, SELMODE selMode, uint32_t count,
                   SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSelType<T>, "Select: unsupported data type (half, float)");
  static_assert(d::kIsSelMaskType<U>, "Select: selMask must be uint8_t, uint16_t, uint32_t or uint64_t");
  d::CheckAligned("Select", "selMask", selMask.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::CountPlan(p, sizeof(T), count);
  d::Operand ops[3] = {d::MakeOperand(dst, 1, 8, "dst"), d::MakeOperand(src0, 1, 8, "src0"), d::Operand()};
  d::SelectRun<T>("Select", selMode, reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()),
                  static_cast<uint64_t>(selMask.GetLength()) * 8, ops, true, src1, p, simnpuLoc);
}

template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const uint64_t mask[], uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSelType<T>, "Select: unsupported data type (half, float)");
  static_assert(d::kIsSelMaskType<U>, "Select: selMask must be uint8_t, uint16_t, uint32_t or uint64_t");
  d::CheckAligned("Select", "selMask", selMask.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), mask, 0, repeatTime, isSetMask, simnpuLoc);
  d::Operand ops[3] = {d::MakeOperand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride, "dst"),
                       d::MakeOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride, "src0"),
                       d::MakeOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, "src1")};
  d::SelectRun<T>("Select", selMode, reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()),
                  static_cast<uint64_t>(selMask.GetLength()) * 8, ops, false, T(), p, simnpuLoc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                   const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  uint64_t bits[2];
  ::simnpu::ascendc::detail::ContinuousMask(mask, 256 / sizeof(T), bits);
  if (::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode) {
    bits[0] = mask;
    bits[1] = 0;
  }
  Select<T, U, isSetMask>(dst, selMask, src0, src1, selMode, bits, repeatTime, repeatParams, simnpuLoc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1, SELMODE selMode,
                   const uint64_t mask[], uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                   SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSelType<T>, "Select: unsupported data type (half, float)");
  static_assert(d::kIsSelMaskType<U>, "Select: selMask must be uint8_t, uint16_t, uint32_t or uint64_t");
  d::CheckAligned("Select", "selMask", selMask.GetPhyAddr(), simnpuLoc);
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), mask, 0, repeatTime, isSetMask, simnpuLoc);
  d::Operand ops[3] = {d::MakeOperand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride, "dst"),
                       d::MakeOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride, "src0"),
                       d::Operand()};
  d::SelectRun<T>("Select", selMode, reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()),
                  static_cast<uint64_t>(selMask.GetLength()) * 8, ops, true, src1, p, simnpuLoc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   typename ::simnpu::ascendc::detail::TypeIdentity<T>::type src1, SELMODE selMode, uint64_t mask,
                   uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  uint64_t bits[2];
  ::simnpu::ascendc::detail::ContinuousMask(mask, 256 / sizeof(T), bits);
  if (::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode) {
    bits[0] = mask;
    bits[1] = 0;
  }
  Select<T, U, isSetMask>(dst, selMask, src0, src1, selMode, bits, repeatTime, repeatParams, simnpuLoc);
}
// Mode 0 with the CMPMASK register and the mask register (SetVectorMask).
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   uint8_t repeatTime, const BinaryRepeatParams& repeatParams, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(d::kIsSelType<T>, "Select: unsupported data type (half, float)");
  static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE, "Select: this form needs two source tensors");
  d::RepeatPlan p;
  d::MakePlan(p, sizeof(T), nullptr, 0, repeatTime, false, simnpuLoc);
  d::Operand ops[3] = {d::MakeOperand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride, "dst"),
                       d::MakeOperand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride, "src0"),
                       d::MakeOperand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride, "src1")};
  uint8_t cmp[16];
  std::memcpy(cmp, d::Regs(simnpuLoc).cmp_mask, 16);
  d::SelectRun<T>("Select", SELMODE::VSEL_CMPMASK_SPR, cmp, 128, ops, false, T(), p, simnpuLoc);
}

// ---- GatherMask: keep the elements whose pattern bit is 1, packed.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, SIMNPU_ASCENDC_LOC_PARAM) {
  static_assert(sizeof(U) == sizeof(T) && std::is_unsigned<U>::value,
                "GatherMask: src1Pattern must be the unsigned type of the element size");
  rsvdCnt = ::simnpu::ascendc::detail::GatherMaskRun<T>(dst, src0,
                                                        reinterpret_cast<const uint8_t*>(src1Pattern.GetPhyAddr()),
                                                        src1Pattern.GetLength(), 0, reduceMode, mask, gatherMaskParams,
                                                        simnpuLoc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, SIMNPU_ASCENDC_LOC_PARAM) {
  rsvdCnt = ::simnpu::ascendc::detail::GatherMaskRun<T>(dst, src0, nullptr, 0, src1Pattern, reduceMode, mask,
                                                        gatherMaskParams, simnpuLoc);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_CMPSEL_H_
