// simnpu: the devkit's lib/math/bitwise_or.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_MATH_BITWISE_OR_H_
#define SIMNPU_LIB_MATH_BITWISE_OR_H_
#include "kernel_operator.h"
#endif
