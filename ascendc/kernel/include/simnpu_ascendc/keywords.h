// simnpu Ascend C model: the keywords of the kernel language. On the NPU they
// are compiler keywords (execution spaces, address spaces, kernel core types);
// in the CPU model every kernel is ordinary host code, so they expand to
// nothing. This header stands alone (no other model header is needed): the
// source pre-pass puts it first in every translation unit made from a .asc
// file, where the keywords are available without any #include, as they are
// with the NPU compiler.
//
// The pre-pass reads the core-type keywords textually before this header
// removes them: `__vector__` makes a kernel AIV, `__cube__` AIC and
// `__mix__(m, n)` MIX (see simnpu_ascendc_prepass.py).
#ifndef SIMNPU_ASCENDC_KEYWORDS_H_
#define SIMNPU_ASCENDC_KEYWORDS_H_

#include <stdint.h>

// ---- execution spaces
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __host__
#define __host__
#endif
// vector-function (VF) entries and their callees of the SIMD and SIMT models
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif

// ---- kernel core types: which cores a __global__ kernel runs on
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube_ratio, vector_ratio)
#endif

// ---- address spaces: global memory, unified buffer, L1, L0A/L0B/L0C,
// fixpipe buffer. Pointers of every space are plain host pointers here, so
// overloads that differ only in the address space of a parameter collide.
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __ssbuf__
#define __ssbuf__
#endif

#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

// The build passes -D__NPU_ARCH__=<n>; default to the 910B family.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

#endif  // SIMNPU_ASCENDC_KEYWORDS_H_
