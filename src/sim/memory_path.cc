// The device memory path.
#include "sim/memory_path.h"

#include <atomic>
#include <cstring>
#include <memory>

namespace simnpu::sim {
namespace {
std::atomic<ManagedAccessHandler*> g_handler{nullptr};
constexpr size_t kBounce = 2u << 20;
}  // namespace

void SetManagedAccessHandler(ManagedAccessHandler* h) { g_handler.store(h); }
ManagedAccessHandler* GetManagedAccessHandler() { return g_handler.load(std::memory_order_acquire); }

// One memcpy on the calling thread, whatever the size: the device workers
// already run in parallel, and splitting a copy over more threads would
// compete with them for the same cores.
void FastCopy(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }

static bool Managed(ManagedAccessHandler* h, const void* p, size_t n) {
  return h && h->IsManaged(reinterpret_cast<uintptr_t>(p), n);
}

Status DeviceRead(int dev, void* dst, const void* src, size_t n, AccessCause cause) {
  if (n == 0) return Status::Ok();
  ManagedAccessHandler* h = GetManagedAccessHandler();
  if (!Managed(h, src, n)) {
    FastCopy(dst, src, n);
    return Status::Ok();
  }
  char* d = static_cast<char*>(dst);
  return h->DeviceAccess(dev, reinterpret_cast<uintptr_t>(src), n, AccessKind::kRead, cause,
                         [d](char* p, size_t off, size_t len) { FastCopy(d + off, p, len); });
}

Status DeviceWrite(int dev, void* dst, const void* src, size_t n, AccessCause cause) {
  if (n == 0) return Status::Ok();
  ManagedAccessHandler* h = GetManagedAccessHandler();
  if (!Managed(h, dst, n)) {
    FastCopy(dst, src, n);
    return Status::Ok();
  }
  const char* s = static_cast<const char*>(src);
  return h->DeviceAccess(dev, reinterpret_cast<uintptr_t>(dst), n, AccessKind::kWrite, cause,
                         [s](char* p, size_t off, size_t len) { FastCopy(p, s + off, len); });
}

Status DeviceCopy(int dev, void* dst, const void* src, size_t n) {
  if (n == 0 || dst == src) return Status::Ok();
  ManagedAccessHandler* h = GetManagedAccessHandler();
  bool ms = Managed(h, src, n), md = Managed(h, dst, n);
  if (!ms && !md) {
    std::memmove(dst, src, n);
    return Status::Ok();
  }
  if (ms && !md) return DeviceRead(dev, dst, src, n, AccessCause::kCopy);
  if (!ms && md) return DeviceWrite(dev, dst, src, n, AccessCause::kCopy);
  // managed -> managed: bounce through a buffer, one piece at a time.
  std::unique_ptr<char[]> bounce(new char[std::min(n, kBounce)]);
  for (size_t off = 0; off < n; off += kBounce) {
    size_t len = std::min(kBounce, n - off);
    SIMNPU_RETURN_IF_ERROR(
        DeviceRead(dev, bounce.get(), static_cast<const char*>(src) + off, len, AccessCause::kCopy));
    SIMNPU_RETURN_IF_ERROR(
        DeviceWrite(dev, static_cast<char*>(dst) + off, bounce.get(), len, AccessCause::kCopy));
  }
  return Status::Ok();
}

Status DeviceFill(int dev, void* dst, uint8_t value, size_t n) {
  if (n == 0) return Status::Ok();
  ManagedAccessHandler* h = GetManagedAccessHandler();
  if (!Managed(h, dst, n)) {
    std::memset(dst, value, n);
    return Status::Ok();
  }
  return h->DeviceAccess(dev, reinterpret_cast<uintptr_t>(dst), n, AccessKind::kWrite,
                         AccessCause::kMemset,
                         [value](char* p, size_t, size_t len) { std::memset(p, value, len); });
}

}  // namespace simnpu::sim
