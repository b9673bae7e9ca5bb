// Managed memory (UVM) entry points: allocation, advice, prefetch and range
// attributes, with the argument checks and codes of the ACL documentation:
// ACL-layer checks (100000) first, then runtime checks (107000 / 107002),
// then the device's support for managed memory (207000).
#include <cstring>
#include <memory>
#include <vector>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "core/allocation_map.h"
#include "core/basic_tasks.h"
#include "core/runtime.h"
#include "sim/soc.h"
#include "uvm/engine.h"

using namespace simnpu;

namespace {

bool UvmSupported() {
  const sim::SocInfo* soc = sim::CurrentSoc();
  return soc && soc->uvm;
}

// 207000 for SOCs without managed memory. `record` = set the last error.
aclError Unsupported(const char* func, bool record) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  std::string name = soc ? soc->name : "this SOC";
  dfx::ReportErr(dfx::LogModule::kRuntime, dfx::ErrCode::EE1016,
                 {func, name + " has no managed memory (unified virtual memory); it is supported on "
                               "Atlas A2 (Ascend910B1..B4, B2C, B4-1) and Atlas A3 (Ascend910_93xx)"});
  if (record) dfx::SetLastError(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

// Converts an ACL location to the engine's (physical device or host).
// `allow_invalid`: INVALID is accepted (and returned as kNoLocation).
aclError ToLocation(const char* func, aclrtMemManagedLocation loc, bool allow_invalid, uvm::Location* out) {
  switch (api::RawEnum(loc.type)) {
    case ACL_MEM_LOCATIONTYPE_DEVICE: {
      auto& rt = core::Runtime::Get();
      if (loc.id < 0 || loc.id >= rt.device_count())
        return api::RtBadParam(func, "location.id", std::to_string(loc.id),
                               "device id must be in [0, " + std::to_string(rt.device_count() - 1) + "]");
      auto dev = rt.GetDevice(loc.id);
      if (!dev.ok()) return api::Fail(func, dev.status());
      out->where = dev.value()->phys_id();
      return ACL_SUCCESS;
    }
    case ACL_MEM_LOCATIONTYPE_HOST:
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
      out->where = uvm::kHost;
      return ACL_SUCCESS;
    default:
      if (allow_invalid) {
        out->where = uvm::kNoLocation;
        return ACL_SUCCESS;
      }
      return api::RtBadParam(func, "location.type", std::to_string(api::RawEnum(loc.type)),
                             "DEVICE, HOST, HOST_NUMA or HOST_NUMA_CURRENT");
  }
}

// Logical device id of a physical one (-2, "no location", if none).
int32_t Logical(int phys) { return api::LogicalDeviceId(phys, -2); }

// A prefetch target: any type other than DEVICE / HOST / HOST_NUMA /
// HOST_NUMA_CURRENT is reported as INVALID by ToLocation.
aclrtMemManagedLocation PrefetchTarget(aclrtMemManagedLocation l) {
  int t = api::RawEnum(l.type);
  if (t != ACL_MEM_LOCATIONTYPE_DEVICE && t != ACL_MEM_LOCATIONTYPE_HOST && t != ACL_MEM_LOCATIONTYPE_HOST_NUMA &&
      t != ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT)
    l.type = ACL_MEM_LOCATIONTYPE_INVALID;
  return l;
}

constexpr uint64_t kManagedBlock = 2u << 20;

aclError RangeCheck(const char* func, const void* ptr, size_t size) {
  if (core::RangeWraps(ptr, size))
    return api::RtBadParam(func, "size", std::to_string(size), "[ptr, ptr+size) wraps around the address space");
  if (!uvm::Engine::Get().RangeValid(ptr, size)) {
    // Name the allocation and the excess (or the free) when the map knows it.
    Status st = core::AllocationMap::Get().CheckRange(std::string(func) + " ptr", ptr, size,
                                                      core::KindBit(core::MemKind::kManaged), false, /*use_span=*/true);
    if (!st.ok()) return api::Fail(func, st);
    return api::RtBadParam(func, "ptr", api::Hex(ptr),
                           "[ptr, ptr+" + std::to_string(size) + ") is not inside memory from aclrtMemAllocManaged");
  }
  return ACL_SUCCESS;
}

// One attribute of GetAttr(s).
aclError FillAttr(const char* func, int attr, const uvm::Engine::RangeAttrs& a, void* data, size_t size) {
  auto put = [&](int32_t v) -> aclError {
    if (size != sizeof(int32_t))
      return api::RtBadParam(func, "dataSize", std::to_string(size), "must be 4 for this attribute");
    std::memcpy(data, &v, 4);
    return ACL_SUCCESS;
  };
  auto loc_value = [](int where) -> int32_t {
    return where == uvm::kHost ? -1 : where == uvm::kNoLocation ? -2 : Logical(where);
  };
  auto loc_type = [](int where) -> int32_t {
    return where == uvm::kHost ? ACL_MEM_LOCATIONTYPE_HOST
           : where == uvm::kNoLocation ? ACL_MEM_LOCATIONTYPE_INVALID
                                       : ACL_MEM_LOCATIONTYPE_DEVICE;
  };
  switch (attr) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY: return put(a.read_mostly ? 1 : 0);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: return put(loc_value(a.preferred));
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: return put(loc_type(a.preferred));
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: return put(loc_value(a.preferred));
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION: return put(loc_value(a.last_prefetch));
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: return put(loc_type(a.last_prefetch));
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: return put(loc_value(a.last_prefetch));
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      if (size == 0 || size % 4 != 0)
        return api::RtBadParam(func, "dataSize", std::to_string(size), "must be a non-zero multiple of 4");
      size_t n = size / 4, k = 0;
      auto* out = static_cast<int32_t*>(data);
      if ((a.accessed_by & 1u) && k < n) out[k++] = -1;  // the host
      for (int d = 0; d < sim::kMaxDevices && k < n; ++d)
        if (a.accessed_by & (1u << (d + 1))) out[k++] = Logical(d);
      while (k < n) out[k++] = -2;
      return ACL_SUCCESS;
    }
    default:
      return api::RtBadParam(func, "attribute", std::to_string(attr), "must be in [1, 8]");
  }
}

}  // namespace

extern "C" {

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
    return api::BadParam(__func__, "flag", std::to_string(flag), "ACL_RT_MEM_ATTACH_GLOBAL (1)");
  if (size == 0) return api::RtBadParam(__func__, "size", "0", "must be greater than 0");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!UvmSupported()) return Unsupported(__func__, /*record=*/true);
  auto p = uvm::Engine::Get().Allocate(size);
  if (!p.ok()) return api::Fail(__func__, p.status());
  uintptr_t base = 0;
  size_t span = 0;
  if (!uvm::Engine::Get().Lookup(p.value(), &base, &span)) span = static_cast<size_t>(size);
  Status reg = core::AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(p.value()), static_cast<size_t>(size),
                                                   span, core::MemKind::kManaged, -1);
  if (!reg.ok()) {
    (void)uvm::Engine::Get().Free(p.value());
    return api::Fail(__func__, reg);
  }
  *ptr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  const int advice = api::RawEnum(advise);
  if (advice < 0 || advice > ACL_MEM_ADVISE_UNSET_ACCESSED_BY)
    return api::RtBadParam(__func__, "advise", std::to_string(advice), "must be in [0, 5]");
  if (api::RawEnum(location.type) == ACL_MEM_LOCATIONTYPE_DEVICE &&
      (location.id < 0 || location.id >= core::Runtime::Get().device_count()))
    return api::RtBadParam(__func__, "location.id", std::to_string(location.id), "not a visible device");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!UvmSupported()) return Unsupported(__func__, false);
  bool needs_loc = advice == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advice == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
                   advice == ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
  uvm::Location loc{uvm::kNoLocation};
  if (aclError e = ToLocation(__func__, location, !needs_loc, &loc)) return e;
  // The reference requires advice over whole 2 MiB blocks (the driver refuses the rest).
  if (size % kManagedBlock != 0)
    return api::RtBadParam(__func__, "size", std::to_string(size), "must be a multiple of 2 MiB (2097152)");
  if (aclError e = RangeCheck(__func__, ptr, size)) return e;
  Status st = uvm::Engine::Get().Advise(ptr, size, advice, loc);
  return st.ok() ? ACL_SUCCESS : api::Fail(__func__, st);
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data,
                                size_t dataSize) {
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(data);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  const int attr = api::RawEnum(attribute);
  if (attr < ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY || attr > ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID)
    return api::RtBadParam(__func__, "attribute", std::to_string(attr), "must be in [1, 8]");
  if (!UvmSupported()) return Unsupported(__func__, false);
  if (aclError e = RangeCheck(__func__, ptr, size)) return e;
  uvm::Engine::RangeAttrs a{};
  Status st = uvm::Engine::Get().QueryRange(ptr, size, &a);
  if (!st.ok()) return api::Fail(__func__, st);
  return FillAttr(__func__, attr, a, data, dataSize);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes, const void* ptr,
                                 size_t size, void** data, size_t* dataSizes) {
  ACL_REQUIRE_NOT_NULL(attributes);
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(data);
  ACL_REQUIRE_NOT_NULL(dataSizes);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  if (numAttributes == 0) return api::RtBadParam(__func__, "numAttributes", "0", "must be at least 1");
  for (size_t i = 0; i < numAttributes; ++i) {
    int a = api::RawEnum(attributes[i]);
    if (a < ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY || a > ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID)
      return api::RtBadParam(__func__, ("attributes[" + std::to_string(i) + "]").c_str(), std::to_string(a),
                             "must be in [1, 8]");
  }
  if (!UvmSupported()) return Unsupported(__func__, false);
  if (aclError e = RangeCheck(__func__, ptr, size)) return e;
  uvm::Engine::RangeAttrs a{};
  Status st = uvm::Engine::Get().QueryRange(ptr, size, &a);
  if (!st.ok()) return api::Fail(__func__, st);
  for (size_t i = 0; i < numAttributes; ++i) {
    if (data[i] == nullptr) return api::NullParam(__func__, "data[i]");
    if (aclError e = FillAttr(__func__, api::RawEnum(attributes[i]), a, data[i], dataSizes[i])) return e;
  }
  return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptr);
  if (size == 0) return api::BadParam(__func__, "size", "0", "a positive size");
  if (flags != 0) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  uvm::Location loc{uvm::kNoLocation};
  if (aclError e = ToLocation(__func__, PrefetchTarget(location), false, &loc)) return e;
  ACL_RESOLVE_STREAM(s, stream, ACL_ERROR_RT_INTERNAL_ERROR);
  if (!UvmSupported()) return Unsupported(__func__, false);
  if (aclError e = RangeCheck(__func__, ptr, size)) return e;
  uvm::Engine::Get().NoteLastPrefetch(ptr, size, loc);
  s->Submit(std::make_unique<core::HostFuncTask>(
      [ptr, size, loc](core::ExecContext&) {
        Status st = uvm::Engine::Get().Prefetch(ptr, size, loc);
        return st.code();
      },
      "prefetch", /*errors_fail_task=*/false));
  return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptrs);
  ACL_REQUIRE_NOT_NULL(sizes);
  ACL_REQUIRE_NOT_NULL(prefetchLocs);
  ACL_REQUIRE_NOT_NULL(prefetchLocIdxs);
  if (count == 0) return api::BadParam(__func__, "count", "0", "a positive count");
  if (numPrefetchLocs == 0) return api::BadParam(__func__, "numPrefetchLocs", "0", "a positive count");
  if (flags != 0) return api::BadParam(__func__, "flags", std::to_string(flags), "0");
  if (count < numPrefetchLocs)
    return api::BadParam(__func__, "numPrefetchLocs", std::to_string(numPrefetchLocs),
                         "at most count (" + std::to_string(count) + ")");
  auto index_error = [&](const std::string& why) {
    dfx::ReportErr(dfx::LogModule::kRuntime, dfx::ErrCode::EE1017, {__func__, why});
    dfx::SetLastError(ACL_ERROR_RT_PARAM_INVALID);
    return ACL_ERROR_RT_PARAM_INVALID;
  };
  if (prefetchLocIdxs[0] != 0) return index_error("prefetchLocIdxs[0] must be 0");
  for (size_t k = 0; k < numPrefetchLocs; ++k) {
    if (prefetchLocIdxs[k] >= count)
      return index_error("prefetchLocIdxs[" + std::to_string(k) + "] = " + std::to_string(prefetchLocIdxs[k]) +
                         " is not below count " + std::to_string(count));
    if (k > 0 && prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1])
      return index_error("prefetchLocIdxs must be strictly increasing (index " + std::to_string(k) + ")");
  }
  struct Op {
    const void* ptr;
    size_t size;
    uvm::Location loc;
  };
  std::vector<Op> ops;
  for (size_t i = 0; i < count; ++i) {
    if (ptrs[i] == nullptr) return index_error("ptrs[" + std::to_string(i) + "] is NULL");
    if (sizes[i] == 0) return index_error("sizes[" + std::to_string(i) + "] is 0");
  }
  std::vector<uvm::Location> locs(numPrefetchLocs);
  for (size_t k = 0; k < numPrefetchLocs; ++k) {
    if (aclError e = ToLocation(__func__, PrefetchTarget(prefetchLocs[k]), false, &locs[k])) return e;
  }
  ACL_RESOLVE_STREAM(s, stream, ACL_ERROR_RT_INTERNAL_ERROR);
  if (!UvmSupported()) return Unsupported(__func__, false);
  for (size_t i = 0, k = 0; i < count; ++i) {
    while (k + 1 < numPrefetchLocs && i >= prefetchLocIdxs[k + 1]) ++k;
    if (aclError e = RangeCheck(__func__, ptrs[i], sizes[i])) return e;
    ops.push_back({ptrs[i], sizes[i], locs[k]});
  }
  for (const Op& op : ops) uvm::Engine::Get().NoteLastPrefetch(op.ptr, op.size, op.loc);
  s->Submit(std::make_unique<core::HostFuncTask>(
      [ops](core::ExecContext&) {
        int first = 0;
        for (const Op& op : ops) {
          Status st = uvm::Engine::Get().Prefetch(op.ptr, op.size, op.loc);
          if (!st.ok() && !first) first = st.code();
        }
        return first;
      },
      "prefetch_batch", /*errors_fail_task=*/false));
  return ACL_SUCCESS;
}

}  // extern "C"
