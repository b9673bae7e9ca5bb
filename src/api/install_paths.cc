// Install-tree lookups.
#include "api/install_paths.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <fstream>

#include "platform/env.h"

namespace simnpu::api {
namespace {
bool IsFile(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
std::string Parent(const std::string& p) {
  auto pos = p.find_last_of('/');
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
}  // namespace

std::string LibraryDir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&LibraryDir), &info) == 0 || !info.dli_fname) return "";
  char buf[PATH_MAX];
  if (!realpath(info.dli_fname, buf)) return Parent(info.dli_fname);
  return Parent(buf);
}

std::vector<std::string> InstallRootCandidates() {
  std::vector<std::string> out;
  if (auto h = platform::GetEnv("ASCEND_HOME_PATH"); h && !h->empty()) out.push_back(*h);
  std::string d = LibraryDir();
  for (int i = 0; i < 8 && !d.empty() && d != "/"; ++i) {
    d = Parent(d);
    out.push_back(d);
  }
  return out;
}

bool ReadPackageVersion(const std::string& pkg, std::string* version, std::string* why) {
  std::vector<std::string> names{pkg};
  std::string dash = pkg, under = pkg;
  for (auto& c : dash) if (c == '_') c = '-';
  for (auto& c : under) if (c == '-') c = '_';
  if (dash != pkg) names.push_back(dash);
  if (under != pkg) names.push_back(under);
  for (const std::string& root : InstallRootCandidates()) {
    for (const std::string& n : names) {
      std::string path = root + "/share/info/" + n + "/version.info";
      std::ifstream f(path);
      if (!f) continue;
      std::string line;
      while (std::getline(f, line)) {
        if (line.rfind("Version=", 0) == 0) {
          std::string v = line.substr(8);
          while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
          *version = v;
          return true;
        }
      }
      *why = path + " has no Version= line";
      return false;
    }
  }
  *why = "no share/info/" + pkg + "/version.info under $ASCEND_HOME_PATH or the install tree";
  return false;
}

namespace {
// Reads the run of decimal digits at v[*pos] (advancing *pos past it) into
// *x. false when there is none or its value is above kMaxVersionPart: a part
// of any length (version.info is user data) neither throws nor overflows.
constexpr long long kMaxVersionPart = 999999;
bool ReadVersionPart(const std::string& v, size_t* pos, int64_t* x) {
  const size_t start = *pos;
  while (*pos < v.size() && std::isdigit(static_cast<unsigned char>(v[*pos]))) ++*pos;
  if (*pos == start) return false;
  errno = 0;
  char* end = nullptr;
  long long n = std::strtoll(v.c_str() + start, &end, 10);
  if (errno == ERANGE || end != v.c_str() + *pos || n < 0 || n > kMaxVersionPart) return false;
  *x = n;
  return true;
}
// The optional number after a pre-release tag ("rc1", "beta.2", "rc"): 0
// when there are no digits, false when it is out of range.
bool ReadTagNumber(const std::string& tag, size_t skip, int64_t* x) {
  *x = 0;
  if (skip >= tag.size() || !std::isdigit(static_cast<unsigned char>(tag[skip]))) return true;
  return ReadVersionPart(tag, &skip, x);
}
}  // namespace

bool VersionToNumber(const std::string& v, int64_t* out) {
  int64_t major = 0, minor = 0, patch = 0;
  size_t pos = 0;
  if (!ReadVersionPart(v, &pos, &major)) return false;
  if (pos < v.size() && v[pos] == '.') {
    ++pos;
    if (!ReadVersionPart(v, &pos, &minor)) return false;
  }
  int64_t adjust = 0;
  if (pos < v.size() && v[pos] == '.') {
    ++pos;
    if (pos < v.size() && std::isdigit(static_cast<unsigned char>(v[pos]))) {
      if (!ReadVersionPart(v, &pos, &patch)) return false;
    } else {
      // CANN-style "8.0.RC1": a release candidate of patch 0
      std::string rest = v.substr(pos);
      for (auto& c : rest) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (rest.rfind("rc", 0) != 0) return false;
      int64_t n = 0;
      if (!ReadTagNumber(rest, 2, &n)) return false;
      adjust = -100 + n;
      pos = v.size();
    }
  }
  if (pos < v.size() && (v[pos] == '-' || v[pos] == '.')) {
    std::string tag = v.substr(pos + 1);
    for (auto& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    int64_t base = 0;
    size_t skip = 0;
    if (tag.rfind("alpha", 0) == 0) base = -300, skip = 5;
    else if (tag.rfind("beta", 0) == 0) base = -200, skip = 4;
    else if (tag.rfind("rc", 0) == 0) base = -100, skip = 2;
    else return false;
    if (skip < tag.size() && tag[skip] == '.') ++skip;
    int64_t n = 0;
    if (!ReadTagNumber(tag, skip, &n)) return false;
    adjust = base + n;
  }
  const int64_t num = major * 10000000 + minor * 100000 + patch * 1000 + adjust;
  if (num < INT32_MIN || num > INT32_MAX) return false;  // aclsysGetVersionNum returns an int32_t
  *out = num;
  return true;
}

std::string FindConfigFile(const std::string& name) {
  std::string d = LibraryDir();
  const std::string arch = ArchDir();
  for (int i = 0; i < 9 && !d.empty(); ++i) {
    for (const std::string& cand :
         {d + "/" + arch + "/data/ascendcl_config/" + name, d + "/data/ascendcl_config/" + name}) {
      if (IsFile(cand)) return cand;
    }
    if (d == "/") break;
    d = Parent(d);
  }
  return "";
}

}  // namespace simnpu::api
