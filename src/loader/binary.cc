// Kernel image loading and validation.
#include "loader/binary.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "dfx/log.h"
#include "platform/file.h"
#include "platform/vm.h"
#include "sim/soc.h"

namespace simnpu::loader {
namespace {
constexpr int kParamInvalid = 107000;
constexpr int kFileOpen = 107009;      // ACL_ERROR_RT_FILE_OPEN
constexpr int kSocVersion = 507008;    // ACL_ERROR_RT_SOC_VERSION
constexpr uint32_t kMaxKernelsPerImage = 1u << 16;

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
constexpr uint16_t kHostMachine = 0;
#endif
}  // namespace

bool IsLoadableImage(const std::string& bytes, std::string* why) {
  if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0) {
    *why = "it is not an ELF file";
    return false;
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    *why = "it is not a 64-bit little-endian ELF file";
    return false;
  }
  if (eh.e_machine != kHostMachine) {
    *why = "it is an ELF file for machine " + std::to_string(eh.e_machine) +
           ", not for this host: an NPU device binary from the real CANN toolchain cannot run on "
           "the simulated NPU; rebuild the kernel with simnpu's ascendc.cmake";
    return false;
  }
  if (eh.e_type != ET_DYN) {
    *why = "it is an ELF " + std::string(eh.e_type == ET_REL ? "relocatable object" : "file of another type") +
           ", not a kernel image built by simnpu's ascendc.cmake";
    return false;
  }
  // Overflow-safe bounds, and headers copied out (the bytes need not be aligned).
  const uint64_t size = bytes.size();
  auto within = [size](uint64_t off, uint64_t len) { return off <= size && len <= size - off; };
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      !within(eh.e_shoff, static_cast<uint64_t>(eh.e_shnum) * sizeof(Elf64_Shdr)) || eh.e_shstrndx >= eh.e_shnum) {
    *why = "its section table is missing or damaged";
    return false;
  }
  auto section = [&](unsigned i) {
    Elf64_Shdr h;
    std::memcpy(&h, bytes.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof h);
    return h;
  };
  const Elf64_Shdr strtab = section(eh.e_shstrndx);
  if (!within(strtab.sh_offset, strtab.sh_size)) {
    *why = "its section name table is damaged";
    return false;
  }
  const char* names = bytes.data() + strtab.sh_offset;
  constexpr size_t kNameLen = sizeof(SIMNPU_KERNEL_SECTION);  // with the NUL
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr h = section(i);
    if (h.sh_name >= strtab.sh_size || strtab.sh_size - h.sh_name < kNameLen) continue;
    if (std::memcmp(names + h.sh_name, SIMNPU_KERNEL_SECTION, kNameLen) != 0) continue;
    if (h.sh_type == SHT_NOBITS || !within(h.sh_offset, h.sh_size) ||
        h.sh_size < sizeof(SIMNPU_KERNEL_SECTION_MAGIC) - 1 ||
        std::memcmp(bytes.data() + h.sh_offset, SIMNPU_KERNEL_SECTION_MAGIC, sizeof(SIMNPU_KERNEL_SECTION_MAGIC) - 1) !=
            0) {
      *why = "its " SIMNPU_KERNEL_SECTION " section does not carry the simnpu kernel marker";
      return false;
    }
    return true;
  }
  *why = "it is a shared object but not a simnpu kernel image (no " SIMNPU_KERNEL_SECTION " section)";
  return false;
}

Binary::~Binary() {
  if (dl_) dlclose(dl_);
  if (memfd_ >= 0) close(memfd_);
}

Status Binary::Adopt(const simnpu_kernel_table* table) {
  // An in-process record names its table by address: it must be readable
  // before anything in it is believed (a forged record never crashes).
  simnpu_kernel_table t{};
  if (!table || !platform::CopyIfReadable(&t, table, sizeof t) || t.magic != SIMNPU_KERNEL_TABLE_MAGIC)
    return Status(kParamInvalid, origin_ + ": the kernel table is missing or has a bad magic");
  if (t.abi_version != SIMNPU_KERNEL_ABI_VERSION)
    return Status(kParamInvalid, origin_ + ": kernel ABI version " + std::to_string(t.abi_version) +
                                     " is not supported (expected " + std::to_string(SIMNPU_KERNEL_ABI_VERSION) + ")");
  if (t.kernel_count > kMaxKernelsPerImage || (t.kernel_count > 0 && !t.kernels))
    return Status(kParamInvalid, origin_ + ": the kernel table lists " + std::to_string(t.kernel_count) +
                                     " kernels that cannot be read");
  for (uint32_t i = 0; i < t.kernel_count; ++i) {
    simnpu_kernel_desc d{};
    const bool ok = platform::CopyIfReadable(&d, t.kernels + i, sizeof d) && d.run_block != nullptr &&
                    d.name != nullptr && platform::RangeReadable(d.name, 1) && d.param_count <= 1024 &&
                    (d.param_count == 0 ||
                     (d.params != nullptr && platform::RangeReadable(d.params, d.param_count * sizeof(simnpu_param_desc))));
    if (!ok) return Status(kParamInvalid, origin_ + ": kernel " + std::to_string(i) + " of the table is damaged");
  }
  const sim::SocInfo* soc = sim::CurrentSoc();
  if (soc && table->npu_arch != soc->npu_arch)
    return Status(kSocVersion, origin_ + ": kernels were built for NPU architecture " +
                                   std::to_string(table->npu_arch) + " (SOC_VERSION " +
                                   (table->soc_version ? table->soc_version : "?") + ") but the device is " +
                                   soc->name + " (architecture " + std::to_string(soc->npu_arch) + ")");
  table_ = table;
  functions_.resize(table->kernel_count);
  return Status::Ok();
}

StatusOr<std::shared_ptr<Binary>> Binary::FromElfBytes(const std::string& bytes, const std::string& origin,
                                                       const std::string& file_path) {
  std::string why;
  if (!IsLoadableImage(bytes, &why))
    return Status(kParamInvalid, origin + " was not loaded: " + why);
  std::shared_ptr<Binary> b(new Binary());
  b->origin_ = origin;
  std::string path = file_path;
  if (path.empty()) {
    b->memfd_ = platform::CreateMemfd("simnpu-kernel-image");
    if (b->memfd_ < 0) return Status(kParamInvalid, std::string("memfd_create failed: ") + std::strerror(errno));
    size_t off = 0;
    while (off < bytes.size()) {
      ssize_t w = write(b->memfd_, bytes.data() + off, bytes.size() - off);
      if (w <= 0) return Status(kParamInvalid, "cannot stage the kernel image in memory");
      off += static_cast<size_t>(w);
    }
    path = "/proc/self/fd/" + std::to_string(b->memfd_);
  }
  b->dl_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!b->dl_) return Status(kParamInvalid, origin + " could not be loaded: " + dlerror());
  auto fn = reinterpret_cast<simnpu_kernel_table_fn>(dlsym(b->dl_, SIMNPU_KERNEL_TABLE_SYMBOL));
  if (!fn) return Status(kParamInvalid, origin + " has no " SIMNPU_KERNEL_TABLE_SYMBOL " entry");
  SIMNPU_RETURN_IF_ERROR(b->Adopt(fn()));
  SIMNPU_LOGI(kRuntime, "loaded kernel image %s (%u kernels)", origin.c_str(), b->table_->kernel_count);
  return b;
}

StatusOr<std::shared_ptr<Binary>> Binary::FromFile(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return Status(kFileOpen, "cannot open kernel binary \"" + path + "\": " + std::strerror(errno));
  // (a directory would read as empty, a device such as /dev/zero never ends)
  if (!S_ISREG(st.st_mode))
    return Status(kFileOpen, "cannot open kernel binary \"" + path + "\": it is " +
                                 (S_ISDIR(st.st_mode) ? "a directory" : "not a regular file"));
  std::string bytes, why;
  if (!platform::ReadFile(path, &bytes, &why))
    return Status(kFileOpen, "cannot read kernel binary \"" + path + "\": " + why);
  char real[PATH_MAX];
  std::string resolved = realpath(path.c_str(), real) ? std::string(real) : path;
  return FromElfBytes(bytes, "kernel binary \"" + path + "\"", resolved);
}

StatusOr<std::shared_ptr<Binary>> Binary::FromData(const void* data, size_t length) {
  if (length == sizeof(simnpu_inproc_image)) {
    simnpu_inproc_image img;
    std::memcpy(&img, data, sizeof img);
    if (img.magic == SIMNPU_INPROC_IMAGE_MAGIC) {
      std::shared_ptr<Binary> b(new Binary());
      b->origin_ = "in-process kernel image";
      if (img.abi_version != SIMNPU_KERNEL_ABI_VERSION)
        return Status(kParamInvalid, "in-process kernel image has ABI version " +
                                         std::to_string(img.abi_version));
      SIMNPU_RETURN_IF_ERROR(b->Adopt(img.table));
      return b;
    }
  }
  return FromElfBytes(std::string(static_cast<const char*>(data), length), "kernel data", "");
}

std::shared_ptr<Function> Binary::FunctionAt(uint32_t i) {
  std::lock_guard<std::mutex> g(mu_);
  if (auto live = functions_[i].lock()) return live;
  auto f = std::make_shared<Function>();
  f->binary = shared_from_this();
  f->desc = &table_->kernels[i];
  f->index = i;
  functions_[i] = f;
  return f;
}

StatusOr<std::shared_ptr<Function>> Binary::FunctionByName(const std::string& name) {
  for (uint32_t i = 0; i < table_->kernel_count; ++i)
    if (table_->kernels[i].name && name == table_->kernels[i].name) return FunctionAt(i);
  std::string known;
  for (uint32_t i = 0; i < table_->kernel_count && i < 8; ++i)
    known += std::string(i ? ", " : "") + (table_->kernels[i].name ? table_->kernels[i].name : "?");
  return Status(kParamInvalid, "kernel \"" + name + "\" is not in " + origin_ + " (it has: " + known + ")");
}

StatusOr<std::shared_ptr<Function>> Binary::FunctionByEntry(uint64_t entry) {
  for (uint32_t i = 0; i < table_->kernel_count; ++i)
    if (reinterpret_cast<uint64_t>(table_->kernels[i].entry) == entry) return FunctionAt(i);
  if (entry < table_->kernel_count) return FunctionAt(static_cast<uint32_t>(entry));
  return Status(kParamInvalid, "no kernel with entry " + std::to_string(entry) + " in " + origin_);
}

}  // namespace simnpu::loader
