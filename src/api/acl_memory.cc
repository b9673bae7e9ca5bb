// Memory entry points: device and host allocation, copies, fills, host
// registration, pointer attributes.
#include <cstring>
#include <memory>
#include <vector>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "api/copy_path.h"
#include "core/basic_tasks.h"
#include "core/host_memory.h"
#include "core/runtime.h"
#include "sim/npu_system.h"
#include "uvm/counters.h"
#include "uvm/engine.h"

using namespace simnpu;

namespace {

bool KindValid(int kind) { return kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE; }

// Which sides of a copy the device accesses (kind: a valid aclrtMemcpyKind).
void Sides(int kind, const void* dst, const void* src, bool* dst_dev, bool* src_dev) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: *dst_dev = false; *src_dev = false; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: *dst_dev = true; *src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: *dst_dev = false; *src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: *dst_dev = true; *src_dev = true; break;
    default:  // ACL_MEMCPY_DEFAULT: from the addresses
      *dst_dev = api::IsDeviceArenaAddr(dst) || api::IsManagedAddr(dst);
      *src_dev = api::IsDeviceArenaAddr(src) || api::IsManagedAddr(src);
  }
}

// Ordinary (pageable) host memory: not device memory, not managed, not from
// aclrtMallocHost and not registered with aclrtHostRegisterV2.
bool IsPageableHost(const void* p) {
  return !api::IsDeviceArenaAddr(p) && !api::IsManagedAddr(p) && !core::HostMemory::Get().IsPinned(p) &&
         core::HostMemory::Get().FindRegistered(p) == nullptr;
}

aclError CheckCopyArgs(const char* func, void* dst, size_t destMax, const void* src, size_t count,
                       int kind) {
  if (dst == nullptr) return api::NullParam(func, "dst");
  if (src == nullptr) return api::NullParam(func, "src");
  if (count == 0) return ACL_SUCCESS;  // nothing to copy: no further checks
  if (!KindValid(kind))
    return api::BadParam(func, "kind", std::to_string(kind), "ACL_MEMCPY_HOST_TO_HOST .. ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE");
  if (count > destMax)
    return api::RtBadParam(func, "count", std::to_string(count), "count exceeds destMax " + std::to_string(destMax));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  int page = api::RawEnum(policy) & 0xff;  // policy may carry flag bits beyond the enum
  bool no_pad = page == ACL_MEM_MALLOC_HUGE1G_ONLY || page == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  if (size > (SIZE_MAX >> 1)) return api::RtFail(__func__, ACL_ERROR_RT_MEMORY_ALLOCATION, "size too large");
  size_t rounded = (size + 31) / 32 * 32 + (no_pad ? 0 : 32);
  sim::DeviceArena& arena = ctx.value()->device()->npu()->arena();
  auto p = arena.Allocate(rounded);
  // Device memory held by managed pages can be reclaimed: evict them to the
  // host and retry (as a GPU driver lets other allocators evict UVM pages).
  while (!p.ok() && p.status().code() == ACL_ERROR_RT_MEMORY_ALLOCATION &&
         uvm::Engine::Get().EvictForAllocation(ctx.value()->phys_id(), 1) > 0)
    p = arena.Allocate(rounded);
  if (!p.ok()) return api::Fail(__func__, p.status());
  *devPtr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  auto p = core::HostMemory::Get().AllocPinned(size);
  if (!p.ok()) return api::Fail(__func__, p.status());
  *hostPtr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (api::IsManagedAddr(devPtr)) {
    Status st = uvm::Engine::Get().Free(devPtr);
    return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
  }
  if (sim::NpuDevice* d = sim::NpuSystem::Get().DeviceOwning(devPtr)) {
    Status st = d->arena().Free(devPtr);
    return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
  }
  return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr),
                         core::HostMemory::Get().IsPinned(devPtr)
                             ? "host memory from aclrtMallocHost is freed with aclrtFreeHost"
                             : "not memory from aclrtMalloc or aclrtMemAllocManaged");
}

aclError aclrtFreeHost(void* hostPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  Status st = core::HostMemory::Get().FreePinned(hostPtr);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind memcpyKind) {
  SIMNPU_TRACE_API();
  const int kind = api::RawEnum(memcpyKind);
  if (aclError e = CheckCopyArgs(__func__, dst, destMax, src, count, kind)) return e;
  uvm::Count(uvm::Stats().explicit_copies);
  if (count == 0 || dst == src) return ACL_SUCCESS;
  bool dst_dev, src_dev;
  Sides(kind, dst, src, &dst_dev, &src_dev);
  int phys = -1;
  if (dst_dev || src_dev) {
    auto ctx = core::Runtime::Get().current();
    if (ctx) {
      // A synchronous copy is ordered after device work already submitted.
      ctx->device()->WaitIdle();
      phys = ctx->phys_id();
    } else if (api::IsManagedAddr(dst) || api::IsManagedAddr(src) || api::IsDeviceArenaAddr(dst) ||
               api::IsDeviceArenaAddr(src)) {
      return api::Fail(__func__, core::Runtime::Get().RequireCurrent().status());
    }
  }
  Status st = api::CopyRange(dst, dst_dev, src, src_dev, count, phys);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind memcpyKind,
                          aclrtStream stream) {
  SIMNPU_TRACE_API();
  const int kind = api::RawEnum(memcpyKind);
  if (aclError e = CheckCopyArgs(__func__, dst, destMax, src, count, kind)) return e;
  uvm::Count(uvm::Stats().explicit_copies);
  ACL_RESOLVE_STREAM(s, stream);
  if (count == 0 || dst == src) return ACL_SUCCESS;
  bool dst_dev, src_dev;
  Sides(kind, dst, src, &dst_dev, &src_dev);
  // With pageable host memory the copy is synchronous with respect to the
  // host buffer: a pageable source is captured now (the caller may reuse or
  // free it on return) and a pageable destination is written before the
  // call returns. Page-locked and registered memory is read/written when the
  // stream reaches the copy.
  std::shared_ptr<std::vector<char>> staged;
  const void* from = src;
  if (!src_dev && IsPageableHost(src)) {
    auto* b = static_cast<const char*>(src);
    staged = std::make_shared<std::vector<char>>(b, b + count);
    from = staged->data();
  }
  const bool wait = !dst_dev && IsPageableHost(dst);
  core::Stream& st = *s;
  uint64_t seq = st.Submit(std::make_unique<core::HostFuncTask>(
      [=](core::ExecContext& ctx) {
        Status r = api::CopyRange(dst, dst_dev, from, src_dev, count, ctx.phys_id);
        (void)staged;  // keeps the captured source alive until the copy ran
        return r.code();
      },
      "memcpy_async", true));
  if (wait) st.WaitFor(seq);  // returns at once on the stream's own worker
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (count > maxCount)
    return api::RtBadParam(__func__, "count", std::to_string(count), "count exceeds maxCount " + std::to_string(maxCount));
  uvm::Count(uvm::Stats().explicit_sets);
  if (count == 0) return ACL_SUCCESS;
  int phys = -1;
  if (auto ctx = core::Runtime::Get().current()) {
    ctx->device()->WaitIdle();
    phys = ctx->phys_id();
  } else if (api::IsManagedAddr(devPtr) || api::IsDeviceArenaAddr(devPtr)) {
    return api::Fail(__func__, core::Runtime::Get().RequireCurrent().status());
  }
  Status st = api::FillRange(devPtr, true, static_cast<uint8_t>(value), count, phys);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (count > maxCount)
    return api::RtBadParam(__func__, "count", std::to_string(count), "count exceeds maxCount " + std::to_string(maxCount));
  uvm::Count(uvm::Stats().explicit_sets);
  ACL_RESOLVE_STREAM(s, stream);
  if (count == 0) return ACL_SUCCESS;
  s->Submit(std::make_unique<core::HostFuncTask>(
      [=](core::ExecContext& ctx) {
        return api::FillRange(devPtr, true, static_cast<uint8_t>(value), count, ctx.phys_id).code();
      },
      "memset_async", true));
  return ACL_SUCCESS;
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  constexpr uint32_t kAllowed = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
  if (flag == 0 || (flag & ~kAllowed))
    return api::RtBadParam(__func__, "flag", std::to_string(flag),
                           "a non-empty combination of ACL_HOST_REG_MAPPED, _IOMEMORY, _READONLY, _PINNED");
  Status st = core::HostMemory::Get().Register(ptr, size, flag);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  ACL_REQUIRE_NOT_NULL(pHost);
  ACL_REQUIRE_NOT_NULL(pDevice);
  if (flag != 0) return api::BadParam(__func__, "flag", std::to_string(flag), "0");
  if (!core::HostMemory::Get().FindRegistered(pHost))
    return api::RtFail(__func__, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "the address is not registered host memory");
  *pDevice = pHost;  // the simulated device reaches registered host memory at the same address
  return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void* ptr) {
  ACL_REQUIRE_NOT_NULL(ptr);
  Status st = core::HostMemory::Get().Unregister(ptr);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(attributes);
  std::memset(attributes, 0, sizeof *attributes);
  if (api::IsManagedAddr(ptr)) {
    if (!uvm::Engine::Get().Lookup(ptr, nullptr, nullptr))
      return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "inside the managed window but not allocated");
    attributes->location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    auto ctx = core::Runtime::Get().current();
    attributes->location.id = ctx ? static_cast<uint32_t>(ctx->device_id()) : 0;
    attributes->pageSize = 2u << 20;
    return ACL_SUCCESS;
  }
  if (sim::NpuDevice* d = sim::NpuSystem::Get().DeviceOwning(ptr)) {
    uintptr_t base;
    size_t size;
    if (!d->arena().FindAllocation(ptr, &base, &size))
      return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "device memory that is not allocated");
    attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attributes->location.id = static_cast<uint32_t>(api::LogicalDeviceId(d->phys_id(), 0));
    attributes->pageSize = size >= (1u << 20) ? (2u << 20) : 4096u;
    return ACL_SUCCESS;
  }
  attributes->location.type = (core::HostMemory::Get().IsPinned(ptr) || core::HostMemory::Get().FindRegistered(ptr))
                                  ? ACL_MEM_LOCATION_TYPE_HOST
                                  : ACL_MEM_LOCATION_TYPE_UNREGISTERED;
  attributes->location.id = 0;
  attributes->pageSize = 4096;
  return ACL_SUCCESS;
}

}  // extern "C"
