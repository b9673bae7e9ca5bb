// HandleRegistry<T>: the live objects behind opaque ACL handles.
//
// Handles given to users are raw pointers to runtime objects. Every API call
// looks its handle up here and gets a shared_ptr that keeps the object alive
// for the duration of the call, so a handle that was never created, or was
// destroyed, is reported as invalid instead of crashing.
#ifndef SIMNPU_CORE_HANDLE_REGISTRY_H_
#define SIMNPU_CORE_HANDLE_REGISTRY_H_

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simnpu::core {

template <typename T>
class HandleRegistry {
 public:
  void Add(const std::shared_ptr<T>& obj) {
    std::lock_guard<std::mutex> g(mu_);
    map_[obj.get()] = obj;
  }
  std::shared_ptr<T> Find(const void* h) const {
    std::lock_guard<std::mutex> g(mu_);
    auto it = map_.find(h);
    return it == map_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> Remove(const void* h) {
    std::lock_guard<std::mutex> g(mu_);
    auto it = map_.find(h);
    if (it == map_.end()) return nullptr;
    auto obj = it->second;
    map_.erase(it);
    return obj;
  }
  // Snapshot of the live objects matching pred.
  std::vector<std::shared_ptr<T>> Select(const std::function<bool(const T&)>& pred) const {
    std::lock_guard<std::mutex> g(mu_);
    std::vector<std::shared_ptr<T>> out;
    for (auto& [k, v] : map_)
      if (pred(*v)) out.push_back(v);
    return out;
  }
  size_t size() const {
    std::lock_guard<std::mutex> g(mu_);
    return map_.size();
  }

 private:
  mutable std::mutex mu_;  // leaf lock
  std::unordered_map<const void*, std::shared_ptr<T>> map_;
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_HANDLE_REGISTRY_H_
