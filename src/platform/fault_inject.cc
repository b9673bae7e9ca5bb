// Fault injection counters.
#include "platform/fault_inject.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace simnpu::platform {
namespace {

constexpr int kSites = static_cast<int>(FaultSite::kCount);
const char* const kNames[kSites] = {"reserve_va", "commit", "uffd", "thread", "file_read", "shm"};

struct Site {
  std::atomic<int> skip{0};
  std::atomic<int> fail{0};
  std::atomic<uint64_t> injected{0};
};
Site g_sites[kSites];
std::atomic<bool> g_armed{false};  // any site armed (fast path)
std::once_flag g_env_once;

void ReadEnv() {
  const char* v = std::getenv("SIMNPU_FAULT_INJECT");
  if (!v || !*v) return;
  std::string s(v);
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find(',', at);
    if (end == std::string::npos) end = s.size();
    const std::string item = s.substr(at, end - at);
    const size_t eq = item.find('=');
    if (eq != std::string::npos) {
      const std::string name = item.substr(0, eq);
      int times = std::atoi(item.c_str() + eq + 1);
      int skip = 0;
      const size_t colon = item.find(':', eq);
      if (colon != std::string::npos) skip = std::atoi(item.c_str() + colon + 1);
      for (int i = 0; i < kSites; ++i)
        if (name == kNames[i]) ArmFault(static_cast<FaultSite>(i), times, skip);
    }
    at = end + 1;
  }
}

}  // namespace

const char* FaultSiteName(FaultSite s) {
  const int i = static_cast<int>(s);
  return i >= 0 && i < kSites ? kNames[i] : "?";
}

bool InjectFault(FaultSite s) {
  std::call_once(g_env_once, ReadEnv);
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  Site& st = g_sites[static_cast<int>(s)];
  for (int k = st.skip.load(); k > 0;) {
    if (st.skip.compare_exchange_weak(k, k - 1)) return false;
  }
  for (int k = st.fail.load(); k > 0;) {
    if (st.fail.compare_exchange_weak(k, k - 1)) {
      st.injected.fetch_add(1);
      return true;
    }
  }
  return false;
}

void ArmFault(FaultSite s, int times, int skip) {
  Site& st = g_sites[static_cast<int>(s)];
  st.skip.store(skip > 0 ? skip : 0);
  st.fail.store(times > 0 ? times : 0);
  if (times > 0) g_armed.store(true);
}

void DisarmAllFaults() {
  for (Site& st : g_sites) {
    st.skip.store(0);
    st.fail.store(0);
  }
}

uint64_t InjectedFaults(FaultSite s) { return g_sites[static_cast<int>(s)].injected.load(); }

}  // namespace simnpu::platform
