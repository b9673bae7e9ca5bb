// The dump API: aclmdlInitDump / SetDump / FinalizeDump (acl/acl_rt.h) and
// acl/acl_dump.h. Checks and codes here; configuration and files in dfx/dump.
// Exported by libacl_rt.so and, through a filter library, by libascend_dump.so.
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "api/api_common.h"
#include "api/init_state.h"
#include "core/runtime.h"
#include "dfx/dump/dump.h"
#include "dfx/errors.h"
#include "sim/memory_path.h"
#include "uvm/engine.h"

using namespace simnpu;

namespace {

namespace dump = simnpu::dfx::dump;

aclError DumpFail(const char* func, int code, const std::string& why) {
  dfx::ReportErrText(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0012, std::string(func) + ": " + why);
  return code;
}

aclError NotInitialized(const char* func) {
  return DumpFail(func, ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
}

// The current device (logical id, 0 without a context).
int CurrentDevice() {
  auto ctx = core::Runtime::Get().current();
  return ctx ? ctx->device_id() : 0;
}

}  // namespace

extern "C" {

aclError aclmdlInitDump(void) {
  if (!api::AclInitialized()) return NotInitialized(__func__);
  int rc = dump::ModelInit();
  if (rc == dump::kRepeatInit) return DumpFail(__func__, rc, "aclmdlInitDump was already called");
  if (rc == dump::kDumpAlreadyRun)
    return DumpFail(__func__, rc, "the aclInit configuration already enabled model, op or overflow dump");
  return ACL_SUCCESS;
}

aclError aclmdlSetDump(const char* dumpCfgPath) {
  if (!api::AclInitialized()) return NotInitialized(__func__);
  ACL_REQUIRE_NOT_NULL(dumpCfgPath);
  struct stat st;
  std::ifstream f(dumpCfgPath, std::ios::binary);
  if (::stat(dumpCfgPath, &st) != 0 || !S_ISREG(st.st_mode) || !f) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0003,
                   {dumpCfgPath, "the dump configuration file does not exist or cannot be read"});
    return ACL_ERROR_INVALID_FILE;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004,
                   {dumpCfgPath, "the dump configuration is not a JSON object"});
    return ACL_ERROR_PARSE_FILE;
  }
  if (!j.contains("dump") || !j["dump"].is_object())
    return DumpFail(__func__, ACL_ERROR_INVALID_DUMP_CONFIG, "the file has no \"dump\" object");
  dump::Config c;
  std::string why;
  if (dump::ParseConfig(j["dump"].dump(), &c, &why) != dump::kOk)
    return DumpFail(__func__, ACL_ERROR_INVALID_DUMP_CONFIG, why);
  int rc = dump::ModelSetConfig(c);
  if (rc != dump::kOk) return DumpFail(__func__, rc, "aclmdlInitDump has not been called");
  return ACL_SUCCESS;
}

aclError aclmdlFinalizeDump(void) {
  if (!api::AclInitialized()) return NotInitialized(__func__);
  int rc = dump::ModelFinalize();
  if (rc != dump::kOk) return DumpFail(__func__, rc, "aclmdlInitDump has not been called");
  return ACL_SUCCESS;
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) {
  if (!path) return DumpFail(__func__, ACL_ERROR_FAILURE, "path is NULL");
  if (!(dumpType & ACL_OP_DUMP_OP_AICORE_ARGS))
    return DumpFail(__func__, ACL_ERROR_FAILURE, "dumpType must include ACL_OP_DUMP_OP_AICORE_ARGS");
  if (path[0] == '\0') return DumpFail(__func__, ACL_ERROR_FAILURE, "path is empty");
  if (dump::StartArgs(path) != dump::kOk)
    return DumpFail(__func__, ACL_ERROR_FAILURE, std::string("cannot create ") + path);
  return ACL_SUCCESS;
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  if (!(dumpType & ACL_OP_DUMP_OP_AICORE_ARGS))
    return DumpFail(__func__, ACL_ERROR_FAILURE, "dumpType must include ACL_OP_DUMP_OP_AICORE_ARGS");
  dump::StopArgs();
  return ACL_SUCCESS;
}

const char* acldumpGetPath(acldumpType dumpType) {
  static thread_local std::string path;
  path = dump::PathFor(api::RawEnum(dumpType));
  return path.empty() ? nullptr : path.c_str();
}

aclError acldumpRegCallback(int32_t (*messageCallback)(const acldumpChunk* chunk, int32_t len), int32_t flag) {
  ACL_REQUIRE_NOT_NULL(messageCallback);
  if (flag != 0) return api::BadParam(__func__, "flag", std::to_string(flag), "0");
  dump::SetCallback(reinterpret_cast<dump::Callback>(messageCallback));
  return ACL_SUCCESS;
}

void acldumpUnregCallback(void) { dump::SetCallback(nullptr); }

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) {
  ACL_REQUIRE_NOT_NULL(path);
  if (maxLen <= 1) return api::BadParam(__func__, "maxLen", std::to_string(maxLen), "> 1");
  const std::string dir = dump::ExceptionInfoDir(CurrentDevice());
  if (dir.empty()) return DumpFail(__func__, ACL_ERROR_FAILURE, "exception dump is not enabled (dump_scene)");
  if (dir.size() + 1 > maxLen)
    return api::BadParam(__func__, "maxLen", std::to_string(maxLen), "at least " + std::to_string(dir.size() + 1));
  std::memcpy(path, dir.c_str(), dir.size() + 1);
  return ACL_SUCCESS;
}

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag, const acldumpTensorInfo* tensors,
                                  size_t tensorCount) {
  ACL_REQUIRE_NOT_NULL(fileName);
  if (fileName[0] == '\0' || std::strstr(fileName, "..") || std::strchr(fileName, '/'))
    return api::BadParam(__func__, "fileName", fileName, "a plain file name (not empty, no \"..\" or \"/\")");
  ACL_REQUIRE_NOT_NULL(tensors);
  if (tensorCount == 0) return api::BadParam(__func__, "tensorCount", "0", "> 0");
  const int dev = CurrentDevice();
  if (dump::ExceptionInfoDir(dev).empty())
    return DumpFail(__func__, ACL_ERROR_FAILURE, "exception dump is not enabled (dump_scene)");
  dump::KernelDump d;
  d.kernel = fileName;
  d.device = dev;
  for (size_t i = 0; i < tensorCount; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    if (api::RawEnum(t.addrType) != ACL_DUMP_ADDR_RAW || api::RawEnum(t.placement) != ACL_DUMP_PLACEMENT_DEVICE)
      return api::BadParam(__func__, "tensors[].addrType/placement", std::to_string(i),
                           "ACL_DUMP_ADDR_RAW with ACL_DUMP_PLACEMENT_DEVICE");
    if (!t.tensorAddr && t.tensorSize) return api::NullParam(__func__, "tensors[].tensorAddr");
    dump::Tensor out;
    out.kind = static_cast<uint32_t>(api::RawEnum(t.type));
    out.arg_index = static_cast<uint32_t>(i);
    out.address = reinterpret_cast<uintptr_t>(t.tensorAddr);
    out.dtype = static_cast<uint32_t>(t.dataType);
    out.data.resize(t.tensorSize);
    if (t.tensorSize) {
      auto ctx = core::Runtime::Get().current();
      const int phys = ctx ? ctx->phys_id() : 0;
      Status st = sim::DeviceRead(phys, out.data.data(), t.tensorAddr, t.tensorSize, sim::AccessCause::kCopy);
      if (!st.ok()) return api::Fail(__func__, st);
    }
    d.tensors.push_back(std::move(out));
  }
  if (dump::WriteCustom(dev, fileName, userTag ? userTag : "", d).empty())
    return DumpFail(__func__, ACL_ERROR_FAILURE, "the exception information could not be written");
  return ACL_SUCCESS;
}

}  // extern "C"
