// simnpu_bench_limits: this machine's own limits, measured in the same run
// as the runtime benchmarks they are held against.
//
//   memcpy   large-buffer memcpy bandwidth, 1 thread and all threads
//            (transparent-huge-page buffers written once before timing, so
//            no fault is timed; sizes beyond every cache)
//   uffd     the bare userfaultfd round trip: a handler thread resolves
//            MISSING faults on 4 KiB pages with UFFDIO_COPY while the
//            faulting thread reads one byte per page; the handler either
//            spins on a non-blocking descriptor or sleeps in poll()
//   handoff  host -> worker -> host round trip with the protocol of the
//            runtime's stream worker (submit under a mutex, worker spins up
//            to SIMNPU_SPIN_US then sleeps on a condition variable; the
//            waiter does the same on completion), spinning and blocking
//   populate giving memory physical pages: fresh, and recycled after MADV_DONTNEED
//   ref      a null system call, to show whether the machine is in a slow phase
//
// Usage: simnpu_bench_limits <memcpy|uffd|handoff|populate|ref|all> [--reps N] [--sizes 64M,1G]
// Output: one JSON record per line (bench_common.h).
#include <sys/syscall.h>

#include "limits_core.h"

namespace sb = simnpu_bench;
using sb::Emit;
using sb::Info;

namespace {

// ------------------------------------------------------------------ memcpy

void BenchMemcpy(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 7));
  const std::vector<size_t> sizes = sb::ParseSizes(args.Get("sizes", "64M,256M,1G"));
  size_t biggest = 0;
  for (size_t s : sizes) biggest = std::max(biggest, s);
  sb::HugeBuffer src(biggest), dst(biggest);
  for (size_t i = 0; i < biggest; i += 64) src.data()[i] = static_cast<char>(i >> 6);
  const int threads = sb::HardwareThreads();
  sb::Team team(threads);
  for (size_t size : sizes) {
    // Batches of >= ~256 MiB copied, so small sizes are not timed alone.
    const int per = static_cast<int>(std::max<size_t>(1, (256 * sb::kMiB) / size));
    for (int nt : {1, threads}) {
      if (nt == threads && threads == 1) continue;
      std::vector<double> gbs;
      std::function<void(int, int)> one = [&](int i, int) {
        size_t b, e;
        sb::Split(size, i, nt, 4096, &b, &e);
        std::memcpy(dst.data() + b, src.data() + b, e - b);
      };
      std::function<void(int, int)> split = [&](int i, int n) {
        if (i < nt) one(i, n);
      };
      // warm-up
      if (nt == 1) std::memcpy(dst.data(), src.data(), size);
      else team.Run(split);
      for (int r = 0; r < reps; ++r) {
        uint64_t t0 = sb::NowNs();
        for (int k = 0; k < per; ++k) {
          if (nt == 1) std::memcpy(dst.data(), src.data(), size);
          else team.Run(split);
        }
        uint64_t t1 = sb::NowNs();
        gbs.push_back(static_cast<double>(size) * per / static_cast<double>(t1 - t0));
      }
      std::string id = "memcpy." + std::to_string(nt) + "t." + sb::SizeName(size);
      Emit(id, "GB/s",
           "memcpy " + sb::SizeName(size) + ", " + std::to_string(nt) +
               " thread(s), pre-faulted huge-page buffers, bytes counted once",
           gbs, Info().Add("size", static_cast<uint64_t>(size)).Add("threads", nt).Add("copies_per_sample", per));
    }
  }
}

// ------------------------------------------------------------------ userfaultfd

void BenchUffd(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 7));
  const size_t pages = static_cast<size_t>(args.Int("pages", 2048));
  for (bool spin : {true, false}) {
    sb::BareUffd u(pages, spin);
    if (!u.ok()) {
      sb::EmitError("uffd", "userfaultfd is not available (needs root or vm.unprivileged_userfaultfd=1)");
      return;
    }
    std::vector<double> med, mean, p99, each;
    for (int r = 0; r < reps + 1; ++r) {
      double total = u.Sample(&each);
      if (r == 0) continue;  // warm-up
      med.push_back(sb::Median(each));
      mean.push_back(total / static_cast<double>(pages));
      p99.push_back(sb::Percentile(each, 99));
    }
    std::string mode = spin ? "spin" : "block";
    Emit("uffd.missing." + mode + ".4k", "us/fault",
         std::string("userfaultfd MISSING fault round trip, 4 KiB UFFDIO_COPY by a handler thread that ") +
             (spin ? "spins on a non-blocking descriptor" : "sleeps in poll()") +
             "; the faulting thread reads one byte per page (median fault of each sample)",
         med,
         Info()
             .Add("faults_per_sample", static_cast<uint64_t>(pages))
             .Add("mean_us", sb::Median(mean))
             .Add("p99_us", sb::Median(p99))
             .Add("served", u.served()));
  }
}

// ------------------------------------------------------------------ hand-off

void BenchHandoff(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 9));
  const uint64_t spin_us = sb::StreamSpinUs();
  struct Mode {
    const char* name;
    uint64_t spin_ns;
    int trips;
    const char* what;
  } modes[] = {
      {"spin", spin_us * 1000, 20000,
       "host->worker->host round trip, both sides spin up to SIMNPU_SPIN_US before sleeping (the stream "
       "worker's protocol), back-to-back: the spin path"},
      {"block", 0, 2000,
       "the same round trip with no spinning: worker and waiter sleep on condition variables at once "
       "(what a launch costs once the worker has gone to sleep)"},
  };
  for (const Mode& m : modes) {
    sb::Handoff h(m.spin_ns);
    for (int i = 0; i < 1000; ++i) h.RoundTrip();  // warm-up (starts the worker)
    std::vector<double> med, p99, mean, each;
    for (int r = 0; r < reps; ++r) {
      double total = h.Sample(m.trips, &each);
      mean.push_back(total / m.trips);
      med.push_back(sb::Median(each));
      p99.push_back(sb::Percentile(each, 99));
    }
    Emit(std::string("handoff.") + m.name, "us", m.what, med,
         Info()
             .Add("trips_per_sample", m.trips)
             .Add("spin_us", static_cast<uint64_t>(m.spin_ns / 1000))
             .Add("mean_us", sb::Median(mean))
             .Add("p99_us", sb::Median(p99)));
  }
}

// ------------------------------------------------------------------ populating memory

// Giving an address range physical pages (2 MiB transparent huge pages, as
// the runtime's page pool does): into a fresh mapping, and again into the
// same range after MADV_DONTNEED released its pages. On a VM whose host backs
// guest memory lazily, memory the guest has not used since boot is far
// dearer than recycled memory; this row shows the state of the machine.
void BenchPopulate(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 5));
  const size_t len = args.Size("populate-size", 256 * sb::kMiB);
  std::vector<double> fresh, recycled;
  for (int r = 0; r < reps; ++r) {
    sb::HugeBuffer b(len, /*prefault=*/false);
    uint64_t t0 = sb::NowNs();
    if (madvise(b.data(), len, 23 /* MADV_POPULATE_WRITE */) != 0) std::memset(b.data(), 0, len);
    uint64_t t1 = sb::NowNs();
    madvise(b.data(), len, MADV_DONTNEED);
    uint64_t t2 = sb::NowNs();
    if (madvise(b.data(), len, 23) != 0) std::memset(b.data(), 0, len);
    uint64_t t3 = sb::NowNs();
    fresh.push_back(static_cast<double>(len) / static_cast<double>(t1 - t0));
    recycled.push_back(static_cast<double>(len) / static_cast<double>(t3 - t2));
  }
  Emit("populate.fresh", "GB/s",
       "MADV_POPULATE_WRITE of a new " + sb::SizeName(len) + " huge-page mapping (kernel zeroes fresh pages)", fresh);
  Emit("populate.recycled", "GB/s",
       "the same range populated again after MADV_DONTNEED (pages recycled through the kernel)", recycled);
}

// ------------------------------------------------------------------ reference

void BenchRef(const sb::Args& args) {
  const int reps = static_cast<int>(args.Int("reps", 9));
  std::vector<double> us;
  for (int r = 0; r < reps; ++r) {
    const int n = 2000;
    uint64_t t0 = sb::NowNs();
    for (int i = 0; i < n; ++i) syscall(SYS_getppid);
    us.push_back(static_cast<double>(sb::NowNs() - t0) / 1000.0 / n);
  }
  Emit("ref.syscall", "us", "null system call (getppid); shows whether the machine is in a slow phase", us);
}

}  // namespace

int main(int argc, char** argv) {
  std::string cmd = argc > 1 ? argv[1] : "all";
  sb::Args args(argc, argv, 2);
  bool all = cmd == "all";
  if (all || cmd == "ref") BenchRef(args);
  if (all || cmd == "memcpy") BenchMemcpy(args);
  if (all || cmd == "uffd") BenchUffd(args);
  if (all || cmd == "handoff") BenchHandoff(args);
  if (all || cmd == "populate") BenchPopulate(args);
  if (!all && cmd != "ref" && cmd != "memcpy" && cmd != "uffd" && cmd != "handoff" && cmd != "populate") {
    std::fprintf(stderr, "usage: %s <memcpy|uffd|handoff|populate|ref|all> [--reps N] [--sizes 64M,1G] [--pages N]\n",
                 argv[0]);
    return 2;
  }
  return 0;
}
