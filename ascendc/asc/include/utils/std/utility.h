// simnpu: AscendC::Std (utility part), the standard-library subset of the Ascend C
// kernel language; see simnpu_ascendc/type_utils.h.
#ifndef SIMNPU_ASC_UTILS_STD_UTILITY_H_
#define SIMNPU_ASC_UTILS_STD_UTILITY_H_
#include "kernel_operator.h"
#endif
