// Fuzzes the kernel argument builder (aclrtKernelArgsAppend /
// AppendPlaceHolder / GetPlaceHolderBuffer / Finalize) and both launch
// snapshots, against a kernel whose parameter list comes from the bytes too.
// Every operation must either succeed or return a code; a snapshot's
// arguments must lie inside its buffer.
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "loader/kernel_args.h"

namespace {

struct Reader {
  const uint8_t* p;
  size_t n;
  uint8_t U8() { return n ? (--n, *p++) : 0; }
  uint32_t U32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | U8();
    return v;
  }
  size_t Size() {  // mostly small, sometimes huge
    const uint8_t k = U8();
    if (k == 0xff) return SIZE_MAX - U8();
    if (k >= 0xf0) return size_t{1} << (k & 63);
    return k;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simnpu::loader;
  Reader r{data, size};
  // The kernel: up to 8 parameters.
  const uint32_t count = r.U8() % 9;
  std::vector<simnpu_param_desc> params(count + 1);
  for (uint32_t i = 0; i < count; ++i) {
    params[i].size = 1 + r.U8() % 64;
    params[i].align = 1u << (r.U8() % 7);
    params[i].kind = r.U8() % 4;
  }
  simnpu_kernel_desc desc{};
  desc.name = "fuzz_kernel";
  desc.param_count = count;
  desc.params = params.data();
  auto fn = std::make_shared<Function>();
  fn->desc = &desc;
  ArgsBuilder* b = ArgsBuilder::InitForThread(fn);
  std::vector<uint8_t> scratch(256, 0xab);
  std::vector<uint32_t> placeholders;
  while (r.n > 0) {
    uint32_t idx = 0;
    switch (r.U8() % 6) {
      case 0: {
        size_t n = r.Size();
        if (n > scratch.size() && n < (1u << 20)) scratch.resize(n);
        (void)b->Append(scratch.data(), n, &idx);
        break;
      }
      case 1:
        if (b->AppendPlaceHolder(&idx).ok()) placeholders.push_back(idx);
        break;
      case 2: {
        void* out = nullptr;
        uint32_t which = placeholders.empty() ? r.U32() : placeholders[r.U8() % placeholders.size()];
        const size_t n = r.Size();
        if (b->PlaceHolderBuffer(which, n, &out).ok() && n > 0 && n <= (1u << 20)) std::memset(out, 0x5c, n);
        break;
      }
      case 3:
        (void)b->Finalize();
        break;
      case 4: {
        auto s = SnapshotFromBuilder(*b);
        if (s.ok())
          for (size_t i = 0; i < s.value()->argc(); ++i) (void)*static_cast<volatile uint8_t*>(s.value()->argv()[i]);
        break;
      }
      case 5: {
        std::vector<uint8_t> blob(r.U8() * 8u, 0x11);
        std::vector<PlaceHolderRef> ph(r.U8() % 4);
        for (auto& p : ph) p = {r.U32() % 4096, r.U32() % 4096};
        auto s = SnapshotFromBlob(*fn, blob.data(), blob.size(), ph.data(), ph.size());
        if (s.ok())
          for (size_t i = 0; i < s.value()->argc(); ++i) (void)*static_cast<volatile uint8_t*>(s.value()->argv()[i]);
        break;
      }
    }
  }
  ArgsBuilder::InitForThread(nullptr);  // drop the kernel (the builder lives on, as in the runtime)
  return 0;
}
