// simnpu: device assertions (utils/debug/asc_assert.h): assert(cond) and
// ascendc_assert(cond[, fmt, args...]). A failed assertion prints
// "[ASSERT] <file>:<line>: Assertion `cond' failed. <message>" through the
// block's printf output and fails the kernel (a trap: 507035 for vector
// kernels). Both are empty when NDEBUG is defined or ASCENDC_DUMP is 0.
#ifndef SIMNPU_ASC_UTILS_DEBUG_ASC_ASSERT_H_
#define SIMNPU_ASC_UTILS_DEBUG_ASC_ASSERT_H_
#include "kernel_operator.h"
#endif  // SIMNPU_ASC_UTILS_DEBUG_ASC_ASSERT_H_
