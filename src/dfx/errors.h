// Error reporting for the ACL API: the thread-local message queue behind
// aclGetRecentErrMsg and the thread-local "last runtime error" behind
// aclrtPeekAtLastError / aclrtGetLastError.
//
// Conventions (acl-api.md §4.0, §8):
//   - Every failing API call queues one message (Report*), which is also logged
//     at ERROR (module as given). aclGetRecentErrMsg returns all queued messages
//     of the calling thread, oldest first, and empties the queue.
//   - Runtime-layer failures (1070xx, 2070xx, 5070xx...) also become the thread's
//     last error (SetLastError). ACL-layer parameter failures (100000) do not.
//   - Message line format:
//       [PID: <pid>] <yyyy-mm-dd-hh:mm:ss.mmm.uuu> <Title>(<ErrCode>): <text>
#ifndef SIMNPU_DFX_ERRORS_H_
#define SIMNPU_DFX_ERRORS_H_

#include <cstdarg>
#include <string>

#include "dfx/log.h"

namespace simnpu::dfx {

enum class ErrCode : int {
#define SIMNPU_ERRCODE(code, title, text, cause, solution) code,
#include "dfx/err_codes.def"
#undef SIMNPU_ERRCODE
  kCount
};

struct ErrCodeInfo {
  const char* code;      // "EH0008"
  const char* title;
  const char* text;      // printf-style template, all arguments are strings
  const char* cause;
  const char* solution;
};
const ErrCodeInfo& GetErrCodeInfo(ErrCode c);

// Queues a message built from the code's template and string arguments
// (missing arguments print as empty), and logs it at ERROR for `module`.
void ReportErr(LogModule module, ErrCode c, std::initializer_list<std::string> args);
// Queues a free-form message under a code (text replaces the template).
void ReportErrText(LogModule module, ErrCode c, const std::string& text);

// aclGetRecentErrMsg: all queued messages joined by '\n', or nullptr when the
// queue is empty. The pointer stays valid until the next call on the thread.
const char* TakeRecentErrMsg();
// Drops queued messages (tests).
void ClearRecentErrMsg();

// Thread-local last runtime error.
void SetLastError(int code);
int PeekLastError();
int TakeLastError();

}  // namespace simnpu::dfx

#endif  // SIMNPU_DFX_ERRORS_H_
