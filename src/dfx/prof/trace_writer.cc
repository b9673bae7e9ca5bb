// Chrome trace JSON and CSV summaries (see trace_writer.h).
#include "dfx/prof/trace_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace simnpu::dfx::prof {
namespace {

using trace::Capture;
using trace::Event;
using trace::Kind;

struct FileCloser {
  void operator()(FILE* f) const {
    if (f) std::fclose(f);
  }
};
using File = std::unique_ptr<FILE, FileCloser>;

// JSON string body (no quotes).
std::string Esc(const std::string& s) {
  std::string o;
  o.reserve(s.size() + 8);
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

// CSV field: quoted when it holds a separator or a quote.
std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

double Us(uint64_t ns) { return static_cast<double>(ns) / 1000.0; }
double RelUs(const Capture& c, uint64_t ts) { return ts >= c.start_ns ? Us(ts - c.start_ns) : 0.0; }

std::string Hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

int PidOf(int device) { return device < 0 ? kHostPid : kDevicePidBase + device; }
int PidOfLoc(int loc) { return loc == trace::kHostLoc ? kHostPid : kDevicePidBase + loc - 1; }
std::string LocName(int loc) { return loc == trace::kHostLoc ? "host" : "device " + std::to_string(loc - 1); }

const char* AccessName(uint64_t c) {
  switch (c) {
    case 0: return "read";
    case 1: return "write";
    case 2: return "write to a read-only replica";
    default: return "unknown";
  }
}


class ChromeOut {
 public:
  explicit ChromeOut(FILE* f) : f_(f) {}
  void Begin() { std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f_); }
  void Raw(const std::string& obj) {
    if (n_++) std::fputs(",\n", f_);
    std::fputs(obj.c_str(), f_);
  }
  void End(const std::string& other) {
    std::fprintf(f_, "\n],\"otherData\":%s}\n", other.c_str());
  }

 private:
  FILE* f_;
  size_t n_ = 0;
};

std::string Num(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

std::string Meta(const char* what, int pid, int64_t tid, const std::string& name) {
  std::string s = std::string("{\"ph\":\"M\",\"name\":\"") + what + "\",\"pid\":" + std::to_string(pid);
  if (tid >= 0) s += ",\"tid\":" + std::to_string(tid);
  return s + ",\"args\":{\"name\":\"" + Esc(name) + "\"}}";
}

std::string SortMeta(int pid, int64_t tid, int64_t index) {
  std::string s = "{\"ph\":\"M\",\"name\":\"" + std::string(tid >= 0 ? "thread_sort_index" : "process_sort_index") +
                  "\",\"pid\":" + std::to_string(pid);
  if (tid >= 0) s += ",\"tid\":" + std::to_string(tid);
  return s + ",\"args\":{\"sort_index\":" + std::to_string(index) + "}}";
}

}  // namespace

UvmTotals TotalUvm(const Capture& cap) {
  UvmTotals t;
  for (const Event& e : cap.events) {
    switch (e.kind) {
      case Kind::kUvmHostFault: ++t.host_faults; break;
      case Kind::kUvmDeviceFault:
        ++t.device_faults;
        t.device_fault_pages += e.b;
        break;
      case Kind::kUvmResidency: {
        const int from = static_cast<int>(e.d & 0xff), to = static_cast<int>((e.d >> 8) & 0xff);
        const bool moved = (e.d >> 24) & 1;
        const auto op = static_cast<trace::ResidencyOp>(e.c);
        if (op == trace::ResidencyOp::kMigrate || op == trace::ResidencyOp::kReplica) {
          if (from == trace::kHostLoc) t.bytes_h2d += e.b;
          else if (to == trace::kHostLoc) t.bytes_d2h += e.b;
          else t.bytes_d2d += e.b;
          if (moved) t.bytes_moved += e.b;
          if (op == trace::ResidencyOp::kReplica) t.bytes_replicated += e.b;
        } else if (op == trace::ResidencyOp::kPopulate) {
          (to == trace::kHostLoc ? t.bytes_populated_host : t.bytes_populated_device) += e.b;
        } else if (op == trace::ResidencyOp::kInvalidate) {
          t.bytes_invalidated += e.b;
        }
        break;
      }
      case Kind::kUvmEviction: ++t.evictions; break;
      case Kind::kUvmThrashing: ++t.thrashing_events; break;
      case Kind::kUvmAlloc: ++t.allocations; break;
      case Kind::kUvmFree: ++t.frees; break;
      default: break;
    }
  }
  return t;
}

bool WriteChromeTrace(const Capture& cap, const std::string& path, int os_pid) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) return false;
  ChromeOut out(f.get());
  out.Begin();

  // Lanes seen, for the metadata records.
  std::set<int> devices;
  std::set<std::pair<int, int64_t>> host_threads, streams;
  std::set<int> uvm_lanes;  // pids with a unified-memory lane
  bool host_uvm = false;
  std::vector<int64_t> resident(17, 0);
  const std::vector<uint64_t> base = trace::ResidentBaseline();
  for (size_t i = 0; i < base.size() && i < resident.size(); ++i) resident[i] = static_cast<int64_t>(base[i]);

  auto counter = [&](int loc, uint64_t ts) {
    out.Raw("{\"ph\":\"C\",\"name\":\"resident bytes\",\"pid\":" + std::to_string(PidOfLoc(loc)) +
            ",\"ts\":" + Num(RelUs(cap, ts)) + ",\"args\":{\"" + LocName(loc) + "\":" +
            std::to_string(std::max<int64_t>(0, resident[static_cast<size_t>(loc)])) + "}}");
  };
  for (size_t loc = 0; loc < resident.size(); ++loc)
    if (resident[loc] != 0) counter(static_cast<int>(loc), cap.start_ns);

  for (const Event& e : cap.events) {
    const std::string& name = cap.name(e.name);
    std::string ph = e.dur > 0 || e.kind == Kind::kApi || e.kind == Kind::kTask || e.kind == Kind::kKernel ||
                             e.kind == Kind::kCopy || e.kind == Kind::kMemset || e.kind == Kind::kTxRange ||
                             e.kind == Kind::kGraphReplay
                         ? "X"
                         : "i";
    int pid;
    int64_t tid;
    std::string cat, ev_name = name, args;
    switch (e.kind) {
      case Kind::kApi:
      case Kind::kTxMark:
      case Kind::kTxRange:
      case Kind::kTxStep:
        pid = kHostPid;
        tid = e.tid;
        break;
      case Kind::kCopy:
      case Kind::kMemset:
        if (e.stream >= 0 && e.device >= 0) {
          pid = PidOf(e.device);
          tid = e.stream;
        } else {
          pid = kHostPid;
          tid = e.tid;
        }
        break;
      case Kind::kTask:
      case Kind::kKernel:
      case Kind::kGraphReplay:
        pid = PidOf(e.device);
        tid = e.stream >= 0 ? e.stream : e.tid;
        break;
      case Kind::kUvmHostFault:
      case Kind::kUvmAlloc:
      case Kind::kUvmFree:
        pid = kHostPid;
        tid = kUvmTidBase;
        host_uvm = true;
        break;
      case Kind::kUvmResidency: {
        const int to = static_cast<int>((e.d >> 8) & 0xff);
        const int from = static_cast<int>(e.d & 0xff);
        const int lane_loc = static_cast<trace::ResidencyOp>(e.c) == trace::ResidencyOp::kInvalidate ? from : to;
        pid = PidOfLoc(lane_loc);
        tid = kUvmTidBase;
        if (pid == kHostPid) host_uvm = true;
        else uvm_lanes.insert(pid);
        break;
      }
      default:  // device UVM events
        pid = PidOf(e.device);
        tid = kUvmTidBase;
        if (pid == kHostPid) host_uvm = true;
        else uvm_lanes.insert(pid);
        break;
    }
    if (pid != kHostPid) devices.insert(pid - kDevicePidBase);
    if (pid == kHostPid && tid < kUvmTidBase) host_threads.insert({pid, tid});
    if (pid != kHostPid && tid < kUvmTidBase) streams.insert({pid, tid});

    switch (e.kind) {
      case Kind::kApi: cat = "AscendCL"; break;
      case Kind::kTask:
        cat = "task";
        args = "\"stream\":" + std::to_string(e.stream);
        break;
      case Kind::kKernel: {
        cat = "kernel";
        const double per = e.a ? Us(e.b) / static_cast<double>(e.a) : 0.0;
        args = "\"block dim\":" + std::to_string(e.a) + ",\"time per block (us)\":" + Num(per) +
               ",\"stream\":" + std::to_string(e.stream);
        break;
      }
      case Kind::kCopy:
        cat = "memcpy";
        args = "\"bytes\":" + std::to_string(e.a) + ",\"direction\":\"" + trace::CopyDirName(e.b) + "\"";
        break;
      case Kind::kMemset:
        cat = "memset";
        args = "\"bytes\":" + std::to_string(e.a) + ",\"value\":" + std::to_string(e.b);
        break;
      case Kind::kGraphReplay:
        cat = "graph";
        args = "\"model id\":" + std::to_string(e.a);
        break;
      case Kind::kTxMark:
      case Kind::kTxRange:
        cat = "msproftx";
        args = "\"domain\":\"" + Esc(e.a ? cap.name(static_cast<uint32_t>(e.a)) : std::string("default")) + "\"";
        break;
      case Kind::kTxStep:
        cat = "msproftx";
        ev_name = e.a == 0 ? "step start" : "step end";
        args = "\"step\":" + std::to_string(e.b);
        break;
      case Kind::kUvmHostFault:
        cat = "uvm";
        ev_name = "host fault";
        args = "\"address\":\"" + Hex(e.a) + "\",\"bytes\":" + std::to_string(e.b) + ",\"access\":\"" +
               AccessName(e.c) + "\",\"cause\":\"host fault\"";
        break;
      case Kind::kUvmDeviceFault:
        cat = "uvm";
        ev_name = "device fault";
        args = "\"address\":\"" + Hex(e.a) + "\",\"pages\":" + std::to_string(e.b) + ",\"access\":\"" +
               AccessName(e.c) + "\",\"device\":" + std::to_string(e.device) + ",\"cause\":\"device fault\"";
        break;
      case Kind::kUvmResidency: {
        cat = "uvm";
        const int from = static_cast<int>(e.d & 0xff), to = static_cast<int>((e.d >> 8) & 0xff);
        const int cause = static_cast<int>((e.d >> 16) & 0xff);
        const bool moved = (e.d >> 24) & 1;
        ev_name = trace::ResidencyOpName(e.c);
        args = "\"address\":\"" + Hex(e.a) + "\",\"bytes\":" + std::to_string(e.b) + ",\"from\":\"" +
               LocName(from) + "\",\"to\":\"" + LocName(to) + "\",\"cause\":\"" + trace::UvmCauseName(cause) +
               "\"";
        if (static_cast<trace::ResidencyOp>(e.c) == trace::ResidencyOp::kMigrate)
          args += std::string(",\"method\":\"") + (moved ? "moved" : "copied") + "\"";
        break;
      }
      case Kind::kUvmEviction:
        cat = "uvm";
        ev_name = "eviction";
        args = "\"block\":\"" + Hex(e.a) + "\",\"device\":" + std::to_string(e.device);
        break;
      case Kind::kUvmThrashing:
        cat = "uvm";
        ev_name = e.b == 3 ? "thrashing: pin" : e.b == 2 ? "thrashing: throttle" : "thrashing";
        args = "\"block\":\"" + Hex(e.a) + "\"";
        break;
      case Kind::kUvmAlloc:
      case Kind::kUvmFree:
        cat = "uvm";
        ev_name = e.kind == Kind::kUvmAlloc ? "managed alloc" : "managed free";
        args = "\"address\":\"" + Hex(e.a) + "\",\"bytes\":" + std::to_string(e.b);
        break;
    }
    std::string obj = "{\"ph\":\"" + ph + "\",\"cat\":\"" + cat + "\",\"name\":\"" + Esc(ev_name) +
                      "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                      ",\"ts\":" + Num(RelUs(cap, e.ts));
    if (ph == "X") obj += ",\"dur\":" + Num(Us(e.dur));
    else obj += ",\"s\":\"t\"";
    if (!args.empty()) obj += ",\"args\":{" + args + "}";
    obj += "}";
    out.Raw(obj);

    if (e.kind == Kind::kUvmResidency) {
      const int from = static_cast<int>(e.d & 0xff), to = static_cast<int>((e.d >> 8) & 0xff);
      const auto op = static_cast<trace::ResidencyOp>(e.c);
      const int64_t b = static_cast<int64_t>(e.b);
      if (to < 17 && op != trace::ResidencyOp::kInvalidate) {
        resident[static_cast<size_t>(to)] += b;
        counter(to, e.ts);
      }
      if (from < 17 && (op == trace::ResidencyOp::kMigrate || op == trace::ResidencyOp::kInvalidate)) {
        resident[static_cast<size_t>(from)] -= b;
        counter(from, e.ts);
      }
    }
  }

  // Names of the tracks.
  out.Raw(Meta("process_name", kHostPid, -1, "Host (pid " + std::to_string(os_pid) + ")"));
  out.Raw(SortMeta(kHostPid, -1, 0));
  for (auto& [pid, tid] : host_threads)
    out.Raw(Meta("thread_name", pid, tid,
                 tid == os_pid ? "main thread (" + std::to_string(tid) + ")" : "thread " + std::to_string(tid)));
  if (host_uvm) {
    out.Raw(Meta("thread_name", kHostPid, kUvmTidBase, "unified memory (host)"));
    out.Raw(SortMeta(kHostPid, kUvmTidBase, 1 << 30));
  }
  for (int d : devices) {
    out.Raw(Meta("process_name", kDevicePidBase + d, -1, "NPU " + std::to_string(d)));
    out.Raw(SortMeta(kDevicePidBase + d, -1, 1 + d));
  }
  for (auto& [pid, tid] : streams) {
    out.Raw(Meta("thread_name", pid, tid, "stream " + std::to_string(tid)));
    out.Raw(SortMeta(pid, tid, tid));
  }
  for (int pid : uvm_lanes) {
    out.Raw(Meta("thread_name", pid, kUvmTidBase, "unified memory"));
    out.Raw(SortMeta(pid, kUvmTidBase, 1 << 30));
  }
  out.End("{\"producer\":\"simnpu\",\"session_us\":" + Num(Us(cap.stop_ns - cap.start_ns)) +
          ",\"dropped_events\":" + std::to_string(cap.dropped) + "}");
  if (std::ferror(f.get())) return false;
  return std::fclose(f.release()) == 0;
}

namespace {

struct Stat {
  uint64_t count = 0, total = 0, min = UINT64_MAX, max = 0;
  void Add(uint64_t d) {
    ++count;
    total += d;
    min = std::min(min, d);
    max = std::max(max, d);
  }
};

bool WriteStats(const std::string& path, const char* first_cols, const std::string& level,
                const std::map<std::string, Stat>& stats) {
  File f(std::fopen(path.c_str(), "w"));
  if (!f) return false;
  std::fprintf(f.get(), "%sName,Count,Total Time(us),Avg Time(us),Min Time(us),Max Time(us)\n", first_cols);
  // Most expensive first, as msprof sorts its statistics.
  std::vector<std::pair<std::string, Stat>> rows(stats.begin(), stats.end());
  std::stable_sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.second.total > b.second.total; });
  for (auto& [name, s] : rows) {
    std::fprintf(f.get(), "%s%s,%" PRIu64 ",%.3f,%.3f,%.3f,%.3f\n", level.c_str(), Csv(name).c_str(), s.count,
                 Us(s.total), Us(s.total) / static_cast<double>(s.count), Us(s.min), Us(s.max));
  }
  return std::fclose(f.release()) == 0;
}

}  // namespace

bool WriteCsvSummaries(const Capture& cap, const std::string& dir, const std::string& suffix) {
  bool ok = true;
  {
    File f(std::fopen((dir + "/op_summary" + suffix).c_str(), "w"));
    if (!f) return false;
    std::fprintf(f.get(),
                 "Device_id,Stream ID,Op Name,Task Type,Task Start Time(us),Task Duration(us),Block Dim,"
                 "Time Per Block(us)\n");
    for (const Event& e : cap.events) {
      if (e.kind != Kind::kKernel) continue;
      std::fprintf(f.get(), "%d,%d,%s,AI_CORE,%.3f,%.3f,%" PRIu64 ",%.3f\n", e.device, e.stream,
                   Csv(cap.name(e.name)).c_str(), RelUs(cap, e.ts), Us(e.dur), e.a,
                   e.a ? Us(e.b) / static_cast<double>(e.a) : 0.0);
    }
    ok = std::fclose(f.release()) == 0 && ok;
  }
  {
    File f(std::fopen((dir + "/task_time" + suffix).c_str(), "w"));
    if (!f) return false;
    std::fprintf(f.get(), "Device_id,Stream ID,Task Name,Task Type,Task Start Time(us),Task Duration(us),Bytes\n");
    for (const Event& e : cap.events) {
      const bool stream_task = (e.kind == Kind::kTask || e.kind == Kind::kKernel || e.kind == Kind::kCopy ||
                                e.kind == Kind::kMemset || e.kind == Kind::kGraphReplay) &&
                               e.stream >= 0;
      if (!stream_task) continue;
      const char* type = e.kind == Kind::kKernel ? "kernel"
                         : e.kind == Kind::kCopy ? "memcpy"
                         : e.kind == Kind::kMemset ? "memset"
                         : e.kind == Kind::kGraphReplay ? "graph replay"
                                                        : "task";
      const uint64_t bytes = (e.kind == Kind::kCopy || e.kind == Kind::kMemset) ? e.a : 0;
      std::fprintf(f.get(), "%d,%d,%s,%s,%.3f,%.3f,%" PRIu64 "\n", e.device, e.stream, Csv(cap.name(e.name)).c_str(),
                   type, RelUs(cap, e.ts), Us(e.dur), bytes);
    }
    ok = std::fclose(f.release()) == 0 && ok;
  }
  std::map<std::string, Stat> ops, apis;
  for (const Event& e : cap.events) {
    if (e.kind == Kind::kKernel) ops[cap.name(e.name)].Add(e.dur);
    if (e.kind == Kind::kApi) apis[cap.name(e.name)].Add(e.dur);
  }
  ok = WriteStats(dir + "/op_statistic" + suffix, "", "", ops) && ok;
  ok = WriteStats(dir + "/api_statistic" + suffix, "Level,", "AscendCL,", apis) && ok;
  {
    File f(std::fopen((dir + "/uvm_summary" + suffix).c_str(), "w"));
    if (!f) return false;
    const UvmTotals t = TotalUvm(cap);
    std::fprintf(f.get(), "Metric,Value\n");
    const std::pair<const char*, uint64_t> rows[] = {
        {"host_faults", t.host_faults},
        {"device_faults", t.device_faults},
        {"device_fault_pages", t.device_fault_pages},
        {"bytes_h2d", t.bytes_h2d},
        {"bytes_d2h", t.bytes_d2h},
        {"bytes_d2d", t.bytes_d2d},
        {"bytes_moved_without_copy", t.bytes_moved},
        {"bytes_replicated", t.bytes_replicated},
        {"bytes_populated_host", t.bytes_populated_host},
        {"bytes_populated_device", t.bytes_populated_device},
        {"bytes_invalidated", t.bytes_invalidated},
        {"evictions", t.evictions},
        {"thrashing_events", t.thrashing_events},
        {"managed_allocations", t.allocations},
        {"managed_frees", t.frees},
    };
    for (auto& [k, v] : rows) std::fprintf(f.get(), "%s,%" PRIu64 "\n", k, v);
    ok = std::fclose(f.release()) == 0 && ok;
  }
  return ok;
}

}  // namespace simnpu::dfx::prof
