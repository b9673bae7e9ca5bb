// Whole-file input and output for the sample programs, straight into and
// out of caller memory (managed memory in the UVM sample).
#ifndef UVM_SAMPLE_FILE_IO_H
#define UVM_SAMPLE_FILE_IO_H

#include <cstddef>
#include <string>

namespace uvm_sample {

// Reads the regular file `path` into dst with std::ifstream. The file must
// hold exactly `size` bytes. Prints the reason and returns false otherwise.
bool ReadExactFile(const std::string& path, void* dst, size_t size);

// Creates or truncates `path` and writes `size` bytes from src with
// open(2) + write(2). Prints the reason and returns false on failure.
bool WriteWholeFile(const std::string& path, const void* src, size_t size);

}  // namespace uvm_sample

#endif  // UVM_SAMPLE_FILE_IO_H
