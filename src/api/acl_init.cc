// Process-level ACL entry points: aclInit/aclFinalize, SOC and version
// queries, error state, data-type helpers, aclAppLog (data buffers: acl_data_buffer.cc).
#include <dlfcn.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "api/api_common.h"
#include "api/init_state.h"
#include "api/init_config.h"
#include "api/install_paths.h"
#include "api/uvm_report.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "dfx/dump/dump.h"
#include "dfx/log.h"
#include "dfx/prof/profiler.h"
#include "platform/env.h"
#include "platform/file.h"
#include "sim/npu_system.h"
#include "sim/soc.h"

using namespace simnpu;

namespace {

struct InitState {
  std::mutex mu;
  int count = 0;            // aclInit calls since the last aclFinalize
  std::string config_text;  // content of the first configuration
};
InitState& Init() {
  static InitState* s = new InitState();
  return *s;
}

void Drain(const char* when) {
  if (!core::Runtime::Get().DrainAll(core::DrainTimeoutMs()))
    std::fprintf(stderr, "[simnpu] WARNING: %s: work still running on a stream after %d ms; not waiting any longer "
                         "(SIMNPU_DRAIN_TIMEOUT_MS)\n", when, core::DrainTimeoutMs());
}

void ExitHandler() {
  // Let already-submitted work (and its device printf) finish, then flush logs.
  Drain("process exit");
  std::fflush(stdout);
  dfx::prof::Profiler::Get().FinishEnvironmentSession();
  api::WriteUvmReportIfRequested();
  dfx::LogFlush();
}

__attribute__((constructor)) void RegisterExitHandler() {
  std::atexit(ExitHandler);
  // SIMNPU_PROFILE records from the start (also programs that never call aclInit).
  dfx::prof::Profiler::Get().StartFromEnvironment();
}

bool ReadWholeFile(const std::string& path, std::string* out) {
  std::string why;
  return platform::ReadFile(path, out, &why);
}

}  // namespace

bool api::AclInitialized() {
  InitState& s = Init();
  std::lock_guard<std::mutex> g(s.mu);
  return s.count > 0;
}

extern "C" {

aclError aclInit(const char* configPath) {
  SIMNPU_TRACE_API();
  std::string text;
  dfx::dump::Config dump_config;
  if (configPath != nullptr && configPath[0] != '\0') {
    struct stat st;
    if (stat(configPath, &st) != 0 || !S_ISREG(st.st_mode) || !ReadWholeFile(configPath, &text)) {
      dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0003,
                     {configPath, "the configuration file does not exist or cannot be read"});
      return ACL_ERROR_INVALID_FILE;
    }
    if (aclError e = api::ValidateInitConfig(text, configPath, &dump_config)) return e;
  }
  InitState& s = Init();
  std::lock_guard<std::mutex> g(s.mu);
  if (s.count > 0) {
    if (text != s.config_text) {
      dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0009,
                     {"aclInit", configPath ? configPath : "(null)", "configPath",
                      "aclInit was already called with a different configuration"});
      return ACL_ERROR_INVALID_PARAM;
    }
    ++s.count;
    dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0012,
                       "aclInit: repeated initialization (already initialized)");
    return ACL_ERROR_REPEAT_INITIALIZE;
  }
  if (aclrtGetSocName() == nullptr) {
    dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH9999,
                       "aclInit: the SOC version cannot be determined: " + sim::CurrentSocError());
    return ACL_ERROR_INTERNAL_ERROR;
  }
  s.count = 1;
  s.config_text = text;
  dfx::dump::ConfigureFromInit(dump_config);
  dfx::prof::Profiler::Get().StartFromEnvironment();
  SIMNPU_LOGI(kAscendcl, "aclInit done (soc %s)", aclrtGetSocName());
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  SIMNPU_TRACE_API();
  InitState& s = Init();
  {
    std::lock_guard<std::mutex> g(s.mu);
    if (s.count == 0) {
      dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0012,
                         "aclFinalize: ACL is not initialized or was already finalized");
      return ACL_ERROR_REPEAT_FINALIZE;
    }
    s.count = 0;
    s.config_text.clear();
  }
  dfx::dump::ResetAll();
  Drain("aclFinalize");
  std::fflush(stdout);
  dfx::prof::Profiler::Get().FinishEnvironmentSession();
  api::WriteUvmReportIfRequested();
  dfx::LogFlush();
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  const sim::SocInfo* soc = sim::CurrentSoc();
  if (!soc) {
    dfx::ReportErrText(dfx::LogModule::kRuntime, dfx::ErrCode::EE1016,
                       "aclrtGetSocName: " + sim::CurrentSocError());
    return nullptr;
  }
  return soc->name;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  ACL_REQUIRE_NOT_NULL(runMode);
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  ACL_REQUIRE_NOT_NULL(majorVersion);
  ACL_REQUIRE_NOT_NULL(minorVersion);
  ACL_REQUIRE_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
  ACL_REQUIRE_NOT_NULL(pkgName);
  ACL_REQUIRE_NOT_NULL(versionStr);
  std::string v, why;
  if (!api::ReadPackageVersion(pkgName, &v, &why)) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0003, {pkgName, why});
    return ACL_ERROR_INVALID_FILE;
  }
  std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", v.c_str());
  return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
  ACL_REQUIRE_NOT_NULL(pkgName);
  ACL_REQUIRE_NOT_NULL(versionNum);
  std::string v, why;
  if (!api::ReadPackageVersion(pkgName, &v, &why)) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0003, {pkgName, why});
    return ACL_ERROR_INVALID_FILE;
  }
  int64_t num = 0;
  if (!api::VersionToNumber(v, &num)) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004,
                   {pkgName, "version \"" + v + "\" cannot be parsed"});
    return ACL_ERROR_PARSE_FILE;
  }
  *versionNum = static_cast<int32_t>(num);
  return ACL_SUCCESS;
}

aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible) {
  ACL_REQUIRE_NOT_NULL(socVersion);
  ACL_REQUIRE_NOT_NULL(canCompatible);
  const sim::SocInfo* other = sim::FindSoc(socVersion);
  if (!other) return api::RtBadParam(__func__, "socVersion", socVersion, "unknown SOC name");
  const sim::SocInfo* cur = sim::CurrentSoc();
  if (!cur) return api::RtFail(__func__, ACL_ERROR_RT_NO_DEVICE, sim::CurrentSocError());
  *canCompatible = other->npu_arch == cur->npu_arch ? 1 : 0;
  return ACL_SUCCESS;
}

const char* aclGetRecentErrMsg(void) { return dfx::TakeRecentErrMsg(); }

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (api::RawEnum(level) != ACL_RT_THREAD_LEVEL)
    return api::BadParam(__func__, "level", std::to_string(api::RawEnum(level)), "ACL_RT_THREAD_LEVEL (0)");
  return dfx::PeekLastError();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (api::RawEnum(level) != ACL_RT_THREAD_LEVEL)
    return api::BadParam(__func__, "level", std::to_string(api::RawEnum(level)), "ACL_RT_THREAD_LEVEL (0)");
  return dfx::TakeLastError();
}

size_t aclDataTypeSize(aclDataType dataType) {
  switch (api::RawEnum(dataType)) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 8;  // the reference reports 8 for every other value
  }
}

// half -> float. Quirk kept for compatibility: exponent 31 is treated as an
// ordinary exponent, so +Inf gives 65536.0f and the default NaN 98304.0f.
float aclFloat16ToFloat(aclFloat16 value) {
  const uint32_t sign = (value >> 15) & 1u;
  const int exp = (value >> 10) & 0x1f;
  const uint32_t mant = value & 0x3ffu;
  float f;
  if (exp == 0)
    f = std::ldexp(static_cast<float>(mant), -24);  // zero and subnormals
  else
    f = std::ldexp(1.0f + static_cast<float>(mant) / 1024.0f, exp - 15);
  return sign ? -f : f;
}

// float -> half with round-to-nearest-even. Quirk kept for compatibility:
// Inf, NaN and overflow saturate to +/-65504 (0x7BFF / 0xFBFF); NaN gives +65504.
aclFloat16 aclFloatToFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t absbits = bits & 0x7fffffffu;
  if (absbits > 0x7f800000u) return 0x7bff;                      // NaN
  if (absbits == 0x7f800000u) return static_cast<aclFloat16>(sign | 0x7bff);  // Inf
  const int exp = static_cast<int>(absbits >> 23) - 127;
  uint32_t mant = absbits & 0x7fffffu;
  if (exp > 15) return static_cast<aclFloat16>(sign | 0x7bff);
  if (exp >= -14) {  // normal half
    uint32_t h = static_cast<uint32_t>(exp + 15) << 10 | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // RNE (may carry into exponent)
    if (h >= 0x7c00u) return static_cast<aclFloat16>(sign | 0x7bff);
    return static_cast<aclFloat16>(sign | h);
  }
  if (exp < -25) return sign;  // underflows to zero
  // subnormal half: value = m * 2^-24
  mant |= 0x800000u;                       // implicit bit
  int shift = -exp - 14 + 13;              // bits dropped below the subnormal lsb
  uint32_t h = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
  return static_cast<aclFloat16>(sign | h);
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, ...) {
  if (fmt == nullptr) return;
  const int level = api::RawEnum(logLevel);
  auto lvl = static_cast<dfx::LogLevel>(level < ACL_DEBUG ? ACL_DEBUG : level > ACL_ERROR ? ACL_ERROR : level);
  if (!dfx::LogEnabled(dfx::LogModule::kApp, lvl)) return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  dfx::LogWrite(dfx::LogModule::kApp, lvl, file ? file : "", static_cast<int>(line), "[%s] %s",
                func ? func : "", msg);
}

}  // extern "C"
