// Range checks of copies, fills and value writes.
#include "api/range_checks.h"

#include <string>

#include "api/api_common.h"
#include "api/copy_path.h"
#include "core/allocation_map.h"
#include "platform/vm.h"

namespace simnpu::api {
namespace {

aclError Report(const char* func, const Status& st) { return Fail(func, st); }

// One side of a copy. `dev`: the device accesses it.
aclError CheckSide(const char* func, const char* name, const void* p, size_t n, bool dev) {
  auto& map = core::AllocationMap::Get();
  const std::string what = std::string(func) + " " + name;
  std::optional<core::Allocation> found;
  Status st = map.CheckRange(what, p, n, dev ? core::kDeviceReachable : core::kAnyKind, /*allow_unknown=*/!dev,
                             /*use_span=*/false, &found);
  if (!st.ok()) return Report(func, st);
  if (found) return ACL_SUCCESS;
  // The program's own (pageable) memory: it must not be device memory that
  // is not allocated, and it must be mapped for the whole count.
  if (IsDeviceArenaAddr(p) || IsManagedAddr(p))
    return RtFail(func, ACL_ERROR_RT_PARAM_INVALID,
                  what + " " + Hex(p) + " is device or managed memory that is not allocated");
  if (!platform::RangeMapped(p, n))
    return RtFail(func, ACL_ERROR_RT_PARAM_INVALID,
                  what + " [" + Hex(p) + ", +" + std::to_string(n) + ") is not mapped host memory");
  return ACL_SUCCESS;
}

}  // namespace

aclError CheckCopyRanges(const char* func, void* dst, const void* src, size_t count, int kind, bool* dst_dev,
                         bool* src_dev) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: *dst_dev = false; *src_dev = false; break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: *dst_dev = true; *src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: *dst_dev = false; *src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: *dst_dev = true; *src_dev = true; break;
    default: {  // ACL_MEMCPY_DEFAULT: from the addresses
      auto& map = core::AllocationMap::Get();
      auto d = map.Find(dst), s = map.Find(src);
      auto device_side = [](const std::optional<core::Allocation>& a, const void* p) {
        if (a) return a->kind != core::MemKind::kHostPinned && a->kind != core::MemKind::kHostRegistered;
        return IsDeviceArenaAddr(p) || IsManagedAddr(p);
      };
      *dst_dev = device_side(d, dst);
      *src_dev = device_side(s, src);
    }
  }
  if (aclError e = CheckSide(func, "dst", dst, count, *dst_dev)) return e;
  return CheckSide(func, "src", src, count, *src_dev);
}

aclError CheckFillRange(const char* func, const void* p, size_t count) {
  Status st = core::AllocationMap::Get().CheckRange(std::string(func) + " devPtr", p, count, core::kAnyKind);
  return st.ok() ? ACL_SUCCESS : Report(func, st);
}

aclError CheckValueWord(const char* func, const void* p) {
  Status st = core::AllocationMap::Get().CheckRange(std::string(func) + " devAddr", p, sizeof(uint64_t),
                                                    core::kDeviceKinds);
  return st.ok() ? ACL_SUCCESS : Report(func, st);
}

}  // namespace simnpu::api
