// simnpu: the Ascend C kernel interface as a CPU model. Kernels include this
// header; it pulls in the internal headers under simnpu_ascendc/ in order.
// Everything is header-only and compiled into each kernel image.
#ifndef SIMNPU_ASCENDC_KERNEL_OPERATOR_H_
#define SIMNPU_ASCENDC_KERNEL_OPERATOR_H_

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "kernel_operator.h (simnpu CPU model) needs C++17 or later"
#endif

#define SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H 1

#include "simnpu_ascendc/prelude.h"
#include "kernel_tiling/kernel_tiling.h"
#include "simnpu_ascendc/fp16.h"
#include "simnpu_ascendc/fp8.h"
#include "simnpu_ascendc/memcheck.h"
#include "simnpu_ascendc/context.h"
#include "simnpu_ascendc/position.h"
#include "simnpu_ascendc/soc_state.h"
#include "simnpu_ascendc/type_utils.h"
#include "simnpu_ascendc/simd.h"
#include "simnpu_ascendc/tensor.h"
#include "simnpu_ascendc/atomic.h"
#include "simnpu_ascendc/scalar_atomic.h"
#include "simnpu_ascendc/ub_info.h"
#include "simnpu_ascendc/pipe.h"
#include "simnpu_ascendc/sync.h"
#include "simnpu_ascendc/local_mem.h"
#include "simnpu_ascendc/data_copy.h"
#include "simnpu_ascendc/vec_mask.h"
#include "simnpu_ascendc/vector_ops.h"
#include "simnpu_ascendc/vec_compound.h"
#include "simnpu_ascendc/vec_level0.h"
#include "simnpu_ascendc/vec_logic.h"
#include "simnpu_ascendc/vec_cmpsel.h"
#include "simnpu_ascendc/vec_gather.h"
#include "simnpu_ascendc/vec_scatter.h"
#include "simnpu_ascendc/data_copy_pad.h"
#include "simnpu_ascendc/cast_reduce.h"
#include "simnpu_ascendc/vec_reduce.h"
#include "simnpu_ascendc/vec_cast.h"
#include "simnpu_ascendc/cube_gemm.h"
#include "simnpu_ascendc/cube.h"
#include "simnpu_ascendc/cube_load3d.h"
#include "simnpu_ascendc/mix.h"
#include "simnpu_ascendc/adv_common.h"
#include "simnpu_ascendc/adv_math.h"
#include "simnpu_ascendc/adv_activation.h"
#include "simnpu_ascendc/adv_softmax.h"
#include "simnpu_ascendc/adv_norm.h"
#include "simnpu_ascendc/adv_layernorm_rstd.h"
#include "simnpu_ascendc/adv_quant.h"
#include "simnpu_ascendc/adv_sort.h"
#include "simnpu_ascendc/adv_topk.h"
#include "simnpu_ascendc/adv_sort_config.h"
#include "simnpu_ascendc/adv_broadcast.h"
#include "simnpu_ascendc/adv_logic.h"
#include "simnpu_ascendc/adv_clamp.h"
#include "simnpu_ascendc/adv_sum.h"
#include "simnpu_ascendc/adv_arange.h"
#include "simnpu_ascendc/adv_pad.h"
#include "simnpu_ascendc/fill.h"
#include "simnpu_ascendc/list_tensor_desc.h"
#include "simnpu_ascendc/multicore.h"
#include "simnpu_ascendc/data_sync_barrier.h"
#include "simnpu_ascendc/determine_compute.h"
#include "simnpu_ascendc/mutex_barrier.h"
#include "simnpu_ascendc/print.h"
#include "simnpu_ascendc/debug.h"
#include "simnpu_ascendc/glue.h"

#undef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H

// tiling structs as kernels read them, GET_TILING_DATA (stands alone)
#include "kernel_tiling/kernel_tiling.h"

#endif  // SIMNPU_ASCENDC_KERNEL_OPERATOR_H_
