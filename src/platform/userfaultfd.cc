// userfaultfd(2) wrapper.
#include "platform/userfaultfd.h"

#include "platform/fault_inject.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

// Definitions missing from older kernel headers (values from the kernel ABI).
#ifndef UFFD_FEATURE_MOVE
#define UFFD_FEATURE_MOVE (1ULL << 16)
#endif
#ifndef _UFFDIO_MOVE
#define _UFFDIO_MOVE (0x05)
struct uffdio_move {
  __u64 dst;
  __u64 src;
  __u64 len;
  __u64 mode;
  __s64 move;
};
#endif
#ifndef UFFDIO_MOVE
#define UFFDIO_MOVE _IOWR(UFFDIO, _UFFDIO_MOVE, struct uffdio_move)
#endif
#ifndef UFFDIO_MOVE_MODE_DONTWAKE
#define UFFDIO_MOVE_MODE_DONTWAKE ((__u64)1 << 0)
#endif
#ifndef UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES
#define UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES ((__u64)1 << 1)
#endif
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1ULL << 13)
#endif
#ifndef USERFAULTFD_IOC_NEW
#define USERFAULTFD_IOC_NEW _IO(0xAA, 0x00)
#endif

namespace simnpu::platform {

Userfaultfd::~Userfaultfd() {
  if (fd_ >= 0) close(fd_);
}

std::unique_ptr<Userfaultfd> Userfaultfd::Open(std::string* why_not) {
  if (InjectFault(FaultSite::kUffd)) {
    if (why_not) *why_not = "userfaultfd(2) failed (fault injected)";
    return nullptr;
  }
  int fd = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
  int sys_errno = fd < 0 ? errno : 0;
  if (fd < 0) {
    int dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
    if (dev >= 0) {
      fd = ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
      close(dev);
    }
  }
  if (fd < 0) {
    if (why_not) {
      *why_not = std::string("userfaultfd(2) failed: ") + std::strerror(sys_errno);
      if (sys_errno == EPERM)
        *why_not +=
            " (the process is not privileged and vm.unprivileged_userfaultfd is 0, and "
            "/dev/userfaultfd is not accessible). Fix: run as root, or `sysctl "
            "vm.unprivileged_userfaultfd=1`, or give the user read/write access to "
            "/dev/userfaultfd";
      else if (sys_errno == ENOSYS)
        *why_not += " (the kernel was built without CONFIG_USERFAULTFD)";
    }
    return nullptr;
  }
  std::unique_ptr<Userfaultfd> u(new Userfaultfd(fd));
  // Ask for everything useful; retry with fewer features on EINVAL.
  const uint64_t wanted[] = {
      UFFD_FEATURE_MOVE | UFFD_FEATURE_PAGEFAULT_FLAG_WP | UFFD_FEATURE_THREAD_ID |
          UFFD_FEATURE_WP_UNPOPULATED,
      UFFD_FEATURE_PAGEFAULT_FLAG_WP | UFFD_FEATURE_THREAD_ID, UFFD_FEATURE_THREAD_ID, 0};
  // UFFDIO_API may be called once per fd; probe the supported set on a scratch fd.
  uint64_t supported = 0;
  {
    int probe = static_cast<int>(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
    if (probe >= 0) {
      struct uffdio_api api = {};
      api.api = UFFD_API;
      if (ioctl(probe, UFFDIO_API, &api) == 0) supported = api.features;
      close(probe);
    }
  }
  for (uint64_t w : wanted) {
    if (supported && (w & supported) != w) continue;
    struct uffdio_api api = {};
    api.api = UFFD_API;
    api.features = w;
    if (ioctl(fd, UFFDIO_API, &api) == 0) {
      u->features_ = api.features;
      u->has_move_ = (w & UFFD_FEATURE_MOVE) != 0;
      u->has_wp_ = (w & UFFD_FEATURE_PAGEFAULT_FLAG_WP) != 0;
      u->has_thread_id_ = (w & UFFD_FEATURE_THREAD_ID) != 0;
      return u;
    }
  }
  if (why_not) *why_not = std::string("UFFDIO_API failed: ") + std::strerror(errno);
  return nullptr;
}

int Userfaultfd::Register(void* addr, size_t len, bool wp) {
  struct uffdio_register reg = {};
  reg.range.start = reinterpret_cast<uintptr_t>(addr);
  reg.range.len = len;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING | (wp && has_wp_ ? UFFDIO_REGISTER_MODE_WP : 0);
  if (ioctl(fd_, UFFDIO_REGISTER, &reg) != 0) return -errno;
  return 0;
}

int Userfaultfd::Unregister(void* addr, size_t len) {
  struct uffdio_range r = {reinterpret_cast<uintptr_t>(addr), len};
  if (ioctl(fd_, UFFDIO_UNREGISTER, &r) != 0) return -errno;
  return 0;
}

long Userfaultfd::Move(void* dst, void* src, size_t len, bool dontwake, bool allow_src_holes) {
  if (!has_move_) return -ENOTSUP;
  struct uffdio_move m = {};
  m.dst = reinterpret_cast<uintptr_t>(dst);
  m.src = reinterpret_cast<uintptr_t>(src);
  m.len = len;
  m.mode = (dontwake ? UFFDIO_MOVE_MODE_DONTWAKE : 0) |
           (allow_src_holes ? UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES : 0);
  if (ioctl(fd_, UFFDIO_MOVE, &m) != 0) {
    int e = errno;
    if (m.move > 0) return static_cast<long>(m.move);
    return -e;
  }
  return static_cast<long>(m.move);
}

long Userfaultfd::Copy(void* dst, const void* src, size_t len, bool dontwake, bool wp) {
  struct uffdio_copy c = {};
  c.dst = reinterpret_cast<uintptr_t>(dst);
  c.src = reinterpret_cast<uintptr_t>(src);
  c.len = len;
  c.mode = (dontwake ? UFFDIO_COPY_MODE_DONTWAKE : 0) | (wp && has_wp_ ? UFFDIO_COPY_MODE_WP : 0);
  if (ioctl(fd_, UFFDIO_COPY, &c) != 0) {
    int e = errno;
    if (c.copy > 0) return static_cast<long>(c.copy);
    return -e;
  }
  return static_cast<long>(c.copy);
}

int Userfaultfd::WriteProtect(void* addr, size_t len, bool protect, bool dontwake) {
  if (!has_wp_) return -ENOTSUP;
  struct uffdio_writeprotect w = {};
  w.range.start = reinterpret_cast<uintptr_t>(addr);
  w.range.len = len;
  w.mode = (protect ? UFFDIO_WRITEPROTECT_MODE_WP : 0) |
           (dontwake ? UFFDIO_WRITEPROTECT_MODE_DONTWAKE : 0);
  if (ioctl(fd_, UFFDIO_WRITEPROTECT, &w) != 0) return -errno;
  return 0;
}

int Userfaultfd::Wake(void* addr, size_t len) {
  struct uffdio_range r = {reinterpret_cast<uintptr_t>(addr), len};
  if (ioctl(fd_, UFFDIO_WAKE, &r) != 0) return -errno;
  return 0;
}

int Userfaultfd::ReadFault(UffdFault* out) {
  for (;;) {
    struct uffd_msg msg;
    ssize_t n = read(fd_, &msg, sizeof msg);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      if (errno == EINTR) continue;
      return -errno;
    }
    if (n != static_cast<ssize_t>(sizeof msg)) return -EIO;
    if (msg.event != UFFD_EVENT_PAGEFAULT) continue;
    out->address = static_cast<uintptr_t>(msg.arg.pagefault.address);
    out->write = (msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WRITE) != 0;
    out->wp = (msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP) != 0;
    out->tid = has_thread_id_ ? msg.arg.pagefault.feat.ptid : 0;
    return 1;
  }
}

}  // namespace simnpu::platform
