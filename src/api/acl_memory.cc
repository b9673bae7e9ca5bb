// Memory entry points: device and host allocation, copies, fills, host
// registration, pointer attributes.
#include <cstring>
#include <memory>
#include <vector>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "api/capture_hooks.h"
#include "api/copy_path.h"
#include "api/range_checks.h"
#include "core/allocation_map.h"
#include "core/basic_tasks.h"
#include "core/host_memory.h"
#include "core/ipc_memory.h"
#include "core/runtime.h"
#include "platform/vm.h"
#include "sim/npu_system.h"
#include "uvm/counters.h"
#include "uvm/engine.h"

using namespace simnpu;

namespace {

bool KindValid(int kind) { return kind >= ACL_MEMCPY_HOST_TO_HOST && kind <= ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE; }

// Ordinary (pageable) host memory: not device memory, not managed, not from
// aclrtMallocHost and not registered with aclrtHostRegisterV2.
bool IsPageableHost(const void* p) {
  return !core::AllocationMap::Get().Find(p) && !api::IsDeviceArenaAddr(p) && !api::IsManagedAddr(p);
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
  Status reg = core::AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(p.value()), size, rounded,
                                                   core::MemKind::kDevice, ctx.value()->phys_id());
  if (!reg.ok()) {
    (void)arena.Free(p.value());
    return api::Fail(__func__, reg);
  }
  *devPtr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  if (size > (SIZE_MAX >> 1)) return api::RtFail(__func__, ACL_ERROR_RT_MEMORY_ALLOCATION, "size too large");
  auto p = core::HostMemory::Get().AllocPinned(size);
  if (!p.ok()) return api::Fail(__func__, p.status());
  Status reg = core::AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(p.value()), size,
                                                   platform::AlignUp(size, platform::kPageSize),
                                                   core::MemKind::kHostPinned, -1);
  if (!reg.ok()) {
    (void)core::HostMemory::Get().FreePinned(p.value());
    return api::Fail(__func__, reg);
  }
  *hostPtr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtFree(void* devPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  auto& map = core::AllocationMap::Get();
  const uintptr_t a = reinterpret_cast<uintptr_t>(devPtr);
  auto live = map.Find(devPtr);
  if (api::IsManagedAddr(devPtr)) {
    // Leave the map first: once the engine frees the range another thread may
    // get the same address from aclrtMemAllocManaged and register it.
    core::Allocation gone;
    const bool had = live && live->base == a && map.Unregister(a, &gone);
    Status st = uvm::Engine::Get().Free(devPtr);
    if (st.ok()) return ACL_SUCCESS;
    if (had) (void)map.Register(gone.base, gone.size, gone.span, gone.kind, gone.device);
    if (auto dead = map.FindFreed(devPtr); dead && !live)
      return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr), "it lies in " + dead->Describe() + ", which was already freed");
    return api::Fail(__func__, st);
  }
  if (sim::NpuDevice* d = sim::NpuSystem::Get().DeviceOwning(devPtr)) {
    if (live && live->base != a)
      return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr),
                             "it points " + std::to_string(a - live->base) + " bytes into " + live->Describe() +
                                 "; free the address aclrtMalloc returned");
    if (live) core::IpcMemory::Get().ForgetRange(live->base, live->span);  // its exports end with it
    core::Allocation gone;
    const bool had = live && map.Unregister(a, &gone);  // before the address can be handed out again
    Status st = d->arena().Free(devPtr);
    if (st.ok()) return ACL_SUCCESS;
    if (had) (void)map.Register(gone.base, gone.size, gone.span, gone.kind, gone.device);
    if (auto dead = map.FindFreed(devPtr))
      return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr), "it lies in " + dead->Describe() + ", which was already freed");
    return api::Fail(__func__, st);
  }
  if (live && live->kind == core::MemKind::kHostPinned)
    return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr), "host memory from aclrtMallocHost is freed with aclrtFreeHost");
  return api::RtBadParam(__func__, "devPtr", api::Hex(devPtr), "not memory from aclrtMalloc or aclrtMemAllocManaged");
}

aclError aclrtFreeHost(void* hostPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(hostPtr);
  // (unregistered first, as aclrtFree does: the freed range may be handed
  // out again at once)
  auto& map = core::AllocationMap::Get();
  const uintptr_t a = reinterpret_cast<uintptr_t>(hostPtr);
  if (auto live = map.Find(hostPtr); live && live->base == a && live->kind == core::MemKind::kHostPinned)
    map.Unregister(a);
  Status st = core::HostMemory::Get().FreePinned(hostPtr);
  if (st.ok()) return ACL_SUCCESS;
  if (auto dead = map.FindFreed(hostPtr))
    return api::RtBadParam(__func__, "hostPtr", api::Hex(hostPtr), "it lies in " + dead->Describe() + ", which was already freed");
  return api::Fail(__func__, st);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind memcpyKind) {
  SIMNPU_TRACE_API();
  const int kind = api::RawEnum(memcpyKind);
  if (aclError e = CheckCopyArgs(__func__, dst, destMax, src, count, kind)) return e;
  uvm::Count(uvm::Stats().explicit_copies);
  if (count == 0 || dst == src) return ACL_SUCCESS;
  bool dst_dev, src_dev;
  if (aclError e = api::CheckCopyRanges(__func__, dst, src, count, kind, &dst_dev, &src_dev)) return e;
  if (aclError e = api::RefuseUnsafeCall(__func__)) return e;
  int phys = -1;
  if (dst_dev || src_dev) {
    auto ctx = core::Runtime::Get().current();
    if (ctx) {
      if (dst_dev && src_dev)
        if (aclError e = api::CheckPeerCopy(__func__, dst, src, ctx->device_id(), ctx->phys_id())) return e;
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
  if (aclError e = api::CheckCopyRanges(__func__, dst, src, count, kind, &dst_dev, &src_dev)) return e;
  if (dst_dev && src_dev)
    if (aclError e = api::CheckPeerCopy(__func__, dst, src, s->device_id(), s->phys_id())) return e;
  // With pageable host memory the copy is synchronous with respect to the
  // host buffer: a pageable source is captured now (the caller may reuse or
  // free it on return) and a pageable destination is written before the
  // call returns. Page-locked and registered memory is read/written when the
  // stream reaches the copy.
  std::shared_ptr<std::vector<char>> staged;
  const void* from = src;
  // A recording stream (capture, bound model) keeps the pointer: every
  // execution reads the source as it is then.
  const bool records = s->sink() != nullptr;
  // A copy with pageable host memory is synchronous, so capture modes restrict it.
  if ((!src_dev && IsPageableHost(src)) || (!dst_dev && IsPageableHost(dst)))
    if (aclError e = api::RefuseUnsafeCall(__func__)) return e;
  if (!src_dev && IsPageableHost(src) && !records) {
    auto* b = static_cast<const char*>(src);
    staged = std::make_shared<std::vector<char>>(b, b + count);
    from = staged->data();
  }
  const bool wait = !dst_dev && IsPageableHost(dst) && !records;
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
  if (aclError e = api::CheckFillRange(__func__, devPtr, count)) return e;
  if (aclError e = api::RefuseUnsafeCall(__func__)) return e;
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
  if (aclError e = api::CheckFillRange(__func__, devPtr, count)) return e;
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
  if (core::RangeWraps(ptr, size) || size > SIZE_MAX)
    return api::RtBadParam(__func__, "size", std::to_string(size), "[ptr, ptr+size) wraps around the address space");
  const size_t n = static_cast<size_t>(size);
  auto& map = core::AllocationMap::Get();
  // Registering memory the runtime already manages as device memory makes no sense;
  // memory from aclrtMallocHost may be registered (it stays known as page-locked).
  auto inside = map.Find(ptr);
  auto last = map.Find(static_cast<const char*>(ptr) + (n - 1));
  const bool within_pinned = inside && inside->kind == core::MemKind::kHostPinned && last && last->id == inside->id;
  if (!within_pinned) {
    for (const auto& a : {inside, last}) {
      if (a && a->kind != core::MemKind::kHostRegistered)
        return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "the range overlaps " + a->Describe() +
                                                                   ", which is not host memory that can be registered");
    }
    if (api::IsDeviceArenaAddr(ptr) || api::IsManagedAddr(ptr))
      return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "device or managed memory cannot be registered as host memory");
    if (!platform::RangeMapped(ptr, n))
      return api::RtBadParam(__func__, "ptr", api::Hex(ptr),
                             "[ptr, ptr+" + std::to_string(size) + ") is not mapped host memory of this process");
  }
  Status st = core::HostMemory::Get().Register(ptr, size, flag);
  if (!st.ok()) return api::Fail(__func__, st);
  if (!within_pinned) {
    Status reg = map.Register(reinterpret_cast<uintptr_t>(ptr), n, n, core::MemKind::kHostRegistered, -1);
    if (!reg.ok()) {
      (void)core::HostMemory::Get().Unregister(ptr);
      return api::Fail(__func__, reg);
    }
  }
  return ACL_SUCCESS;
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
  if (!st.ok()) return api::Fail(__func__, st);
  auto& map = core::AllocationMap::Get();
  if (auto a = map.Find(ptr); a && a->kind == core::MemKind::kHostRegistered && a->base == reinterpret_cast<uintptr_t>(ptr))
    map.Unregister(a->base);
  return ACL_SUCCESS;
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
    // VMM-mapped and IPC-imported ranges are device memory of the device
    // whose window holds them (the arena knows them only as mapped chunks).
    if (auto a = core::AllocationMap::Get().Find(ptr);
        a && (a->kind == core::MemKind::kVmmMapped || a->kind == core::MemKind::kIpcImported)) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      attributes->location.id = static_cast<uint32_t>(api::LogicalDeviceId(a->device, 0));
      attributes->pageSize = a->kind == core::MemKind::kVmmMapped || a->size >= (1u << 20) ? (2u << 20) : 4096u;
      return ACL_SUCCESS;
    }
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
