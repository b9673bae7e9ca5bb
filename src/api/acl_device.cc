// Device entry points: set/reset, counts, synchronization, information,
// resource limits, status.
#include <cstring>

#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "api/capture_hooks.h"
#include "api/device_teardown.h"
#include "core/runtime.h"
#include "sim/npu_system.h"

using namespace simnpu;

namespace {
// core::Device::Synchronize, failing with the message of the stream failure
// it returns: a kernel trap or a timed-out notify must read as such in
// aclGetRecentErrMsg, not as a generic device failure. The failing stream
// holds that message (Stream::TakeFailureMessage); the messages of every
// stream are taken so none is left behind for a later device synchronize.
aclError SynchronizeDevice(const char* func, core::Device* dev, int32_t timeout_ms) {
  if (aclError e = api::RefuseCapturingDevice(func, dev->id())) return e;
  int rc = dev->Synchronize(timeout_ms);
  if (rc == 0) return ACL_SUCCESS;
  if (rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
    return api::RtFail(func, rc, "the device's streams did not finish within " + std::to_string(timeout_ms) + " ms");
  std::string msg;
  for (auto& ctx : dev->Contexts()) {
    for (auto& s : ctx->Streams()) {
      std::string m = s->TakeFailureMessage();
      if (msg.empty()) msg = std::move(m);
    }
  }
  return api::RtFail(func, rc, msg.empty() ? "a task on the device failed" : msg);
}
}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  SIMNPU_TRACE_API();
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  core::Runtime::Get().set_current(dev.value()->Retain());
  return ACL_SUCCESS;
}

static aclError ResetDevice(const char* func, int32_t deviceId, bool force) {
  auto& rt = core::Runtime::Get();
  if (deviceId < 0 || deviceId >= rt.device_count())
    return api::RtFail(func, ACL_ERROR_RT_INVALID_DEVICEID,
                       "device id " + std::to_string(deviceId) + " is invalid; " +
                           std::to_string(rt.device_count()) + " device(s) visible");
  core::Device* dev = rt.FindDevice(deviceId);
  if (!dev) return ACL_SUCCESS;  // never opened: nothing to release
  dev->Release(force);  // frees the device memory (TeardownDeviceMemory) when unused
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) { return ResetDevice(__func__, deviceId, false); }
aclError aclrtResetDeviceForce(int32_t deviceId) { return ResetDevice(__func__, deviceId, true); }

aclError aclrtGetDevice(int32_t* deviceId) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(deviceId);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  *deviceId = ctx.value()->device_id();
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  ACL_REQUIRE_NOT_NULL(count);
  int n = core::Runtime::Get().device_count();
  *count = static_cast<uint32_t>(n);
  if (n == 0)
    return api::RtFail(__func__, ACL_ERROR_RT_NO_DEVICE,
                       sim::CurrentSoc() ? "no device is visible (SIMNPU_DEVICE_COUNT / "
                                           "ASCEND_RT_VISIBLE_DEVICES)"
                                         : sim::CurrentSocError());
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  SIMNPU_TRACE_API();
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  return SynchronizeDevice(__func__, ctx.value()->device(), -1);
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  SIMNPU_TRACE_API();
  if (timeout < -1) return api::RtBadParam(__func__, "timeout", std::to_string(timeout), "must be -1 or >= 0");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  return SynchronizeDevice(__func__, ctx.value()->device(), timeout);
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  auto dev = core::Runtime::Get().GetDevice(static_cast<int32_t>(deviceId));
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  const sim::SocInfo& soc = dev.value()->npu()->soc();
  switch (api::RawEnum(attr)) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = 6; break;
    case ACL_DEV_ATTR_AICORE_CORE_NUM: *value = soc.ai_cores; break;
    case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = soc.cube_cores; break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = soc.vector_cores; break;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: *value = soc.ub_bytes; break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
      *value = static_cast<int64_t>(dev.value()->npu()->arena().capacity());
      break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = static_cast<int64_t>(soc.l2_bytes); break;
    case ACL_DEV_ATTR_SMP_ID: *value = 0; break;
    case ACL_DEV_ATTR_PHY_CHIP_ID: *value = dev.value()->phys_id(); break;
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_MAINBOARD_ID: *value = 0; break;
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE: *value = 1; break;
    case ACL_DEV_ATTR_HD_CONNECT_TYPE: *value = ACL_HOST_DEVICE_CONNECT_TYPE_PCIE; break;
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR: *value = ACL_DEVICE_FORM_FACTOR_PCIE_CARD; break;
    case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; break;
    case ACL_DEV_ATTR_NPU_ARCH: *value = soc.npu_arch; break;
    default:
      return api::NotSupported(__func__, "device attribute " + std::to_string(api::RawEnum(attr)) +
                                             " has no meaning on " + soc.name);
  }
  return ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  auto dev = core::Runtime::Get().GetDevice(static_cast<int32_t>(deviceId));
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  const sim::SocInfo& soc = dev.value()->npu()->soc();
  switch (api::RawEnum(deviceInfo)) {
    case ACL_DEVICE_INFO_AI_CORE_NUM: *value = soc.ai_cores; return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = soc.vector_cores; return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE: *value = static_cast<int64_t>(soc.l2_bytes); return ACL_SUCCESS;
    default:
      return api::BadParam(__func__, "deviceInfo", std::to_string(api::RawEnum(deviceInfo)),
                           "ACL_DEVICE_INFO_AI_CORE_NUM, _VECTOR_CORE_NUM or _L2_SIZE");
  }
}

aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  const sim::SocInfo& soc = dev.value()->npu()->soc();
  switch (api::RawEnum(devFeatureType)) {
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV:
      *value = (soc.npu_arch == 2201 || soc.npu_arch == 3510) ? ACL_DEV_FEATURE_SUPPORT : ACL_DEV_FEATURE_NOT_SUPPORT;
      return ACL_SUCCESS;
    case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV:
      *value = ACL_DEV_FEATURE_NOT_SUPPORT;
      return ACL_SUCCESS;
    default:
      return api::RtBadParam(__func__, "devFeatureType", std::to_string(api::RawEnum(devFeatureType)),
                             "unknown feature");
  }
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  const int t = api::RawEnum(type);
  if (t != ACL_RT_DEV_RES_CUBE_CORE && t != ACL_RT_DEV_RES_VECTOR_CORE)
    return api::RtBadParam(__func__, "type", std::to_string(t), "must be CUBE_CORE (0) or VECTOR_CORE (1)");
  uint32_t max = dev.value()->hw_limit(t);
  if (value == 0 || value > max)
    return api::RtBadParam(__func__, "value", std::to_string(value),
                           "must be in [1, " + std::to_string(max) + "]");
  dev.value()->set_res_limit(t, value);
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  const int t = api::RawEnum(type);
  if (t != ACL_RT_DEV_RES_CUBE_CORE && t != ACL_RT_DEV_RES_VECTOR_CORE)
    return api::RtBadParam(__func__, "type", std::to_string(t), "must be CUBE_CORE (0) or VECTOR_CORE (1)");
  *value = dev.value()->res_limit(t);
  return ACL_SUCCESS;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  for (int t = 0; t < 2; ++t) dev.value()->set_res_limit(t, dev.value()->hw_limit(t));
  return ACL_SUCCESS;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
  ACL_REQUIRE_NOT_NULL(value);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  const int t = api::RawEnum(type);
  if (t != ACL_RT_DEV_RES_CUBE_CORE && t != ACL_RT_DEV_RES_VECTOR_CORE)
    return api::RtBadParam(__func__, "type", std::to_string(t), "must be CUBE_CORE (0) or VECTOR_CORE (1)");
  *value = ctx.value()->device()->res_limit(t);
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo) {
  ACL_REQUIRE_NOT_NULL(utilizationInfo);
  if (utilizationInfo->utilizationExtend != nullptr)
    return api::BadParam(__func__, "utilizationInfo->utilizationExtend", "non-NULL", "NULL");
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  int busy = api::DeviceBusyPercent(dev.value()->phys_id());
  utilizationInfo->cubeUtilization = busy;
  utilizationInfo->vectorUtilization = busy;
  utilizationInfo->aicpuUtilization = 0;
  utilizationInfo->memoryUtilization = -1;
  return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus) {
  ACL_REQUIRE_NOT_NULL(deviceStatus);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return ACL_SUCCESS;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority) {
  if (leastPriority) *leastPriority = 7;
  if (greatestPriority) *greatestPriority = 0;
  return ACL_SUCCESS;
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
  ACL_REQUIRE_NOT_NULL(errorInfo);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  std::memset(errorInfo, 0, sizeof *errorInfo);
  errorInfo->errorType = ACL_RT_NO_ERROR;
  return ACL_SUCCESS;
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* freeBytes, size_t* totalBytes) {
  ACL_REQUIRE_NOT_NULL(freeBytes);
  ACL_REQUIRE_NOT_NULL(totalBytes);
  const int kind = api::RawEnum(attr);
  if (kind < 0 || kind > ACL_MEM_P2P_HUGE1G)
    return api::BadParam(__func__, "attr", std::to_string(kind), "a value of aclrtMemAttr");
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  switch (kind) {
    case ACL_DDR_MEM: case ACL_DDR_MEM_HUGE: case ACL_DDR_MEM_NORMAL:
    case ACL_DDR_MEM_P2P_HUGE: case ACL_DDR_MEM_P2P_NORMAL:
      *freeBytes = 0;  // the simulated A2/A3 device has HBM only
      *totalBytes = 0;
      return ACL_SUCCESS;
    default: {
      sim::DeviceArena& a = ctx.value()->device()->npu()->arena();
      *totalBytes = a.capacity();
      *freeBytes = a.free_bytes();
      return ACL_SUCCESS;
    }
  }
}

}  // extern "C"
