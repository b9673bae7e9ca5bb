// simnpu: the host tiling API (tiling/tiling_api.h).
//
//   - tiling data classes: BEGIN_TILING_DATA_DEF ... (register/tilingdata_base.h)
//   - platform facts: platform_ascendc::PlatformAscendC (tiling/platform/platform_ascendc.h)
//   - ge::Shape (graph/tensor.h), the shape type of the API families' tiling functions
//   - the host form (optiling::<Struct>) of the API families' tiling structs,
//     whose kernel form (::<Struct>) kernel_tiling/kernel_tiling.h defines
//   - the families' host tiling functions (Get<Api>MaxMinTmpSize, <Api>TilingFunc...),
//     one header each, included below
#ifndef SIMNPU_TILING_TILING_API_H_
#define SIMNPU_TILING_TILING_API_H_

#include "graph/tensor.h"
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
#define SIMNPU_TILING_DEFINE(Name, FIELDS) SIMNPU_TILING_HOST_CLASS(Name, FIELDS)
#include "kernel_tiling/tiling_families.inc"
#undef SIMNPU_TILING_DEFINE
}  // namespace optiling

// ---- host tiling functions of the API families: one #include per family
// (tiling/<family>/<family>_tiling.h), added by the families.
#include "tiling/matmul/matmul_tiling.h"
#include "tiling/activation/softmax_tiling.h"
#include "tiling/math/math_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/pad/pad_tiling.h"
#include "tiling/sort/topk_tiling.h"

#endif  // SIMNPU_TILING_TILING_API_H_
