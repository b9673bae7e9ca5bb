// simnpu: tiling as kernels see it (kernel_tiling/kernel_tiling.h).
//
//   - the kernel form (plain structs, global namespace) of the API families'
//     tiling structs (tiling_families.inc, tiling_struct.h);
//   - reading tiling data from global memory in a kernel:
//       GET_TILING_DATA_WITH_STRUCT(Type, var, tilingGm)    Type var = *tilingGm
//       REGISTER_TILING_DEFAULT(Type);  GET_TILING_DATA(var, tilingGm)
//       GET_TILING_DATA_MEMBER(Type, member, var, tilingGm) one member
//       GET_TILING_DATA_PTR_WITH_STRUCT(Type, ptr, tilingGm) a pointer, no copy
//     The copies go through the checked global-memory path of the model
//     (managed memory faults and migrates as for DataCopy).
//
// Stands alone (host code includes it too); the GET_ macros need
// kernel_operator.h where they are used.
#ifndef SIMNPU_KERNEL_TILING_KERNEL_TILING_H_
#define SIMNPU_KERNEL_TILING_KERNEL_TILING_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/tiling_struct.h"

#define SIMNPU_TILING_DEFINE(Name, FIELDS) SIMNPU_TILING_KERNEL_STRUCT(Name, FIELDS)
#include "kernel_tiling/tiling_families.inc"
#undef SIMNPU_TILING_DEFINE

namespace simnpu {
namespace ascendc {
namespace detail {
// The type GET_TILING_DATA uses before any REGISTER_TILING_DEFAULT.
struct NoDefaultTiling {};
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu
using SimnpuTilingDefault = ::simnpu::ascendc::detail::NoDefaultTiling;

// The SoftMax family's plan, shared by the host tiling functions and the
// kernel-side SoftMaxFlashV2TilingFunc: [m, k] worked a row at a time, a row
// costing k floats plus one 32-byte block, as many rows per split as
// work_bytes holds (at least one, at most m); row blocks of per_blk elements.
#if __cplusplus >= 201402L
#define SIMNPU_TILING_CONSTEXPR14 constexpr
#else
#define SIMNPU_TILING_CONSTEXPR14
#endif
namespace simnpu {
namespace tiling {
inline constexpr uint32_t SoftMaxRowBytes(uint32_t k) { return ((k * 4u + 31u) / 32u) * 32u + 32u; }
inline SIMNPU_TILING_CONSTEXPR14 ::SoftMaxTiling SoftMaxPlan(uint32_t m, uint32_t k, uint32_t per_blk,
                                                            uint32_t work_bytes) {
  ::SoftMaxTiling t{};
  uint32_t split = work_bytes / SoftMaxRowBytes(k);
  if (split == 0) split = 1;
  if (split > m) split = m;
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = per_blk;
  t.outMaxSize = m * per_blk;
  t.splitM = split;
  t.splitK = k;
  t.splitSize = split * k;
  t.reduceM = split;
  t.reduceK = per_blk;
  t.reduceSize = split * per_blk;
  t.rangeM = split == 0 ? 0 : m / split;
  t.tailM = split == 0 ? 0 : m % split;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * per_blk;
  return t;
}
}  // namespace tiling
}  // namespace simnpu

#define SIMNPU_TILING_READ(dst, src, bytes)                                                           \
  ::simnpu::ascendc::detail::GmRead((dst), reinterpret_cast<const void*>(src), (bytes),               \
                                    ::simnpu::ascendc::SrcLoc::Here())

#define GET_TILING_DATA_WITH_STRUCT(tiling_type, tiling_data, tiling_arg)                             \
  tiling_type tiling_data;                                                                            \
  static_assert(std::is_trivially_copyable<tiling_type>::value, "tiling structs must be trivially copyable"); \
  SIMNPU_TILING_READ(&tiling_data, (tiling_arg), sizeof(tiling_type))

#define REGISTER_TILING_DEFAULT(tiling_type) using SimnpuTilingDefault = tiling_type

#define GET_TILING_DATA(tiling_data, tiling_arg)                                                      \
  static_assert(!std::is_same<SimnpuTilingDefault, ::simnpu::ascendc::detail::NoDefaultTiling>::value, \
                "GET_TILING_DATA needs REGISTER_TILING_DEFAULT(<tiling struct>) before it");           \
  GET_TILING_DATA_WITH_STRUCT(SimnpuTilingDefault, tiling_data, tiling_arg)

#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling_arg)                                  \
  decltype(tiling_type::member) var;                                                                  \
  SIMNPU_TILING_READ(&var, reinterpret_cast<const uint8_t*>(tiling_arg) + offsetof(tiling_type, member), \
                     sizeof(var))

#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_type, dst_ptr, tiling_arg) \
  const __gm__ tiling_type* dst_ptr = reinterpret_cast<const __gm__ tiling_type*>(tiling_arg)

#endif  // SIMNPU_KERNEL_TILING_KERNEL_TILING_H_
