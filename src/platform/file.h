// Whole-file reads and memory objects, behind the fault-injection seams
// (fault_inject.h "file_read", "shm").
#ifndef SIMNPU_PLATFORM_FILE_H_
#define SIMNPU_PLATFORM_FILE_H_

#include <string>

namespace simnpu::platform {

// Reads the regular file at path into *out. false with errno-style text in *why.
bool ReadFile(const std::string& path, std::string* out, std::string* why);
// memfd_create(name, MFD_CLOEXEC); -1 with errno set on failure.
int CreateMemfd(const char* name);

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_FILE_H_
