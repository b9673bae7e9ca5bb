// simnpu: the devkit's lib/pad/broadcast.h (see kernel_operator.h).
#ifndef SIMNPU_LIB_PAD_BROADCAST_H_
#define SIMNPU_LIB_PAD_BROADCAST_H_
#include "kernel_operator.h"
#endif
