// Shared helpers of the simnpu benchmarks: the clock, result records (one
// JSON object per line on stdout, read by bench/bench.py), huge-page
// buffers, a team of persistent threads, and command-line parsing.
//
// Every benchmark binary prints records of the form
//   {"id": "...", "unit": "...", "what": "...", "samples": [..], "info": {..}}
// one per line; anything else on stdout is ignored by the driver. A sample is
// one timed batch; the driver reports the median, min and max over samples.
// Header-only, C++17, no dependency besides libc, pthreads and the runtime's
// own header-only src/platform/clock.h (spin and relax primitives, included
// from this source tree so both the in-tree and the project build get it).
#ifndef SIMNPU_BENCH_COMMON_H_
#define SIMNPU_BENCH_COMMON_H_

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../../src/platform/clock.h"

namespace simnpu_bench {

constexpr size_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;
constexpr size_t kPage = 4096;
constexpr size_t kHuge = 2 * kMiB;

[[noreturn]] inline void Die(const char* what) {
  std::fprintf(stderr, "bench: fatal: %s (%s)\n", what, errno ? std::strerror(errno) : "no errno");
  std::exit(2);
}

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The runtime's pause (x86 pause, arm64 yield, nothing elsewhere).
using ::simnpu::platform::CpuRelax;

// Keeps the compiler from dropping a computed value.
template <class T>
inline void Keep(const T& v) {
  asm volatile("" : : "r,m"(v) : "memory");
}

inline double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// "64M" -> 67108864; K, M, G suffixes (powers of 1024).
inline size_t ParseSize(const std::string& s) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  switch (end && *end ? *end : 0) {
    case 'k': case 'K': v <<= 10; break;
    case 'm': case 'M': v <<= 20; break;
    case 'g': case 'G': v <<= 30; break;
    default: break;
  }
  return static_cast<size_t>(v);
}

inline std::string SizeName(size_t n) {
  char b[32];
  if (n >= kGiB && n % kGiB == 0) std::snprintf(b, sizeof b, "%zuGiB", n / kGiB);
  else if (n >= kMiB && n % kMiB == 0) std::snprintf(b, sizeof b, "%zuMiB", n / kMiB);
  else if (n >= kKiB && n % kKiB == 0) std::snprintf(b, sizeof b, "%zuKiB", n / kKiB);
  else std::snprintf(b, sizeof b, "%zuB", n);
  return b;
}

inline std::vector<size_t> ParseSizes(const std::string& list) {
  std::vector<size_t> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    if (comma > pos) out.push_back(ParseSize(list.substr(pos, comma - pos)));
    pos = comma + 1;
  }
  return out;
}

// --key value / --flag arguments after the sub-command.
class Args {
 public:
  Args(int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i) {
      std::string k = argv[i];
      if (k.rfind("--", 0) != 0) continue;
      std::string v = (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) ? argv[++i] : "1";
      kv_.emplace_back(k.substr(2), v);
    }
  }
  std::string Get(const std::string& k, const std::string& dflt) const {
    for (const auto& p : kv_)
      if (p.first == k) return p.second;
    return dflt;
  }
  long Int(const std::string& k, long dflt) const { return std::atol(Get(k, std::to_string(dflt)).c_str()); }
  size_t Size(const std::string& k, size_t dflt) const {
    std::string v = Get(k, "");
    return v.empty() ? dflt : ParseSize(v);
  }

 private:
  std::vector<std::pair<std::string, std::string>> kv_;
};

// A JSON object under construction ({"k": v, ...}).
class Info {
 public:
  Info& Add(const std::string& k, double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return Raw(k, b);
  }
  Info& Add(const std::string& k, uint64_t v) { return Raw(k, std::to_string(v)); }
  Info& Add(const std::string& k, int v) { return Raw(k, std::to_string(v)); }
  Info& Add(const std::string& k, bool v) { return Raw(k, v ? "true" : "false"); }
  Info& Add(const std::string& k, const std::string& v) { return Raw(k, Quote(v)); }
  Info& Add(const std::string& k, const char* v) { return Raw(k, Quote(v)); }
  Info& Raw(const std::string& k, const std::string& json) {
    body_ += (body_.empty() ? "" : ", ") + Quote(k) + ": " + json;
    return *this;
  }
  std::string Json() const { return "{" + body_ + "}"; }
  static std::string Quote(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') o += '\\';
      if (static_cast<unsigned char>(c) < 0x20) {
        o += ' ';
        continue;
      }
      o += c;
    }
    return o + "\"";
  }

 private:
  std::string body_;
};

// Prints one record line. Samples are in `unit`.
inline void Emit(const std::string& id, const std::string& unit, const std::string& what,
                 const std::vector<double>& samples, const Info& info = Info()) {
  std::string s;
  for (double v : samples) {
    char b[48];
    std::snprintf(b, sizeof b, "%s%.6g", s.empty() ? "" : ", ", v);
    s += b;
  }
  std::printf("{\"id\": %s, \"unit\": %s, \"what\": %s, \"samples\": [%s], \"info\": %s}\n",
              Info::Quote(id).c_str(), Info::Quote(unit).c_str(), Info::Quote(what).c_str(), s.c_str(),
              info.Json().c_str());
  std::fflush(stdout);
}

// A failed check: printed as a record the driver shows as an error.
inline void EmitError(const std::string& id, const std::string& message) {
  std::printf("{\"id\": %s, \"error\": %s}\n", Info::Quote(id).c_str(), Info::Quote(message).c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "bench: %s: %s\n", id.c_str(), message.c_str());
}

// Anonymous memory, 2 MiB aligned, transparent huge pages requested, and
// (optionally) written once so every page is present before timing.
class HugeBuffer {
 public:
  HugeBuffer() = default;
  explicit HugeBuffer(size_t n, bool prefault = true) { Allocate(n, prefault); }
  ~HugeBuffer() { Release(); }
  HugeBuffer(const HugeBuffer&) = delete;
  HugeBuffer& operator=(const HugeBuffer&) = delete;

  void Allocate(size_t n, bool prefault = true) {
    Release();
    size_ = (n + kHuge - 1) / kHuge * kHuge;
    map_size_ = size_ + kHuge;
    void* m = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) Die("mmap");
    map_ = static_cast<char*>(m);
    p_ = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(map_) + kHuge - 1) & ~(kHuge - 1));
    madvise(p_, size_, MADV_HUGEPAGE);
    if (prefault) std::memset(p_, 0, size_);
  }
  void Release() {
    if (map_) munmap(map_, map_size_);
    map_ = p_ = nullptr;
    size_ = map_size_ = 0;
  }
  char* data() const { return p_; }
  size_t size() const { return size_; }

 private:
  char* map_ = nullptr;
  char* p_ = nullptr;
  size_t size_ = 0, map_size_ = 0;
};

// n persistent threads (the caller is member 0) that run one function
// together; Run returns when every member has finished. Helpers spin while
// waiting for work, so a Team should only live during a measurement.
class Team {
 public:
  explicit Team(int n) : n_(n < 1 ? 1 : n) {
    for (int i = 1; i < n_; ++i) threads_.emplace_back([this, i] { Loop(i); });
  }
  ~Team() {
    stop_.store(true);
    gen_.fetch_add(1);
    for (auto& t : threads_) t.join();
  }
  int size() const { return n_; }
  void Run(const std::function<void(int, int)>& fn) {
    fn_ = &fn;
    left_.store(n_ - 1, std::memory_order_relaxed);
    gen_.fetch_add(1, std::memory_order_release);
    fn(0, n_);
    while (left_.load(std::memory_order_acquire) > 0) CpuRelax();
  }

 private:
  void Loop(int me) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t g;
      while ((g = gen_.load(std::memory_order_acquire)) == seen) CpuRelax();
      seen = g;
      if (stop_.load()) return;
      (*fn_)(me, n_);
      left_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
  int n_;
  std::vector<std::thread> threads_;
  const std::function<void(int, int)>* fn_ = nullptr;
  std::atomic<uint64_t> gen_{0};
  std::atomic<int> left_{0};
  std::atomic<bool> stop_{false};
};

// [begin, end) of part `i` of `n` when `total` items are split evenly, in
// units of `align` items.
inline void Split(size_t total, int i, int n, size_t align, size_t* begin, size_t* end) {
  size_t units = (total + align - 1) / align;
  *begin = std::min(total, units * static_cast<size_t>(i) / static_cast<size_t>(n) * align);
  *end = std::min(total, units * static_cast<size_t>(i + 1) / static_cast<size_t>(n) * align);
}

inline int HardwareThreads() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

// The threads the simulated device runs kernel blocks on: the machine's
// hardware threads, or SIMNPU_AICORE_THREADS when that is 1..cores (as the
// runtime's block scheduler reads it).
inline int DeviceThreads() {
  int cores = HardwareThreads();
  if (const char* e = std::getenv("SIMNPU_AICORE_THREADS")) {
    int v = std::atoi(e);
    if (v >= 1 && v <= cores) return v;
  }
  return cores;
}

}  // namespace simnpu_bench

#endif  // SIMNPU_BENCH_COMMON_H_
