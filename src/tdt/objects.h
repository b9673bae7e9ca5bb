// The objects behind the opaque TDT handles (acl/acl_tdt.h, acl_tdt_queue.h)
// and the tables of live ones, so that a handle that was never created or
// was destroyed is reported, never dereferenced.
//
//   acltdtDataItem       one tensor: type, dims, element type, data pointer
//                        (borrowed from the user, or into the receiving
//                        dataset's message for received items)
//   acltdtDataset        items in order; a dataset filled by a receive owns
//                        its items and the message they point into
//   acltdtChannelHandle  a channel: device, name, capacity, hidden queue
//   tagMemQueueAttr      queue attributes (the CANN runtime's layout)
//   acltdtQueueRoute / acltdtQueueRouteList / acltdtQueueRouteQueryInfo
//
// Objects are used by one thread at a time (the program's responsibility,
// as in CANN); the tables' lock is a leaf.
#ifndef SIMNPU_TDT_OBJECTS_H_
#define SIMNPU_TDT_OBJECTS_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "tdt/mbuf.h"

struct acltdtDataset;

constexpr size_t kTdtMaxDims = 128;

struct acltdtDataItem {
  int32_t tdt_type = 0;   // acltdtTensorType
  int32_t data_type = 0;  // aclDataType
  std::vector<int64_t> dims;
  void* data = nullptr;
  size_t size = 0;
  bool device_data = false;  // data is device memory (aclrtMalloc and kin)
  size_t slice_num = 0;
  size_t slice_id = 0;
  const acltdtDataset* owner = nullptr;  // receiving dataset that owns this item
};

struct acltdtDataset {
  std::vector<acltdtDataItem*> items;
  bool owns_items = false;  // filled by acltdtReceiveTensor
  std::string name;
  std::shared_ptr<simnpu::tdt::Mbuf> message;  // received message the owned items point into
};

struct acltdtChannelHandle {
  uint32_t device = 0;
  std::string name;
  size_t capacity = 0;
  uint32_t qid = 0;     // the hidden queue behind the channel
  bool legacy = false;  // acltdtCreateChannel (timeouts -1 only, no size/clean)
};

// Layout of the CANN runtime's queue attributes (acl-api-ext.md §8.1).
struct tagMemQueueAttr {
  char name[128];
  uint32_t depth;
  uint32_t workMode;
  uint32_t flowCtrlDropTime;
  bool flowCtrlFlag;
  bool overWriteFlag;
  uint32_t deployType : 1;
  uint32_t resv : 31;
};

struct acltdtQueueRoute {
  uint32_t src = 0;
  uint32_t dst = 0;
  int32_t status = 0;  // ACL_TDT_QUEUE_ROUTE_UNBIND / BIND / BIND_ABNORMAL
};

struct acltdtQueueRouteList {
  std::vector<acltdtQueueRoute> routes;  // copies
};

struct acltdtQueueRouteQueryInfo {
  int32_t mode = -1;  // acltdtQueueRouteQueryMode; -1 = not set
  bool has_src = false, has_dst = false;
  uint32_t src = 0, dst = 0;
};

namespace simnpu::tdt {

template <typename T>
class LiveTable {
 public:
  T* Add(std::unique_ptr<T> obj) {
    std::lock_guard<std::mutex> g(mu_);
    T* p = obj.get();
    live_[p] = std::move(obj);
    return p;
  }
  bool Has(const void* p) const {
    std::lock_guard<std::mutex> g(mu_);
    return live_.count(p) != 0;
  }
  std::unique_ptr<T> Take(const void* p) {
    std::lock_guard<std::mutex> g(mu_);
    auto it = live_.find(p);
    if (it == live_.end()) return nullptr;
    auto obj = std::move(it->second);
    live_.erase(it);
    return obj;
  }
  size_t size() const {
    std::lock_guard<std::mutex> g(mu_);
    return live_.size();
  }

 private:
  mutable std::mutex mu_;  // leaf
  std::unordered_map<const void*, std::unique_ptr<T>> live_;
};

// Process-wide tables (never destroyed: exit-time code may still call in).
LiveTable<acltdtDataItem>& Items();
LiveTable<acltdtDataset>& Datasets();
LiveTable<acltdtChannelHandle>& Channels();
LiveTable<tagMemQueueAttr>& QueueAttrs();
LiveTable<acltdtQueueRoute>& Routes();
LiveTable<acltdtQueueRouteList>& RouteLists();
LiveTable<acltdtQueueRouteQueryInfo>& RouteQueries();

}  // namespace simnpu::tdt

#endif  // SIMNPU_TDT_OBJECTS_H_
