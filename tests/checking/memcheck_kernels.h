// The memory-check test kernels (memcheck_kernels.cpp), an in-process image.
#ifndef SIMNPU_TESTS_CHECKING_MEMCHECK_KERNELS_H_
#define SIMNPU_TESTS_CHECKING_MEMCHECK_KERNELS_H_

#include <cstdint>

#include "simnpu/kernel_abi.h"

struct McIndirect {
  void* ptr;
  uint32_t n;
};

// The table of the kernels registered in this executable.
const simnpu_kernel_table* McKernelTable();

// The line of mc_write_past's SetValue (the report must name it).
#define MC_WRITE_PAST_FILE "memcheck_kernels.cpp"

#endif  // SIMNPU_TESTS_CHECKING_MEMCHECK_KERNELS_H_
