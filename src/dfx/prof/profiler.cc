// Profiling sessions (see profiler.h).
#include "dfx/prof/profiler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

#include "dfx/log.h"
#include "dfx/prof/trace_writer.h"
#include "dfx/trace/trace.h"
#include "platform/env.h"

namespace simnpu::dfx::prof {
namespace {

// <YYYYMMDDhhmmssmmm> of the wall clock.
std::string Timestamp(bool millis) {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  struct tm tm;
  localtime_r(&tv.tv_sec, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y%m%d%H%M%S", &tm);
  std::string s = b;
  if (millis) {
    char ms[24];
    std::snprintf(ms, sizeof ms, "%03ld", static_cast<long>(tv.tv_usec / 1000));
    s += ms;
  }
  return s;
}

bool WriteText(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

const char kReadme[] =
    "simnpu profiling output\n"
    "\n"
    "msprof_<ts>.json      Chrome trace-event file: open it in https://ui.perfetto.dev (Open trace file)\n"
    "                      or chrome://tracing. Tracks: Host (API calls, msproftx/mstx, unified-memory\n"
    "                      host faults), NPU <d> (one lane per stream, unified-memory lanes, resident bytes).\n"
    "op_summary_<ts>.csv   one row per kernel launch: device, stream, name, start, duration, block dim,\n"
    "                      time per block\n"
    "op_statistic_<ts>.csv per kernel name: count, total, mean, min, max (us)\n"
    "task_time_<ts>.csv    every stream task (kernels, copies, memsets, events, host functions)\n"
    "api_statistic_<ts>.csv per ACL API function: count, total, mean, min, max (us)\n"
    "uvm_summary_<ts>.csv  unified-memory totals of the session (faults, bytes moved per direction...)\n";

}  // namespace

bool MakeDirs(const std::string& path) {
  if (path.empty()) return false;
  std::string cur;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    cur = path.substr(0, pos);
    if (cur.empty()) continue;
    if (::mkdir(cur.c_str(), 0750) != 0 && errno != EEXIST) return false;
  }
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint32_t CategoriesForMask(uint64_t mask) {
  uint32_t c = 0;
  if (mask & (kProfAclApi | kProfRuntimeApi)) c |= trace::kCatApi;
  if (mask & (kProfTaskTime | kProfTaskTimeL0 | kProfTaskTimeL2 | kProfTaskTimeL3 | kProfOpAttr))
    c |= trace::kCatTask | trace::kCatUvm;
  if (mask & kProfTaskMemory) c |= trace::kCatUvm;
  if (mask & kProfMsproftx) c |= trace::kCatTx;
  return c;
}

uint32_t CategoriesFromList(const std::string& list) {
  uint32_t c = 0;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string w = list.substr(pos, end - pos);
    if (w == "all") c |= trace::kCatAll;
    else if (w == "api") c |= trace::kCatApi;
    else if (w == "task") c |= trace::kCatTask;
    else if (w == "uvm") c |= trace::kCatUvm;
    else if (w == "tx") c |= trace::kCatTx;
    pos = end + 1;
  }
  return c;
}

Profiler::Profiler() { pthread_atfork(nullptr, nullptr, &Profiler::AtForkChild); }

// A forked child must neither record into the parent's session nor write it
// (the parent does, into the same directory).
void Profiler::AtForkChild() {
  trace::AbandonInChild();
  Profiler& p = Get();
  p.running_ = false;
  p.cmdline_ = false;
  p.api_config_ = nullptr;
}

Profiler& Profiler::Get() {
  static Profiler* p = new Profiler();  // used from the exit handler
  return *p;
}

int Profiler::BeginLocked(const std::string& base, uint32_t cats) {
  char tail[9];
  std::random_device rd;
  std::mt19937 gen(rd());
  for (int i = 0; i < 8; ++i) tail[i] = static_cast<char>('A' + gen() % 18);  // A..R
  tail[8] = '\0';
  char head[64];
  std::snprintf(head, sizeof head, "PROF_%06u_", ++index_);
  char pid[16];
  std::snprintf(pid, sizeof pid, "%08d", static_cast<int>(::getpid()));
  std::string dir = base;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  dir += std::string("/") + head + Timestamp(true) + "_" + pid + tail;
  if (!MakeDirs(dir + "/mindstudio_profiler_output") || !MakeDirs(dir + "/host")) {
    last_error_ = "cannot create " + dir + ": " + std::strerror(errno);
    SIMNPU_LOGE(kAscendcl, "profiling: %s", last_error_.c_str());
    return kProfilingFailure;
  }
  if (!trace::Start(cats == 0 ? trace::kCatApi : cats)) {
    last_error_ = "a trace is already recording";
    return kProfAlreadyRun;
  }
  running_ = true;
  session_dir_ = dir;
  SIMNPU_LOGI(kAscendcl, "profiling session started: %s", dir.c_str());
  return kOk;
}

void Profiler::EndLocked() {
  if (!running_) return;
  running_ = false;
  std::unique_ptr<trace::Capture> cap = trace::Stop();
  const std::string out = session_dir_ + "/mindstudio_profiler_output";
  const std::string ts = Timestamp(false);
  SessionFiles files{session_dir_, out + "/msprof_" + ts + ".json", out};
  std::vector<bool> devices(64, false);
  for (const trace::Event& e : cap->events)
    if (e.device >= 0 && e.device < 64) devices[static_cast<size_t>(e.device)] = true;
  for (size_t d = 0; d < devices.size(); ++d)
    if (devices[d]) MakeDirs(session_dir_ + "/device_" + std::to_string(d));
  bool ok = WriteChromeTrace(*cap, files.json, static_cast<int>(::getpid()));
  ok = WriteCsvSummaries(*cap, out, "_" + ts + ".csv") && ok;
  ok = WriteText(out + "/README.txt", kReadme) && ok;
  std::string info = "{\"producer\":\"simnpu\",\"pid\":" + std::to_string(::getpid()) +
                     ",\"events\":" + std::to_string(cap->events.size()) +
                     ",\"dropped_events\":" + std::to_string(cap->dropped) + ",\"config\":{";
  bool first = true;
  for (auto& [k, v] : config_values_) {
    info += (first ? "\"" : ",\"") + std::to_string(k) + "\":\"" + v + "\"";
    first = false;
  }
  info += "}}\n";
  ok = WriteText(session_dir_ + "/host/info.json", info) && ok;
  if (!ok) {
    last_error_ = "writing the profiling output under " + session_dir_ + " failed: " + std::strerror(errno);
    SIMNPU_LOGE(kAscendcl, "profiling: %s", last_error_.c_str());
  }
  if (cap->dropped)
    SIMNPU_LOGW(kAscendcl, "profiling: %llu events were dropped (SIMNPU_PROFILE_MAX_EVENTS)",
                static_cast<unsigned long long>(cap->dropped));
  last_ = files;
  session_dir_.clear();
  api_config_ = nullptr;
}

int Profiler::Init(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  if (cmdline_) return kProfAlreadyRun;
  if (api_init_) return kRepeatInit;
  // Characters a result path may hold (no shell metacharacters, no control characters).
  for (unsigned char c : path)
    if (c < 0x20 || std::strchr("|;&$><`\\!*?\"'", c)) return kInvalidFile;
  if (!MakeDirs(path)) {
    last_error_ = "cannot create " + path + ": " + std::strerror(errno);
    return kProfilingFailure;
  }
  api_init_ = true;
  api_path_ = path;
  return kOk;
}

int Profiler::Start(const void* config, uint64_t mask) {
  std::lock_guard<std::mutex> g(mu_);
  if (cmdline_) return kProfAlreadyRun;
  if (running_) return kProfAlreadyRun;
  if (!api_init_) {
    // Started before aclprofInit: the session goes to the current directory.
    if (!MakeDirs(".")) return kProfilingFailure;
    api_init_ = true;
    api_path_ = "./";
  }
  int rc = BeginLocked(api_path_, CategoriesForMask(mask));
  if (rc == kOk) {
    api_config_ = config;
    session_mask_ = mask;
  }
  return rc;
}

int Profiler::Stop(const void* config) {
  std::lock_guard<std::mutex> g(mu_);
  if (!api_init_ || cmdline_ || !running_) return kProfNotRun;
  (void)config;  // any config stops the running session (as the real one stops all collection)
  EndLocked();
  return kOk;
}

int Profiler::Finalize() {
  std::lock_guard<std::mutex> g(mu_);
  if (!api_init_) return kOk;
  if (running_ && !cmdline_) EndLocked();
  api_init_ = false;
  api_path_.clear();
  config_values_.clear();
  return kOk;
}

bool Profiler::api_initialized() {
  std::lock_guard<std::mutex> g(mu_);
  return api_init_;
}

void Profiler::SetConfigValue(int type, const std::string& value) {
  std::lock_guard<std::mutex> g(mu_);
  config_values_[type] = value;
}

void Profiler::StartFromEnvironment() {
  auto dir = platform::GetEnv("SIMNPU_PROFILE");
  if (!dir || dir->empty()) return;
  std::lock_guard<std::mutex> g(mu_);
  if (running_) return;
  auto list = platform::GetEnv("SIMNPU_PROFILE_EVENTS");
  uint32_t cats = list ? CategoriesFromList(*list) : trace::kCatAll;
  if (cats == 0) return;
  if (!MakeDirs(*dir)) {
    SIMNPU_LOGE(kAscendcl, "SIMNPU_PROFILE: cannot create %s: %s", dir->c_str(), std::strerror(errno));
    std::fprintf(stderr, "[simnpu] SIMNPU_PROFILE: cannot create %s: %s\n", dir->c_str(), std::strerror(errno));
    return;
  }
  if (BeginLocked(*dir, cats) == kOk) cmdline_ = true;
  // mstx reaches the trace through the injection library; point the
  // header's loader at libprofapi.so next to this library unless set.
  if ((cats & trace::kCatTx) && !platform::GetEnv("MSTX_INJECTION_PATH")) {
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&MakeDirs), &info) && info.dli_fname) {
      std::string lib = info.dli_fname;
      const size_t slash = lib.rfind('/');
      lib = (slash == std::string::npos ? std::string(".") : lib.substr(0, slash)) + "/libprofapi.so";
      struct stat st;
      if (::stat(lib.c_str(), &st) == 0) ::setenv("MSTX_INJECTION_PATH", lib.c_str(), 0);
    }
  }
}

void Profiler::FinishEnvironmentSession() {
  std::lock_guard<std::mutex> g(mu_);
  if (!cmdline_) return;
  EndLocked();
  cmdline_ = false;
  if (platform::GetEnvBool("SIMNPU_PROFILE_QUIET", false)) return;
  std::fprintf(stderr, "[simnpu] profiling data written to %s (trace: %s)\n", last_.dir.c_str(), last_.json.c_str());
}

bool Profiler::command_line_active() {
  std::lock_guard<std::mutex> g(mu_);
  return cmdline_;
}

SessionFiles Profiler::last_session() {
  std::lock_guard<std::mutex> g(mu_);
  return last_;
}

std::string Profiler::last_error() {
  std::lock_guard<std::mutex> g(mu_);
  return last_error_;
}

}  // namespace simnpu::dfx::prof
