// userfaultfd(2) wrapper: opening with the features we use, registering
// ranges, and the resolving ioctls (MOVE, COPY, WRITEPROTECT, WAKE).
//
// Debian 12's <linux/userfaultfd.h> predates UFFDIO_MOVE (Linux 6.8); the
// definitions we need are provided here and the feature is detected at run
// time through UFFDIO_API. Every call returns 0/bytes or -errno; nothing
// throws or aborts.
#ifndef SIMNPU_PLATFORM_USERFAULTFD_H_
#define SIMNPU_PLATFORM_USERFAULTFD_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace simnpu::platform {

struct UffdFault {
  uintptr_t address;  // faulting address (page aligned by the kernel unless EXACT_ADDRESS)
  bool write;         // the access was a write
  bool wp;            // a write-protect fault (the page is present but write-protected)
  uint32_t tid;       // faulting thread id (0 when THREAD_ID is not available)
};

class Userfaultfd {
 public:
  ~Userfaultfd();
  Userfaultfd(const Userfaultfd&) = delete;
  Userfaultfd& operator=(const Userfaultfd&) = delete;

  // Opens a non-blocking, close-on-exec userfaultfd: first through the
  // userfaultfd(2) system call, then through /dev/userfaultfd. On failure
  // returns nullptr and explains why in *why_not (errno text and the fix).
  static std::unique_ptr<Userfaultfd> Open(std::string* why_not);

  int fd() const { return fd_; }
  uint64_t features() const { return features_; }
  bool has_move() const { return has_move_; }
  bool has_wp() const { return has_wp_; }
  bool has_thread_id() const { return has_thread_id_; }

  // Registers [addr, addr+len) (page aligned) for missing and optionally
  // write-protect faults. Returns 0 or -errno.
  int Register(void* addr, size_t len, bool wp);
  int Unregister(void* addr, size_t len);

  // Moves the pages of [src, src+len) to the unpopulated range at dst (which
  // must be registered). Returns the bytes moved (possibly fewer than len) or
  // -errno when nothing was moved. allow_src_holes skips unpopulated source pages.
  long Move(void* dst, void* src, size_t len, bool dontwake, bool allow_src_holes);
  // Copies len bytes from src into the unpopulated registered range at dst and
  // maps it; optionally write-protected. Bytes copied or -errno.
  long Copy(void* dst, const void* src, size_t len, bool dontwake, bool wp);
  // Sets (protect=true) or clears write protection. 0 or -errno.
  int WriteProtect(void* addr, size_t len, bool protect, bool dontwake);
  // Wakes threads waiting on faults in the range. 0 or -errno.
  int Wake(void* addr, size_t len);

  // Reads one pending fault message; returns 1 when *out is filled, 0 when no
  // message is pending, -errno on error. Non-fault events are skipped.
  int ReadFault(UffdFault* out);

 private:
  explicit Userfaultfd(int fd) : fd_(fd) {}
  int fd_ = -1;
  uint64_t features_ = 0;
  bool has_move_ = false;
  bool has_wp_ = false;
  bool has_thread_id_ = false;
};

}  // namespace simnpu::platform

#endif  // SIMNPU_PLATFORM_USERFAULTFD_H_
