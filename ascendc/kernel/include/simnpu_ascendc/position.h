// simnpu Ascend C model: logical positions (TPosition), the physical local
// memories (Hardware) they live in, and where each memory is in the model.
//
// The unified buffer is the block's UB arena from the runtime (env->ub_base,
// env->ub_size). L1, L0A/L0B/L0C, the bias table and the fixpipe buffer are
// per-thread arrays of the documented sizes, allocated on first use and
// 32-byte aligned; they are not cleared between blocks (their contents are
// undefined on the NPU too). The cube unit's APIs are in cube.h.
// No locking: everything here is per thread.
#ifndef SIMNPU_ASCENDC_POSITION_H_
#define SIMNPU_ASCENDC_POSITION_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#include <vector>

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

// Physical storage of the AI core.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The memory a logical position is in (the 2201 mapping; 1001/2002 keep
// C1/CO2 in UB and C2 in L0C).
__aicore__ constexpr Hardware GetPhyType(TPosition pos) {
  switch (pos) {
    case TPosition::GM:
      return Hardware::GM;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::SPM:
    case TPosition::TSCM:
      return Hardware::L1;
    case TPosition::A2:
      return Hardware::L0A;
    case TPosition::B2:
      return Hardware::L0B;
    case TPosition::CO1:
      return Hardware::L0C;
#if __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002
    case TPosition::C1:
      return Hardware::UB;
    case TPosition::C2:
      return Hardware::L0C;
    case TPosition::CO2:
      return Hardware::UB;
#else
    case TPosition::C1:
      return Hardware::L1;
    case TPosition::C2:
      return Hardware::BIAS;
    case TPosition::CO2:
      return Hardware::GM;
    case TPosition::C2PIPE2GM:
      return Hardware::FIXBUF;
#endif
    default:
      return Hardware::UB;
  }
}

// The position a LocalMemAllocator gives a tensor when none is named.
__aicore__ constexpr TPosition GetDefaultPosition(Hardware hard) {
  switch (hard) {
    case Hardware::UB:
      return TPosition::VECCALC;
    case Hardware::L1:
      return TPosition::A1;
    case Hardware::L0A:
      return TPosition::A2;
    case Hardware::L0B:
      return TPosition::B2;
    case Hardware::L0C:
      return TPosition::CO1;
    case Hardware::BIAS:
      return TPosition::C2;
    case Hardware::FIXBUF:
      return TPosition::C2PIPE2GM;
    default:
      return TPosition::MAX;
  }
}

inline int64_t GetBlockIdx() { return ::block_idx; }
inline int64_t GetBlockNum() { return ::block_num; }
// MIX kernels (mix.h): an AIV's index among the AIVs of its block, and the
// AIV:AIC ratio seen from the running core (2 on an AIV of a MIX block).
inline int64_t GetSubBlockIdx() {
  const ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
  return c != nullptr ? c->sub_block_idx : 0;
}
inline int64_t GetTaskRation() {
  const ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
  return c != nullptr && c->mix_group != nullptr && c->core_type == SIMNPU_KERNEL_AIV ? 2 : 1;
}

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

SIMNPU_ASCENDC_HIDDEN inline const char* PositionName(AscendC::TPosition p) {
  static const char* const kNames[] = {"GM",  "A1",     "A2",     "B1",      "B2",   "C1",        "C2",
                                       "CO1", "CO2",    "VECIN",  "VECOUT",  "VECCALC", "SPM", "TSCM",
                                       "C2PIPE2GM", "C2PIPE2LOCAL", "MAX"};
  const unsigned i = static_cast<unsigned>(p);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

// Local memories, indexed by Hardware.
constexpr int kMemCount = static_cast<int>(AscendC::Hardware::MAX);
constexpr int kMemUB = static_cast<int>(AscendC::Hardware::UB);

inline int MemOf(AscendC::TPosition p) { return static_cast<int>(AscendC::GetPhyType(p)); }

SIMNPU_ASCENDC_HIDDEN inline const char* MemName(int m) {
  static const char* const kNames[] = {"global memory", "unified buffer (UB)", "L1 buffer", "L0A buffer",
                                       "L0B buffer",    "L0C buffer",          "bias table", "fixpipe buffer"};
  return m >= 0 && m < kMemCount ? kNames[m] : "?";
}

// Sizes of the non-UB local memories (the UB size comes from the runtime).
SIMNPU_ASCENDC_HIDDEN inline size_t MemCapacity(int m) {
#if __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 3002
  static const size_t kCaps[] = {0, 0, 1048576, 65536, 65536, 262144, 1024, 7168};
#elif __NPU_ARCH__ == 3510
  static const size_t kCaps[] = {0, 0, 524288, 65536, 65536, 262144, 1024, 7168};
#else
  static const size_t kCaps[] = {0, 0, 524288, 65536, 65536, 131072, 1024, 7168};
#endif
  return m >= 0 && m < kMemCount ? kCaps[m] : 0;
}

// Per-thread backing store for the non-UB local memories (32-byte aligned).
SIMNPU_ASCENDC_HIDDEN inline uint8_t* LocalMemBase(int m) {
  static thread_local std::vector<uint8_t> store[kMemCount];
  std::vector<uint8_t>& v = store[m];
  if (v.empty()) v.resize(MemCapacity(m) + 64);
  const uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
  return reinterpret_cast<uint8_t*>((p + 31u) & ~uintptr_t{31});
}

// Base and size of a local memory for the running block (null/0 for GM or
// outside a block).
inline uint8_t* MemBase(const BlockContext* c, int m) {
  if (m == kMemUB) return c != nullptr ? c->ub_base : nullptr;
  if (m <= 0 || m >= kMemCount) return nullptr;
  return LocalMemBase(m);
}
inline size_t MemSize(const BlockContext* c, int m) {
  if (m == kMemUB) return c != nullptr ? c->ub_size : 0;
  return MemCapacity(m);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#endif  // SIMNPU_ASCENDC_POSITION_H_
