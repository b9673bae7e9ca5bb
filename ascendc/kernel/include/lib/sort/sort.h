// simnpu: the devkit's lib/sort/sort.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_SORT_SORT_H_
#define SIMNPU_LIB_SORT_SORT_H_
#include "kernel_operator.h"
#endif
