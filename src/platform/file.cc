// Whole-file reads and memory objects.
#include "platform/file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/fault_inject.h"

namespace simnpu::platform {

bool ReadFile(const std::string& path, std::string* out, std::string* why) {
  if (InjectFault(FaultSite::kFileRead)) {
    *why = "read failed (fault injected)";
    errno = EIO;
    return false;
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *why = std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file";
    close(fd);
    return false;
  }
  std::string data;
  data.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      *why = std::strerror(errno);
      close(fd);
      return false;
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  *out = std::move(data);
  return true;
}

int CreateMemfd(const char* name) {
  if (InjectFault(FaultSite::kShm)) {
    errno = ENOMEM;
    return -1;
  }
  return memfd_create(name, MFD_CLOEXEC);
}

}  // namespace simnpu::platform
