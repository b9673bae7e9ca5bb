// libprofapi.so's entry points: the mstx injection (InitInjectionMstx fills
// the function table of mstx/ms_tools_ext.h) and the Msprof* functions of
// profiling/aprof_pub.h. mstx markers and ranges become msproftx trace
// events (dfx/prof/msproftx) with their domain.
//
// Domains: a name of 1..1023 characters from [A-Za-z0-9_] gets one handle
// for the process (created on first use, never freed: a destroyed domain's
// handle keeps working). SIMNPU_MSTX_DOMAIN_INCLUDE / _EXCLUDE (comma lists,
// set by msprof's --mstx-domain-include/--mstx-domain-exclude) filter which
// domains record; the default domain always records unless excluded as
// "default".
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "dfx/prof/msproftx.h"
#include "mstx/mstx_detail/mstx_types.h"
#include "platform/env.h"

struct mstxDomainRegistration_st {
  std::string name;
  uint32_t trace_id = 0;
};

namespace {

namespace prof = simnpu::dfx::prof;

struct Domains {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<mstxDomainRegistration_st>> by_name;  // GUARDED_BY(mu)
  std::set<std::string> include, exclude;  // read-only after construction
  Domains() {
    auto split = [](const char* env, std::set<std::string>* out) {
      auto v = simnpu::platform::GetEnv(env);
      if (!v) return;
      size_t pos = 0;
      while (pos <= v->size()) {
        size_t end = v->find(',', pos);
        if (end == std::string::npos) end = v->size();
        if (end > pos) out->insert(v->substr(pos, end - pos));
        pos = end + 1;
      }
    };
    split("SIMNPU_MSTX_DOMAIN_INCLUDE", &include);
    split("SIMNPU_MSTX_DOMAIN_EXCLUDE", &exclude);
  }
  bool Records(const std::string& name) const {
    if (!include.empty()) return include.count(name) != 0;
    return exclude.count(name) == 0;
  }
};
Domains& D() {
  static Domains* d = new Domains();
  return *d;
}

bool ValidDomainName(const char* n) {
  if (!n || !*n) return false;
  size_t len = 0;
  for (const char* p = n; *p; ++p, ++len)
    if (!(std::isalnum(static_cast<unsigned char>(*p)) || *p == '_') || len >= 1023) return false;
  return true;
}

uint32_t DomainId(mstxDomainHandle_t d) {
  if (!d) return 0;
  if (d->trace_id == 0) d->trace_id = prof::TxDomainId(d->name.c_str());
  return d->trace_id;
}

void MarkA(const char* message, aclrtStream) {
  if (message && D().Records("default")) prof::TxMarkMessage(message, -1, 0);
}
mstxRangeId RangeStartA(const char* message, aclrtStream) {
  if (!message || !D().Records("default")) return 0;
  return prof::TxStartMessageRange(message, 0);
}
void RangeEnd(mstxRangeId id) { prof::TxStopMessageRange(id); }
mstxDomainHandle_t DomainCreateA(const char* name) {
  if (!ValidDomainName(name)) return nullptr;
  std::lock_guard<std::mutex> g(D().mu);
  auto& slot = D().by_name[name];
  if (!slot) {
    slot = std::make_unique<mstxDomainRegistration_st>();
    slot->name = name;
  }
  return slot.get();
}
void DomainDestroy(mstxDomainHandle_t) {}
void DomainMarkA(mstxDomainHandle_t d, const char* message, aclrtStream) {
  if (!d || !message || !D().Records(d->name)) return;
  prof::TxMarkMessage(message, -1, DomainId(d));
}
mstxRangeId DomainRangeStartA(mstxDomainHandle_t d, const char* message, aclrtStream) {
  if (!d || !message || !D().Records(d->name)) return 0;
  return prof::TxStartMessageRange(message, DomainId(d));
}
void DomainRangeEnd(mstxDomainHandle_t, mstxRangeId id) { prof::TxStopMessageRange(id); }

std::mutex g_model_mu;
std::map<uint32_t, uint32_t> g_model_device;  // GUARDED_BY(g_model_mu)

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int InitInjectionMstx(mstxFunctionTable* table) {
  if (!table || table->size < sizeof(size_t)) return MSTX_FAIL;
  mstxFunctionTable t;
  std::memset(&t, 0, sizeof t);
  t.size = sizeof t;
  t.markA = MarkA;
  t.rangeStartA = RangeStartA;
  t.rangeEnd = RangeEnd;
  t.domainCreateA = DomainCreateA;
  t.domainDestroy = DomainDestroy;
  t.domainMarkA = DomainMarkA;
  t.domainRangeStartA = DomainRangeStartA;
  t.domainRangeEnd = DomainRangeEnd;
  const size_t n = table->size < sizeof t ? table->size : sizeof t;
  std::memcpy(reinterpret_cast<char*>(table) + sizeof(size_t), reinterpret_cast<const char*>(&t) + sizeof(size_t),
              n - sizeof(size_t));
  return MSTX_SUCCESS;
}

__attribute__((visibility("default"))) int32_t MsprofSetDeviceIdByGeModelIdx(uint32_t geModelIdx,
                                                                             uint32_t deviceId) {
  std::lock_guard<std::mutex> g(g_model_mu);
  g_model_device[geModelIdx] = deviceId;
  return 0;
}

__attribute__((visibility("default"))) int32_t MsprofUnsetDeviceIdByGeModelIdx(uint32_t geModelIdx,
                                                                               uint32_t deviceId) {
  std::lock_guard<std::mutex> g(g_model_mu);
  auto it = g_model_device.find(geModelIdx);
  if (it == g_model_device.end() || it->second != deviceId) return -1;
  g_model_device.erase(it);
  return 0;
}

}  // extern "C"
