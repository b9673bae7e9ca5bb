// Recording cost per launch (issue 12, item 4), without the launch: what
// one kernel launch adds while a session records everything, i.e. its API
// span (on the host thread) and its stream-task span annotated as a kernel
// (on the stream's worker), here back to back on one thread. Measured in
// thread CPU time, so the preemption of a loaded machine does not count;
// recording on and off alternate round by round, and the medians are
// reported. Compare with launch.throughput of bench_acl (~0.33 us per
// launch on an idle machine of this kind): the target "on within 15 % of
// off" leaves about 50 ns per launch for recording.
//
//   simnpu_bench_record_cost [--rounds N] [--launches N]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "dfx/trace/trace.h"

namespace tr = simnpu::dfx::trace;

namespace {

uint64_t CpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// What the runtime does per launch at its two sites.
__attribute__((noinline)) void OneLaunch(const char* kernel) {
  { tr::ApiSpan api("aclrtLaunchKernelWithHostArgs"); }
  {
    tr::TaskSpan task(0, 1, "kernel");
    if (tr::On(tr::kCatTask)) tr::AnnotateTask(tr::Kind::kKernel, kernel, 1, 100);
  }
}

double Sample(bool on, int launches, const char* kernel, size_t* events) {
  if (on && !tr::Start(tr::kCatAll)) {
    std::fprintf(stderr, "record_cost: a session is already recording\n");
    std::exit(1);
  }
  const uint64_t t0 = CpuNs();
  for (int i = 0; i < launches; ++i) OneLaunch(kernel);
  const uint64_t t1 = CpuNs();
  if (on) *events = tr::Stop()->events.size();  // (Stop's sort and copy are not timed)
  return static_cast<double>(t1 - t0) / launches;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15, launches = 200000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
  }
  if (rounds < 1 || launches < 1 || launches > 1000000) {
    std::fprintf(stderr, "usage: simnpu_bench_record_cost [--rounds N] [--launches N<=1000000]\n");
    return 2;
  }
  static char kernel[] = "empty_kernel";  // a kernel name lives in its binary's table
  std::vector<double> on, off;
  size_t events = 0;
  Sample(true, launches / 10, kernel, &events);  // warm-up
  for (int r = 0; r < rounds; ++r) {
    if (r % 2) {
      on.push_back(Sample(true, launches, kernel, &events));
      off.push_back(Sample(false, launches, kernel, &events));
    } else {
      off.push_back(Sample(false, launches, kernel, &events));
      on.push_back(Sample(true, launches, kernel, &events));
    }
  }
  const double mon = Median(on), moff = Median(off);
  std::printf("| recording | ns per launch (thread CPU, median of %d) |\n|---|---|\n", rounds);
  std::printf("| off | %.1f |\n| on (API span + kernel task span) | %.1f |\n| added by recording | %.1f |\n", moff, mon,
              mon - moff);
  std::printf("{\"id\": \"record.per_launch\", \"unit\": \"ns\", \"on\": %.2f, \"off\": %.2f, \"added\": %.2f, "
              "\"events_per_sample\": %zu, \"trace_clock\": \"%s\"}\n",
              mon, moff, mon - moff, events, tr::TraceClockIsTsc() ? "tsc" : "monotonic");
  return events == static_cast<size_t>(launches) * 2 ? 0 : 1;
}
