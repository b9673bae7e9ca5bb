// msproftx stamps and ranges (see msproftx.h).
#include "dfx/prof/msproftx.h"

#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dfx/trace/trace.h"
#include "platform/clock.h"

namespace simnpu::dfx::prof {
namespace {

constexpr uint32_t kStampMagic = 0x53544d50;  // "STMP"

struct Stamp {
  uint32_t magic = kStampMagic;
  uint32_t category = 0;
  int32_t payload_type = 0;
  void* payload = nullptr;
  char msg[kTxMaxMessage] = {};
};

struct Range {
  std::string msg;
  uint64_t start;
  uint32_t tid;
  uint32_t domain;
};

struct Tx {
  std::mutex mu;
  std::unordered_set<void*> stamps;               // GUARDED_BY(mu)
  std::unordered_map<uint64_t, Range> ranges;     // GUARDED_BY(mu)
  uint64_t next_range = 1;                        // GUARDED_BY(mu)
  std::map<uint32_t, std::string> categories;     // GUARDED_BY(mu)
  std::unordered_map<uint64_t, std::string> ids;  // GUARDED_BY(mu)
};
Tx& T() {
  static Tx* t = new Tx();
  return *t;
}

thread_local std::vector<Range> t_stack;

void RecordRange(const Range& r) {
  trace::Event e{r.start, trace::TraceNow() - r.start, trace::Kind::kTxRange, -1, -1, r.tid,
                 trace::Intern(r.msg.c_str()), r.domain, 0, 0, 0};
  trace::Record(e);
}

std::string MessageOf(const Stamp* s) { return std::string(s->msg, strnlen(s->msg, sizeof s->msg)); }

}  // namespace

bool TxEnabled() { return trace::On(trace::kCatTx); }

void* TxCreateStamp() {
  if (!TxEnabled()) return nullptr;
  auto* s = new Stamp();
  std::lock_guard<std::mutex> g(T().mu);
  T().stamps.insert(s);
  return s;
}

void TxDestroyStamp(void* stamp) {
  if (!stamp) return;
  std::lock_guard<std::mutex> g(T().mu);
  if (T().stamps.erase(stamp)) delete static_cast<Stamp*>(stamp);
}

bool TxValidStamp(void* stamp) {
  if (!stamp) return false;
  std::lock_guard<std::mutex> g(T().mu);
  return T().stamps.count(stamp) != 0;
}

int TxSetMessage(void* stamp, const char* msg, uint32_t len) {
  if (!TxEnabled() || !msg || len >= kTxMaxMessage || !TxValidStamp(stamp)) return kTxFailed;
  auto* s = static_cast<Stamp*>(stamp);
  std::memset(s->msg, 0, sizeof s->msg);
  std::memcpy(s->msg, msg, strnlen(msg, len));
  return 0;
}

int TxSetCategory(void* stamp, uint32_t category) {
  if (!TxEnabled() || !TxValidStamp(stamp)) return kTxFailed;
  static_cast<Stamp*>(stamp)->category = category;
  return 0;
}

int TxSetPayload(void* stamp, int32_t type, void* value) {
  if (!TxEnabled() || !TxValidStamp(stamp) || !value) return kTxFailed;
  auto* s = static_cast<Stamp*>(stamp);
  s->payload_type = type;
  s->payload = value;
  return 0;
}

int TxSetCategoryName(uint32_t category, const char* name) {
  if (!TxEnabled() || !name) return kTxFailed;
  std::lock_guard<std::mutex> g(T().mu);
  T().categories[category] = name;
  return 0;
}

int TxMark(void* stamp) {
  if (!TxEnabled() || !TxValidStamp(stamp)) return kTxFailed;
  trace::RecordInstant(trace::Kind::kTxMark, -1, MessageOf(static_cast<Stamp*>(stamp)).c_str());
  return 0;
}

int TxPush(void* stamp) {
  if (!TxEnabled() || !TxValidStamp(stamp)) return kTxFailed;
  t_stack.push_back({MessageOf(static_cast<Stamp*>(stamp)), trace::TraceNow(), trace::CurrentTid(), 0});
  return 0;
}

int TxPop() { return TxPopMessage(); }

int TxRangeStart(void* stamp, uint32_t* id) {
  if (!TxEnabled() || !id || !TxValidStamp(stamp)) return kTxFailed;
  uint64_t rid = TxStartMessageRange(MessageOf(static_cast<Stamp*>(stamp)), 0);
  if (rid == 0 || rid > UINT32_MAX) return kTxFailed;
  *id = static_cast<uint32_t>(rid);
  return 0;
}

int TxRangeStop(uint32_t id) { return TxStopMessageRange(id); }

void TxMarkMessage(const std::string& msg, int32_t stream, uint32_t domain) {
  if (!TxEnabled()) return;
  trace::Event e{trace::TraceNow(), 0, trace::Kind::kTxMark, -1, stream, trace::CurrentTid(),
                 trace::Intern(msg.c_str()), domain, 0, 0, 0};
  trace::Record(e);
}

void TxPushMessage(const std::string& msg, uint32_t domain) {
  if (!TxEnabled()) return;
  t_stack.push_back({msg, trace::TraceNow(), trace::CurrentTid(), domain});
}

int TxPopMessage() {
  if (t_stack.empty()) return kTxFailed;
  Range r = std::move(t_stack.back());
  t_stack.pop_back();
  if (TxEnabled()) RecordRange(r);
  return 0;
}

uint64_t TxStartMessageRange(const std::string& msg, uint32_t domain) {
  if (!TxEnabled()) return 0;
  std::lock_guard<std::mutex> g(T().mu);
  uint64_t id = T().next_range++;
  T().ranges[id] = {msg, trace::TraceNow(), trace::CurrentTid(), domain};
  return id;
}

int TxStopMessageRange(uint64_t id) {
  Range r;
  {
    std::lock_guard<std::mutex> g(T().mu);
    auto it = T().ranges.find(id);
    if (it == T().ranges.end()) return kTxFailed;
    r = std::move(it->second);
    T().ranges.erase(it);
  }
  if (TxEnabled()) RecordRange(r);
  return 0;
}

uint64_t TxStr2Id(const char* s) {
  if (!s) return 0;
  // FNV-1a; 0 is reserved for "no string".
  uint64_t h = 1469598103934665603ull;
  for (const char* p = s; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
  if (h == 0) h = 1;
  std::lock_guard<std::mutex> g(T().mu);
  T().ids.emplace(h, s);
  return h;
}

std::string TxIdString(uint64_t id) {
  std::lock_guard<std::mutex> g(T().mu);
  auto it = T().ids.find(id);
  return it == T().ids.end() ? std::string() : it->second;
}

void TxStep(uint64_t step, int tag) {
  if (!TxEnabled() && !trace::On(trace::kCatTask)) return;
  trace::Event e{trace::TraceNow(), 0, trace::Kind::kTxStep, -1, -1, trace::CurrentTid(), 0,
                 static_cast<uint64_t>(tag), step, 0, 0};
  trace::Record(e);
}

uint32_t TxDomainId(const char* name) { return name ? trace::Intern(name) : 0; }

}  // namespace simnpu::dfx::prof
