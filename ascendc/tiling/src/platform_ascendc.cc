// libplatform: platform_ascendc::PlatformAscendC, the platform facts of host
// tiling code, read from the install's platform_config/<SOC>.ini (the files
// the runtime's SOC table generates, install/README.md).
//
// The INI of a SOC is looked for in <root>/<arch>-linux/data/platform_config
// and <root>/data/platform_config for each root: $ASCEND_HOME_PATH, then the
// folders above this library (so a build tree and a moved install work).
// PlatformAscendCManager::GetInstance() creates the process's one instance
// on its first successful call (under a mutex) and never frees it; the
// instance is read-only afterwards except ReserveLocalMemory.
//
// Facts the INI does not carry are nominal, and so documented in
// docs/asc.md: the bias-table and fixpipe buffer sizes (1 KiB, 7 KiB), the
// memory bandwidths, the workspace sizes.
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tiling/platform/platform_ascendc.h"

namespace fe {
// The parsed INI of one SOC: section -> key -> value.
class PlatFormInfos {
 public:
  std::string soc;
  std::map<std::string, std::map<std::string, std::string>> ini;

  std::string Get(const char* section, const char* key) const {
    auto s = ini.find(section);
    if (s == ini.end()) return "";
    auto k = s->second.find(key);
    return k == s->second.end() ? "" : k->second;
  }
  uint64_t GetU64(const char* section, const char* key, uint64_t dflt = 0) const {
    const std::string v = Get(section, key);
    if (v.empty()) return dflt;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    return end != nullptr && *end == '\0' ? static_cast<uint64_t>(n) : dflt;
  }
};
}  // namespace fe

namespace platform_ascendc {
namespace {

std::string Parent(const std::string& p) {
  const size_t pos = p.find_last_of('/');
  if (pos == std::string::npos || pos == 0) return "/";
  return p.substr(0, pos);
}

std::string ArchDir() {
  struct utsname u;
  std::string m = uname(&u) == 0 ? u.machine : "x86_64";
  if (m == "amd64") m = "x86_64";
  if (m == "arm64") m = "aarch64";
  return m + "-linux";
}

std::string ThisLibraryDir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&ThisLibraryDir), &info) == 0 || info.dli_fname == nullptr) return "";
  char buf[PATH_MAX];
  if (realpath(info.dli_fname, buf) == nullptr) return Parent(info.dli_fname);
  return Parent(buf);
}

bool IsFile(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// A SOC name must be a plain file name.
bool ValidSocName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

std::string FindIni(const std::string& soc, std::vector<std::string>* tried) {
  std::vector<std::string> roots;
  const char* home = std::getenv("ASCEND_HOME_PATH");
  if (home != nullptr && *home != '\0') roots.emplace_back(home);
  std::string d = ThisLibraryDir();
  for (int i = 0; i < 6 && !d.empty() && d != "/"; ++i) {
    d = Parent(d);
    roots.push_back(d);
  }
  for (const std::string& r : roots) {
    for (const std::string& sub : {std::string("/") + ArchDir() + "/data/platform_config/", std::string("/data/platform_config/")}) {
      const std::string p = r + sub + soc + ".ini";
      tried->push_back(p);
      if (IsFile(p)) return p;
    }
  }
  return "";
}

bool ParseIni(const std::string& path, fe::PlatFormInfos* out) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  std::string section;
  while (std::getline(f, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == ';' || line[b] == '#') continue;
    if (line[b] == '[') {
      const size_t e = line.find(']', b);
      section = line.substr(b + 1, e == std::string::npos ? std::string::npos : e - b - 1);
      continue;
    }
    const size_t eq = line.find('=', b);
    if (eq == std::string::npos) continue;
    std::string key = line.substr(b, eq - b);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    out->ini[section][key] = line.substr(eq + 1);
  }
  return true;
}

fe::PlatFormInfos* Load(const char* soc_name) {
  std::string soc;
  if (soc_name != nullptr) {
    soc = soc_name;
  } else {
    const char* cur = aclrtGetSocName();
    if (cur == nullptr) {
      std::fprintf(stderr, "[ERROR] platform_ascendc: the runtime reports no SOC (aclrtGetSocName failed: %s)\n",
                   aclGetRecentErrMsg() != nullptr ? aclGetRecentErrMsg() : "no message");
      return nullptr;
    }
    soc = cur;
  }
  if (!ValidSocName(soc)) {
    std::fprintf(stderr, "[ERROR] platform_ascendc: \"%s\" is not a SOC name\n", soc.c_str());
    return nullptr;
  }
  std::vector<std::string> tried;
  const std::string path = FindIni(soc, &tried);
  if (path.empty()) {
    std::fprintf(stderr, "[ERROR] platform_ascendc: no platform configuration for SOC %s (looked for %s%s)\n",
                 soc.c_str(), tried.empty() ? "nothing" : tried.front().c_str(),
                 tried.size() > 1 ? " and other install folders" : "");
    return nullptr;
  }
  auto* info = new fe::PlatFormInfos();
  info->soc = soc;
  if (!ParseIni(path, info)) {
    std::fprintf(stderr, "[ERROR] platform_ascendc: cannot read %s\n", path.c_str());
    delete info;
    return nullptr;
  }
  return info;
}

std::mutex g_mu;
PlatformAscendC* g_instance = nullptr;  // guarded by g_mu; never freed

PlatformAscendC* Instance(const char* soc) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_instance == nullptr) {
    fe::PlatFormInfos* info = Load(soc);
    if (info == nullptr) return nullptr;
    g_instance = new PlatformAscendC(info);
  }
  return g_instance;
}

bool IsSplit(const fe::PlatFormInfos* p) { return p->Get("SoCInfo", "cube_vector_combine") == "split"; }
bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

PlatformAscendC* PlatformAscendCManager::GetInstance() { return Instance(nullptr); }
PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  if (customSocVersion == nullptr) return Instance(nullptr);
  return Instance(customSocVersion);
}
PlatformAscendCManager::PlatformAscendCManager() = default;

fe::PlatFormInfos* PlatformAscendC::GetPlatFormInfo(void) const { return platformInfo_; }

uint32_t PlatformAscendC::GetCoreNum(void) const {
  return platformInfo_ == nullptr ? 0 : static_cast<uint32_t>(platformInfo_->GetU64("SoCInfo", "ai_core_cnt"));
}
uint32_t PlatformAscendC::GetCoreNumAic(void) const {
  if (platformInfo_ == nullptr) return 0;
  return static_cast<uint32_t>(platformInfo_->GetU64("SoCInfo", "cube_core_cnt", platformInfo_->GetU64("SoCInfo", "ai_core_cnt")));
}
uint32_t PlatformAscendC::GetCoreNumAiv(void) const {
  if (platformInfo_ == nullptr) return 0;
  // coupled SOCs: every AI core has its vector unit
  if (!IsSplit(platformInfo_)) return GetCoreNum();
  return static_cast<uint32_t>(platformInfo_->GetU64("SoCInfo", "vector_core_cnt"));
}
uint32_t PlatformAscendC::GetCoreNumVector(void) const {
  if (platformInfo_ == nullptr) return 0;
  if (StartsWith(platformInfo_->soc, "Ascend310P")) {
    return static_cast<uint32_t>(platformInfo_->GetU64("SoCInfo", "vector_core_cnt"));
  }
  return 0;
}

// Split SOCs start a kernel that uses both core kinds in groups of one AIC
// and aiv/aic AIVs: sliceNum AIV slices need ceil(sliceNum / ratio) groups.
// Otherwise one block per slice.
uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  if (platformInfo_ != nullptr && IsSplit(platformInfo_) && aicCoreNum != 0 && aivCoreNum > aicCoreNum) {
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    return (sliceNum + ratio - 1) / ratio;
  }
  return sliceNum;
}
uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const { return 16u * 1024u * 1024u; }
uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize(void) const { return GetCoreNumAic() * 512u; }
uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize(void) const { return GetCoreNumAiv() * 512u; }

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  size = 0;
  if (platformInfo_ == nullptr) return;
  const fe::PlatFormInfos& p = *platformInfo_;
  switch (memType) {
    case CoreMemType::L0_A: size = p.GetU64("AICoreSpec", "l0_a_size"); break;
    case CoreMemType::L0_B: size = p.GetU64("AICoreSpec", "l0_b_size"); break;
    case CoreMemType::L0_C: size = p.GetU64("AICoreSpec", "l0_c_size"); break;
    case CoreMemType::L1: size = p.GetU64("AICoreSpec", "l1_size"); break;
    case CoreMemType::L2: size = p.GetU64("SoCInfo", "l2_size"); break;
    case CoreMemType::UB: {
      const uint64_t ub = p.GetU64("AICoreSpec", "ub_size");
      size = ub > reservedMemSize_ ? ub - reservedMemSize_ : 0;
      break;
    }
    case CoreMemType::HBM: size = p.GetU64("SoCInfo", "memory_size"); break;
    case CoreMemType::FB: size = 7u * 1024u; break;
    case CoreMemType::BT: size = 1024u; break;
    default: size = 0; break;
  }
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
  switch (memType) {
    case CoreMemType::HBM: bwSize = 32; break;
    case CoreMemType::L2: bwSize = 64; break;
    case CoreMemType::L1: bwSize = 128; break;
    case CoreMemType::UB: bwSize = 256; break;
    case CoreMemType::L0_A:
    case CoreMemType::L0_B: bwSize = 512; break;
    case CoreMemType::L0_C: bwSize = 256; break;
    default: bwSize = 0; break;
  }
}

void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  switch (size) {
    case ReservedSize::RESERVED_SIZE_8K: reservedMemSize_ = 8u * 1024u; break;
    case ReservedSize::RESERVED_SIZE_16K: reservedMemSize_ = 16u * 1024u; break;
    case ReservedSize::RESERVED_SIZE_32K: reservedMemSize_ = 32u * 1024u; break;
  }
}

SocVersion PlatformAscendC::GetSocVersion(void) const {
  if (platformInfo_ == nullptr) return SocVersion::RESERVED_VERSION;
  const std::string& s = platformInfo_->soc;
  // Ascend910B1..B4, B2C, B4-1 (the older "Ascend910B" is a 910); the
  // Ascend910_93 series reports ASCEND910B as well
  if (StartsWith(s, "Ascend910B") && s.size() > 10) return SocVersion::ASCEND910B;
  if (StartsWith(s, "Ascend910_93")) return SocVersion::ASCEND910B;
  if (StartsWith(s, "Ascend910")) return SocVersion::ASCEND910;
  if (StartsWith(s, "Ascend310P")) return SocVersion::ASCEND310P;
  if (StartsWith(s, "Ascend310B")) return SocVersion::ASCEND310B;
  if (StartsWith(s, "Ascend950")) return SocVersion::ASCEND950;
  if (StartsWith(s, "Ascend350")) return SocVersion::ASCEND350;
  return SocVersion::RESERVED_VERSION;
}

NpuArch PlatformAscendC::GetCurNpuArch(void) const {
  if (platformInfo_ == nullptr) return NpuArch::DAV_RESV;
  return static_cast<NpuArch>(platformInfo_->GetU64("version", "NpuArch", 0xFFFFFFFFu));
}

uint32_t PlatformAscendC::GetVecRegLen(void) const { return 256; }

}  // namespace platform_ascendc
