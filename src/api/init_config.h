// The aclInit configuration file: what aclInit accepts (acl-api.md §4.1),
// apart from opening and reading it. Its own room so that the parser can be
// fuzzed alone (fuzz/fuzz_init_config.cc).
#ifndef SIMNPU_API_INIT_CONFIG_H_
#define SIMNPU_API_INIT_CONFIG_H_

#include <string>

#include "acl/acl.h"
#include "dfx/dump/dump.h"

namespace simnpu::api {

// Checks the text of the configuration at `path` (for messages): blank or a
// JSON object whose known items have the right types. 0, or the aclInit code
// (ACL_ERROR_PARSE_FILE, ACL_ERROR_FILE_ATTR_INVALID, ACL_ERROR_INVALID_DUMP_CONFIG)
// with a message queued. When `dump` is given, the "dump" object (if any) is
// parsed into it.
aclError ValidateInitConfig(const std::string& text, const char* path, dfx::dump::Config* dump = nullptr);

}  // namespace simnpu::api

#endif  // SIMNPU_API_INIT_CONFIG_H_
