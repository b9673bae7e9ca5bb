// Kernel images and the functions in them.
//
// A Binary is either a fatbin shared object written by our ascendc.cmake
// (checked, then dlopen()ed) or an in-process image (a table already linked
// into the program, passed by the host stubs of ascendc_library targets).
// Binaries and Functions are reference counted: aclrtBinaryUnLoad makes the
// handle invalid at once, but the image stays loaded until the last queued
// kernel task that uses it has run. A Function owns its Binary; the Binary
// only remembers its Functions weakly (no cycle), so the image is unloaded
// when the last handle, argument builder or task using it is gone.
#ifndef SIMNPU_LOADER_BINARY_H_
#define SIMNPU_LOADER_BINARY_H_

#include <cstdint>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "platform/status.h"
#include "simnpu/kernel_abi.h"

namespace simnpu::loader {

class Binary;

struct Function {
  std::shared_ptr<Binary> binary;   // keeps the image loaded
  const simnpu_kernel_desc* desc;   // points into the image
  uint32_t index;                   // position in the image's table
  // Average wall time of one block at the last launch (0: never run). The scheduler runs a launch it expects to be short on one core:
  // waking helper cores costs more than they would save.
  std::atomic<uint64_t> block_ns_estimate{0};
  // The kernel name's id in the recording profiling session (dfx::trace::InternSlot).
  std::atomic<uint64_t> trace_name{0};
};

class Binary : public std::enable_shared_from_this<Binary> {
 public:
  ~Binary();
  // Loads a fatbin file (relative paths resolve against the working directory).
  static StatusOr<std::shared_ptr<Binary>> FromFile(const std::string& path);
  // Loads an image from memory: an in-process image record or a fatbin.
  static StatusOr<std::shared_ptr<Binary>> FromData(const void* data, size_t length);

  const simnpu_kernel_table& table() const { return *table_; }
  const std::string& origin() const { return origin_; }
  // Function handles: one object per kernel while any reference to it is
  // alive (so aclrtFuncHandle values stay stable), recreated on a later lookup.
  StatusOr<std::shared_ptr<Function>> FunctionByName(const std::string& name);
  StatusOr<std::shared_ptr<Function>> FunctionByEntry(uint64_t entry);

 private:
  Binary() = default;
  static StatusOr<std::shared_ptr<Binary>> FromElfBytes(const std::string& bytes, const std::string& origin,
                                                        const std::string& file_path);
  Status Adopt(const simnpu_kernel_table* table);
  std::shared_ptr<Function> FunctionAt(uint32_t i);

  void* dl_ = nullptr;                    // dlopen handle (fatbins)
  int memfd_ = -1;                        // backing memfd for images loaded from memory
  const simnpu_kernel_table* table_ = nullptr;
  std::string origin_;                    // file path or "memory"
  std::vector<std::weak_ptr<Function>> functions_;  // one per kernel, lazily filled. GUARDED_BY(mu_)
  std::mutex mu_;                         // leaf lock
};

// Checks that `bytes` is a fatbin simnpu can load; explains why not otherwise.
bool IsLoadableImage(const std::string& bytes, std::string* why);

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_BINARY_H_
