// simnpu: device printf of the ASC kernel language (utils/debug/asc_printf.h,
// also reachable as debug/asc_printf.h). In device code (functions marked
// __global__, __aicore__, ...) an unqualified printf(...) is the device
// printf: the source pre-pass makes it AscendC::printf, whose output is kept
// per block and printed in block order when the kernel ends (ASCENDC_DUMP=0
// in the environment turns it off). Host code keeps the C printf.
#ifndef SIMNPU_ASC_UTILS_DEBUG_ASC_PRINTF_H_
#define SIMNPU_ASC_UTILS_DEBUG_ASC_PRINTF_H_
#include "kernel_operator.h"
#endif  // SIMNPU_ASC_UTILS_DEBUG_ASC_PRINTF_H_
