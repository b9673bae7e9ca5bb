// The live-object set of aclnn/common/live_objects.h.
#include "common/live_objects.h"

#include <mutex>
#include <unordered_set>

namespace {

struct LiveSet {
  std::mutex mu;                         // leaf lock
  std::unordered_set<const void*> objs;  // guarded by mu
};

LiveSet& Set() {
  static LiveSet* s = new LiveSet();  // never destroyed: destroys may run during exit
  return *s;
}

}  // namespace

extern "C" {

void simnpu_aclnn_live_add(const void* obj) {
  if (obj == nullptr) return;
  LiveSet& s = Set();
  std::lock_guard<std::mutex> g(s.mu);
  s.objs.insert(obj);
}

int simnpu_aclnn_live_remove(const void* obj) {
  LiveSet& s = Set();
  std::lock_guard<std::mutex> g(s.mu);
  return s.objs.erase(obj) != 0 ? 1 : 0;
}

int simnpu_aclnn_live_contains(const void* obj) {
  LiveSet& s = Set();
  std::lock_guard<std::mutex> g(s.mu);
  return s.objs.count(obj) != 0 ? 1 : 0;
}

}  // extern "C"
