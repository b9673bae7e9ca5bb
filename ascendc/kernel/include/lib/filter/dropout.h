// simnpu: the devkit's lib/filter/dropout.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_FILTER_DROPOUT_H_
#define SIMNPU_LIB_FILTER_DROPOUT_H_
#include "kernel_operator.h"
#endif
