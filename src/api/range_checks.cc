// Range checks of copies, fills and value writes.
#include "api/range_checks.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "api/api_common.h"
#include "api/copy_path.h"
#include "core/allocation_map.h"
#include "core/peer_access.h"
#include "core/runtime.h"
#include "platform/vm.h"
#include "sim/npu_system.h"

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

// The logical id under which this process knows physical device `phys`.
int LogicalOf(int phys) {
  if (core::Device* d = core::Runtime::Get().DeviceForPhys(phys)) return d->id();
  return phys;
}

// Memory of physical device `owner` reached from logical device `logical`
// (physical `phys`): fine on the same device or with peer access.
aclError RequirePeer(const char* func, const std::string& what, const std::string& place, int logical, int phys,
                     int owner) {
  if (owner < 0 || owner == phys) return ACL_SUCCESS;
  const int peer = LogicalOf(owner);
  if (core::PeerAccess::Get().Enabled(logical, peer)) return ACL_SUCCESS;
  return RtFail(func, ACL_ERROR_RT_PARAM_INVALID,
                what + " " + place + ", memory of device " + std::to_string(peer) + ", but the work runs on device " +
                    std::to_string(logical) + ", which has no peer access to device " + std::to_string(peer) +
                    " (call aclrtDeviceEnablePeerAccess(" + std::to_string(peer) + ", 0) with device " +
                    std::to_string(logical) + " current)");
}

}  // namespace

aclError CheckPeerCopy(const char* func, const void* dst, const void* src, int logical, int phys) {
  auto& map = core::AllocationMap::Get();
  auto d = map.Find(dst), s = map.Find(src);
  auto device_mem = [](const std::optional<core::Allocation>& a) {
    return a && (core::KindBit(a->kind) & core::kDeviceKinds) && a->device >= 0;
  };
  if (!device_mem(d) || !device_mem(s)) return ACL_SUCCESS;  // only device-to-device copies
  const std::string f(func);
  if (aclError e = RequirePeer(func, f + " dst " + Hex(dst), "lies in " + d->Describe(), logical, phys, d->device))
    return e;
  return RequirePeer(func, f + " src " + Hex(src), "lies in " + s->Describe(), logical, phys, s->device);
}

aclError CheckPeerKernelArgs(const char* func, const simnpu_kernel_desc& desc, void* const* argv, size_t argc,
                             int logical, int phys) {
  auto& sys = sim::NpuSystem::Get();
  sim::NpuDevice* own = sys.Find(phys);
  const size_t n = std::min<size_t>(argc, desc.param_count);
  for (size_t i = 0; i < n; ++i) {
    if (desc.params[i].kind != SIMNPU_PARAM_POINTER || desc.params[i].size != sizeof(void*)) continue;
    void* p;
    std::memcpy(&p, argv[i], sizeof p);
    if (!p || (own && own->arena().Contains(p))) continue;
    sim::NpuDevice* other = sys.DeviceOwning(p);
    if (!other) continue;  // host, managed or unknown memory: not another device's
    if (core::PeerAccess::Get().Enabled(logical, LogicalOf(other->phys_id()))) continue;
    // Refused: name the allocation (VMM and IPC ranges are registered on the device whose
    // window holds them, which is the arena's device).
    auto a = core::AllocationMap::Get().Find(p);
    const std::string place =
        a ? "points into " + a->Describe() : "points into device " + std::to_string(other->phys_id()) + "'s memory";
    if (aclError e = RequirePeer(func,
                                 std::string("kernel ") + (desc.name ? desc.name : "?") + " argument " +
                                     std::to_string(i) + " " + Hex(p),
                                 place, logical, phys, other->phys_id()))
      return e;
  }
  return ACL_SUCCESS;
}

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
