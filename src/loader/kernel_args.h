// The per-thread kernel argument builder behind aclrtKernelArgsInit /
// Append / AppendPlaceHolder / GetPlaceHolderBuffer / Finalize, and the
// argument snapshot taken at launch.
//
// Layout (as the runtime lays out a device argument block): user parameters
// at 8-byte-aligned offsets in append order; each placeholder is an 8-byte
// slot whose value becomes the address of its data block, which is placed
// after all parameters (8-aligned). At most 128 parameters and 64 KiB.
#ifndef SIMNPU_LOADER_KERNEL_ARGS_H_
#define SIMNPU_LOADER_KERNEL_ARGS_H_

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "loader/binary.h"
#include "platform/status.h"

namespace simnpu::loader {

constexpr size_t kMaxParams = 128;
constexpr size_t kMaxArgsBytes = 64 * 1024;

struct ArgParam {
  uint32_t offset = 0;  // in the parameter area
  uint32_t size = 0;    // bytes appended (8 for a placeholder slot)
  bool placeholder = false;
  std::vector<uint8_t> data;  // placeholder data (GetPlaceHolderBuffer), stable storage
  bool has_data = false;
};

class ArgsBuilder {
 public:
  // aclrtKernelArgsInit: resets the calling thread's builder for `fn`. Each
  // thread has one builder object, created on its first Init and destroyed
  // when the thread exits; the pointer returned is the same for every Init
  // of that thread, and stays valid until then (the API layer relies on
  // this to skip Valid() for the calling thread's own handle).
  static ArgsBuilder* InitForThread(std::shared_ptr<Function> fn);
  // True if h is a live builder handle (the latest Init of some thread).
  static bool Valid(const void* h);

  Status Append(const void* param, size_t size, uint32_t* index);
  Status AppendPlaceHolder(uint32_t* index);
  Status PlaceHolderBuffer(uint32_t index, size_t size, void** out);
  // Freezes the layout; a second call is 207000 (an ordering error, like an
  // append after Finalize).
  Status Finalize();
  bool finalized() const { return finalized_; }
  const std::shared_ptr<Function>& function() const { return fn_; }
  const std::vector<ArgParam>& params() const { return params_; }
  const std::vector<uint8_t>& area() const { return area_; }

 private:
  std::shared_ptr<Function> fn_;
  std::vector<uint8_t> area_;  // parameter area
  std::vector<ArgParam> params_;
  bool finalized_ = false;
  bool buffers_taken_ = false;  // after the first GetPlaceHolderBuffer no more appends
};

// A launch's private copy of its arguments: one 64-byte-aligned buffer
// holding the parameter area and the placeholder data (the first `size`
// bytes, what the exception info exposes), argv[i] pointing at parameter i.
// A parameter whose type needs more than the 8-byte alignment of the
// appended layout is given an aligned copy after that, and argv points there.
struct ArgSnapshot {
  ArgSnapshot() = default;
  ArgSnapshot(const ArgSnapshot&) = delete;  // bytes and argv may point into the object
  ArgSnapshot& operator=(const ArgSnapshot&) = delete;

  // Allocates `capacity` zeroed bytes (at least 8). Small argument blocks
  // (the common case) live inside the object: a launch then costs one
  // allocation for the snapshot, none for its bytes.
  void Allocate(size_t capacity);
  uint8_t* data() const { return bytes_; }
  void AddArg(void* p);
  void* const* argv() const { return argc_ <= kInlineArgs ? inline_argv_ : heap_argv_.data(); }
  size_t argc() const { return argc_; }

  size_t size = 0;  // bytes of the argument block proper (exposed in exception info)

 private:
  static constexpr size_t kInlineBytes = 256;
  static constexpr size_t kInlineArgs = 16;
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  // Over-sized so a 64-byte-aligned window fits; not alignas(64), which
  // would make every snapshot an (expensive) aligned allocation.
  uint8_t inline_bytes_[kInlineBytes + 64];
  std::unique_ptr<uint8_t[], Free> heap_bytes_;
  uint8_t* bytes_ = nullptr;
  void* inline_argv_[kInlineArgs];
  std::vector<void*> heap_argv_;  // used once there are more than kInlineArgs parameters
  size_t argc_ = 0;
};

// From a finalized builder. Checks the parameters against the kernel's
// declared parameters (count and sizes): a mismatch is 107000.
StatusOr<std::shared_ptr<ArgSnapshot>> SnapshotFromBuilder(const ArgsBuilder& b);
// From a host argument blob (aclrtLaunchKernelWithHostArgs): parameter i at
// the next multiple of max(8, align_i). placeholders: {addrOffset, dataOffset}.
struct PlaceHolderRef {
  uint32_t addr_offset;
  uint32_t data_offset;
};
StatusOr<std::shared_ptr<ArgSnapshot>> SnapshotFromBlob(const Function& fn, const void* blob, size_t size,
                                                        const PlaceHolderRef* ph, size_t ph_count);

}  // namespace simnpu::loader

#endif  // SIMNPU_LOADER_KERNEL_ARGS_H_
