// What both sample programs agree on: problem size, kernel image, file names.
// Paths are relative: run.sh starts the programs from the sample directory.
#ifndef UVM_SAMPLE_CONFIG_H
#define UVM_SAMPLE_CONFIG_H

#include <cstddef>
#include <cstdint>

namespace uvm_sample {

constexpr int32_t kDeviceId = 0;
constexpr uint32_t kBlockDim = 8;                             // blocks of add_kernel
constexpr size_t kElemsPerBlock = 2048;
constexpr size_t kElemCount = kBlockDim * kElemsPerBlock;     // 16384 halves
constexpr size_t kBufferBytes = kElemCount * sizeof(uint16_t);  // 32 KiB per vector

// Written by ascendc_fatbin_library(uvm_add_kernels ...) at build time.
constexpr const char* kKernelImage = "./out/fatbin/uvm_add_kernels/uvm_add_kernels.o";
constexpr const char* kKernelName = "add_kernel";

constexpr const char* kInputX = "./input/input_x.bin";
constexpr const char* kInputY = "./input/input_y.bin";
constexpr const char* kOutputZ = "./output/output_z.bin";

}  // namespace uvm_sample

#endif  // UVM_SAMPLE_CONFIG_H
