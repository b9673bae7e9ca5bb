// simnpu: tensor dumps of the ASC kernel language (utils/debug/asc_dump.h):
// asc_dump(ptr, desc, count) and the asc_dump_gm / asc_dump_ubuf forms, with
// the output format of AscendC::DumpTensor (simnpu_ascendc/debug.h).
#ifndef SIMNPU_ASC_UTILS_DEBUG_ASC_DUMP_H_
#define SIMNPU_ASC_UTILS_DEBUG_ASC_DUMP_H_
#include "kernel_operator.h"
#endif  // SIMNPU_ASC_UTILS_DEBUG_ASC_DUMP_H_
