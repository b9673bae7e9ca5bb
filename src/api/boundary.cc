// The exception boundary's classification (boundary.h).
#include "api/boundary.h"

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "dfx/errors.h"

namespace simnpu::api {

int BoundaryCode(const char* func) noexcept {
  int code = 507000;  // ACL_ERROR_RT_INTERNAL_ERROR
  const char* what = "an unknown exception";
  const char* detail = "";
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    code = 207001;  // ACL_ERROR_RT_MEMORY_ALLOCATION
    what = "the host ran out of memory";
    detail = e.what();
  } catch (const std::length_error& e) {
    code = 107000;  // ACL_ERROR_RT_PARAM_INVALID
    what = "a size that cannot be honoured";
    detail = e.what();
  } catch (const std::out_of_range& e) {
    code = 107000;
    what = "a value out of range";
    detail = e.what();
  } catch (const std::invalid_argument& e) {
    code = 107000;
    what = "an invalid value";
    detail = e.what();
  } catch (const std::system_error& e) {
    code = 207005;  // ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
    what = "the system refused a resource (thread, lock)";
    detail = e.what();
  } catch (const std::exception& e) {
    what = "an internal error";
    detail = e.what();
  } catch (...) {
  }
  try {
    std::string msg = std::string(func ? func : "?") + ": " + what + (detail[0] ? std::string(" (") + detail + ")" : "") +
                      "; the call failed with " + std::to_string(code) + " and changed nothing it could not undo";
    dfx::ReportErrText(dfx::LogModule::kRuntime, code == 207001 ? dfx::ErrCode::EE1007 : dfx::ErrCode::EE9999, msg);
    dfx::SetLastError(code);
  } catch (...) {
    dfx::SetLastError(code);  // no memory even for the message
  }
  return code;
}

}  // namespace simnpu::api
