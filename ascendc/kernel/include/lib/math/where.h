// simnpu: the devkit's lib/math/where.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_MATH_WHERE_H_
#define SIMNPU_LIB_MATH_WHERE_H_
#include "kernel_operator.h"
#endif
