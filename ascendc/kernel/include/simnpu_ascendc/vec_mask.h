// simnpu Ascend C model: masks and repeat parameters of the vector unit
// (MaskMode, SetVectorMask, SetMaskCount/SetMaskNorm, ResetMask,
// MASK_PLACEHOLDER, BinaryRepeatParams/UnaryRepeatParams, GetVecLen), and
// the repeat engine every "high-dimension" (mask + repeatTime + strides)
// vector API runs on.
//
// Semantics (the SIMD pages "mask", "high-dimension split"):
//  - one repeat is 8 data blocks of 32 bytes: 256 / sizeof(T) elements of the
//    wider operand type (the narrower operand of a Cast covers fewer blocks);
//    element j of a repeat is lane j % (32 / size) of block j / (32 / size);
//  - operand address of repeat r, block b: base + (r * repStride + b * blkStride) * 32;
//  - Normal mode: the mask (128 bits, low 64 first; only the first
//    256 / size bits count) selects the elements of every repeat; a
//    "continuous" mask n sets the first min(n, 256 / size) bits; masked-off
//    destination elements keep their value; repeatTime repeats run;
//  - Counter mode: the mask's low 64 bits are the total element count;
//    repeatTime is ignored and ceil(count / (256 / size)) repeats run, the last
//    one partial;
//  - isSetMask = true: the API loads its mask argument into the mask register
//    (it stays there); false: the API uses the register (SetVectorMask) and
//    its mask argument is a placeholder;
//  - repeatTime 0, or an empty mask, is a no-op.
// Every element an API touches must lie inside its LocalTensor; an access
// outside fails the block with the operand, repeat and offset in the message.
// Repeats run in order and each repeat reads all its sources before it writes
// (so 100% overlapping operands work, as on the NPU).
// The mask registers live in the block context (per thread); no locking.
#ifndef SIMNPU_ASCENDC_VEC_MASK_H_
#define SIMNPU_ASCENDC_VEC_MASK_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// The vector unit's register width in bytes (one repeat).
__aicore__ constexpr inline uint32_t GetVecLen() { return 256; }

constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr uint64_t FULL_MASK = 0xffffffffffffffffull;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t FULL_MASK_LEN = 128;
constexpr int32_t HALF_MASK_LEN = 64;
constexpr uint16_t ONE_BLK_SIZE = 32;
constexpr int32_t DEFAULT_BLOCK_SIZE = 256;
constexpr uint32_t ONE_BLK_HALF_NUM = 16;
constexpr uint32_t ONE_BLK_FLOAT_NUM = 8;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = 128;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = 64;
constexpr uint32_t HALF_REPEAT_SIZE = 128;
constexpr uint32_t FLOAT_REPEAT_SIZE = 64;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint8_t DEFAULT_DATA_COPY_STRIDE = 0;
// The mask argument of an API whose mask comes from SetVectorMask (isSetMask = false).
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                     const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                    const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                    const uint8_t srcRepStrideIn, const bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

inline VecRegs& Regs(const SrcLoc& loc) { return RequireCtx(loc, "vector API").vec; }

// Mask bits kept for an element size: 128 for 16-bit (and 8-bit, whose
// repeat has 256 elements but only 128 mask bits), 64 for 32-bit, 32 for 64-bit.
inline void TrimMask(uint64_t m[2], size_t elem) {
  if (elem >= 4) m[1] = 0;
  if (elem >= 8) m[0] &= 0xffffffffull;
}

inline void ContinuousMask(uint64_t len, size_t per_repeat, uint64_t out[2]) {
  const uint64_t n = len < per_repeat ? len : per_repeat;
  out[0] = n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1u);
  out[1] = n <= 64 ? 0 : (n >= 128 ? ~uint64_t{0} : ((uint64_t{1} << (n - 64)) - 1u));
}

// What a high-dimension call runs: which elements of which repeats.
struct RepeatPlan {
  uint32_t per_repeat = 0;  // elements per repeat
  uint32_t repeats = 0;     // repeats that run (0: no-op)
  uint32_t tail = 0;        // Counter mode: elements of the last repeat
  bool counter = false;
  uint16_t idx[256];        // active element indices of a (full) repeat, ascending
  uint32_t n_active = 0;    // Normal mode: entries of idx; Counter mode: per_repeat

  uint32_t ActiveIn(uint32_t r) const { return counter && r + 1 == repeats ? tail : n_active; }
  bool AllActive() const { return n_active == per_repeat; }
};

// Builds the plan. elem: bytes of the wider operand element; per_repeat
// elements of it fill a repeat. mask: the API's mask bits (array form) or
// nullptr with mask_len (continuous form). Updates the mask register when
// is_set_mask, as the hardware API does.
inline void MakePlan(RepeatPlan& p, size_t elem, const uint64_t* mask_bits, uint64_t mask_len, uint8_t repeat_time,
                     bool is_set_mask, const SrcLoc& loc) {
  VecRegs& regs = Regs(loc);
  p.per_repeat = static_cast<uint32_t>(256 / elem);
  p.counter = regs.counter_mode;
  uint64_t m[2];
  if (is_set_mask) {
    if (mask_bits != nullptr) {
      m[0] = mask_bits[0];
      m[1] = p.counter ? 0 : mask_bits[1];
    } else if (p.counter) {
      m[0] = mask_len;
      m[1] = 0;
    } else {
      ContinuousMask(mask_len, p.per_repeat, m);
    }
    regs.mask[0] = m[0];
    regs.mask[1] = m[1];
  } else {
    m[0] = regs.mask[0];
    m[1] = regs.mask[1];
  }
  if (p.counter) {
    const uint64_t count = m[0];
    p.repeats = static_cast<uint32_t>((count + p.per_repeat - 1) / p.per_repeat);
    p.tail = p.repeats == 0 ? 0 : static_cast<uint32_t>(count - static_cast<uint64_t>(p.repeats - 1) * p.per_repeat);
    p.n_active = p.per_repeat;
    for (uint32_t j = 0; j < p.per_repeat; ++j) p.idx[j] = static_cast<uint16_t>(j);
    return;
  }
  TrimMask(m, elem);
  p.repeats = repeat_time;
  p.n_active = 0;
  // 8-bit elements: 256 per repeat but a 128-bit mask; each bit covers one
  // element of the first 128 (the rest of the repeat is masked off).
  const uint32_t bits = p.per_repeat < 128 ? p.per_repeat : 128;
  for (uint32_t j = 0; j < bits; ++j) {
    if (((m[j / 64] >> (j % 64)) & 1u) != 0) p.idx[p.n_active++] = static_cast<uint16_t>(j);
  }
  if (p.n_active == 0) p.repeats = 0;
}

// A count-form call ("first count elements") as a plan: Counter mode over count.
inline void CountPlan(RepeatPlan& p, size_t elem, uint64_t count) {
  p.per_repeat = static_cast<uint32_t>(256 / elem);
  p.counter = true;
  p.repeats = static_cast<uint32_t>((count + p.per_repeat - 1) / p.per_repeat);
  p.tail = p.repeats == 0 ? 0 : static_cast<uint32_t>(count - static_cast<uint64_t>(p.repeats - 1) * p.per_repeat);
  p.n_active = p.per_repeat;
  for (uint32_t j = 0; j < p.per_repeat; ++j) p.idx[j] = static_cast<uint16_t>(j);
}

// One operand of a repeat-strided access.
struct Operand {
  uint8_t* base = nullptr;
  uint32_t size = 0;   // element bytes
  uint32_t blk = 1;    // data-block stride, in 32-byte blocks
  uint32_t rep = 8;    // repeat stride, in 32-byte blocks
  uint64_t cap = 0;    // bytes of the LocalTensor
  const char* what = "";
  uint32_t offs[256];  // byte offset of each active element inside a repeat

  uint64_t At(uint32_t r, uint32_t k) const { return static_cast<uint64_t>(r) * rep * 32u + offs[k]; }
  // All active elements of a repeat are back to back from the repeat start.
  bool dense = false;
  // Consecutive repeats are back to back too (the whole access is one run).
  bool contiguous = false;
};

template <typename T>
inline Operand MakeOperand(const AscendC::LocalTensor<T>& t, uint32_t blk, uint32_t rep, const char* what) {
  Operand o;
  o.base = reinterpret_cast<uint8_t*>(t.GetPhyAddr());
  o.size = static_cast<uint32_t>(sizeof(T));
  o.blk = blk;
  o.rep = rep;
  o.cap = t.GetLength();
  o.what = what;
  return o;
}

[[noreturn]] SIMNPU_ASCENDC_COLD inline void OperandOverflow(const char* api, const Operand& o, uint32_t r, uint64_t off,
                                                            const SrcLoc& loc) {
  CheckFail(loc,
            "%s: the %s operand reaches byte %llu (repeat %u) but its LocalTensor has %llu bytes (check repeatTime, "
            "mask and the block/repeat strides)",
            api, o.what, static_cast<unsigned long long>(off), r, static_cast<unsigned long long>(o.cap));
}

[[noreturn]] SIMNPU_ASCENDC_COLD inline void MisalignedOperand(const char* api, const char* what, const void* p,
                                                              const SrcLoc& loc) {
  const BlockContext* c = tls_ctx;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const uintptr_t base = c != nullptr ? reinterpret_cast<uintptr_t>(c->ub_base) : 0;
  CheckFail(loc, "%s: the %s operand starts at UB offset %lld, which is not 32-byte aligned", api, what,
            static_cast<long long>(a - base));
}

// The 32-byte start alignment every vector operand needs.
inline void CheckAligned(const char* api, const char* what, const void* p, const SrcLoc& loc) {
  if (__builtin_expect((reinterpret_cast<uintptr_t>(p) & 31u) != 0, 0)) MisalignedOperand(api, what, p, loc);
}

// Fills offs/dense/contiguous for a plan and checks that every active element
// lies inside the operand's tensor.
inline void Prepare(const char* api, Operand& o, const RepeatPlan& p, const SrcLoc& loc) {
  CheckAligned(api, o.what, o.base, loc);
  const uint32_t epb = 32u / o.size;
  o.dense = true;
  for (uint32_t k = 0; k < p.n_active; ++k) {
    const uint32_t j = p.idx[k];
    o.offs[k] = (j / epb) * o.blk * 32u + (j % epb) * o.size;
    if (o.offs[k] != k * o.size) o.dense = false;
  }
  // dense repeats of per_repeat elements, rep stride equal to their bytes
  o.contiguous = o.dense && p.n_active == p.per_repeat && static_cast<uint64_t>(o.rep) * 32u == static_cast<uint64_t>(p.per_repeat) * o.size;
  if (p.repeats == 0) return;
  // the largest offset: every repeat has the same pattern except a partial
  // last one in Counter mode, and offsets grow with r
  const uint32_t last = p.repeats - 1;
  uint64_t hi = 0;
  uint32_t hi_r = last;
  const uint32_t n_last = p.ActiveIn(last);
  if (n_last > 0) hi = o.At(last, n_last - 1);
  for (uint32_t k = 0; k < n_last; ++k) hi = o.At(last, k) > hi ? o.At(last, k) : hi;
  if (p.counter && last > 0) {
    for (uint32_t k = n_last; k < p.n_active; ++k) {
      if (o.At(last - 1, k) > hi) {
        hi = o.At(last - 1, k);
        hi_r = last - 1;
      }
    }
  }
  if (hi + o.size > o.cap) OperandOverflow(api, o, hi_r, hi + o.size, loc);
}

// Runs fn over every repeat. For each repeat, the active elements of each
// operand are packed into a scratch array (or used in place when dense),
// fn(ptrs..., n) computes n packed elements, and the destination's packed
// results are written back. ops[0] is the destination; read_dst: the
// destination's old values are loaded first (for ops that read it).
template <size_t N, typename Fn>
inline void RunRepeats(const RepeatPlan& p, Operand (&ops)[N], bool read_dst, Fn&& fn) {
  if (p.repeats == 0) return;
  bool all_contig = true;
  for (size_t i = 0; i < N; ++i) all_contig = all_contig && ops[i].contiguous;
  if (all_contig) {
    // one run over all elements (the common "strides 1 and 8, full mask" case)
    const uint64_t total = static_cast<uint64_t>(p.repeats - 1) * p.per_repeat + p.ActiveIn(p.repeats - 1);
    uint8_t* ptrs[N];
    for (size_t i = 0; i < N; ++i) ptrs[i] = ops[i].base;
    fn(ptrs, static_cast<size_t>(total));
    return;
  }
  alignas(32) uint8_t scratch[N][256 * 8];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    const uint32_t n = p.ActiveIn(r);
    if (n == 0) continue;
    uint8_t* ptrs[N];
    for (size_t i = 0; i < N; ++i) {
      Operand& o = ops[i];
      uint8_t* start = o.base + static_cast<uint64_t>(r) * o.rep * 32u;
      if (o.dense && i != 0) {
        ptrs[i] = start;
        continue;
      }
      ptrs[i] = scratch[i];
      if (i != 0 || read_dst) {
        for (uint32_t k = 0; k < n; ++k) std::memcpy(scratch[i] + k * o.size, o.base + o.At(r, k), o.size);
      }
    }
    fn(ptrs, static_cast<size_t>(n));
    Operand& d = ops[0];
    for (uint32_t k = 0; k < n; ++k) std::memcpy(d.base + d.At(r, k), scratch[0] + k * d.size, d.size);
  }
}

// Resolves the count of a count-form API called with isSetMask = false: the
// count comes from the mask register, which must be in Counter mode.
inline uint64_t CountFromRegister(const char* api, const SrcLoc& loc) {
  VecRegs& regs = Regs(loc);
  if (!regs.counter_mode) {
    CheckFail(loc, "%s<T, false>: a count-form call without its own mask needs SetMaskCount() and "
                   "SetVectorMask<T, MaskMode::COUNTER>(count) first (the mask register is in Normal mode)", api);
  }
  return regs.mask[0];
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::VecRegs& r = ::simnpu::ascendc::detail::Regs(simnpuLoc);
  if constexpr (mode == MaskMode::COUNTER) {
    r.mask[0] = maskLow;
    r.mask[1] = 0;
  } else {
    r.mask[0] = maskLow;
    r.mask[1] = maskHigh;
    ::simnpu::ascendc::detail::TrimMask(r.mask, sizeof(T));
  }
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::VecRegs& r = d::Regs(simnpuLoc);
  if (len < 0) d::CheckFail(simnpuLoc, "SetVectorMask(%d): the length is negative", len);
  if constexpr (mode == MaskMode::COUNTER) {
    r.mask[0] = static_cast<uint64_t>(len);
    r.mask[1] = 0;
  } else {
    d::ContinuousMask(static_cast<uint64_t>(len), 256 / sizeof(T), r.mask);
  }
}

inline void ResetMask(SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::VecRegs& r = ::simnpu::ascendc::detail::Regs(simnpuLoc);
  r.mask[0] = ~uint64_t{0};
  r.mask[1] = ~uint64_t{0};
}

inline void SetMaskCount(SIMNPU_ASCENDC_LOC_PARAM) { ::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode = true; }
inline void SetMaskNorm(SIMNPU_ASCENDC_LOC_PARAM) { ::simnpu::ascendc::detail::Regs(simnpuLoc).counter_mode = false; }

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_VEC_MASK_H_
