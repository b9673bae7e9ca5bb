// Fuzzes kernel-image loading: the image check every fatbin passes before it
// is opened (IsLoadableImage), loading from data (including the in-process
// record, whose table pointer comes from the bytes) and from a file. Bytes
// that pass the image check would be handed to dlopen, which runs the
// image's code by design; the harness stops there.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "loader/binary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using simnpu::loader::Binary;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string why;
  const bool loadable = simnpu::loader::IsLoadableImage(bytes, &why);
  if (loadable) return 0;
  if (size > 0) {
    auto b = Binary::FromData(data, size);
    if (b.ok()) __builtin_trap();  // nothing unloadable may load
  }
  static const std::string path = "/tmp/simnpu_fuzz_binary_" + std::to_string(getpid()) + ".o";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    auto b = Binary::FromFile(path);
    if (b.ok()) __builtin_trap();
  }
  return 0;
}
