// Trace writers: a finished capture as a Chrome trace-event JSON (what
// Perfetto and chrome://tracing open) and as CSV summaries in the spirit of
// msprof's op summary and API statistics. Pure functions of the capture; no
// locking.
//
// Tracks (Chrome "processes" and "threads"):
//   pid 0 "Host": one thread per OS thread (API calls, msproftx/mstx marks
//     and ranges, copies made outside streams), plus "unified memory (host)"
//     (host faults, migrations to the host, allocations).
//   pid 100+d "NPU d" (d = simulated device id): one thread per stream
//     ("stream N": kernels, copies, memsets, host functions, event records
//     and waits, notifies, graph replays), a "unified memory" lane (device
//     faults, migrations to the device, replicas, invalidations, evictions,
//     thrashing) and a "resident bytes" counter.
// Times are microseconds since the session started.
#ifndef SIMNPU_DFX_PROF_TRACE_WRITER_H_
#define SIMNPU_DFX_PROF_TRACE_WRITER_H_

#include <cstdint>
#include <string>

#include "dfx/trace/trace.h"

namespace simnpu::dfx::prof {

constexpr int kHostPid = 0;
constexpr int kDevicePidBase = 100;
constexpr int64_t kUvmTidBase = 1000000000;

// Writes the Chrome trace to `path`; false (errno set) if the file cannot be written.
bool WriteChromeTrace(const trace::Capture& cap, const std::string& path, int os_pid);

// Writes the CSV summaries into `dir`, file names ending in `suffix`
// ("_<timestamp>.csv"): op_summary, op_statistic, task_time, api_statistic,
// uvm_summary. Returns false if a file cannot be written.
bool WriteCsvSummaries(const trace::Capture& cap, const std::string& dir, const std::string& suffix);

// Totals the unified-memory events of a capture (uvm_summary.csv rows).
struct UvmTotals {
  uint64_t host_faults = 0, device_faults = 0, device_fault_pages = 0;
  uint64_t bytes_h2d = 0, bytes_d2h = 0, bytes_d2d = 0;
  uint64_t bytes_moved = 0;        // of the above, moved without a copy (UFFDIO_MOVE)
  uint64_t bytes_replicated = 0;   // read-only copies made
  uint64_t bytes_populated_host = 0, bytes_populated_device = 0;
  uint64_t bytes_invalidated = 0;
  uint64_t evictions = 0, thrashing_events = 0, allocations = 0, frees = 0;
};
UvmTotals TotalUvm(const trace::Capture& cap);

}  // namespace simnpu::dfx::prof

#endif  // SIMNPU_DFX_PROF_TRACE_WRITER_H_
