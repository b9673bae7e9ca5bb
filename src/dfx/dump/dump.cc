// Dump configuration and writers (see dump.h).
#include "dfx/dump/dump.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <nlohmann/json.hpp>

#include "dfx/log.h"
#include "dfx/prof/profiler.h"
#include "platform/env.h"

namespace simnpu::dfx::dump {

std::atomic<uint32_t> g_want{0};

namespace {

struct State {
  std::mutex mu;
  Config init;            // from aclInit. GUARDED_BY(mu)
  bool model_init = false;  // GUARDED_BY(mu)
  Config model;           // from aclmdlSetDump. GUARDED_BY(mu)
  bool args = false;      // GUARDED_BY(mu)
  std::string args_path;  // GUARDED_BY(mu)
  Callback cb = nullptr;  // GUARDED_BY(mu)
  uint64_t seq = 0;       // files written. GUARDED_BY(mu)
  std::string day;        // <dump_path>/<YYYYMMDDhhmmss> of this process. GUARDED_BY(mu)
};
State& S() {
  static State* s = new State();
  return *s;
}

thread_local const char* t_op_name = nullptr;

// The configuration in force: aclmdlSetDump's, else aclInit's. REQUIRES(S().mu)
const Config& ActiveLocked() {
  if (S().model_init && S().model.present) return S().model;
  return S().init;
}

void UpdateWantLocked() {
  const Config& c = ActiveLocked();
  uint32_t w = 0;
  if (c.data_dump() && (!c.path.empty() || S().cb)) w |= kWantData;
  if (S().args) w |= kWantArgs;
  if (c.exception()) w |= kWantException;
  g_want.store(w, std::memory_order_relaxed);
}

std::string Stamp() {
  time_t t = time(nullptr);
  struct tm tm;
  localtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y%m%d%H%M%S", &tm);
  return b;
}

uint64_t NowUs() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<uint64_t>(tv.tv_sec) * 1000000 + static_cast<uint64_t>(tv.tv_usec);
}

std::string Absolute(const std::string& p) {
  if (!p.empty() && p[0] == '/') return p;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) return p;
  std::string base = cwd;
  if (p.empty() || p == ".") return base;
  std::string rel = p.rfind("./", 0) == 0 ? p.substr(2) : p;
  return base + "/" + rel;
}

// File names must not hold path separators or odd characters.
std::string SafeName(const std::string& s) {
  std::string o;
  for (char c : s) o += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return o.empty() ? std::string("kernel") : o;
}

bool WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

// Appends n bytes (resize + memcpy: GCC's -O2 overflow analysis misreads
// range inserts into a fresh vector).
void Append(std::vector<uint8_t>& v, const void* p, size_t n) {
  const size_t o = v.size();
  v.resize(o + n);
  if (n) std::memcpy(v.data() + o, p, n);
}
void Pad8(std::vector<uint8_t>& v) { v.resize((v.size() + 7) & ~size_t{7}, 0); }
template <typename T>
void Put(std::vector<uint8_t>& v, T x) {
  Append(v, &x, sizeof x);
}

// Hands a file's content to the callback in chunks (acldumpChunk layout:
// fileName[4096], bufLen, isLastChunk, offset, flag, data).
void DeliverChunks(Callback cb, const std::string& file, const std::vector<uint8_t>& bytes) {
  constexpr size_t kHeader = 4116, kChunkData = 1 << 20;
  size_t off = 0;
  do {
    const size_t n = std::min(kChunkData, bytes.size() - off);
    std::vector<uint8_t> chunk(kHeader + n + 4, 0);
    std::strncpy(reinterpret_cast<char*>(chunk.data()), file.c_str(), 4095);
    const uint32_t len = static_cast<uint32_t>(n);
    const uint32_t last = off + n >= bytes.size() ? 1 : 0;
    const int64_t offset = static_cast<int64_t>(off);
    const int32_t flag = 0;
    std::memcpy(chunk.data() + 4096, &len, 4);
    std::memcpy(chunk.data() + 4100, &last, 4);
    std::memcpy(chunk.data() + 4104, &offset, 8);
    std::memcpy(chunk.data() + 4112, &flag, 4);
    if (n) std::memcpy(chunk.data() + kHeader, bytes.data() + off, n);
    // The callback's len counts sizeof(acldumpChunk) (4120, padded) plus the data.
    int32_t rc = cb(chunk.data(), static_cast<int32_t>(4120 + n));
    if (rc != 0) SIMNPU_LOGW(kAscendcl, "dump callback returned %d for %s", rc, file.c_str());
    off += n;
  } while (off < bytes.size());
}

}  // namespace

int ParseConfig(const std::string& text, Config* out, std::string* why) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *why = "the \"dump\" item must be a JSON object";
    return kInvalidDumpConfig;
  }
  Config c;
  c.present = true;
  auto str = [&](const char* key, std::string* dst) -> bool {
    if (!j.contains(key)) return true;
    if (!j[key].is_string()) {
      *why = std::string("\"") + key + "\" must be a string";
      return false;
    }
    *dst = j[key].get<std::string>();
    return true;
  };
  std::string op_switch, debug, level = "op", step;
  if (!str("dump_path", &c.path) || !str("dump_mode", &c.mode) || !str("dump_op_switch", &op_switch) ||
      !str("dump_data", &c.data) || !str("dump_scene", &c.scene) || !str("dump_debug", &debug) ||
      !str("dump_level", &level) || !str("dump_step", &step))
    return kInvalidDumpConfig;
  if (c.mode != "input" && c.mode != "output" && c.mode != "all") {
    *why = "dump_mode must be input, output or all";
    return kInvalidDumpConfig;
  }
  if (!op_switch.empty() && op_switch != "on" && op_switch != "off") {
    *why = "dump_op_switch must be on or off";
    return kInvalidDumpConfig;
  }
  c.op_switch = op_switch == "on";
  if (!debug.empty() && debug != "on" && debug != "off") {
    *why = "dump_debug must be on or off";
    return kInvalidDumpConfig;
  }
  c.debug = debug == "on";
  if (c.data != "tensor" && c.data != "stats") {
    *why = "dump_data must be tensor or stats";
    return kInvalidDumpConfig;
  }
  if (level != "op" && level != "kernel" && level != "all") {
    *why = "dump_level must be op, kernel or all";
    return kInvalidDumpConfig;
  }
  if (!step.empty()) {
    size_t entries = 1;
    for (char ch : step) {
      if (ch == '|') ++entries;
      else if (!std::isdigit(static_cast<unsigned char>(ch)) && ch != '-') {
        *why = "dump_step holds steps and ranges separated by |";
        return kInvalidDumpConfig;
      }
    }
    if (entries > 100) {
      *why = "dump_step has more than 100 entries";
      return kInvalidDumpConfig;
    }
  }
  if (j.contains("dump_stats")) {
    static const char* kStats[] = {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm"};
    if (!j["dump_stats"].is_array()) {
      *why = "dump_stats must be an array";
      return kInvalidDumpConfig;
    }
    for (auto& s : j["dump_stats"]) {
      bool known = false;
      for (const char* k : kStats) known = known || (s.is_string() && s.get<std::string>() == k);
      if (!known) {
        *why = "dump_stats holds an unknown statistic";
        return kInvalidDumpConfig;
      }
    }
  }
  if (j.contains("dump_list")) {
    if (!j["dump_list"].is_array()) {
      *why = "dump_list must be an array";
      return kInvalidDumpConfig;
    }
    c.has_list = true;
    for (auto& m : j["dump_list"]) {
      if (!m.is_object()) {
        *why = "dump_list entries must be objects";
        return kInvalidDumpConfig;
      }
      if (m.contains("layer")) {
        if (!m["layer"].is_array()) {
          *why = "dump_list[].layer must be an array of op names";
          return kInvalidDumpConfig;
        }
        for (auto& l : m["layer"])
          if (l.is_string()) c.layers.push_back(l.get<std::string>());
      }
    }
  }
  static const char* kScenes[] = {"aic_err_brief_dump", "aic_err_norm_dump", "aic_err_detail_dump", "lite_exception",
                                  "watcher"};
  if (!c.scene.empty()) {
    bool known = false;
    for (const char* s : kScenes) known = known || c.scene == s;
    if (!known) {
      *why = "unknown dump_scene \"" + c.scene + "\"";
      return kInvalidDumpConfig;
    }
    if (c.scene == "lite_exception") c.scene = "aic_err_brief_dump";
  }
  if (c.exception() && (c.op_switch || c.debug || (c.has_list && !c.layers.empty()))) {
    *why = "exception dump cannot be combined with model, op or overflow dump";
    return kInvalidDumpConfig;
  }
  if (c.exception()) c.has_list = false;  // an empty dump_list beside a scene selects nothing
  if (c.scene == "watcher" && (c.path.empty() || c.mode != "output")) {
    *why = "watcher dump needs dump_path and dump_mode output";
    return kInvalidDumpConfig;
  }
  if (c.debug && (c.path.empty() || c.op_switch || c.has_list)) {
    *why = "overflow dump needs dump_path and excludes model and op dump";
    return kInvalidDumpConfig;
  }
  if (c.data_dump() && c.path.empty()) {
    *why = "model and op dump need dump_path";
    return kInvalidDumpConfig;
  }
  *out = c;
  return kOk;
}

int ConfigureFromInit(const Config& c) {
  std::lock_guard<std::mutex> g(S().mu);
  S().init = c;
  UpdateWantLocked();
  return kOk;
}

void ResetAll() {
  std::lock_guard<std::mutex> g(S().mu);
  S().init = Config();
  S().model = Config();
  S().model_init = false;
  S().args = false;
  S().args_path.clear();
  S().day.clear();
  UpdateWantLocked();
}

int ModelInit() {
  std::lock_guard<std::mutex> g(S().mu);
  if (S().model_init) return kRepeatInit;
  if (S().init.data_dump() || S().init.debug) return kDumpAlreadyRun;
  S().model_init = true;
  return kOk;
}

int ModelSetConfig(const Config& c) {
  std::lock_guard<std::mutex> g(S().mu);
  if (!S().model_init) return kDumpNotRun;
  S().model = c;
  UpdateWantLocked();
  return kOk;
}

int ModelFinalize() {
  std::lock_guard<std::mutex> g(S().mu);
  if (!S().model_init) return kDumpNotRun;
  S().model_init = false;
  S().model = Config();
  UpdateWantLocked();
  return kOk;
}

int StartArgs(const std::string& path) {
  if (!prof::MakeDirs(path)) return kFailure;
  std::lock_guard<std::mutex> g(S().mu);
  S().args = true;
  S().args_path = Absolute(path);
  UpdateWantLocked();
  return kOk;
}

void StopArgs() {
  std::lock_guard<std::mutex> g(S().mu);
  S().args = false;
  UpdateWantLocked();
}

void SetCallback(Callback cb) {
  std::lock_guard<std::mutex> g(S().mu);
  S().cb = cb;
  UpdateWantLocked();
}

static std::string ExceptionBaseLocked() {
  for (const char* env : {"NPU_COLLECT_PATH", "ASCEND_WORK_PATH"}) {
    auto v = platform::GetEnv(env);
    if (v && !v->empty()) return Absolute(*v);
  }
  const Config& c = ActiveLocked();
  return Absolute(c.path.empty() ? "." : c.path);
}

std::string PathFor(int type) {
  std::lock_guard<std::mutex> g(S().mu);
  const Config& c = ActiveLocked();
  if (type >= 1 && type <= 3) return c.exception() ? ExceptionBaseLocked() : std::string();
  if (type == 4) return c.data_dump() ? Absolute(c.path) : std::string();
  if (type == 5) return c.debug ? Absolute(c.path) : std::string();
  return std::string();
}

bool ExceptionEnabled() { return (Wanted() & kWantException) != 0; }

std::string ExceptionInfoDir(int device) {
  std::lock_guard<std::mutex> g(S().mu);
  if (!ActiveLocked().exception()) return std::string();
  return ExceptionBaseLocked() + "/extra-info/data-dump/" + std::to_string(device) + "/";
}

ScopedOpName::ScopedOpName(const char* name) : prev_(t_op_name) { t_op_name = name; }
ScopedOpName::~ScopedOpName() { t_op_name = prev_; }
const char* CurrentOpName() { return t_op_name; }

bool WantsKernel(const char* name, bool* inputs, bool* outputs) {
  if (!(Wanted() & kWantData)) return false;
  std::lock_guard<std::mutex> g(S().mu);
  const Config& c = ActiveLocked();
  if (!c.data_dump()) return false;
  if (!c.layers.empty()) {
    bool hit = false;
    for (const auto& l : c.layers) hit = hit || l == name;
    if (!hit) return false;
  }
  *inputs = c.mode != "output";
  *outputs = c.mode != "input";
  return true;
}

std::vector<uint8_t> Serialize(const KernelDump& d, bool exception) {
  nlohmann::json meta = {{"kernel", d.kernel},          {"block_dim", d.block_dim}, {"device", d.device},
                         {"stream", d.stream},          {"task", d.task},           {"timestamp_us", d.timestamp_us},
                         {"format", "simnpu-dump-1"}};
  if (exception) {
    meta["exception"] = true;
    meta["reason"] = d.reason;
    meta["failed_block"] = d.failed_block;
    meta["error_code"] = d.error_code;
  }
  const std::string m = meta.dump();
  size_t total = 32 + m.size() + d.args.size() + 24;
  for (const Tensor& t : d.tensors) total += 40 + t.data.size();
  std::vector<uint8_t> v;
  v.reserve(total);
  const char magic[8] = {'S', 'N', 'P', 'U', 'D', 'M', 'P', '1'};
  Append(v, magic, 8);
  Put<uint32_t>(v, 1);
  Put<uint32_t>(v, 32);
  Put<uint32_t>(v, static_cast<uint32_t>(m.size()));
  Put<uint32_t>(v, static_cast<uint32_t>(d.args.size()));
  Put<uint32_t>(v, static_cast<uint32_t>(d.tensors.size()));
  Put<uint32_t>(v, 0);
  Append(v, m.data(), m.size());
  Pad8(v);
  Append(v, d.args.data(), d.args.size());
  Pad8(v);
  for (const Tensor& t : d.tensors) {
    Put<uint32_t>(v, t.kind);
    Put<uint32_t>(v, t.arg_index);
    Put<uint64_t>(v, t.address);
    Put<uint64_t>(v, t.data.size());
    Put<uint32_t>(v, t.dtype);
    Put<uint32_t>(v, 0);
    Append(v, t.data.data(), t.data.size());
    Pad8(v);
  }
  return v;
}

std::string WriteData(const KernelDump& d) {
  std::string dir;
  Callback cb;
  uint64_t seq;
  {
    std::lock_guard<std::mutex> g(S().mu);
    const Config& c = ActiveLocked();
    if (S().day.empty()) S().day = Stamp();
    dir = Absolute(c.path) + "/" + S().day + "/" + std::to_string(d.device) + "/" + (c.has_list ? "model" : "op");
    cb = S().cb;
    seq = ++S().seq;
  }
  const std::string name = SafeName(d.kernel);
  const std::string file = dir + "/" + name + "." + name + "." + std::to_string(d.task) + "." +
                           std::to_string(d.stream) + "." + std::to_string(d.timestamp_us) + "." +
                           std::to_string(seq) + ".bin";
  const std::vector<uint8_t> bytes = Serialize(d, false);
  if (cb) {
    DeliverChunks(cb, file, bytes);  // the callback takes the data; nothing on disk
    return file;
  }
  if (!prof::MakeDirs(dir) || !WriteFile(file, bytes)) {
    SIMNPU_LOGE(kAscendcl, "dump: cannot write %s: %s", file.c_str(), std::strerror(errno));
    return std::string();
  }
  return file;
}

std::string WriteArgs(const KernelDump& d, const std::vector<uint64_t>& pointer_values) {
  std::string dir;
  uint64_t seq;
  {
    std::lock_guard<std::mutex> g(S().mu);
    if (!S().args) return std::string();
    dir = S().args_path;
    seq = ++S().seq;
  }
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : d.args) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  nlohmann::json ptrs = nlohmann::json::array();
  for (uint64_t p : pointer_values) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(p));
    ptrs.push_back(b);
  }
  nlohmann::json j = {{"kernel", d.kernel}, {"block_dim", d.block_dim}, {"device", d.device},
                      {"stream", d.stream}, {"task", d.task},           {"timestamp_us", d.timestamp_us},
                      {"args_size", d.args.size()}, {"args_hex", hex}, {"pointer_args", ptrs}};
  const std::string file = dir + "/" + SafeName(d.kernel) + "." + std::to_string(::getpid()) + "." +
                           std::to_string(seq) + ".args.json";
  const std::string text = j.dump(2) + "\n";
  if (!WriteFile(file, std::vector<uint8_t>(text.begin(), text.end()))) return std::string();
  return file;
}

std::string WriteException(const KernelDump& d) {
  const std::string dir = ExceptionInfoDir(d.device);
  if (dir.empty() || !prof::MakeDirs(dir)) return std::string();
  const std::string file =
      dir + SafeName(d.kernel) + ".exception." + std::to_string(d.timestamp_us) + "." + std::to_string(::getpid()) +
      ".bin";
  if (!WriteFile(file, Serialize(d, true))) return std::string();
  return file;
}

std::string WriteCustom(int device, const std::string& file_name, const std::string& tag, const KernelDump& d) {
  const std::string dir = ExceptionInfoDir(device);
  if (dir.empty() || !prof::MakeDirs(dir)) return std::string();
  KernelDump c = d;
  c.reason = tag;
  const std::string file = dir + file_name + ".custom." + std::to_string(NowUs() / 1000);
  if (!WriteFile(file, Serialize(c, true))) return std::string();
  return file;
}

}  // namespace simnpu::dfx::dump
