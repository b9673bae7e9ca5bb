// Peer access and IPC memory entry points: checks and codes here, the work
// in core/peer_access.h and core/ipc_memory.h.
#include <unistd.h>

#include <cstring>
#include <string>

#include "api/api_common.h"
#include "core/ipc_memory.h"
#include "core/peer_access.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "sim/soc.h"

using namespace simnpu;

namespace {

constexpr size_t kMaxKey = 64;  // characters, NUL excluded

// Families whose runtime has the feature (acl-api-ext.md 3.1, 2.1).
bool SocHas(const char* feature) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  if (!soc) return false;
  const std::string f = soc->family;
  if (std::strcmp(feature, "P2P") == 0) return f != "310B" && f != "350";
  if (std::strcmp(feature, "IPC_MEMORY") == 0) return f != "310B";
  return false;
}

aclError NoFeature(const char* func, const char* feature) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  return api::RtFail(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     std::string(soc ? soc->name : "this SOC") + " has no " + feature + " feature");
}

// A key argument: 1..64 characters and NUL-terminated within 65 bytes.
aclError CheckKey(const char* func, const char* key) {
  size_t n = strnlen(key, kMaxKey + 1);
  if (n == 0 || n > kMaxKey)
    return api::RtBadParam(func, "key", n ? "(unterminated)" : "\"\"", "a key of 1 to 64 characters, NUL-terminated");
  return ACL_SUCCESS;
}

bool ValidLogical(int32_t id) { return id >= 0 && id < core::Runtime::Get().device_count(); }

}  // namespace

extern "C" {

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  SIMNPU_TRACE_API();
  if (deviceId == peerDeviceId)
    return api::BadParam(__func__, "peerDeviceId", std::to_string(peerDeviceId), "a device other than deviceId");
  if (!ValidLogical(peerDeviceId))
    return api::RtFail(__func__, ACL_ERROR_RT_INVALID_DEVICEID, "peer device " + std::to_string(peerDeviceId) + " does not exist");
  if (!ValidLogical(deviceId))
    return api::RtBadParam(__func__, "deviceId", std::to_string(deviceId), "a visible device id");
  if (canAccessPeer == nullptr) return api::RtBadParam(__func__, "canAccessPeer", "NULL", "a pointer to the result");
  if (!SocHas("P2P")) return NoFeature(__func__, "P2P");
  *canAccessPeer = 1;  // every simulated device is under one switch
  return ACL_SUCCESS;
}

static aclError PeerCommon(const char* func, int32_t peer, int* cur) {
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(func, ctx.status());
  *cur = ctx.value()->device_id();
  if (peer == *cur) return api::BadParam(func, "peerDeviceId", std::to_string(peer), "a device other than the current one");
  if (!ValidLogical(peer))
    return api::RtFail(func, ACL_ERROR_RT_INVALID_DEVICEID, "peer device " + std::to_string(peer) + " does not exist");
  if (!SocHas("P2P")) return NoFeature(func, "P2P");
  return ACL_SUCCESS;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  SIMNPU_TRACE_API();
  if (flags != 0) {
    api::BadParam(__func__, "flags", std::to_string(flags), "0");
    return ACL_ERROR_FEATURE_UNSUPPORTED;
  }
  int cur = -1;
  if (aclError e = PeerCommon(__func__, peerDeviceId, &cur)) return e;
  core::PeerAccess::Get().Set(cur, peerDeviceId, true);
  return ACL_SUCCESS;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  SIMNPU_TRACE_API();
  int cur = -1;
  if (aclError e = PeerCommon(__func__, peerDeviceId, &cur)) return e;
  core::PeerAccess::Get().Set(cur, peerDeviceId, false);
  return ACL_SUCCESS;
}

aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(status);
  if (!ValidLogical(deviceId) || !ValidLogical(peerDeviceId))
    return api::RtBadParam(__func__, "deviceId", std::to_string(deviceId) + "/" + std::to_string(peerDeviceId),
                           "visible device ids");
  *status = core::PeerAccess::Get().Enabled(deviceId, peerDeviceId) ? 1 : 0;
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetBareTgid(int32_t* pid) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(pid);
  *pid = static_cast<int32_t>(getpid());  // no pid namespace between the simulated driver and us
  return ACL_SUCCESS;
}

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  ACL_REQUIRE_NOT_NULL(key);
  const uint32_t len32 = static_cast<uint32_t>(len);  // narrowed, as the reference does
  if (size == 0) return api::RtBadParam(__func__, "size", "0", "a positive size");
  if (len32 == 0) return api::RtBadParam(__func__, "len", "0", "the key buffer size (65)");
  if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return api::RtBadParam(__func__, "flags", std::to_string(flags), "0 or ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!SocHas("IPC_MEMORY")) return NoFeature(__func__, "IPC_MEMORY");
  auto k = core::IpcMemory::Get().Export(devPtr, size, flags);
  if (!k.ok()) return api::Fail(__func__, k.status());
  if (k.value().size() + 1 > len32) {
    (void)core::IpcMemory::Get().Close(k.value());
    return api::RtBadParam(__func__, "len", std::to_string(len32),
                           "at least " + std::to_string(k.value().size() + 1) + " bytes for the key");
  }
  std::memcpy(key, k.value().c_str(), k.value().size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(key);
  ACL_REQUIRE_NOT_NULL(pid);
  if (static_cast<int32_t>(num) <= 0)
    return api::RtBadParam(__func__, "num", std::to_string(static_cast<int32_t>(num)), "a positive count");
  if (aclError e = CheckKey(__func__, key)) return e;
  if (!SocHas("IPC_MEMORY")) return NoFeature(__func__, "IPC_MEMORY");
  return api::Fail(__func__, core::IpcMemory::Get().SetImportPid(key, pid, static_cast<size_t>(static_cast<int32_t>(num))));
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(devPtr);
  ACL_REQUIRE_NOT_NULL(key);
  if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
    return api::RtBadParam(__func__, "flags", std::to_string(flags), "0 or ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  if (!SocHas("IPC_MEMORY")) return NoFeature(__func__, "IPC_MEMORY");
  if (aclError e = CheckKey(__func__, key)) return e;
  int owner_phys = -1;
  auto p = core::IpcMemory::Get().Import(key, flags, ctx.value()->phys_id(), &owner_phys);
  if (!p.ok()) return api::Fail(__func__, p.status());
  if (flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
    // The exporter's device, as a logical id of this process when visible.
    const int cur = ctx.value()->device_id();
    for (int id = 0; id < core::Runtime::Get().device_count(); ++id) {
      core::Device* d = core::Runtime::Get().FindDevice(id);
      if (id != cur && ((d && d->phys_id() == owner_phys) || (!d && id == owner_phys))) {
        core::PeerAccess::Get().Set(cur, id, true);
        core::PeerAccess::Get().Set(id, cur, true);
      }
    }
  }
  *devPtr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtIpcMemClose(const char* key) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(key);
  if (!SocHas("IPC_MEMORY")) return NoFeature(__func__, "IPC_MEMORY");
  if (aclError e = CheckKey(__func__, key)) return e;
  return api::Fail(__func__, core::IpcMemory::Get().Close(key));
}

}  // extern "C"
