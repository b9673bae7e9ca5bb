// simnpu_report_error (include/simnpu/errmsg.h): the recent-error queue for
// simnpu's libraries outside libacl_rt.so (the aclnn tensor and operator
// libraries).
#include "simnpu/errmsg.h"

#include <string>

#include "dfx/errors.h"

extern "C" void simnpu_report_error(int kind, const char* text) {
  if (text == nullptr) return;
  try {
    // EH0012's template takes (api, parameter, reason); the caller's text is
    // already the whole sentence, so it replaces the template.
    const auto code = kind == SIMNPU_ERRMSG_INTERNAL ? simnpu::dfx::ErrCode::EH9999 : simnpu::dfx::ErrCode::EH0012;
    simnpu::dfx::ReportErrText(simnpu::dfx::LogModule::kAscendcl, code, std::string(text));
  } catch (...) {
    // out of memory while queueing: the message is lost, the caller goes on
  }
}
