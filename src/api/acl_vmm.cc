// Virtual memory management entry points: property checks (acl-api-ext.md
// 4.2) and codes here, the work in core/vmm.h.
#include <cstring>
#include <string>

#include "api/api_common.h"
#include "core/runtime.h"
#include "core/vmm.h"
#include "dfx/trace/trace.h"

using namespace simnpu;

namespace {

aclError CheckProp(const char* func, const aclrtPhysicalMemProp* prop) {
  if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return api::BadParam(func, "prop->handleType", std::to_string(api::RawEnum(prop->handleType)), "ACL_MEM_HANDLE_TYPE_NONE");
  if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
    return api::BadParam(func, "prop->allocationType", std::to_string(api::RawEnum(prop->allocationType)),
                         "ACL_MEM_ALLOCATION_TYPE_PINNED");
  const int lt = api::RawEnum(prop->location.type);
  if (lt != ACL_MEM_LOCATION_TYPE_HOST && lt != ACL_MEM_LOCATION_TYPE_DEVICE && lt != ACL_MEM_LOCATION_TYPE_HOST_NUMA)
    return api::BadParam(func, "prop->location.type", std::to_string(lt), "HOST, DEVICE or HOST_NUMA");
  const int a = api::RawEnum(prop->memAttr);
  const bool ok = (a >= 2 && a <= 7) || a == 10 || (a >= 12 && a <= 17);
  if (!ok) return api::BadParam(func, "prop->memAttr", std::to_string(a), "one of 2-7, 10, 12-17");
  const bool ddr = a == ACL_DDR_MEM_HUGE || a == ACL_DDR_MEM_NORMAL || a == ACL_DDR_MEM_P2P_HUGE || a == ACL_DDR_MEM_P2P_NORMAL;
  if (lt == ACL_MEM_LOCATION_TYPE_DEVICE && ddr)
    return api::BadParam(func, "prop->memAttr", std::to_string(a), "an HBM or generic attribute for a DEVICE location");
  return ACL_SUCCESS;
}


}  // namespace

extern "C" {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(prop);
  ACL_REQUIRE_NOT_NULL(granularity);
  if (aclError e = CheckProp(__func__, prop)) return e;
  const int o = api::RawEnum(option);
  if (o != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && o != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
    return api::BadParam(__func__, "option", std::to_string(o), "MINIMUM or RECOMMENDED");
  *granularity = core::Vmm::kGranularity;
  return ACL_SUCCESS;
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(prop);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive multiple of the granularity");
  if (flags != 0) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  if (aclError e = CheckProp(__func__, prop)) return e;
  if (size % core::Vmm::kGranularity != 0)
    return api::BadParam(__func__, "size", std::to_string(size), "a multiple of the granularity (2097152)");
  int phys = -1;
  if (api::RawEnum(prop->location.type) == ACL_MEM_LOCATION_TYPE_DEVICE) {
    auto dev = core::Runtime::Get().GetDevice(static_cast<int>(prop->location.id));
    if (!dev.ok()) return api::Fail(__func__, dev.status());
    phys = dev.value()->phys_id();
  } else {
    // Host physical memory: served from the current device's memory objects
    // (shareable the same way); the reference's HOST pages are DDR.
    auto ctx = core::Runtime::Get().RequireCurrent();
    if (!ctx.ok()) return api::Fail(__func__, ctx.status());
    phys = ctx.value()->phys_id();
  }
  auto h = core::Vmm::Get().MallocPhysical(phys, size);
  if (!h.ok()) return api::Fail(__func__, h.status());
  *handle = h.value();
  return ACL_SUCCESS;
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(handle);
  return api::Fail(__func__, core::Vmm::Get().FreePhysical(handle));
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(virPtr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  if (flags > 1) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  if (alignment != 0) return api::BadParam(__func__, "alignment", std::to_string(alignment), "0 (reserved)");
  (void)expectPtr;  // a wish only; the range always lies in the device's address window
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  auto va = core::Vmm::Get().Reserve(ctx.value()->phys_id(), size);
  if (!va.ok()) return api::Fail(__func__, va.status());
  *virPtr = va.value();
  return ACL_SUCCESS;
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return api::Fail(__func__, core::Vmm::Get().Release(virPtr));
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(virPtr);
  ACL_REQUIRE_NOT_NULL(handle);
  if (size == 0) return api::BadParam(__func__, "size", "0", "the handle's size");
  if (flags != 0) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  return api::Fail(__func__, core::Vmm::Get().Map(virPtr, size, offset, handle));
}

aclError aclrtUnmapMem(void* virPtr) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(virPtr);
  return api::Fail(__func__, core::Vmm::Get().Unmap(virPtr));
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
  SIMNPU_TRACE_API();
  if (virPtr == nullptr) return api::RtBadParam(__func__, "virPtr", "NULL", "a mapped address");
  if (desc == nullptr) return api::RtBadParam(__func__, "desc", "NULL", "access descriptors");
  if (count == 0) return api::RtBadParam(__func__, "count", "0", "at least one descriptor");
  if (!core::Vmm::Get().Mapped(virPtr, size))
    return api::RtBadParam(__func__, "virPtr", api::Hex(virPtr), "the range must cover one mapping exactly");
  return ACL_SUCCESS;  // every simulated device reaches every mapping read-write
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t* shareableHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return api::BadParam(__func__, "handleType", std::to_string(api::RawEnum(handleType)), "ACL_MEM_HANDLE_TYPE_NONE");
  if (flags > 1) return api::RtBadParam(__func__, "flags", std::to_string(flags), "0 or ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION");
  auto s = core::Vmm::Get().Export(handle, flags & 1);
  if (!s.ok()) return api::Fail(__func__, s.status());
  *shareableHandle = s.value();
  return ACL_SUCCESS;
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  const int t = api::RawEnum(shareType);
  if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && t != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return api::RtBadParam(__func__, "shareType", std::to_string(t), "DEFAULT or FABRIC");
  if (flags > 1) return api::RtBadParam(__func__, "flags", std::to_string(flags), "0 or 1");
  auto s = core::Vmm::Get().Export(handle, flags & 1);
  if (!s.ok()) return api::Fail(__func__, s.status());
  if (t == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
    std::memcpy(shareableHandle, &s.value(), sizeof(uint64_t));
  } else {
    aclrtMemFabricHandle fh;
    std::memset(&fh, 0, sizeof fh);
    std::memcpy(fh.data, &s.value(), sizeof(uint64_t));
    std::memcpy(shareableHandle, &fh, sizeof fh);
  }
  return ACL_SUCCESS;
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle* handle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(handle);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  auto h = core::Vmm::Get().Import(shareableHandle, dev.value()->phys_id());
  if (!h.ok()) return api::Fail(__func__, h.status());
  *handle = h.value();
  return ACL_SUCCESS;
}

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* handle) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(shareableHandle);
  ACL_REQUIRE_NOT_NULL(handle);
  if (flags != 0) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  const int t = api::RawEnum(shareType);
  if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && t != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return api::RtBadParam(__func__, "shareType", std::to_string(t), "DEFAULT or FABRIC");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  uint64_t id = 0;
  std::memcpy(&id, shareableHandle, sizeof id);
  auto h = core::Vmm::Get().Import(id, ctx.value()->phys_id());
  if (!h.ok()) return api::Fail(__func__, h.status());
  *handle = h.value();
  return ACL_SUCCESS;
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(pid);
  if (pidNum == 0) return api::BadParam(__func__, "pidNum", "0", "a positive count");
  return api::Fail(__func__, core::Vmm::Get().SetPids(shareableHandle, pid, pidNum));
}

}  // extern "C"
