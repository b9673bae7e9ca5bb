// simnpu: the devkit's lib/sort/topk.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_SORT_TOPK_H_
#define SIMNPU_LIB_SORT_TOPK_H_
#include "kernel_operator.h"
#endif
