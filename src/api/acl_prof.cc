// The profiling API (acl/acl_prof.h): argument checks and codes; sessions
// live in dfx/prof/profiler, msproftx in dfx/prof/msproftx, subscriptions in
// dfx/prof/subscription. Exported by libacl_rt.so and, through a filter
// library, by libmsprofiler.so.
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "api/api_common.h"
#include "core/runtime.h"
#include "dfx/errors.h"
#include "dfx/prof/msproftx.h"
#include "dfx/prof/profiler.h"
#include "dfx/prof/subscription.h"
#include "platform/env.h"

using namespace simnpu;

// The opaque configuration types of acl_prof.h.
struct aclprofConfig {
  std::vector<uint32_t> devices;
  int metrics = 0;
  uint64_t mask = 0;
};
struct aclprofStepInfo {
  uint64_t id = 0;
  bool tags[2] = {false, false};
};
struct aclprofSubscribeConfig {
  simnpu::dfx::prof::SubscribeConfig cfg;
};

namespace {

namespace prof = simnpu::dfx::prof;

// Live handles, so a stale or made-up pointer is refused instead of used.
struct Handles {
  std::mutex mu;
  std::unordered_set<const void*> configs;  // GUARDED_BY(mu)
  std::unordered_set<const void*> subs;     // GUARDED_BY(mu)
  uint64_t next_step = 1;                   // GUARDED_BY(mu)
};
Handles& H() {
  static Handles* h = new Handles();
  return *h;
}
bool LiveConfig(const void* c) {
  std::lock_guard<std::mutex> g(H().mu);
  return H().configs.count(c) != 0;
}

aclError ProfFail(const char* func, int code, const std::string& why) {
  dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0012, std::string(func) + ": " + why);
  return code;
}

void TxFailMessage(const char* func) {
  if (!prof::TxEnabled())
    dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0012,
                       std::string(func) + ": msproftx is not running; call aclprofStart with ACL_PROF_MSPROFTX first");
}

}  // namespace

extern "C" {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  auto mode = platform::GetEnv("PROFILING_MODE");
  if (mode && *mode == "dynamic")
    return ProfFail(__func__, ACL_ERROR_FEATURE_UNSUPPORTED, "PROFILING_MODE=dynamic profiling is not supported");
  ACL_REQUIRE_NOT_NULL(profilerResultPath);
  if (length == 0 || length >= 4096)
    return api::BadParam(__func__, "length", std::to_string(length), "a length in [1, 4095]");
  if (strnlen(profilerResultPath, 4096) != length)
    return api::BadParam(__func__, "length", std::to_string(length), "strlen(profilerResultPath)");
  int rc = prof::Profiler::Get().Init(profilerResultPath);
  switch (rc) {
    case prof::kOk: return ACL_SUCCESS;
    case prof::kRepeatInit: return ProfFail(__func__, rc, "profiling is already initialized");
    case prof::kProfAlreadyRun:
      return ProfFail(__func__, rc, "profiling is driven by the command line (msprof / SIMNPU_PROFILE)");
    case prof::kInvalidFile:
      return ProfFail(__func__, rc, std::string("the result path \"") + profilerResultPath +
                                        "\" holds characters a path may not hold");
    default: return ProfFail(__func__, rc, prof::Profiler::Get().last_error());
  }
}

aclError aclprofFinalize(void) { return prof::Profiler::Get().Finalize(); }

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
  const char* fn = __func__;
  auto refuse = [fn](const std::string& why) -> aclprofConfig* {
    ProfFail(fn, ACL_ERROR_INVALID_PARAM, why);
    return nullptr;
  };
  if (deviceNums != 0 && !deviceIdList) return refuse("deviceIdList is NULL with deviceNums != 0");
  if (aicoreEvents) return refuse("aicoreEvents is reserved and must be NULL");
  const int count = core::Runtime::Get().device_count();
  if (deviceNums > 64 || deviceNums > static_cast<uint32_t>(count))
    return refuse("deviceNums " + std::to_string(deviceNums) + " exceeds the device count " + std::to_string(count));
  if (deviceNums == 0 && !(dataTypeConfig & ACL_PROF_MSPROFTX))
    return refuse("deviceNums 0 is accepted only with ACL_PROF_MSPROFTX");
  std::vector<uint32_t> devs;
  for (uint32_t i = 0; i < deviceNums; ++i) {
    if (deviceIdList[i] >= static_cast<uint32_t>(count))
      return refuse("device id " + std::to_string(deviceIdList[i]) + " is out of range");
    for (uint32_t d : devs)
      if (d == deviceIdList[i]) return refuse("device id " + std::to_string(d) + " is listed twice");
    devs.push_back(deviceIdList[i]);
  }
  uint64_t mask = dataTypeConfig;
  if (mask & ACL_PROF_API_STATS) mask = ACL_PROF_ACL_API | ACL_PROF_API_STATS;
  if (mask & (ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3 | ACL_PROF_OP_ATTR)) mask |= ACL_PROF_TASK_TIME;
  auto* c = new aclprofConfig();
  c->devices = std::move(devs);
  c->metrics = api::RawEnum(aicoreMetrics);
  c->mask = mask;
  std::lock_guard<std::mutex> g(H().mu);
  H().configs.insert(c);
  return c;
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  ACL_REQUIRE_NOT_NULL(profilerConfig);
  {
    std::lock_guard<std::mutex> g(H().mu);
    if (!H().configs.erase(profilerConfig))
      return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "not a configuration made by aclprofCreateConfig");
  }
  delete profilerConfig;
  return ACL_SUCCESS;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
  const int type = api::RawEnum(configType);
  if (type <= ACL_PROF_ARGS_MIN || type >= ACL_PROF_ARGS_MAX)
    return api::BadParam(__func__, "configType", std::to_string(type), "a value in (ARGS_MIN, ARGS_MAX)");
  if (configLength > 256) return api::BadParam(__func__, "configLength", std::to_string(configLength), "<= 256");
  ACL_REQUIRE_NOT_NULL(config);
  if (strnlen(config, 257) != configLength)
    return api::BadParam(__func__, "configLength", std::to_string(configLength), "strlen(config)");
  const std::string v(config);
  auto in_range = [&](long long lo, long long hi) {
    char* end = nullptr;
    long long n = std::strtoll(v.c_str(), &end, 10);
    return !v.empty() && end && *end == '\0' && n >= lo && n <= hi;
  };
  bool ok = true;
  switch (type) {
    case ACL_PROF_STORAGE_LIMIT: {
      ok = v.size() > 2 && v.compare(v.size() - 2, 2, "MB") == 0;
      if (ok) {
        const std::string num = v.substr(0, v.size() - 2);
        char* end = nullptr;
        unsigned long long n = std::strtoull(num.c_str(), &end, 10);
        ok = !num.empty() && *end == '\0' && n >= 200 && n <= 4294967295ULL;
      }
      break;
    }
    case ACL_PROF_SYS_HARDWARE_MEM_FREQ: ok = in_range(1, 100); break;
    case ACL_PROF_LLC_MODE: ok = v == "read" || v == "write"; break;
    case ACL_PROF_SYS_INTERCONNECTION_FREQ:
    case ACL_PROF_HOST_SYS_USAGE_FREQ: ok = in_range(1, 50); break;
    case ACL_PROF_HOST_SYS: ok = v == "cpu" || v == "mem" || v == "cpu,mem" || v == "mem,cpu"; break;
    case ACL_PROF_SYS_IO_FREQ:
    case ACL_PROF_DVPP_FREQ: ok = in_range(1, 100); break;
    default: ok = !v.empty(); break;
  }
  if (!ok) return api::BadParam(__func__, "config", v, "a value in the documented range of this configType");
  prof::Profiler::Get().SetConfigValue(type, v);
  return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  ACL_REQUIRE_NOT_NULL(profilerConfig);
  if (!LiveConfig(profilerConfig))
    return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "not a configuration made by aclprofCreateConfig");
  if (profilerConfig->mask == 0) return api::BadParam(__func__, "dataTypeConfig", "0", "a non-empty mask");
  if (profilerConfig->mask & ~prof::kProfKnownBits)
    return ProfFail(__func__, ACL_ERROR_PROF_MODULES_UNSUPPORTED, "the configuration asks for unknown modules");
  int rc = prof::Profiler::Get().Start(profilerConfig, profilerConfig->mask);
  if (rc == prof::kOk) return ACL_SUCCESS;
  if (rc == prof::kProfAlreadyRun)
    return ProfFail(__func__, rc, "a profiling session is already running (aclprofStart or the command line)");
  return ProfFail(__func__, rc, prof::Profiler::Get().last_error());
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  // The real entry point dereferences a NULL config; refusing it is kinder.
  ACL_REQUIRE_NOT_NULL(profilerConfig);
  int rc = prof::Profiler::Get().Stop(profilerConfig);
  if (rc != prof::kOk) return ProfFail(__func__, rc, "profiling is not running");
  return ACL_SUCCESS;
}

// ---- model subscription

aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
                                                     void* fd) {
  if (!fd) {
    api::NullParam(__func__, "fd");
    return nullptr;
  }
  if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
    api::BadParam(__func__, "timeInfoSwitch", std::to_string(timeInfoSwitch), "0 or 1");
    return nullptr;
  }
  auto* s = new aclprofSubscribeConfig();
  s->cfg = {prof::kSubscribeMagic, timeInfoSwitch, api::RawEnum(aicoreMetrics), *static_cast<int*>(fd)};
  std::lock_guard<std::mutex> g(H().mu);
  H().subs.insert(s);
  return s;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig) {
  ACL_REQUIRE_NOT_NULL(profSubscribeConfig);
  {
    std::lock_guard<std::mutex> g(H().mu);
    if (!H().subs.erase(profSubscribeConfig))
      return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "not a configuration made by aclprofCreateSubscribeConfig");
  }
  delete profSubscribeConfig;
  return ACL_SUCCESS;
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
  ACL_REQUIRE_NOT_NULL(profSubscribeConfig);
  {
    std::lock_guard<std::mutex> g(H().mu);
    if (!H().subs.count(profSubscribeConfig))
      return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "not a configuration made by aclprofCreateSubscribeConfig");
  }
  int rc = prof::Subscribe(modelId, profSubscribeConfig->cfg);
  if (rc == 0) return ACL_SUCCESS;
  if (rc == ACL_ERROR_INVALID_MODEL_ID)
    return ProfFail(__func__, rc, "model " + std::to_string(modelId) + " is not loaded");
  return ProfFail(__func__, rc, "model " + std::to_string(modelId) + " is already subscribed");
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  if (prof::Unsubscribe(modelId) != 0)
    return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "model " + std::to_string(modelId) + " was not subscribed");
  return ACL_SUCCESS;
}

aclError aclprofGetOpDescSize(size_t* opDescSize) {
  ACL_REQUIRE_NOT_NULL(opDescSize);
  *opDescSize = sizeof(prof::OpRecord);
  return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber) {
  ACL_REQUIRE_NOT_NULL(opInfo);
  ACL_REQUIRE_NOT_NULL(opNumber);
  if (opInfoLen == 0 || opInfoLen % sizeof(prof::OpRecord) != 0)
    return api::BadParam(__func__, "opInfoLen", std::to_string(opInfoLen), "a multiple of aclprofGetOpDescSize");
  *opNumber = static_cast<uint32_t>(opInfoLen / sizeof(prof::OpRecord));
  return ACL_SUCCESS;
}

static aclError OpString(const char* func, const void* info, size_t len, uint32_t index, bool want_type,
                         std::string* out) {
  prof::OpRecord r;
  if (!prof::RecordAt(info, len, index, &r))
    return ProfFail(func, ACL_ERROR_INVALID_PARAM, "opInfo/opInfoLen/index do not name an operator record");
  std::string name, type;
  if (!prof::OpNames(r.op_index, &name, &type))
    return ProfFail(func, ACL_ERROR_INVALID_PARAM, "the record names an unknown operator");
  *out = want_type ? type : name;
  return ACL_SUCCESS;
}

// aclprofGetOp{Type,Name}Len: the length with the NUL.
static aclError OpStringLen(const char* func, const void* info, size_t len, uint32_t index, bool want_type,
                            size_t* out) {
  if (!out) return api::NullParam(func, want_type ? "opTypeLen" : "opNameLen");
  std::string s;
  if (aclError e = OpString(func, info, len, index, want_type, &s)) return e;
  *out = s.size() + 1;
  return ACL_SUCCESS;
}

// aclprofGetOp{Type,Name}: copies the string and its NUL into buf.
static aclError OpStringCopy(const char* func, const void* info, size_t len, uint32_t index, bool want_type,
                             char* buf, size_t cap) {
  if (!buf) return api::NullParam(func, want_type ? "opType" : "opName");
  std::string s;
  if (aclError e = OpString(func, info, len, index, want_type, &s)) return e;
  if (cap < s.size() + 1)
    return api::BadParam(func, want_type ? "opTypeLen" : "opNameLen", std::to_string(cap), "large enough");
  std::memcpy(buf, s.c_str(), s.size() + 1);
  return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen) {
  return OpStringLen(__func__, opInfo, opInfoLen, index, true, opTypeLen);
}

aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType, size_t opTypeLen) {
  return OpStringCopy(__func__, opInfo, opInfoLen, index, true, opType, opTypeLen);
}

aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen) {
  return OpStringLen(__func__, opInfo, opInfoLen, index, false, opNameLen);
}

aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName, size_t opNameLen) {
  return OpStringCopy(__func__, opInfo, opInfoLen, index, false, opName, opNameLen);
}

uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index) {
  prof::OpRecord r;
  return prof::RecordAt(opInfo, opInfoLen, index, &r) ? r.start : 0;
}

uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index) {
  prof::OpRecord r;
  return prof::RecordAt(opInfo, opInfoLen, index, &r) ? r.end : 0;
}

uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index) {
  prof::OpRecord r;
  return prof::RecordAt(opInfo, opInfoLen, index, &r) ? r.duration : 0;
}

size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index) {
  prof::OpRecord r;
  return prof::RecordAt(opInfo, opInfoLen, index, &r) ? r.model_id : 0;
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index) {
  prof::OpRecord r;
  if (!prof::RecordAt(opInfo, opInfoLen, index, &r)) return ACL_SUBSCRIBE_NONE;
  return static_cast<aclprofSubscribeOpFlag>(r.flag);
}

const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
  static thread_local std::string value;
  prof::OpRecord r;
  if (api::RawEnum(attri) != ACL_SUBSCRIBE_ATTRI_THREADID || !prof::RecordAt(opInfo, opInfoLen, index, &r))
    return nullptr;
  value = std::to_string(r.thread_id);
  return value.c_str();
}

// ---- steps

aclprofStepInfo* aclprofCreateStepInfo(void) {
  auto* s = new aclprofStepInfo();
  std::lock_guard<std::mutex> g(H().mu);
  s->id = H().next_step++;
  return s;
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) { delete stepinfo; }

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream) {
  (void)stream;
  ACL_REQUIRE_NOT_NULL(stepInfo);
  const int t = api::RawEnum(tag);
  if (t != ACL_STEP_START && t != ACL_STEP_END) return api::BadParam(__func__, "tag", std::to_string(t), "0 or 1");
  if (stepInfo->tags[t])
    return ProfFail(__func__, ACL_ERROR_INVALID_PARAM, "this step already has its " +
                                                           std::string(t ? "end" : "start") + " timestamp");
  stepInfo->tags[t] = true;
  prof::TxStep(stepInfo->id, t);
  return ACL_SUCCESS;
}

// ---- msproftx

void* aclprofCreateStamp(void) {
  void* s = prof::TxCreateStamp();
  if (!s) TxFailMessage(__func__);
  return s;
}

void aclprofDestroyStamp(void* stamp) { prof::TxDestroyStamp(stamp); }

aclError aclprofSetCategoryName(uint32_t category, const char* categoryName) {
  int rc = prof::TxSetCategoryName(category, categoryName);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofSetStampCategory(void* stamp, uint32_t category) {
  int rc = prof::TxSetCategory(stamp, category);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofSetStampPayload(void* stamp, const int32_t type, void* value) {
  int rc = prof::TxSetPayload(stamp, type, value);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
  int rc = prof::TxSetMessage(stamp, msg, msgLen);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofMark(void* stamp) {
  int rc = prof::TxMark(stamp);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofPush(void* stamp) {
  int rc = prof::TxPush(stamp);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofPop(void) { return prof::TxPop(); }

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  int rc = prof::TxRangeStart(stamp, rangeId);
  if (rc) TxFailMessage(__func__);
  return rc;
}

aclError aclprofRangeStop(uint32_t rangeId) { return prof::TxRangeStop(rangeId); }

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
  ACL_REQUIRE_NOT_NULL(msg);
  if (msgLen == 0 || msgLen >= prof::kTxMaxMessage || strnlen(msg, msgLen + 1) != msgLen)
    return api::BadParam(__func__, "msgLen", std::to_string(msgLen), "strlen(msg), below 128");
  (void)stream;
  prof::TxMarkMessage(std::string(msg, msgLen), -1, 0);
  return ACL_SUCCESS;
}

aclError aclprofRangePushEx(aclprofEventAttributes* attr) {
  ACL_REQUIRE_NOT_NULL(attr);
  if (attr->version != ACL_PROF_EVENT_ATTR_VERSION || attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO)
    return api::BadParam(__func__, "attr", "version/messageType", "version 1 with a tensor-info message");
  std::string name = "range";
  if (attr->message.tensorInfo) {
    std::string n = prof::TxIdString(attr->message.tensorInfo->opNameId);
    if (!n.empty()) name = n;
  }
  prof::TxPushMessage(name, 0);
  return ACL_SUCCESS;
}

aclError aclprofRangePop(void) { return prof::TxPopMessage(); }

uint64_t aclprofStr2Id(const char* message) { return prof::TxStr2Id(message); }

}  // extern "C"
