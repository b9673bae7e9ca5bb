#include "opapi/kernel_registry.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "common/report.h"

namespace simnpu {
namespace aclnn {
namespace {

struct Registry {
  std::mutex mu;
  aclrtBinHandle bin = nullptr;                     // guarded by mu
  std::string soc;                                  // SOC the image was chosen for; guarded by mu
  std::map<std::string, aclrtFuncHandle> funcs;     // guarded by mu
};

Registry& Get() {
  static Registry* r = new Registry();  // never destroyed: launches from static destructors stay safe
  return *r;
}

// NPU architecture of a SOC name, as the Ascend C toolchain maps them.
int ArchOfSoc(const char* soc) {
  if (soc == nullptr) return 2201;
  auto starts = [soc](const char* p) { return std::strncmp(soc, p, std::strlen(p)) == 0; };
  if (starts("Ascend950") || starts("Ascend350")) return 3510;
  if (starts("Ascend310P")) return 2002;
  if (starts("Ascend310B")) return 3002;
  if (starts("Ascend910B") && std::strlen(soc) > 10) return 2201;  // Ascend910B1..B4-1
  if (starts("Ascend910_93")) return 2201;
  if (starts("Ascend910")) return 1001;
  return 2201;
}

// Folder of the kernel images: SIMNPU_OPAPI_KERNEL_DIR, else
// <folder of libopapi.so>/opapi_kernels.
std::string ImageDir() {
  if (const char* env = std::getenv("SIMNPU_OPAPI_KERNEL_DIR"); env != nullptr && *env != '\0') return env;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ArchOfSoc), &info) != 0 && info.dli_fname != nullptr) {
    std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) + "/opapi_kernels";
  }
  return "opapi_kernels";
}

}  // namespace

aclnnStatus FindKernel(const std::string& name, bool forget_first, aclrtFuncHandle* out) {
  Registry& r = Get();
  std::lock_guard<std::mutex> lock(r.mu);
  const char* socName = aclrtGetSocName();
  const std::string soc = socName != nullptr ? socName : "";
  if (forget_first || (r.bin != nullptr && soc != r.soc)) {
    // handles of an earlier runtime session are not unloaded: the runtime
    // that issued them is gone
    r.bin = nullptr;
    r.funcs.clear();
  }
  auto it = r.funcs.find(name);
  if (it != r.funcs.end()) {
    *out = it->second;
    return ACLNN_SUCCESS;
  }
  if (r.bin == nullptr) {
    const int arch = ArchOfSoc(socName);
    const std::string path = ImageDir() + "/aclnn_kernels_dav-" + std::to_string(arch) + ".o";
    aclrtBinHandle bin = nullptr;
    const aclError rc = aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin);
    if (rc != ACL_SUCCESS) {
      const char* why = aclGetRecentErrMsg();
      return Fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "aclnn",
                  "cannot load the operator kernels %s for SOC %s (error %d)%s%s", path.c_str(),
                  soc.empty() ? "?" : soc.c_str(), static_cast<int>(rc), why != nullptr ? ": " : "",
                  why != nullptr ? why : "");
    }
    r.bin = bin;
    r.soc = soc;
  }
  aclrtFuncHandle f = nullptr;
  const aclError rc = aclrtBinaryGetFunction(r.bin, name.c_str(), &f);
  if (rc != ACL_SUCCESS) {
    return Fail(ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "aclnn", "the operator kernel %s is missing (error %d)",
                name.c_str(), static_cast<int>(rc));
  }
  r.funcs.emplace(name, f);
  *out = f;
  return ACLNN_SUCCESS;
}

}  // namespace aclnn
}  // namespace simnpu
