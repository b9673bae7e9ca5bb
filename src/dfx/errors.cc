// Thread-local error state for aclGetRecentErrMsg and the last-error API.
#include "dfx/errors.h"

#include <unistd.h>

#include <vector>

namespace simnpu::dfx {
namespace {

const ErrCodeInfo kInfos[] = {
#define SIMNPU_ERRCODE(code, title, text, cause, solution) {#code, title, text, cause, solution},
#include "dfx/err_codes.def"
#undef SIMNPU_ERRCODE
};

struct ThreadErrState {
  std::vector<std::string> queue;  // pending messages, oldest first
  std::string returned;            // storage behind the last TakeRecentErrMsg()
  int last_error = 0;
};

ThreadErrState& State() {
  thread_local ThreadErrState s;
  return s;
}

std::string Timestamp() {
  char buf[kLogTimeLen];
  return std::string(buf, FormatLogTime(buf, sizeof buf));
}

// Substitutes the %s placeholders of `tmpl` with args in order.
std::string Expand(const char* tmpl, std::initializer_list<std::string> args) {
  std::string out;
  auto it = args.begin();
  for (const char* p = tmpl; *p; ++p) {
    if (p[0] == '%' && p[1] == 's') {
      if (it != args.end()) out += *it++;
      ++p;
    } else {
      out += *p;
    }
  }
  return out;
}

void Queue(LogModule module, ErrCode c, const std::string& text) {
  const ErrCodeInfo& info = GetErrCodeInfo(c);
  std::string line = "[PID: " + std::to_string(getpid()) + "] " + Timestamp() + " " + info.title +
                     "(" + info.code + "): " + text;
  auto& q = State().queue;
  q.push_back(line);
  // Keep the most recent messages only: a thread that never reads them (e.g.
  // one polling aclrtProcessReport with a timeout) must not grow without bound.
  constexpr size_t kMaxQueued = 64;
  if (q.size() > kMaxQueued) q.erase(q.begin(), q.begin() + static_cast<long>(q.size() - kMaxQueued));
  if (LogEnabled(module, LogLevel::kError))
    LogWrite(module, LogLevel::kError, __FILE__, __LINE__, "%s %s", info.code, text.c_str());
}

}  // namespace

const ErrCodeInfo& GetErrCodeInfo(ErrCode c) {
  int i = static_cast<int>(c);
  if (i < 0 || i >= static_cast<int>(ErrCode::kCount)) i = static_cast<int>(ErrCode::EE9999);
  return kInfos[i];
}

void ReportErr(LogModule module, ErrCode c, std::initializer_list<std::string> args) {
  Queue(module, c, Expand(GetErrCodeInfo(c).text, args));
}

void ReportErrText(LogModule module, ErrCode c, const std::string& text) { Queue(module, c, text); }

const char* TakeRecentErrMsg() {
  ThreadErrState& s = State();
  if (s.queue.empty()) return nullptr;
  s.returned.clear();
  for (size_t i = 0; i < s.queue.size(); ++i) {
    if (i) s.returned += '\n';
    s.returned += s.queue[i];
  }
  s.queue.clear();
  return s.returned.c_str();
}

void ClearRecentErrMsg() { State().queue.clear(); }

void SetLastError(int code) { State().last_error = code; }
int PeekLastError() { return State().last_error; }
int TakeLastError() {
  int c = State().last_error;
  State().last_error = 0;
  return c;
}

}  // namespace simnpu::dfx
