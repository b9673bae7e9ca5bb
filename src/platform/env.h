// Environment variables: typed parsing in one place. Our own variables start
// with SIMNPU_; CANN's (ASCEND_*) are read with the same helpers.
#ifndef SIMNPU_PLATFORM_ENV_H_
#define SIMNPU_PLATFORM_ENV_H_

#include <cstdint>
#include <optional>
#include <string>

namespace simnpu::platform {

// Value of the variable, or nullopt when unset (an empty value counts as set).
std::optional<std::string> GetEnv(const char* name);

// Parses "123", "64K", "512M", "2G", "1T" (binary multiples, optional trailing
// 'B'/'iB', case-insensitive). Returns nullopt on malformed text.
std::optional<uint64_t> ParseSize(const std::string& text);
// Parses a decimal integer (leading/trailing spaces allowed).
std::optional<int64_t> ParseInt(const std::string& text);

// Reads an integer variable; malformed or unset -> `dflt` (malformed is logged
// by the caller if it cares: use the Parse* functions directly for that).
int64_t GetEnvInt(const char* name, int64_t dflt);
uint64_t GetEnvSize(const char* name, uint64_t dflt);
bool GetEnvBool(const char* name, bool dflt);  // 1/0, true/false, on/off, yes/no

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_ENV_H_
