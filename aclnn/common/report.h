// Argument checks and error messages of the aclnn libraries: every failure
// returns an aclnnStatus (or NULL) and queues one message for
// aclGetRecentErrMsg through libacl_rt's simnpu_report_error.
#ifndef SIMNPU_ACLNN_COMMON_REPORT_H_
#define SIMNPU_ACLNN_COMMON_REPORT_H_

#include <cstdarg>
#include <cstdio>

#include "aclnn/aclnn_base.h"
#include "simnpu/errmsg.h"

namespace simnpu {
namespace aclnn {

// Queues "<api>: <formatted text>" and returns `code`.
__attribute__((format(printf, 3, 4))) inline aclnnStatus Fail(aclnnStatus code, const char* api, const char* fmt,
                                                             ...) {
  char text[768];
  int n = std::snprintf(text, sizeof text, "%s: ", api);
  if (n < 0) n = 0;
  if (static_cast<size_t>(n) < sizeof text) {
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text + n, sizeof text - static_cast<size_t>(n), fmt, ap);
    va_end(ap);
  }
  simnpu_report_error(code == ACLNN_ERR_PARAM_NULLPTR || code == ACLNN_ERR_PARAM_INVALID
                          ? SIMNPU_ERRMSG_INVALID_ARGUMENT
                          : SIMNPU_ERRMSG_INTERNAL,
                      text);
  return code;
}

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_COMMON_REPORT_H_
