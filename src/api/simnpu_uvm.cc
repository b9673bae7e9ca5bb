// The simnpu_uvm_* extension API (include/simnpu/uvm.h) and the optional
// report written when SIMNPU_UVM_REPORT names a file ("-" = stderr).
#include "simnpu/uvm.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "api/api_common.h"
#include "api/uvm_report.h"
#include "core/runtime.h"
#include "platform/env.h"
#include "uvm/counters.h"
#include "uvm/engine.h"

using namespace simnpu;

namespace simnpu::api {

std::string UvmReportText() {
  simnpu_uvm_counters c;
  uvm::Stats().Snapshot(&c);
  const char* why = nullptr;
  int mode = simnpu_uvm_mode(&why);
  auto mib = [](uint64_t b) { return static_cast<double>(b) / (1 << 20); };
  char buf[4096];
  int n = std::snprintf(
      buf, sizeof buf,
      "[simnpu] unified memory report (%s)\n"
      "  host page faults      %8llu  (first touch %llu, migration from a device %llu, write to a replica %llu)\n"
      "  device page faults    %8llu  (first touch %llu, migration from the host/another device %llu; %llu pages)\n"
      "  migrated host->device %8llu pages  %8.2f MiB\n"
      "  migrated device->host %8llu pages  %8.2f MiB\n"
      "  migrated device->dev  %8llu pages  %8.2f MiB\n"
      "  populated on host     %8llu pages, on devices %llu pages\n"
      "  whole 2 MiB blocks moved without copying: %llu, copied migrations: %llu\n"
      "  read replicas %llu, invalidations %llu, remote maps %llu, prefetches %llu (%llu pages)\n"
      "  density expansions %llu, thrashing events %llu, throttles %llu, pins %llu, evictions %llu (%.2f MiB)\n"
      "  explicit copy calls (aclrtMemcpy*) %llu, explicit set calls (aclrtMemset*) %llu\n",
      mode == 1 ? "userfaultfd: real host faults" : (why ? why : "host-pinned mode"),
      (unsigned long long)c.host_faults, (unsigned long long)c.host_faults_first_touch,
      (unsigned long long)c.host_faults_migrate, (unsigned long long)c.host_faults_write_dup,
      (unsigned long long)c.device_faults, (unsigned long long)c.device_faults_first_touch,
      (unsigned long long)c.device_faults_migrate, (unsigned long long)c.device_fault_pages,
      (unsigned long long)c.pages_h2d, mib(c.bytes_h2d), (unsigned long long)c.pages_d2h, mib(c.bytes_d2h),
      (unsigned long long)c.pages_d2d, mib(c.bytes_d2d), (unsigned long long)c.pages_populated_host,
      (unsigned long long)c.pages_populated_device, (unsigned long long)c.blocks_moved,
      (unsigned long long)c.copy_fallbacks, (unsigned long long)c.read_duplicates,
      (unsigned long long)c.invalidations, (unsigned long long)c.remote_maps,
      (unsigned long long)c.prefetch_requests, (unsigned long long)c.prefetch_pages,
      (unsigned long long)c.density_expansions, (unsigned long long)c.thrashing_events,
      (unsigned long long)c.throttles, (unsigned long long)c.pins, (unsigned long long)c.evictions,
      mib(c.bytes_evicted), (unsigned long long)c.explicit_copies, (unsigned long long)c.explicit_sets);
  return std::string(buf, n > 0 ? static_cast<size_t>(n) : 0);
}

void WriteUvmReportIfRequested() {
  static std::once_flag once;
  auto path = platform::GetEnv("SIMNPU_UVM_REPORT");
  if (!path || path->empty()) return;
  std::call_once(once, [&] {
    std::string text = UvmReportText();
    if (*path == "-") {
      std::fwrite(text.data(), 1, text.size(), stderr);
      return;
    }
    int fd = open(path->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, text.data(), text.size());
    (void)w;
    close(fd);
  });
}

}  // namespace simnpu::api

extern "C" {

int simnpu_uvm_get_counters(simnpu_uvm_counters* out, size_t size) {
  if (!out) return ACL_ERROR_INVALID_PARAM;
  simnpu_uvm_counters c;
  uvm::Stats().Snapshot(&c);
  std::memcpy(out, &c, size < sizeof c ? size : sizeof c);
  return ACL_SUCCESS;
}

int simnpu_uvm_reset_counters(void) {
  uvm::Stats().Reset();
  return ACL_SUCCESS;
}

int simnpu_uvm_query_residency(const void* ptr, size_t size, uint32_t* out, size_t n) {
  if (!ptr || !out || size == 0) return ACL_ERROR_INVALID_PARAM;
  std::vector<uint32_t> phys(n);
  Status st = uvm::Engine::Get().QueryResidency(ptr, size, phys.data(), n);
  if (!st.ok()) return api::Fail("simnpu_uvm_query_residency", st);
  // Re-map device bits from physical to user-visible ids.
  for (size_t i = 0; i < n; ++i) {
    uint32_t m = phys[i] & 1u;
    for (int d = 0; d < 31; ++d) {
      if (!(phys[i] & (1u << (d + 1)))) continue;
      m |= 1u << (api::LogicalDeviceId(d, d) + 1);  // (no runtime id: keeps its physical bit)
    }
    out[i] = m;
  }
  return ACL_SUCCESS;
}

int simnpu_uvm_mode(const char** why) {
  uvm::Engine& e = uvm::Engine::Get();
  if (why) *why = e.mode() == uvm::Mode::kPinned ? e.pinned_reason().c_str() : nullptr;
  return e.mode() == uvm::Mode::kPinned ? 0 : 1;
}

int simnpu_uvm_write_report(int fd) {
  std::string text = api::UvmReportText();
  ssize_t w = write(fd, text.data(), text.size());
  return w == static_cast<ssize_t>(text.size()) ? ACL_SUCCESS : ACL_ERROR_FAILURE;
}

}  // extern "C"
