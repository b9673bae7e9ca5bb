// Whole-file input and output for the sample programs (see file_io.h).
#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "sample_log.h"

namespace uvm_sample {

bool ReadExactFile(const std::string& path, void* dst, size_t size)
{
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) {
        ERROR_LOG("cannot stat %s: %s", path.c_str(), std::strerror(errno));
        return false;
    }
    if (!S_ISREG(info.st_mode)) {
        ERROR_LOG("%s is not a regular file", path.c_str());
        return false;
    }
    if (static_cast<size_t>(info.st_size) != size) {
        ERROR_LOG("%s holds %lld bytes, expected %zu", path.c_str(), static_cast<long long>(info.st_size), size);
        return false;
    }
    std::ifstream in(path, std::ios::in | std::ios::binary);
    if (!in.is_open()) {
        ERROR_LOG("cannot open %s", path.c_str());
        return false;
    }
    in.read(static_cast<char*>(dst), static_cast<std::streamsize>(size));
    if (static_cast<size_t>(in.gcount()) != size) {
        ERROR_LOG("short read from %s: %lld of %zu bytes", path.c_str(), static_cast<long long>(in.gcount()), size);
        return false;
    }
    return true;
}

bool WriteWholeFile(const std::string& path, const void* src, size_t size)
{
    if (src == nullptr) {
        ERROR_LOG("nothing to write to %s", path.c_str());
        return false;
    }
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    if (fd < 0) {
        ERROR_LOG("cannot create %s: %s", path.c_str(), std::strerror(errno));
        return false;
    }
    const char* next = static_cast<const char*>(src);
    size_t left = size;
    bool ok = true;
    while (left > 0) {
        const ssize_t done = write(fd, next, left);
        if (done < 0 && errno == EINTR) {
            continue;
        }
        if (done <= 0) {
            ERROR_LOG("write to %s failed: %s", path.c_str(), done < 0 ? std::strerror(errno) : "no progress");
            ok = false;
            break;
        }
        next += done;
        left -= static_cast<size_t>(done);
    }
    if (close(fd) != 0 && ok) {
        ERROR_LOG("closing %s failed: %s", path.c_str(), std::strerror(errno));
        ok = false;
    }
    return ok;
}

}  // namespace uvm_sample
