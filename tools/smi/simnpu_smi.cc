// simnpu-smi: the simulated NPUs of this machine and who holds them, read
// from the machine-wide registry (sim/registry.h), in the spirit of
// `npu-smi info`. `--json` prints the same as one JSON object.
//
// It only reads: it never takes a process slot, and when no registry exists
// (no process uses a device) it creates none.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "platform/shm_dir.h"
#include "sim/npu_system.h"
#include "sim/registry.h"
#include "sim/soc.h"

using namespace simnpu;

namespace {

std::string JsonStr(const char* s) {
  std::string o = "\"";
  for (const char* p = s; *p; ++p) {
    if (*p == '"' || *p == '\\') o += '\\';
    if (static_cast<unsigned char>(*p) < 0x20) continue;
    o += *p;
  }
  return o + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else {
      std::fprintf(stderr, "usage: simnpu-smi [--json]\n");
      return std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0 ? 0 : 2;
    }
  }
  const sim::SocInfo* soc = sim::CurrentSoc();
  auto& sys = sim::NpuSystem::Get();
  const int n = sys.physical_count();
  const uint64_t cap = sys.capacity_per_device();
  std::vector<sim::RegProc> procs;
  auto& dir = platform::ShmDir::Get();
  struct stat st;
  if (dir.ok() && stat((dir.dir() + "/registry").c_str(), &st) == 0) {
    procs = sim::Registry::Get().Processes();
    sim::Registry::Get().LeaveIfLast();
  }
  std::vector<uint64_t> used(static_cast<size_t>(n > 0 ? n : 0), 0);
  for (auto& p : procs)
    for (int d = 0; d < n && d < sim::kRegDevices; ++d) used[d] += p.dev_bytes[d];
  const char* name = soc ? soc->name : "unknown";
  if (json) {
    std::printf("{\"soc\": %s, \"directory\": %s, \"devices\": [", JsonStr(name).c_str(), JsonStr(dir.dir().c_str()).c_str());
    for (int d = 0; d < n; ++d) {
      std::printf("%s{\"id\": %d, \"soc\": %s, \"memory_total\": %llu, \"memory_used\": %llu, \"memory_free\": %llu, \"processes\": [",
                  d ? ", " : "", d, JsonStr(name).c_str(), static_cast<unsigned long long>(cap),
                  static_cast<unsigned long long>(used[d]),
                  static_cast<unsigned long long>(used[d] < cap ? cap - used[d] : 0));
      bool first = true;
      for (auto& p : procs) {
        if (!(p.dev_mask & (1u << d))) continue;
        std::printf("%s{\"pid\": %d, \"name\": %s, \"memory\": %llu}", first ? "" : ", ", p.pid, JsonStr(p.name).c_str(),
                    static_cast<unsigned long long>(p.dev_bytes[d]));
        first = false;
      }
      std::printf("]}");
    }
    std::printf("]}\n");
    return 0;
  }
  std::printf("+-------------------------------------------------------------------------+\n");
  std::printf("| simnpu-smi                          registry: %-27s|\n", dir.dir().c_str());
  std::printf("+--------+-----------------+----------------------------------------------+\n");
  std::printf("| NPU    | Name            | Memory-Usage (MB)                            |\n");
  std::printf("+========+=================+==============================================+\n");
  for (int d = 0; d < n; ++d)
    std::printf("| %-6d | %-15s | %10llu / %-10llu (free %-10llu)     |\n", d, name,
                static_cast<unsigned long long>(used[d] >> 20), static_cast<unsigned long long>(cap >> 20),
                static_cast<unsigned long long>((used[d] < cap ? cap - used[d] : 0) >> 20));
  std::printf("+--------+-----------------+----------------------------------------------+\n");
  std::printf("| NPU    | Process id      | Process name     | Process memory (MB)       |\n");
  std::printf("+========+=================+==================+===========================+\n");
  bool any = false;
  for (int d = 0; d < n; ++d)
    for (auto& p : procs) {
      if (!(p.dev_mask & (1u << d))) continue;
      any = true;
      std::printf("| %-6d | %-15d | %-16s | %-25llu |\n", d, p.pid, p.name,
                  static_cast<unsigned long long>(p.dev_bytes[d] >> 20));
    }
  if (!any) std::printf("| No running processes found in NPU                                       |\n");
  std::printf("+--------+-----------------+------------------+---------------------------+\n");
  return 0;
}
