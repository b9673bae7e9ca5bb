// Host logging with CANN's conventions (plog).
//
// Configuration comes from the environment, read once on first use:
//   ASCEND_GLOBAL_LOG_LEVEL   0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR (default), 4 NULL (off)
//   ASCEND_MODULE_LOG_LEVEL   "MODULE=level:MODULE=level" per-module override
//   ASCEND_LOG_PRINT_TO_STDOUT 1 prints to stdout instead of files
//                              (ASCEND_SLOG_PRINT_TO_STDOUT is the deprecated alias;
//                               when both are set the new one wins)
//   ASCEND_PROCESS_LOG_PATH   log root (else ASCEND_WORK_PATH, else $HOME/ascend/log)
//   ASCEND_HOST_LOG_FILE_NUM  rotated files kept per directory (default 10)
// Files: <root>/debug/plog/plog-<pid>_<yyyymmddhhmmssmmm>.log for all levels,
//        <root>/run/plog/plog-<pid>_<...>.log for EVENT lines.
// Line:  [LEVEL] MODULE(PID,PROCESS_NAME):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file:line]message
// Nothing is written to stdout unless ASCEND_LOG_PRINT_TO_STDOUT=1; no file is
// created until the first line at an enabled level is logged.
//
// Thread-safe. LogEnabled() is one relaxed atomic load plus a compare, so a
// disabled log statement costs no formatting.
#ifndef SIMNPU_DFX_LOG_H_
#define SIMNPU_DFX_LOG_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>

namespace simnpu::dfx {

enum class LogLevel : int { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kEvent = 5 };

// Modules as they appear in log lines and in ASCEND_MODULE_LOG_LEVEL.
enum class LogModule : int {
  kAscendcl = 0,  // "ASCENDCL": the ACL API layer (argument checks)
  kRuntime,       // "RUNTIME": contexts, streams, events, launches
  kDrv,           // "DRV": the simulated device and its memory, the UVM engine
  kApp,           // "APP": aclAppLog from user programs
  kCount
};

const char* LogModuleName(LogModule m);

// The current local time as log lines print it, "YYYY-MM-DD-hh:mm:ss.mmm.uuu"
// (aclGetRecentErrMsg lines use the same). Returns the length written.
constexpr size_t kLogTimeLen = 64;  // a buffer size that always fits
size_t FormatLogTime(char* buf, size_t cap);

// True if a line at `level` for `module` would be written anywhere.
bool LogEnabled(LogModule module, LogLevel level);

// Formats and writes one line. `file` is reduced to its base name.
void LogWrite(LogModule module, LogLevel level, const char* file, int line,
              const char* fmt, ...) __attribute__((format(printf, 5, 6)));
void LogWriteV(LogModule module, LogLevel level, const char* file, int line,
               const char* fmt, va_list ap);

// Flushes buffered log output (called at aclFinalize and process exit).
void LogFlush();

// Re-reads the environment (tests change ASCEND_* variables between cases).
void LogReconfigureForTesting();

}  // namespace simnpu::dfx

#define SIMNPU_LOG(module, level, ...)                                              \
  do {                                                                              \
    if (::simnpu::dfx::LogEnabled(::simnpu::dfx::LogModule::module,                 \
                                  ::simnpu::dfx::LogLevel::level))                  \
      ::simnpu::dfx::LogWrite(::simnpu::dfx::LogModule::module,                     \
                              ::simnpu::dfx::LogLevel::level, __FILE__, __LINE__,   \
                              __VA_ARGS__);                                         \
  } while (0)

#define SIMNPU_LOGD(module, ...) SIMNPU_LOG(module, kDebug, __VA_ARGS__)
#define SIMNPU_LOGI(module, ...) SIMNPU_LOG(module, kInfo, __VA_ARGS__)
#define SIMNPU_LOGW(module, ...) SIMNPU_LOG(module, kWarning, __VA_ARGS__)
#define SIMNPU_LOGE(module, ...) SIMNPU_LOG(module, kError, __VA_ARGS__)

#endif  // SIMNPU_DFX_LOG_H_
