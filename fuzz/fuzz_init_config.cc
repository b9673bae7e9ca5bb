// Fuzzes the aclInit configuration parser: any bytes give 0 or one of the
// documented aclInit codes, never an exception or a crash.
#include <cstdint>
#include <string>

#include "api/init_config.h"
#include "dfx/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  simnpu::dfx::dump::Config dump;
  const aclError e = simnpu::api::ValidateInitConfig(text, "fuzz.json", &dump);
  if (e != ACL_SUCCESS && e != ACL_ERROR_PARSE_FILE && e != ACL_ERROR_FILE_ATTR_INVALID &&
      e != ACL_ERROR_INVALID_DUMP_CONFIG)
    __builtin_trap();
  simnpu::dfx::ClearRecentErrMsg();
  return 0;
}
