// Copies and fills requested through the API.
#include "api/copy_path.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "dfx/trace/trace.h"
#include "core/allocation_map.h"
#include "sim/memory_path.h"
#include "sim/npu_system.h"
#include "uvm/engine.h"

namespace simnpu::api {
namespace {
constexpr size_t kBounce = 2u << 20;
}

bool IsManagedAddr(const void* p) {
  return uvm::Engine::Get().IsManaged(reinterpret_cast<uintptr_t>(p), 1);
}

bool IsDeviceArenaAddr(const void* p) { return sim::NpuSystem::Get().DeviceOwning(p) != nullptr; }

Status CopyRange(void* dst, bool dst_dev, const void* src, bool src_dev, size_t n, int phys) {
  SIMNPU_TRACE_COPY(dfx::trace::Kind::kCopy, n, (src_dev ? 2 : 0) + (dst_dev ? 1 : 0));
  core::AllocationMap::Get().MarkWritten(dst, n);  // initcheck (a no-op otherwise)
  const bool dm = dst_dev && phys >= 0 && IsManagedAddr(dst);
  const bool sm = src_dev && phys >= 0 && IsManagedAddr(src);
  if (!dm && !sm) {
    std::memmove(dst, src, n);  // CPU copy; managed host-side pages fault as usual
    return Status::Ok();
  }
  // The other side must not be managed memory touched by the CPU while the
  // device holds a block: go through a bounce buffer then.
  const bool dst_cpu_managed = !dm && IsManagedAddr(dst);
  const bool src_cpu_managed = !sm && IsManagedAddr(src);
  if (dm && sm) return sim::DeviceCopy(phys, dst, src, n);
  if (sm && !dst_cpu_managed) return sim::DeviceRead(phys, dst, src, n, sim::AccessCause::kCopy);
  if (dm && !src_cpu_managed) return sim::DeviceWrite(phys, dst, src, n, sim::AccessCause::kCopy);
  std::unique_ptr<char[]> bounce(new char[std::min(n, kBounce)]);
  for (size_t off = 0; off < n; off += kBounce) {
    size_t len = std::min(kBounce, n - off);
    if (sm) {
      SIMNPU_RETURN_IF_ERROR(sim::DeviceRead(phys, bounce.get(), static_cast<const char*>(src) + off, len,
                                             sim::AccessCause::kCopy));
      std::memcpy(static_cast<char*>(dst) + off, bounce.get(), len);
    } else {
      std::memcpy(bounce.get(), static_cast<const char*>(src) + off, len);
      SIMNPU_RETURN_IF_ERROR(sim::DeviceWrite(phys, static_cast<char*>(dst) + off, bounce.get(), len,
                                              sim::AccessCause::kCopy));
    }
  }
  return Status::Ok();
}

Status FillRange(void* dst, bool dev_side, uint8_t value, size_t n, int phys) {
  SIMNPU_TRACE_COPY(dfx::trace::Kind::kMemset, n, value);
  core::AllocationMap::Get().MarkWritten(dst, n);  // initcheck (a no-op otherwise)
  if (dev_side && phys >= 0 && IsManagedAddr(dst)) return sim::DeviceFill(phys, dst, value, n);
  std::memset(dst, value, n);
  return Status::Ok();
}

}  // namespace simnpu::api
