// simnpu: the devkit's lib/pad/pad.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_PAD_PAD_H_
#define SIMNPU_LIB_PAD_PAD_H_
#include "kernel_operator.h"
#endif
