// Model subscription (see subscription.h).
#include "dfx/prof/subscription.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace simnpu::dfx::prof {
namespace {

struct Subscriptions {
  std::mutex mu;
  std::set<uint32_t> models;                              // GUARDED_BY(mu)
  std::map<uint32_t, int> fds;                            // model -> pipe write end. GUARDED_BY(mu)
  std::set<uint32_t> active;                              // subscribed successfully. GUARDED_BY(mu)
  std::vector<std::pair<std::string, std::string>> ops;   // op_index -> (name, type). GUARDED_BY(mu)
  std::map<std::pair<std::string, std::string>, uint64_t> op_ids;  // GUARDED_BY(mu)
};
Subscriptions& S() {
  static Subscriptions* s = new Subscriptions();
  return *s;
}

}  // namespace

void RegisterModel(uint32_t model_id) {
  std::lock_guard<std::mutex> g(S().mu);
  S().models.insert(model_id);
}

void UnregisterModel(uint32_t model_id) {
  std::lock_guard<std::mutex> g(S().mu);
  S().models.erase(model_id);
}

int Subscribe(uint32_t model_id, const SubscribeConfig& cfg) {
  std::lock_guard<std::mutex> g(S().mu);
  if (S().active.count(model_id)) return 148046;  // ACL_ERROR_PROF_REPEAT_SUBSCRIBE
  S().fds[model_id] = cfg.fd;
  if (!S().models.count(model_id)) return 100011;  // ACL_ERROR_INVALID_MODEL_ID
  S().active.insert(model_id);
  return 0;
}

int Unsubscribe(uint32_t model_id) {
  std::lock_guard<std::mutex> g(S().mu);
  auto it = S().fds.find(model_id);
  if (it == S().fds.end()) return 100000;
  if (it->second >= 0) ::close(it->second);
  S().fds.erase(it);
  S().active.erase(model_id);
  return 0;
}

void ReportModelOp(uint32_t model_id, const std::string& op_name, const std::string& op_type, uint64_t start_ns,
                   uint64_t end_ns, uint32_t dev_id) {
  std::lock_guard<std::mutex> g(S().mu);
  if (!S().active.count(model_id)) return;
  auto key = std::make_pair(op_name, op_type);
  auto it = S().op_ids.find(key);
  uint64_t idx;
  if (it != S().op_ids.end()) {
    idx = it->second;
  } else {
    idx = S().ops.size();
    S().ops.push_back(key);
    S().op_ids.emplace(key, idx);
  }
  OpRecord r{};
  r.signature = kOpRecordSignature;
  r.model_id = model_id;
  r.flag = 0;  // ACL_SUBSCRIBE_OP
  r.thread_id = static_cast<uint32_t>(::syscall(SYS_gettid));
  r.op_index = idx;
  r.start = start_ns / 1000;
  r.end = end_ns / 1000;
  r.duration = r.end - r.start;
  r.execution_time = r.duration;
  r.dev_id = dev_id;
  ssize_t n = ::write(S().fds[model_id], &r, sizeof r);
  (void)n;  // a closed reader loses the record, as with the real pipe
}

bool RecordAt(const void* info, size_t len, uint32_t index, OpRecord* out) {
  if (!info || len == 0 || len % sizeof(OpRecord) != 0 || index >= len / sizeof(OpRecord)) return false;
  std::memcpy(out, static_cast<const char*>(info) + index * sizeof(OpRecord), sizeof *out);
  return out->signature == kOpRecordSignature;
}

bool OpNames(uint64_t op_index, std::string* name, std::string* type) {
  std::lock_guard<std::mutex> g(S().mu);
  if (op_index >= S().ops.size()) return false;
  *name = S().ops[op_index].first;
  *type = S().ops[op_index].second;
  return true;
}

}  // namespace simnpu::dfx::prof
