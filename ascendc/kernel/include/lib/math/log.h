// simnpu: the devkit's lib/math/log.h. The advanced API lives in the kernel
// model (kernel_operator.h includes every family); this header is there so
// that kernels which include it by name build unchanged.
#ifndef SIMNPU_LIB_MATH_LOG_H_
#define SIMNPU_LIB_MATH_LOG_H_
#include "kernel_operator.h"
#endif
