// Virtual memory primitives.
#include "platform/vm.h"

#include "platform/fault_inject.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace simnpu::platform {

void* ReserveVa(size_t size, size_t align, uintptr_t hint, bool* at_hint) {
  if (at_hint) *at_hint = false;
  if (InjectFault(FaultSite::kReserveVa)) {
    errno = ENOMEM;
    return nullptr;
  }
  const int prot = PROT_NONE;
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  if (hint != 0 && (hint & (align - 1)) == 0) {
    void* p = mmap(reinterpret_cast<void*>(hint), size, prot, flags | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED) {
      if (reinterpret_cast<uintptr_t>(p) == hint) {
        if (at_hint) *at_hint = true;
        return p;
      }
      munmap(p, size);  // old kernels ignore NOREPLACE and return another address
    }
  }
  size_t total = size + align;
  void* raw = mmap(nullptr, total, prot, flags, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t base = AlignUp(reinterpret_cast<uintptr_t>(raw), align);
  uintptr_t raw_end = reinterpret_cast<uintptr_t>(raw) + total;
  if (base > reinterpret_cast<uintptr_t>(raw)) munmap(raw, base - reinterpret_cast<uintptr_t>(raw));
  if (raw_end > base + size) munmap(reinterpret_cast<void*>(base + size), raw_end - (base + size));
  return reinterpret_cast<void*>(base);
}

void ReleaseVa(void* addr, size_t size) {
  if (addr && size) munmap(addr, size);
}

int CommitRw(void* addr, size_t size, bool huge) {
  if (InjectFault(FaultSite::kCommit)) return ENOMEM;
  if (mprotect(addr, size, PROT_READ | PROT_WRITE) != 0) return errno;
  if (huge) madvise(addr, size, MADV_HUGEPAGE);  // advisory; failure is harmless
  return 0;
}

int Decommit(void* addr, size_t size) {
  if (madvise(addr, size, MADV_DONTNEED) != 0) return errno;
  if (mprotect(addr, size, PROT_NONE) != 0) return errno;
  return 0;
}

int DropPages(void* addr, size_t size) {
  if (madvise(addr, size, MADV_DONTNEED) != 0) return errno;
  return 0;
}

bool RangeMapped(const void* addr, size_t size) {
  if (size == 0) return true;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (a > UINTPTR_MAX - (size - 1)) return false;
  const uintptr_t lo = AlignDown(a, kPageSize);
  const uintptr_t last = a + (size - 1);
  if (last > UINTPTR_MAX - kPageSize) return false;
  const uintptr_t hi = AlignUp(last + 1, kPageSize);
  return msync(reinterpret_cast<void*>(lo), hi - lo, MS_ASYNC) == 0;
}

namespace {

// The definitive check: push the bytes through a pipe (the kernel refuses
// unreadable memory with EFAULT). Six system calls; only reached when the
// cheap checks below could not prove the range readable.
bool CopyThroughPipe(void* dst, const void* addr, size_t size) {
  if (size == 0) return true;
  if (!RangeMapped(addr, size)) return false;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return false;
  const char* at = static_cast<const char*>(addr);
  char* out = static_cast<char*>(dst);
  char sink[4096];
  bool ok = true;
  while (size > 0) {
    const size_t chunk = size < sizeof sink ? size : sizeof sink;  // always fits in the pipe
    // The raw system call: the kernel checks the bytes (EFAULT), where a
    // sanitizer's write() interceptor would read them itself first.
    const ssize_t w = static_cast<ssize_t>(syscall(SYS_write, p[1], at, chunk));
    if (w < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    for (ssize_t left = w; left > 0;) {
      const ssize_t r = read(p[0], out ? out : sink, static_cast<size_t>(left));
      if (r <= 0) {
        if (r < 0 && errno == EINTR) continue;
        ok = false;
        break;
      }
      left -= r;
      if (out) out += r;
    }
    if (!ok) break;
    at += w;
    size -= static_cast<size_t>(w);
  }
  close(p[0]);
  close(p[1]);
  return ok;
}

// The calling thread's stack, [lo, hi), found once per thread (glibc reads
// /proc/self/maps for the main thread's, so it is cached). hi == 0: unknown.
struct StackBounds {
  uintptr_t lo = 0, hi = 0;
  bool looked = false;
};
thread_local StackBounds tls_stack;

// True when [a, a+size) lies in the caller's live stack: between this frame
// and the top of the thread's stack, memory the thread's own callers are
// using, hence mapped and readable (argument blocks built in a local array,
// the common launch). Not taken when the thread runs on a stack of its own
// making (coroutines, sigaltstack) or when locals live elsewhere.
__attribute__((noinline)) bool InCallersStack(uintptr_t a, size_t size) {
  StackBounds& b = tls_stack;
  if (!b.looked) {
    b.looked = true;
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
      void* base = nullptr;
      size_t sz = 0;
      if (pthread_attr_getstack(&at, &base, &sz) == 0 && base != nullptr) {
        b.lo = reinterpret_cast<uintptr_t>(base);
        b.hi = b.lo + sz;
      }
      pthread_attr_destroy(&at);
    }
  }
  const uintptr_t frame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (b.hi == 0 || frame < b.lo || frame >= b.hi) return false;
  return a >= frame && a < b.hi && size <= b.hi - a;
}

// One system call: the kernel copies from this process to itself and stops
// at the first byte it cannot read. Short or failed (unreadable memory, or a
// kernel or sandbox without process_vm_readv): not proven, the caller falls
// back to the pipe.
bool CopyWithVmRead(void* dst, const void* addr, size_t size) {
  char sink[4096];  // written by the kernel only; never read
  constexpr size_t kMaxIov = 64;
  const char* at = static_cast<const char*>(addr);
  char* out = static_cast<char*>(dst);
  while (size > 0) {
    struct iovec local[kMaxIov];
    size_t n = 0, want = 0;
    if (out) {
      const size_t chunk = size < (size_t{1} << 30) ? size : (size_t{1} << 30);
      local[n++] = {out, chunk};
      want = chunk;
    } else {
      while (n < kMaxIov && want < size) {
        const size_t chunk = size - want < sizeof sink ? size - want : sizeof sink;
        local[n++] = {sink, chunk};
        want += chunk;
      }
    }
    struct iovec remote = {const_cast<char*>(at), want};
    const ssize_t got = process_vm_readv(getpid(), local, n, &remote, 1, 0);
    if (got < 0 || static_cast<size_t>(got) != want) return false;
    at += want;
    if (out) out += want;
    size -= want;
  }
  return true;
}

}  // namespace

bool CopyIfReadable(void* dst, const void* addr, size_t size) {
  if (size == 0) return true;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (a > UINTPTR_MAX - (size - 1)) return false;
  // (With dst the copy is left to the kernel even on the stack, so a
  // sanitizer never sees this code load bytes the caller did not own.)
  if (dst == nullptr && InCallersStack(a, size)) return true;
  if (CopyWithVmRead(dst, addr, size)) return true;
  return CopyThroughPipe(dst, addr, size);
}

bool RangeReadable(const void* addr, size_t size) { return CopyIfReadable(nullptr, addr, size); }

long CountAnonHugePages() {
  FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "AnonHugePages:", 14) == 0) {
      std::sscanf(line + 14, "%ld", &kb);
      break;
    }
  }
  std::fclose(f);
  return kb < 0 ? -1 : kb / 2048;
}

}  // namespace simnpu::platform
