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
#include "simnpu_ascendc/fp16.h"
#include "simnpu_ascendc/memcheck.h"
#include "simnpu_ascendc/context.h"
#include "simnpu_ascendc/simd.h"
#include "simnpu_ascendc/tensor.h"
#include "simnpu_ascendc/pipe.h"
#include "simnpu_ascendc/data_copy.h"
#include "simnpu_ascendc/vector_ops.h"
#include "simnpu_ascendc/cast_reduce.h"
#include "simnpu_ascendc/print.h"
#include "simnpu_ascendc/glue.h"

#undef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H

#endif  // SIMNPU_ASCENDC_KERNEL_OPERATOR_H_
