// Host logging with CANN's plog conventions: the implementation of dfx/log.h.
//
// Configuration (read on first use, again on LogReconfigureForTesting):
//   ASCEND_GLOBAL_LOG_LEVEL      0..4, default 3 (ERROR); 4 turns every line off,
//                                EVENT included. Anything else keeps the default.
//   ASCEND_MODULE_LOG_LEVEL      "MODULE=level:MODULE=level" (module names are
//                                matched case-insensitively; bad items are skipped)
//   ASCEND_GLOBAL_EVENT_ENABLE   0 drops EVENT lines (default: EVENT lines are on
//                                whenever the module's level is not 4)
//   ASCEND_LOG_PRINT_TO_STDOUT   1 = lines go to stdout and no file is written;
//   ASCEND_SLOG_PRINT_TO_STDOUT  deprecated alias, used only when the new
//                                variable is unset or empty
//   ASCEND_PROCESS_LOG_PATH      log root; else $ASCEND_WORK_PATH/log; else
//                                $HOME/ascend/log (relative roots are made
//                                absolute against the working directory at
//                                configuration time)
//   ASCEND_HOST_LOG_FILE_NUM     plog files kept per directory, 1..1000, default 10
//   SIMNPU_LOG_FILE_SIZE         (ours) bytes after which a file is rotated,
//                                default 20 MiB, minimum 1024
//
// Files: <root>/debug/plog/plog-<pid>_<yyyymmddhhmmssmmm>.log receives every
// line; EVENT lines also go to <root>/run/plog/ (same naming). A new file is
// started when the current one would grow past the size limit; after a file is
// created, the oldest plog-*.log files of that directory (any pid, ordered by
// the timestamp in the name) are deleted until ASCEND_HOST_LOG_FILE_NUM remain.
// Directories and files are created only when the first line is written.
//
// Each line is written with one write(2) on an O_APPEND descriptor, so there is
// no user-space buffer: nothing is lost at exit, abort or fork, and lines of
// concurrent processes sharing a file never interleave. LogFlush only flushes
// stdout (the stdout sink uses stdio so that log lines keep their order
// relative to the program's own printf output).
//
// fork(): a pthread_atfork child handler drops the parent's file descriptors,
// so the child's first line opens plog-<child pid>_....log.
//
// Threading: g_masks is read lock-free by LogEnabled; every other piece of
// state lives in LogState and is guarded by LogState::mu (a leaf lock: nothing
// else is acquired while holding it, except stdout's stdio lock).
#include "dfx/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "platform/env.h"

namespace simnpu::dfx {
namespace {

constexpr int kNumModules = static_cast<int>(LogModule::kCount);
constexpr int kLevelOff = 4;
constexpr int kDefaultLevel = 3;
constexpr int kDefaultFileNum = 10;
constexpr int kMaxFileNum = 1000;
constexpr unsigned long long kDefaultFileSize = 20ull << 20;
constexpr unsigned long long kMinFileSize = 1024;
constexpr size_t kMaxMessage = 64 * 1024;  // longer messages are cut

const char* const kModuleNames[kNumModules] = {"ASCENDCL", "RUNTIME", "DRV", "APP"};

// Per module: bit n set = lines at LogLevel n are enabled. kConfigured marks a
// value computed from the environment; a zero (static initial) value sends
// LogEnabled to the slow path once.
constexpr uint32_t kConfigured = 1u << 31;
std::atomic<uint32_t> g_masks[kNumModules];

uint32_t LevelBit(LogLevel l) { return 1u << static_cast<int>(l); }

// One output directory (debug/plog or run/plog) and its current file.
struct SinkFile {
  explicit SinkFile(const char* dir) : subdir(dir) {}
  const char* subdir;
  int fd = -1;
  unsigned long long size = 0;  // bytes written to fd by this process
  std::string path;
};

struct LogState {
  std::mutex mu;  // guards every field below
  bool configured = false;
  bool to_stdout = false;
  std::string root;  // absolute, no trailing '/'
  int file_num = kDefaultFileNum;
  unsigned long long max_file_size = kDefaultFileSize;
  long long last_name_ms = 0;  // newest timestamp used in a file name
  bool reported_failure = false;  // one stderr note when files cannot be written
  SinkFile debug{"debug/plog"};
  SinkFile run{"run/plog"};
};

void AtForkPrepare();
void AtForkParent();
void AtForkChild();
void AtExitFlush() { LogFlush(); }

// Never destroyed: logging stays usable from other objects' static destructors.
LogState& State() {
  static LogState* s = [] {
    auto* st = new LogState;
    pthread_atfork(AtForkPrepare, AtForkParent, AtForkChild);
    std::atexit(AtExitFlush);
    return st;
  }();
  return *s;
}

void CloseSink(SinkFile& f) {
  if (f.fd >= 0) close(f.fd);
  f.fd = -1;
  f.size = 0;
  f.path.clear();
}

void AtForkPrepare() { State().mu.lock(); }
void AtForkParent() { State().mu.unlock(); }
void AtForkChild() {
  LogState& s = State();
  // The child's lines go to files named after its own pid.
  CloseSink(s.debug);
  CloseSink(s.run);
  s.mu.unlock();
}

// A variable's value; as in plog, an empty value counts as unset (unlike
// platform::GetEnv).
std::optional<std::string> Env(const char* name) {
  auto v = platform::GetEnv(name);
  if (v && v->empty()) return std::nullopt;
  return v;
}

// A whole decimal integer (platform::ParseInt: surrounding blanks allowed)
// in [lo, hi], or nullopt.
std::optional<long long> IntIn(const std::optional<std::string>& text, long long lo, long long hi) {
  if (!text) return std::nullopt;
  auto v = platform::ParseInt(*text);
  if (!v || *v < lo || *v > hi) return std::nullopt;
  return *v;
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

int ModuleIndex(const std::string& name) {
  for (int i = 0; i < kNumModules; ++i) {
    if (strcasecmp(name.c_str(), kModuleNames[i]) == 0) return i;
  }
  return -1;
}

std::string HomeDir() {
  if (auto h = Env("HOME")) return *h;
  struct passwd pw;
  struct passwd* res = nullptr;
  char buf[4096];
  if (getpwuid_r(getuid(), &pw, buf, sizeof buf, &res) == 0 && res && res->pw_dir)
    return res->pw_dir;
  return "/tmp";
}

std::string MakeAbsolute(std::string p) {
  if (!p.empty() && p[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) p = std::string(cwd) + "/" + p;
  }
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// Reads the environment into `s` and publishes the level masks. Caller holds s.mu.
void ConfigureLocked(LogState& s) {
  const int global = static_cast<int>(IntIn(Env("ASCEND_GLOBAL_LOG_LEVEL"), 0, kLevelOff).value_or(kDefaultLevel));
  int level[kNumModules];
  for (int& l : level) l = global;
  if (auto spec = Env("ASCEND_MODULE_LOG_LEVEL")) {
    const std::string& all = *spec;
    size_t pos = 0;
    while (pos <= all.size()) {
      size_t end = all.find(':', pos);
      if (end == std::string::npos) end = all.size();
      std::string item = all.substr(pos, end - pos);
      size_t eq = item.find('=');
      if (eq != std::string::npos) {
        int m = ModuleIndex(Trim(item.substr(0, eq)));
        auto v = IntIn(item.substr(eq + 1), 0, kLevelOff);
        if (m >= 0 && v) level[m] = static_cast<int>(*v);
      }
      pos = end + 1;
    }
  }
  const bool events = IntIn(Env("ASCEND_GLOBAL_EVENT_ENABLE"), 0, 0) == std::nullopt;

  auto out = Env("ASCEND_LOG_PRINT_TO_STDOUT");
  if (!out) out = Env("ASCEND_SLOG_PRINT_TO_STDOUT");
  s.to_stdout = IntIn(out, 1, 1).has_value();

  if (auto p = Env("ASCEND_PROCESS_LOG_PATH")) {
    s.root = MakeAbsolute(*p);
  } else if (auto w = Env("ASCEND_WORK_PATH")) {
    s.root = MakeAbsolute(*w + "/log");
  } else {
    s.root = MakeAbsolute(HomeDir() + "/ascend/log");
  }
  s.file_num = static_cast<int>(IntIn(Env("ASCEND_HOST_LOG_FILE_NUM"), 1, kMaxFileNum).value_or(kDefaultFileNum));
  s.max_file_size = static_cast<unsigned long long>(
      IntIn(Env("SIMNPU_LOG_FILE_SIZE"), static_cast<long long>(kMinFileSize), 1ll << 40)
          .value_or(static_cast<long long>(kDefaultFileSize)));

  for (int m = 0; m < kNumModules; ++m) {
    uint32_t mask = kConfigured;
    if (level[m] < kLevelOff) {
      for (int l = level[m]; l <= static_cast<int>(LogLevel::kError); ++l) mask |= 1u << l;
      if (events) mask |= LevelBit(LogLevel::kEvent);
    }
    g_masks[m].store(mask, std::memory_order_relaxed);
  }
  s.configured = true;
}

uint32_t ConfigureSlow(int m) {
  LogState& s = State();
  std::lock_guard<std::mutex> lk(s.mu);
  if (!s.configured) ConfigureLocked(s);
  return g_masks[m].load(std::memory_order_relaxed);
}

const char* LevelName(LogLevel l) {
  switch (l) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarning: return "WARNING";
    case LogLevel::kError: return "ERROR";
    case LogLevel::kEvent: return "EVENT";
  }
  return "UNKNOWN";
}

const char* BaseName(const char* file) {
  if (!file) return "";
  const char* slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

// mkdir -p with mode 0750 for the created levels.
bool MakeDirs(const std::string& dir) {
  std::string cur;
  size_t pos = 0;
  while (pos < dir.size()) {
    size_t next = dir.find('/', pos + 1);
    if (next == std::string::npos) next = dir.size();
    cur = dir.substr(0, next);
    pos = next;
    if (cur.empty() || cur == "/") continue;
    if (mkdir(cur.c_str(), 0750) != 0 && errno != EEXIST) return false;
  }
  struct stat st;
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// "yyyymmddhhmmssmmm" (local time) for a millisecond count since the epoch.
std::string NameStamp(long long ms) {
  time_t sec = static_cast<time_t>(ms / 1000);
  struct tm tmv;
  localtime_r(&sec, &tmv);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d%02d%02d%02d%02d%02d%03d", tmv.tm_year + 1900,
                tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

// If `name` is "plog-<digits>_<digits>.log", stores the timestamp digits.
bool ParsePlogName(const char* name, std::string* stamp) {
  const char* p = name;
  if (std::strncmp(p, "plog-", 5) != 0) return false;
  p += 5;
  const char* d = p;
  while (*p >= '0' && *p <= '9') ++p;
  if (p == d || *p != '_') return false;
  const char* t = ++p;
  while (*p >= '0' && *p <= '9') ++p;
  if (p == t || std::strcmp(p, ".log") != 0) return false;
  stamp->assign(t, p);
  return true;
}

// Deletes the oldest plog files of `dir` beyond `keep`, never `current`.
void EnforceFileNum(const std::string& dir, int keep, const std::string& current) {
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  struct Entry {
    std::string stamp, name;
  };
  std::vector<Entry> files;
  while (struct dirent* e = readdir(d)) {
    Entry en;
    if (ParsePlogName(e->d_name, &en.stamp)) {
      en.name = e->d_name;
      files.push_back(std::move(en));
    }
  }
  closedir(d);
  if (static_cast<int>(files.size()) <= keep) return;
  std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) {
    if (a.stamp.size() != b.stamp.size()) return a.stamp.size() < b.stamp.size();
    return a.stamp != b.stamp ? a.stamp < b.stamp : a.name < b.name;
  });
  size_t excess = files.size() - static_cast<size_t>(keep);
  for (const Entry& f : files) {
    if (excess == 0) break;
    std::string path = dir + "/" + f.name;
    if (path == current) continue;
    unlink(path.c_str());
    --excess;
  }
}

long long NowMs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

void ReportFileFailure(LogState& s, const std::string& what) {
  if (s.reported_failure) return;
  s.reported_failure = true;
  std::fprintf(stderr, "[WARNING] simnpu log: cannot write %s (%s); file logging is off\n",
               what.c_str(), std::strerror(errno));
}

// Opens a fresh plog file in the sink's directory. Caller holds s.mu.
bool OpenNewFile(LogState& s, SinkFile& f) {
  std::string dir = s.root + "/" + f.subdir;
  if (!MakeDirs(dir)) {
    ReportFileFailure(s, dir);
    return false;
  }
  const std::string pid = std::to_string(getpid());
  for (int attempt = 0; attempt < 100; ++attempt) {
    // Names must differ even when files rotate within one millisecond.
    long long ms = std::max(NowMs(), s.last_name_ms + 1);
    s.last_name_ms = ms;
    std::string path = dir + "/plog-" + pid + "_" + NameStamp(ms) + ".log";
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0640);
    if (fd >= 0) {
      f.fd = fd;
      f.size = 0;
      f.path = path;
      EnforceFileNum(dir, s.file_num, path);
      return true;
    }
    if (errno != EEXIST) break;
  }
  ReportFileFailure(s, dir);
  return false;
}

void WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// Caller holds s.mu.
void WriteToSink(LogState& s, SinkFile& f, const std::string& line) {
  if (f.fd >= 0 && f.size > 0 && f.size + line.size() > s.max_file_size) CloseSink(f);
  if (f.fd < 0 && !OpenNewFile(s, f)) return;
  WriteAll(f.fd, line.data(), line.size());
  f.size += line.size();
}

void AppendPrefix(std::string& out, LogModule module, LogLevel level, const char* file, int line) {
  char when[kLogTimeLen];
  FormatLogTime(when, sizeof when);
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "[%s] %s(%d,%s):%s [%s:%d]", LevelName(level), LogModuleName(module),
                        static_cast<int>(getpid()), program_invocation_short_name, when, BaseName(file), line);
  if (n < 0) return;
  out.append(buf, std::min(static_cast<size_t>(n), sizeof buf - 1));
}

}  // namespace

size_t FormatLogTime(char* buf, size_t cap) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tmv;
  localtime_r(&ts.tv_sec, &tmv);
  const long us = ts.tv_nsec / 1000;
  const int n = std::snprintf(buf, cap, "%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld", tmv.tm_year + 1900,
                              tmv.tm_mon + 1, tmv.tm_mday, tmv.tm_hour, tmv.tm_min, tmv.tm_sec, us / 1000, us % 1000);
  return n < 0 ? 0 : std::min(static_cast<size_t>(n), cap ? cap - 1 : 0);
}

const char* LogModuleName(LogModule m) {
  int i = static_cast<int>(m);
  return (i >= 0 && i < kNumModules) ? kModuleNames[i] : "UNKNOWN";
}

bool LogEnabled(LogModule module, LogLevel level) {
  int m = static_cast<int>(module);
  int l = static_cast<int>(level);
  if (m < 0 || m >= kNumModules || l < 0 || l > 30) return false;
  uint32_t mask = g_masks[m].load(std::memory_order_relaxed);
  if (!(mask & kConfigured)) mask = ConfigureSlow(m);
  return (mask >> l) & 1u;
}

void LogWriteV(LogModule module, LogLevel level, const char* file, int line, const char* fmt,
               va_list ap) {
  if (!LogEnabled(module, level)) return;
  std::string text;
  AppendPrefix(text, module, level, file, line);
  char small[1024];
  va_list ap2;
  va_copy(ap2, ap);
  int n = std::vsnprintf(small, sizeof small, fmt ? fmt : "", ap2);
  va_end(ap2);
  if (n > 0 && static_cast<size_t>(n) < sizeof small) {
    text.append(small, static_cast<size_t>(n));
  } else if (n > 0) {
    size_t len = std::min(static_cast<size_t>(n), kMaxMessage);
    std::string big(len + 1, '\0');
    va_copy(ap2, ap);
    std::vsnprintf(big.data(), big.size(), fmt, ap2);
    va_end(ap2);
    big.resize(len);
    text += big;
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  text += '\n';

  LogState& s = State();
  std::lock_guard<std::mutex> lk(s.mu);
  if (s.to_stdout) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  WriteToSink(s, s.debug, text);
  if (level == LogLevel::kEvent) WriteToSink(s, s.run, text);
}

void LogWrite(LogModule module, LogLevel level, const char* file, int line, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  LogWriteV(module, level, file, line, fmt, ap);
  va_end(ap);
}

void LogFlush() {
  LogState& s = State();
  std::lock_guard<std::mutex> lk(s.mu);
  if (s.to_stdout) std::fflush(stdout);
}

void LogReconfigureForTesting() {
  LogState& s = State();
  std::lock_guard<std::mutex> lk(s.mu);
  CloseSink(s.debug);
  CloseSink(s.run);
  s.reported_failure = false;
  ConfigureLocked(s);
}

}  // namespace simnpu::dfx
