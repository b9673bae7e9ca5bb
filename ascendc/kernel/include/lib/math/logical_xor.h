// simnpu: the devkit's lib/math/logical_xor.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_MATH_LOGICAL_XOR_H_
#define SIMNPU_LIB_MATH_LOGICAL_XOR_H_
#include "kernel_operator.h"
#endif
