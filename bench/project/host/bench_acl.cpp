// bench_acl: benchmarks of simnpu through the ACL API, as a CANN user
// program sees it (libacl_rt.so + kernels built with ascendc.cmake).
//
//   prefetch  aclrtMemManagedPrefetchAsync + aclrtSynchronizeStream bandwidth,
//             host -> device and device -> host, over several sizes
//   ondemand  migration by faults: host reads of device-resident data (one
//             byte per 4 KiB, and everything), and a kernel streaming over
//             host-resident data (DataCopy tiles)
//   fault     latency of isolated 4 KiB host faults on device-resident pages
//             (run with SIMNPU_UVM_FAULT_GRANULE=4K)
//   launch    empty-kernel launch latency (launch + synchronize) and
//             throughput (many launches, one synchronize)
//   vadd      Ascend C vector add, half and float, in aclrtMalloc memory
//   sample    z = x + y in half as the managed-memory sample does it (host
//             writes x and y, kernel, host reads z): managed memory, or
//             explicit copies (--mode managed|explicit)
//   oversub   a kernel sweeping a managed working set twice, meant to run with
//             a small SIMNPU_DEVICE_MEMORY (oversubscription)
//
// Each sub-command prints JSON records (bench_common.h) with the unified-
// memory counters that show what happened (simnpu/uvm.h).
#include <cinttypes>
#include <cmath>

#include "acl/acl.h"
#include "aclrtlaunch_add_one_float.h"
#include "aclrtlaunch_empty_kernel.h"
#include "aclrtlaunch_stream_read.h"
#include "aclrtlaunch_vadd_float.h"
#include "aclrtlaunch_vadd_half.h"
#include "bench_common.h"
#include "limits_core.h"
#include "patterns.h"
#include "simnpu/uvm.h"

namespace sb = simnpu_bench;
namespace bp = bench_patterns;
using sb::Emit;
using sb::Info;

namespace {

#define ACL_CHECK(expr)                                                                                    \
  do {                                                                                                     \
    aclError e_ = (expr);                                                                                  \
    if (e_ != ACL_SUCCESS) {                                                                               \
      const char* m_ = aclGetRecentErrMsg();                                                               \
      std::fprintf(stderr, "bench_acl: %s failed with %d at line %d: %s\n", #expr, static_cast<int>(e_), \
                   __LINE__, m_ ? m_ : "");                                                                \
      std::printf("{\"id\": \"acl\", \"error\": \"%s failed with %d\"}\n", #expr, static_cast<int>(e_));    \
      std::exit(3);                                                                                        \
    }                                                                                                      \
  } while (0)

#define LAUNCH_CHECK(expr)                                                                          \
  do {                                                                                              \
    uint32_t r_ = (expr);                                                                           \
    if (r_ != 0) {                                                                                  \
      std::fprintf(stderr, "bench_acl: launch %s failed with %u at line %d\n", #expr, r_, __LINE__); \
      std::exit(3);                                                                                 \
    }                                                                                               \
  } while (0)

aclrtStream g_stream = nullptr;
const aclrtMemManagedLocation kDevice = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
const aclrtMemManagedLocation kHostLoc = {ACL_MEM_LOCATIONTYPE_HOST, 0};
constexpr uint32_t kTile = 8192;  // elements per DataCopy tile

void Setup() {
  ACL_CHECK(aclInit(nullptr));
  ACL_CHECK(aclrtSetDevice(0));
  ACL_CHECK(aclrtCreateStream(&g_stream));
}

void Teardown() {
  aclrtDestroyStream(g_stream);
  aclrtResetDevice(0);
  aclFinalize();
}

// ---- counters

simnpu_uvm_counters Counters() {
  simnpu_uvm_counters c;
  std::memset(&c, 0, sizeof c);
  c.version = SIMNPU_UVM_COUNTERS_VERSION;
  if (simnpu_uvm_get_counters(&c, sizeof c) != 0) std::fprintf(stderr, "bench_acl: cannot read the UVM counters\n");
  return c;
}

#define BENCH_COUNTER_FIELDS(X)                                                                      \
  X(host_faults) X(host_faults_first_touch) X(host_faults_migrate) X(device_faults)                 \
  X(device_faults_migrate) X(device_fault_pages) X(pages_h2d) X(bytes_h2d) X(pages_d2h) X(bytes_d2h) \
  X(blocks_moved) X(copy_fallbacks) X(prefetch_pages) X(density_expansions) X(thrashing_events)     \
  X(throttles) X(pins) X(evictions) X(bytes_evicted) X(remote_maps) X(read_duplicates)

struct Delta {
#define BENCH_DECL(f) uint64_t f = 0;
  BENCH_COUNTER_FIELDS(BENCH_DECL)
#undef BENCH_DECL
  void Add(const simnpu_uvm_counters& a, const simnpu_uvm_counters& b) {
#define BENCH_ADD(f) f += b.f - a.f;
    BENCH_COUNTER_FIELDS(BENCH_ADD)
#undef BENCH_ADD
  }
  // Counters per sample (divided by n), non-zero ones only.
  Info Json(int n) const {
    Info i;
#define BENCH_JSON(f) \
  if (f) i.Add(#f, static_cast<double>(f) / n);
    BENCH_COUNTER_FIELDS(BENCH_JSON)
#undef BENCH_JSON
    return i;
  }
};

bool UffdMode() {
  const char* why = nullptr;
  int m = simnpu_uvm_mode(&why);
  if (m != 1) {
    sb::EmitError("uvm", std::string("managed memory is in host-pinned mode: ") + (why ? why : "?"));
    return false;
  }
  return true;
}

void* AllocManaged(size_t n) {
  void* p = nullptr;
  ACL_CHECK(aclrtMemAllocManaged(&p, n, ACL_RT_MEM_ATTACH_GLOBAL));
  return p;
}

void Prefetch(const void* p, size_t n, aclrtMemManagedLocation loc) {
  ACL_CHECK(aclrtMemManagedPrefetchAsync(p, n, loc, 0, g_stream));
  ACL_CHECK(aclrtSynchronizeStream(g_stream));
}

double Gbs(size_t bytes, uint64_t ns) { return static_cast<double>(bytes) / static_cast<double>(ns); }

// Sum of one byte per 4 KiB page, or of every 8-byte word.
uint64_t TouchPages(const char* p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i += sb::kPage) s += static_cast<unsigned char>(*static_cast<const volatile char*>(p + i));
  return s;
}
uint64_t ReadAll(const char* p, size_t n) {
  const uint64_t* w = reinterpret_cast<const uint64_t*>(p);
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t i = 0; i + 4 <= n / 8; i += 4) {
    s0 += w[i];
    s1 += w[i + 1];
    s2 += w[i + 2];
    s3 += w[i + 3];
  }
  return s0 + s1 + s2 + s3;
}

// ------------------------------------------------------------------ prefetch

// Read-mostly replicas: a copy is unavoidable (both sides keep the data).
// h2d: host-resident data prefetched to the device becomes a device replica;
// d2h: device-resident data prefetched to the host becomes a host replica.
// Between samples UNSET_READ_MOSTLY collapses the replicas again (not timed).
void BenchPrefetchReplica(const sb::Args& args, int reps) {
  for (size_t size : sb::ParseSizes(args.Get("sizes", "64M,256M"))) {
    char* p = static_cast<char*>(AllocManaged(size));
    std::memset(p, 0x5a, size);
    std::vector<double> h2d, d2h;
    Delta dh, dd;
    for (int r = 0; r < reps; ++r) {
      ACL_CHECK(aclrtMemManagedAdvise(p, size, ACL_MEM_ADVISE_SET_READ_MOSTLY, kHostLoc));
      simnpu_uvm_counters c0 = Counters();
      uint64_t t0 = sb::NowNs();
      Prefetch(p, size, kDevice);
      uint64_t t1 = sb::NowNs();
      simnpu_uvm_counters c1 = Counters();
      h2d.push_back(Gbs(size, t1 - t0));
      dh.Add(c0, c1);
      // collapse to a single copy on the device, then replicate to the host
      ACL_CHECK(aclrtMemManagedAdvise(p, size, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, kDevice));
      ACL_CHECK(aclrtMemManagedAdvise(p, size, ACL_MEM_ADVISE_SET_READ_MOSTLY, kHostLoc));
      c1 = Counters();
      t1 = sb::NowNs();
      Prefetch(p, size, kHostLoc);
      uint64_t t2 = sb::NowNs();
      simnpu_uvm_counters c2 = Counters();
      d2h.push_back(Gbs(size, t2 - t1));
      dd.Add(c1, c2);
      ACL_CHECK(aclrtMemManagedAdvise(p, size, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, kHostLoc));
    }
    for (size_t i = 0; i < size; i += 4096 - 64)
      if (static_cast<unsigned char>(p[i]) != 0x5a) {
        sb::EmitError("prefetch.replica", "data changed at offset " + std::to_string(i));
        break;
      }
    const uint64_t blocks = size / sb::kHuge;
    Emit("prefetch.h2d.replica." + sb::SizeName(size), "GB/s",
         "aclrtMemManagedPrefetchAsync host->device of a read-mostly range: the device gets a replica (a copy), " +
             sb::SizeName(size),
         h2d, dh.Json(reps).Add("blocks", blocks).Add("size", static_cast<uint64_t>(size)));
    Emit("prefetch.d2h.replica." + sb::SizeName(size), "GB/s",
         "aclrtMemManagedPrefetchAsync device->host of a read-mostly range: the host gets a replica (a copy), " +
             sb::SizeName(size),
         d2h, dd.Json(reps).Add("blocks", blocks).Add("size", static_cast<uint64_t>(size)));
    ACL_CHECK(aclrtFree(p));
  }
}

void BenchPrefetch(const sb::Args& args) {
  if (!UffdMode()) return;
  const int reps = static_cast<int>(args.Int("reps", 7));
  const std::string tag = args.Get("tag", "move");
  const bool partial = tag == "partial";
  if (tag == "replica") {
    BenchPrefetchReplica(args, reps);
    return;
  }
  for (size_t size : sb::ParseSizes(args.Get("sizes", "64M,256M,1G"))) {
    char* p = static_cast<char*>(AllocManaged(size));
    std::memset(p, 0x5a, size);  // first touch on the host
    Prefetch(p, size, kDevice);  // warm-up round trip
    Prefetch(p, size, kHostLoc);
    std::vector<double> h2d, d2h;
    Delta dh, dd;
    for (int r = 0; r < reps; ++r) {
      // partial: the first page of every block is already at the destination,
      // so no block can move whole and the rest is copied (the engine's copy path).
      if (partial)
        for (size_t b = 0; b < size; b += sb::kHuge) Prefetch(p + b, sb::kPage, kDevice);
      simnpu_uvm_counters c0 = Counters();
      uint64_t t0 = sb::NowNs();
      Prefetch(p, size, kDevice);
      uint64_t t1 = sb::NowNs();
      simnpu_uvm_counters c1 = Counters();
      h2d.push_back(Gbs(size, t1 - t0));
      dh.Add(c0, c1);
      if (partial)
        for (size_t b = 0; b < size; b += sb::kHuge) Prefetch(p + b, sb::kPage, kHostLoc);
      c1 = Counters();
      t1 = sb::NowNs();
      Prefetch(p, size, kHostLoc);
      uint64_t t2 = sb::NowNs();
      simnpu_uvm_counters c2 = Counters();
      d2h.push_back(Gbs(size, t2 - t1));
      dd.Add(c1, c2);
    }
    // The data must have survived the round trips.
    for (size_t i = 0; i < size; i += 4096 - 64)
      if (static_cast<unsigned char>(p[i]) != 0x5a) {
        sb::EmitError("prefetch." + tag, "data changed at offset " + std::to_string(i));
        break;
      }
    const uint64_t blocks = size / sb::kHuge;
    Emit("prefetch.h2d." + tag + "." + sb::SizeName(size), "GB/s",
         "aclrtMemManagedPrefetchAsync host->device + aclrtSynchronizeStream, " + sb::SizeName(size) +
             " written by the host (" + tag + (partial ? ": first page of each block already on the device" : "") + ")",
         h2d, dh.Json(reps).Add("blocks", blocks).Add("size", static_cast<uint64_t>(size)));
    Emit("prefetch.d2h." + tag + "." + sb::SizeName(size), "GB/s",
         "aclrtMemManagedPrefetchAsync device->host + aclrtSynchronizeStream, " + sb::SizeName(size) + " (" + tag +
             (partial ? ": first page of each block already on the host" : "") + ")",
         d2h, dd.Json(reps).Add("blocks", blocks).Add("size", static_cast<uint64_t>(size)));
    ACL_CHECK(aclrtFree(p));
  }
}

// ------------------------------------------------------------------ on-demand migration

void BenchOnDemand(const sb::Args& args) {
  if (!UffdMode()) return;
  const int reps = static_cast<int>(args.Int("reps", 5));
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 48));
  for (size_t size : sb::ParseSizes(args.Get("sizes", "256M"))) {
    const std::string sz = sb::SizeName(size);
    char* p = static_cast<char*>(AllocManaged(size));
    float* f = reinterpret_cast<float*>(p);
    const uint64_t n = size / sizeof(float);
    for (uint64_t i = 0; i < n; ++i) f[i] = 1.0f;

    // Device -> host: host reads of device-resident data.
    for (int mode = 0; mode < 2; ++mode) {
      std::vector<double> gbs;
      Delta d;
      uint64_t sum = 0;
      for (int r = 0; r <= reps; ++r) {
        Prefetch(p, size, kDevice);
        simnpu_uvm_counters c0 = Counters();
        uint64_t t0 = sb::NowNs();
        sum += mode == 0 ? TouchPages(p, size) : ReadAll(p, size);
        uint64_t t1 = sb::NowNs();
        simnpu_uvm_counters c1 = Counters();
        if (r == 0) continue;
        gbs.push_back(Gbs(size, t1 - t0));
        d.Add(c0, c1);
      }
      sb::Keep(sum);
      Emit(std::string("ondemand.d2h.") + (mode == 0 ? "touch4k." : "readall.") + sz, "GB/s",
           std::string("host reads device-resident managed memory sequentially (") +
               (mode == 0 ? "one byte per 4 KiB" : "every byte") + "); pages migrate by host faults; " + sz,
           gbs, d.Json(reps).Add("blocks", static_cast<uint64_t>(size / sb::kHuge)));
    }
    // The same read over host-resident data: the cost of reading alone.
    {
      std::vector<double> gbs;
      uint64_t sum = 0;
      for (int r = 0; r < reps; ++r) {
        uint64_t t0 = sb::NowNs();
        sum += ReadAll(p, size);
        gbs.push_back(Gbs(size, sb::NowNs() - t0));
      }
      sb::Keep(sum);
      Emit("hostread.resident." + sz, "GB/s",
           "the same host read of every byte over host-resident managed memory (no faults): reading alone", gbs);
    }

    // Host -> device: a kernel streaming over host-resident data.
    void* out = nullptr;
    ACL_CHECK(aclrtMalloc(&out, blocks * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    const uint64_t tiles = (n + kTile - 1) / kTile;
    for (int resident_on_device = 0; resident_on_device < 2; ++resident_on_device) {
      std::vector<double> gbs;
      Delta d;
      for (int r = 0; r <= reps; ++r) {
        if (resident_on_device) Prefetch(p, size, kDevice);
        else Prefetch(p, size, kHostLoc);
        simnpu_uvm_counters c0 = Counters();
        uint64_t t0 = sb::NowNs();
        LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(stream_read)(blocks, g_stream, p, out, n, kTile));
        ACL_CHECK(aclrtSynchronizeStream(g_stream));
        uint64_t t1 = sb::NowNs();
        simnpu_uvm_counters c1 = Counters();
        if (r == 0) continue;
        gbs.push_back(Gbs(size, t1 - t0));
        d.Add(c0, c1);
      }
      std::vector<float> hout(blocks);
      ACL_CHECK(aclrtMemcpy(hout.data(), blocks * sizeof(float), out, blocks * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
      double total = 0;
      for (float v : hout) total += v;
      if (static_cast<uint64_t>(total) != tiles)
        sb::EmitError("ondemand.h2d", "stream_read saw " + std::to_string(total) + " tiles, expected " +
                                          std::to_string(tiles));
      if (resident_on_device) {
        Emit("kernel.read.devres." + sz, "GB/s",
             "the same kernel over device-resident data (no migration): the kernel's own read cost", gbs,
             d.Json(reps).Add("blocks_launched", static_cast<uint64_t>(blocks)));
      } else {
        Emit("ondemand.h2d.kernel." + sz, "GB/s",
             "kernel (" + std::to_string(blocks) +
                 " blocks) streams over host-resident managed memory with DataCopy tiles of 32 KiB; pages migrate "
                 "by device faults; launch + synchronize; " + sz,
             gbs, d.Json(reps).Add("blocks", static_cast<uint64_t>(size / sb::kHuge)));
      }
    }
    ACL_CHECK(aclrtFree(out));
    ACL_CHECK(aclrtFree(p));
  }
}

// ------------------------------------------------------------------ fault latency

void BenchFault(const sb::Args& args) {
  if (!UffdMode()) return;
  const int reps = static_cast<int>(args.Int("reps", 7));
  const size_t faults = static_cast<size_t>(args.Int("faults", 1024));
  const size_t stride = 2;  // every other page: the density prefetcher never widens a fault
  const size_t size = (faults * stride * sb::kPage + sb::kHuge - 1) / sb::kHuge * sb::kHuge;
  char* p = static_cast<char*>(AllocManaged(size));
  std::memset(p, 0x33, size);
  std::vector<double> med, mean, p99, bare_med, bare_mean;
  std::vector<double> each(faults), bare_each;
  Delta d;
  bool isolated = true;
  for (int r = 0; r <= reps; ++r) {
    // The limit, measured right before in this process: a bare userfaultfd
    // handler thread (spinning, as the runtime's service thread does between
    // faults) resolving as many 4 KiB MISSING faults.
    {
      sb::BareUffd bare(faults, /*spin=*/true);
      if (!bare.ok()) {
        sb::EmitError("uffd", "userfaultfd is not available");
        return;
      }
      double total = bare.Sample(&bare_each);
      if (r > 0) {
        bare_med.push_back(sb::Median(bare_each));
        bare_mean.push_back(total / static_cast<double>(faults));
      }
    }
    Prefetch(p, size, kDevice);
    simnpu_uvm_counters c0 = Counters();
    uint64_t start = sb::NowNs();
    unsigned sum = 0;
    for (size_t i = 0; i < faults; ++i) {
      const volatile char* a = p + i * stride * sb::kPage;
      uint64_t t0 = sb::NowNs();
      sum += static_cast<unsigned char>(*a);
      each[i] = static_cast<double>(sb::NowNs() - t0) / 1000.0;
    }
    uint64_t total = sb::NowNs() - start;
    simnpu_uvm_counters c1 = Counters();
    if (sum != 0x33u * faults) sb::EmitError("fault.host4k", "read wrong data");
    if (r == 0) continue;
    Delta one;
    one.Add(c0, c1);
    if (one.host_faults_migrate != faults || one.pages_d2h != faults || one.density_expansions != 0) isolated = false;
    d.Add(c0, c1);
    med.push_back(sb::Median(each));
    mean.push_back(static_cast<double>(total) / 1000.0 / static_cast<double>(faults));
    p99.push_back(sb::Percentile(each, 99));
  }
  const char* granule = std::getenv("SIMNPU_UVM_FAULT_GRANULE");
  Emit("uffd.missing.spin.4k.inproc", "us/fault",
       "the bare userfaultfd round trip (spinning handler, 4 KiB UFFDIO_COPY), measured in the fault benchmark's "
       "process right before each of its samples",
       bare_med, Info().Add("faults_per_sample", static_cast<uint64_t>(faults)).Add("mean_us", sb::Median(bare_mean)));
  Emit("fault.host4k", "us/fault",
       "host read of one byte of a device-resident page (every other page of a device-resident block, so "
       "each fault moves one 4 KiB page); median fault of each sample",
       med,
       d.Json(reps)
           .Add("faults_per_sample", static_cast<uint64_t>(faults))
           .Add("one_page_per_fault", isolated)
           .Add("mean_us", sb::Median(mean))
           .Add("p99_us", sb::Median(p99))
           .Add("SIMNPU_UVM_FAULT_GRANULE", granule ? granule : "(unset)"));
  ACL_CHECK(aclrtFree(p));
}

// ------------------------------------------------------------------ launch

void BenchLaunch(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 7));
  const int lat_n = static_cast<int>(args.Int("latency-launches", 2000));
  const int thr_n = static_cast<int>(args.Int("throughput-launches", 5000));
  for (int i = 0; i < 500; ++i) {
    LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
  }
  std::vector<double> med, mean, p99, submit_med, hand_med, hand_mean;
  std::vector<double> each(static_cast<size_t>(lat_n)), submit(static_cast<size_t>(lat_n)), hand_each;
  for (int r = 0; r < reps; ++r) {
    // The limit, measured right before in this process and under the same
    // conditions: the stream worker's spin-then-block hand-off, bare.
    {
      sb::Handoff h(sb::StreamSpinUs() * 1000);
      for (int i = 0; i < 200; ++i) h.RoundTrip();
      double total = h.Sample(lat_n, &hand_each);
      hand_med.push_back(sb::Median(hand_each));
      hand_mean.push_back(total / lat_n);
    }
    uint64_t start = sb::NowNs();
    for (int i = 0; i < lat_n; ++i) {
      uint64_t t0 = sb::NowNs();
      LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
      uint64_t t1 = sb::NowNs();
      ACL_CHECK(aclrtSynchronizeStream(g_stream));
      each[static_cast<size_t>(i)] = static_cast<double>(sb::NowNs() - t0) / 1000.0;
      submit[static_cast<size_t>(i)] = static_cast<double>(t1 - t0) / 1000.0;
    }
    mean.push_back(static_cast<double>(sb::NowNs() - start) / 1000.0 / lat_n);
    med.push_back(sb::Median(each));
    p99.push_back(sb::Percentile(each, 99));
    submit_med.push_back(sb::Median(submit));
  }
  Emit("handoff.spin.inproc", "us",
       "the stream worker's hand-off protocol, bare (spin up to SIMNPU_SPIN_US, then sleep), measured in the launch "
       "benchmark's process right before each of its samples",
       hand_med, Info().Add("trips_per_sample", lat_n).Add("mean_us", sb::Median(hand_mean)));
  Emit("launch.latency", "us",
       "empty kernel, 1 block: launch (aclrtlaunch_ / <<<>>>) + aclrtSynchronizeStream, back-to-back; median of each "
       "sample",
       med,
       Info()
           .Add("launches_per_sample", lat_n)
           .Add("mean_us", sb::Median(mean))
           .Add("p99_us", sb::Median(p99))
           .Add("launch_call_us", sb::Median(submit_med)));
  std::vector<double> per, sub;
  for (int r = 0; r < reps; ++r) {
    uint64_t t0 = sb::NowNs();
    for (int i = 0; i < thr_n; ++i) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(empty_kernel)(1, g_stream));
    uint64_t t1 = sb::NowNs();
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
    uint64_t t2 = sb::NowNs();
    per.push_back(static_cast<double>(t2 - t0) / 1000.0 / thr_n);
    sub.push_back(static_cast<double>(t1 - t0) / 1000.0 / thr_n);
  }
  Emit("launch.throughput", "us/launch",
       "empty kernel, 1 block: " + std::to_string(thr_n) + " launches then one synchronize; time per launch", per,
       Info().Add("launches_per_sample", thr_n).Add("submit_only_us", sb::Median(sub)));
}

// ------------------------------------------------------------------ vector add

template <typename T>
void VaddOne(const char* id, const char* dtype, size_t bytes, uint32_t blocks, int reps) {
  bp::Chunks<T> c;
  std::vector<char> host(bytes);
  void *x = nullptr, *y = nullptr, *z = nullptr;
  ACL_CHECK(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_CHECK(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_CHECK(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  bp::Fill(host.data(), c.x, bytes);
  ACL_CHECK(aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  bp::Fill(host.data(), c.y, bytes);
  ACL_CHECK(aclrtMemcpy(y, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACL_CHECK(aclrtMemset(z, bytes, 0, bytes));
  const uint64_t n = bytes / sizeof(T);
  auto launch = [&] {
    if constexpr (sizeof(T) == 2) LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(vadd_half)(blocks, g_stream, x, y, z, n, kTile));
    else LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(vadd_float)(blocks, g_stream, x, y, z, n, kTile));
  };
  launch();
  ACL_CHECK(aclrtSynchronizeStream(g_stream));
  ACL_CHECK(aclrtMemcpy(host.data(), bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  size_t bad = bp::Mismatch(host.data(), c.z, bytes);
  if (bad != SIZE_MAX) sb::EmitError(id, "wrong result at byte " + std::to_string(bad));
  const int passes = 4;
  std::vector<double> gbs;
  for (int r = 0; r < reps; ++r) {
    uint64_t t0 = sb::NowNs();
    for (int k = 0; k < passes; ++k) launch();
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
    gbs.push_back(3.0 * static_cast<double>(bytes) * passes / static_cast<double>(sb::NowNs() - t0));
  }
  Emit(id, "GB/s",
       std::string("Ascend C vector add (") + dtype + "), " + std::to_string(blocks) + " blocks, tiles of " +
           std::to_string(kTile) + " elements, double-buffered queues, " + sb::SizeName(bytes) +
           " per array in aclrtMalloc memory; launch + synchronize; 3 arrays counted",
       gbs,
       Info().Add("array_bytes", static_cast<uint64_t>(bytes)).Add("blocks", static_cast<uint64_t>(blocks)).Add(
           "launches_per_sample", passes));
  ACL_CHECK(aclrtFree(x));
  ACL_CHECK(aclrtFree(y));
  ACL_CHECK(aclrtFree(z));
}

void BenchVadd(const sb::Args& args) {
  const size_t bytes = args.Size("size", 64 * sb::kMiB);
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 48));
  const int reps = static_cast<int>(args.Int("reps", 7));
  // --tag nomemcheck names the rows of a run with SIMNPU_MEMCHECK=0 (the
  // kernel memory check's cost is the ratio of the default rows to these).
  const std::string tag = args.Get("tag", "");
  const std::string sfx = tag.empty() ? "" : "." + tag;
  VaddOne<float>(("vadd.kernel.f32" + sfx).c_str(), "float", bytes, blocks, reps);
  VaddOne<uint16_t>(("vadd.kernel.f16" + sfx).c_str(), "half", bytes, blocks, reps);
}

// ------------------------------------------------------------------ the sample's computation

struct SampleBuffers {
  bool managed;
  size_t bytes;
  char *x = nullptr, *y = nullptr, *z = nullptr;     // what the host writes/reads
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;  // what the kernel sees (explicit mode)

  SampleBuffers(bool m, size_t n) : managed(m), bytes(n) {
    if (managed) {
      x = static_cast<char*>(AllocManaged(n));
      y = static_cast<char*>(AllocManaged(n));
      z = static_cast<char*>(AllocManaged(n));
      dx = x;
      dy = y;
      dz = z;
    } else {
      void* h;
      ACL_CHECK(aclrtMallocHost(&h, n));
      x = static_cast<char*>(h);
      ACL_CHECK(aclrtMallocHost(&h, n));
      y = static_cast<char*>(h);
      ACL_CHECK(aclrtMallocHost(&h, n));
      z = static_cast<char*>(h);
      ACL_CHECK(aclrtMalloc(&dx, n, ACL_MEM_MALLOC_HUGE_FIRST));
      ACL_CHECK(aclrtMalloc(&dy, n, ACL_MEM_MALLOC_HUGE_FIRST));
      ACL_CHECK(aclrtMalloc(&dz, n, ACL_MEM_MALLOC_HUGE_FIRST));
    }
  }
  ~SampleBuffers() {
    if (managed) {
      aclrtFree(x);
      aclrtFree(y);
      aclrtFree(z);
    } else {
      aclrtFreeHost(x);
      aclrtFreeHost(y);
      aclrtFreeHost(z);
      aclrtFree(dx);
      aclrtFree(dy);
      aclrtFree(dz);
    }
  }
  // One run of the computation; returns false when z is wrong.
  bool Iterate(const bp::Chunks<uint16_t>& c, uint32_t blocks) {
    bp::Fill(x, c.x, bytes);
    bp::Fill(y, c.y, bytes);
    if (!managed) {
      ACL_CHECK(aclrtMemcpy(dx, bytes, x, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
      ACL_CHECK(aclrtMemcpy(dy, bytes, y, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(vadd_half)(blocks, g_stream, dx, dy, dz, bytes / 2, kTile));
    ACL_CHECK(aclrtSynchronizeStream(g_stream));
    if (!managed) ACL_CHECK(aclrtMemcpy(z, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    return bp::Mismatch(z, c.z, bytes) == SIZE_MAX;
  }
};

void BenchSample(const sb::Args& args) {
  const std::string mode = args.Get("mode", "managed");
  const bool managed = mode == "managed";
  if (managed && !UffdMode()) return;
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 8));
  const int reps = static_cast<int>(args.Int("reps", 5));
  const bool cold_only = args.Int("cold-only", 0) != 0;
  bp::Chunks<uint16_t> c;
  for (size_t size : sb::ParseSizes(args.Get("sizes", "32K,1M,32M,256M,1G"))) {
    const std::string sz = sb::SizeName(size);
    const std::string id = "sample." + mode + "." + sz;
    if (cold_only) {
      // Cold: allocation + the first run + release, the way the sample runs
      // once. One sample per process (the driver starts fresh processes).
      simnpu_uvm_counters c0 = Counters();
      uint64_t t0 = sb::NowNs();
      bool ok;
      {
        SampleBuffers b(managed, size);
        ok = b.Iterate(c, blocks);
      }
      double us = static_cast<double>(sb::NowNs() - t0) / 1000.0;
      Delta d;
      d.Add(c0, Counters());
      if (!ok) sb::EmitError("sample.cold." + mode + "." + sz, "wrong result");
      Emit("sample.cold." + mode + "." + sz, "us/run",
           "z = x + y in half, " + sz + " per array, once in a fresh process: allocate, host writes x and y, kernel (" +
               std::to_string(blocks) + " blocks), host reads z, free; " +
               (managed ? "managed memory" : "aclrtMallocHost + aclrtMalloc + aclrtMemcpy"),
           {us}, d.Json(1).Add("size", static_cast<uint64_t>(size)));
      continue;
    }
    // Warm: the computation repeated on the same buffers.
    SampleBuffers b(managed, size);
    if (!b.Iterate(c, blocks)) sb::EmitError(id, "wrong result (warm-up)");
    const int iters = static_cast<int>(std::max<size_t>(1, (32 * sb::kMiB) / size));
    std::vector<double> us;
    Delta d;
    bool ok = true;
    for (int r = 0; r < reps; ++r) {
      simnpu_uvm_counters c0 = Counters();
      uint64_t t0 = sb::NowNs();
      for (int k = 0; k < iters; ++k) ok = b.Iterate(c, blocks) && ok;
      us.push_back(static_cast<double>(sb::NowNs() - t0) / 1000.0 / iters);
      d.Add(c0, Counters());
    }
    if (!ok) sb::EmitError(id, "wrong result");
    Emit(id, "us/run",
         "z = x + y in half, " + sz + " per array: host writes x and y, kernel (" + std::to_string(blocks) +
             " blocks), host reads z; " + (managed ? "managed memory" : "aclrtMallocHost + aclrtMalloc + aclrtMemcpy") +
             "; the same buffers run after run",
         us, d.Json(reps * iters).Add("runs_per_sample", iters).Add("size", static_cast<uint64_t>(size)));
  }
}

// ------------------------------------------------------------------ oversubscription

void BenchOversub(const sb::Args& args) {
  if (!UffdMode()) return;
  const int reps = static_cast<int>(args.Int("reps", 3));
  const uint32_t blocks = static_cast<uint32_t>(args.Int("blocks", 48));
  const size_t capacity = args.Size("capacity", 0);
  for (size_t size : sb::ParseSizes(args.Get("sizes", "128M,512M,1G"))) {
    float* p = static_cast<float*>(AllocManaged(size));
    const uint64_t n = size / sizeof(float);
    std::memset(p, 0, size);
    float expected = 0;
    std::vector<double> gbs;
    Delta d;
    bool ok = true;
    for (int r = 0; r < reps; ++r) {
      simnpu_uvm_counters c0 = Counters();
      uint64_t t0 = sb::NowNs();
      LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(add_one_float)(blocks, g_stream, p, n, kTile));
      LAUNCH_CHECK(ACLRT_LAUNCH_KERNEL(add_one_float)(blocks, g_stream, p, n, kTile));
      ACL_CHECK(aclrtSynchronizeStream(g_stream));
      uint64_t t1 = sb::NowNs();
      d.Add(c0, Counters());
      expected += 2.0f;
      gbs.push_back(Gbs(2 * size, t1 - t0));
      for (uint64_t i = 0; i < n && ok; ++i)
        if (p[i] != expected) {
          sb::EmitError("oversub", "x[" + std::to_string(i) + "] = " + std::to_string(p[i]) + ", expected " +
                                       std::to_string(expected));
          ok = false;
        }
    }
    std::string ratio = capacity ? std::to_string(static_cast<double>(size) / static_cast<double>(capacity)) : "?";
    char id[64];
    if (capacity) std::snprintf(id, sizeof id, "oversub.%gx", static_cast<double>(size) / static_cast<double>(capacity));
    else std::snprintf(id, sizeof id, "oversub.%s", sb::SizeName(size).c_str());
    Emit(id, "GB/s",
         "kernel (" + std::to_string(blocks) + " blocks) adds 1 to every float of a " + sb::SizeName(size) +
             " managed array, twice (two launches, one synchronize), device capacity " +
             (capacity ? sb::SizeName(capacity) : std::string("default")) + "; bytes = 2 x working set",
         gbs,
         d.Json(reps)
             .Add("working_set", static_cast<uint64_t>(size))
             .Add("device_capacity", static_cast<uint64_t>(capacity))
             .Add("results_checked", ok));
    ACL_CHECK(aclrtFree(p));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <prefetch|ondemand|fault|launch|vadd|sample|oversub> [--options]\n", argv[0]);
    return 2;
  }
  const std::string cmd = argv[1];
  sb::Args args(argc, argv, 2);
  Setup();
  if (cmd == "prefetch") BenchPrefetch(args);
  else if (cmd == "ondemand") BenchOnDemand(args);
  else if (cmd == "fault") BenchFault(args);
  else if (cmd == "launch") BenchLaunch(args);
  else if (cmd == "vadd") BenchVadd(args);
  else if (cmd == "sample") BenchSample(args);
  else if (cmd == "oversub") BenchOversub(args);
  else {
    std::fprintf(stderr, "unknown sub-command %s\n", cmd.c_str());
    return 2;
  }
  Teardown();
  return 0;
}
