// aclInit configuration validation.
#include "api/init_config.h"

#include <nlohmann/json.hpp>

#include "dfx/errors.h"

namespace simnpu::api {

aclError ValidateInitConfig(const std::string& text, const char* path, dfx::dump::Config* dump) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return ACL_SUCCESS;  // blank: no configuration
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004, {path, "the configuration file is not valid JSON"});
    return ACL_ERROR_PARSE_FILE;
  }
  if (!j.is_object()) {
    dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004,
                   {path, "the top level of the configuration must be a JSON object"});
    return ACL_ERROR_FILE_ATTR_INVALID;
  }
  for (const char* key : {"dump", "profiler", "err_msg_mode", "defaultDevice"}) {
    auto it = j.find(key);
    if (it != j.end() && !(it->is_object() || it->is_string())) {
      dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004,
                     {path, std::string("item \"") + key + "\" has the wrong type"});
      return ACL_ERROR_FILE_ATTR_INVALID;
    }
  }
  if (dump != nullptr) {
    auto it = j.find("dump");
    if (it != j.end() && it->is_object()) {
      std::string why;
      if (dfx::dump::ParseConfig(it->dump(), dump, &why) != dfx::dump::kOk) {
        dfx::ReportErr(dfx::LogModule::kAscendcl, dfx::ErrCode::EH0004, {path, "dump: " + why});
        return ACL_ERROR_INVALID_DUMP_CONFIG;
      }
    }
  }
  return ACL_SUCCESS;
}

}  // namespace simnpu::api
