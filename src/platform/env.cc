// Environment variable parsing.
#include "platform/env.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <strings.h>

namespace simnpu::platform {

std::optional<std::string> GetEnv(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

static std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::optional<int64_t> ParseInt(const std::string& text) {
  std::string t = Trim(text);
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(t.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(v);
}

std::optional<uint64_t> ParseSize(const std::string& text) {
  std::string t = Trim(text);
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  if (errno != 0) return std::nullopt;
  std::string suffix = Trim(end);
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() >= 2 && suffix.substr(suffix.size() - 2) == "IB") suffix.resize(suffix.size() - 2);
  else if (suffix.size() >= 2 && suffix.back() == 'B') suffix.pop_back();
  else if (suffix == "B") suffix.clear();
  unsigned shift = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "K") shift = 10;
  else if (suffix == "M") shift = 20;
  else if (suffix == "G") shift = 30;
  else if (suffix == "T") shift = 40;
  else return std::nullopt;
  if (shift && v > (~0ULL >> shift)) return std::nullopt;
  return static_cast<uint64_t>(v) << shift;
}

int64_t GetEnvInt(const char* name, int64_t dflt) {
  auto v = GetEnv(name);
  if (!v) return dflt;
  auto p = ParseInt(*v);
  return p ? *p : dflt;
}

uint64_t GetEnvSize(const char* name, uint64_t dflt) {
  auto v = GetEnv(name);
  if (!v) return dflt;
  auto p = ParseSize(*v);
  return p ? *p : dflt;
}

bool GetEnvBool(const char* name, bool dflt) {
  auto v = GetEnv(name);
  if (!v) return dflt;
  std::string t = Trim(*v);
  if (t == "1" || !strcasecmp(t.c_str(), "true") || !strcasecmp(t.c_str(), "on") ||
      !strcasecmp(t.c_str(), "yes"))
    return true;
  if (t == "0" || !strcasecmp(t.c_str(), "false") || !strcasecmp(t.c_str(), "off") ||
      !strcasecmp(t.c_str(), "no"))
    return false;
  return dflt;
}

}  // namespace simnpu::platform
