// acl/acl_tdt.h: data items, datasets and queue-backed channels. The queue
// behind a channel lives in tdt::QueueService (hidden from the queue API);
// a send serialises the dataset into one buffer (tdt/tensor_message.h), a
// receive parses one into the dataset, which then owns the items.
#include <cstring>
#include <string>

#include "acl/acl_tdt.h"
#include "api/api_common.h"
#include "core/allocation_map.h"
#include "sim/soc.h"
#include "tdt/codes.h"
#include "tdt/objects.h"
#include "tdt/queue_service.h"
#include "tdt/tensor_message.h"

namespace api = simnpu::api;
namespace tdt = simnpu::tdt;
namespace core = simnpu::core;

namespace {

constexpr size_t kChannelNameBytes = 128;
constexpr size_t kMinCapacity = 2;
constexpr size_t kMaxCapacity = 8192;
constexpr size_t kLegacyCapacity = 128;  // acltdtCreateChannel: the reference gives no depth

// Reports an ACL-layer failure of a pointer-returning function; NULL.
template <typename T>
T* NullResult(const char* func, const char* param, const std::string& value, const std::string& reason) {
  simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009, {func, value, param, reason});
  return nullptr;
}

aclError NotLive(const char* func, const char* param, const void* p, const char* what) {
  simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009,
                         {func, api::Hex(p), param, std::string("not a live ") + what});
  return ACL_ERROR_INVALID_PARAM;
}

bool IsDeviceMemory(const void* p) {
  if (p == nullptr) return false;
  auto a = core::AllocationMap::Get().Find(p);
  return a && (core::KindBit(a->kind) & core::kDeviceKinds) != 0;
}

// Timeouts in ms: -1 forever, 0 no wait, > 0 that long.
aclError CheckTimeout(const char* func, int32_t timeout) {
  if (timeout < -1) return api::BadParam(func, "timeout", std::to_string(timeout), "-1, 0 or a positive number of ms");
  return ACL_SUCCESS;
}

bool ChannelsSupported() {
  const simnpu::sim::SocInfo* soc = simnpu::sim::CurrentSoc();
  if (soc == nullptr) return false;
  const std::string fam = soc->family;
  return fam != "310B" && fam != "310P";  // acl-api-ext.md §8.3 product list
}

void DestroyOwnedItems(acltdtDataset* ds) {
  for (acltdtDataItem* it : ds->items) tdt::Items().Take(it);
  ds->items.clear();
  ds->message.reset();
  ds->owns_items = false;
}

acltdtChannelHandle* CreateChannel(const char* func, uint32_t deviceId, const char* name, size_t capacity,
                                   bool legacy) {
  if (name == nullptr) {
    api::NullParam(func, "name");
    return nullptr;
  }
  const size_t len = strnlen(name, kChannelNameBytes);
  if (len + 1 > kChannelNameBytes)
    return NullResult<acltdtChannelHandle>(func, "name", "(a long name)", "longer than 127 characters");
  if (!legacy && (capacity < kMinCapacity || capacity > kMaxCapacity))
    return NullResult<acltdtChannelHandle>(func, "capacity", std::to_string(capacity), "outside [2, 8192]");
  if (!ChannelsSupported()) {
    api::NotSupported(func, "TDT channels are not available on this SOC");
    return nullptr;
  }
  const int count = core::Runtime::Get().device_count();
  if (static_cast<int64_t>(deviceId) >= count)
    return NullResult<acltdtChannelHandle>(func, "deviceId", std::to_string(deviceId),
                                           "there are " + std::to_string(count) + " devices");
  auto q = tdt::QueueService::Get().Create("", static_cast<uint32_t>(legacy ? kLegacyCapacity : capacity),
                                           static_cast<int>(deviceId), /*hidden=*/true);
  if (!q.ok()) {
    api::Fail(func, q.status());
    return nullptr;
  }
  auto ch = std::make_unique<acltdtChannelHandle>();
  ch->device = deviceId;
  ch->name.assign(name, len);
  ch->capacity = legacy ? kLegacyCapacity : capacity;
  ch->qid = *q;
  ch->legacy = legacy;
  return tdt::Channels().Add(std::move(ch));
}

}  // namespace

// ---- data items ----

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem) {
  if (dataItem == nullptr || !tdt::Items().Has(dataItem)) return ACL_TENSOR_DATA_UNDEFINED;
  return static_cast<acltdtTensorType>(dataItem->tdt_type);
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem) {
  if (dataItem == nullptr || !tdt::Items().Has(dataItem)) return ACL_DT_UNDEFINED;
  return static_cast<aclDataType>(dataItem->data_type);
}

void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem) {
  if (dataItem == nullptr || !tdt::Items().Has(dataItem)) return nullptr;
  return dataItem->data;
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem) {
  if (dataItem == nullptr || !tdt::Items().Has(dataItem)) return 0;
  return dataItem->size;
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem) {
  if (dataItem == nullptr || !tdt::Items().Has(dataItem)) return 0;
  return dataItem->dims.size();
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId) {
  ACL_REQUIRE_NOT_NULL(dataItem);
  ACL_REQUIRE_NOT_NULL(sliceNum);
  ACL_REQUIRE_NOT_NULL(sliceId);
  if (!tdt::Items().Has(dataItem)) return NotLive(__func__, "dataItem", dataItem, "data item");
  *sliceNum = dataItem->slice_num;
  *sliceId = dataItem->slice_id;
  return ACL_SUCCESS;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum) {
  ACL_REQUIRE_NOT_NULL(dataItem);
  if (!tdt::Items().Has(dataItem)) return NotLive(__func__, "dataItem", dataItem, "data item");
  if (dims == nullptr && dimNum > 0) return api::NullParam(__func__, "dims");
  if (dims != nullptr && dimNum == 0)
    return api::BadParam(__func__, "dimNum", "0", "the size of the dims array (dims is not NULL)");
  if (dimNum < dataItem->dims.size())
    return api::BadParam(__func__, "dimNum", std::to_string(dimNum),
                         "at least the item's " + std::to_string(dataItem->dims.size()) + " dims");
  for (size_t i = 0; i < dataItem->dims.size(); ++i) dims[i] = dataItem->dims[i];
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
                                     aclDataType dataType, void* data, size_t size) {
  const int type = api::RawEnum(tdtType);
  if (type < ACL_TENSOR_DATA_TENSOR || type > ACL_TENSOR_DATA_END_TENSOR)
    return NullResult<acltdtDataItem>(__func__, "tdtType", std::to_string(type), "not an acltdtTensorType");
  if (dims == nullptr && dimNum > 0)
    return NullResult<acltdtDataItem>(__func__, "dims", "NULL", "dimNum is " + std::to_string(dimNum));
  if (dims != nullptr && dimNum == 0)
    return NullResult<acltdtDataItem>(__func__, "dimNum", "0", "dims is not NULL");
  if (dimNum > kTdtMaxDims)
    return NullResult<acltdtDataItem>(__func__, "dimNum", std::to_string(dimNum), "more than 128 dims");
  if (type != ACL_TENSOR_DATA_TENSOR && dimNum > 0)
    return NullResult<acltdtDataItem>(__func__, "dims", "(dims given)", "only a TENSOR item has dims");
  if (data == nullptr && size > 0)
    return NullResult<acltdtDataItem>(__func__, "data", "NULL", "size is " + std::to_string(size));
  auto it = std::make_unique<acltdtDataItem>();
  it->tdt_type = type;
  it->data_type = api::RawEnum(dataType);
  it->dims.assign(dims, dims + dimNum);
  it->data = data;
  it->size = size;
  it->device_data = IsDeviceMemory(data);
  return tdt::Items().Add(std::move(it));
}

aclError acltdtDestroyDataItem(acltdtDataItem* dataItem) {
  ACL_REQUIRE_NOT_NULL(dataItem);
  if (!tdt::Items().Has(dataItem)) return NotLive(__func__, "dataItem", dataItem, "data item");
  if (dataItem->owner != nullptr)
    return api::BadParam(__func__, "dataItem", api::Hex(dataItem),
                         "an item of a dataset filled by acltdtReceiveTensor (destroying the dataset destroys it)");
  tdt::Items().Take(dataItem);
  return ACL_SUCCESS;
}

// ---- datasets ----

acltdtDataset* acltdtCreateDataset(void) { return tdt::Datasets().Add(std::make_unique<acltdtDataset>()); }

aclError acltdtDestroyDataset(acltdtDataset* dataset) {
  ACL_REQUIRE_NOT_NULL(dataset);
  if (!tdt::Datasets().Has(dataset)) return NotLive(__func__, "dataset", dataset, "dataset");
  if (dataset->owns_items) DestroyOwnedItems(dataset);
  tdt::Datasets().Take(dataset);
  return ACL_SUCCESS;
}

acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index) {
  if (dataset == nullptr) {
    api::NullParam(__func__, "dataset");
    return nullptr;
  }
  if (!tdt::Datasets().Has(dataset))
    return NullResult<acltdtDataItem>(__func__, "dataset", api::Hex(dataset), "not a live dataset");
  if (index >= dataset->items.size())
    return NullResult<acltdtDataItem>(__func__, "index", std::to_string(index),
                                      "the dataset has " + std::to_string(dataset->items.size()) + " items");
  return dataset->items[index];
}

aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem) {
  ACL_REQUIRE_NOT_NULL(dataset);
  ACL_REQUIRE_NOT_NULL(dataItem);
  if (!tdt::Datasets().Has(dataset)) return NotLive(__func__, "dataset", dataset, "dataset");
  if (!tdt::Items().Has(dataItem)) return NotLive(__func__, "dataItem", dataItem, "data item");
  if (dataset->owns_items) {
    simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009,
                           {__func__, api::Hex(dataset), "dataset",
                            "it holds received items; add to a dataset you created and filled yourself"});
    return ACL_ERROR_FEATURE_UNSUPPORTED;
  }
  // Host and device data cannot be mixed (items without data take either side).
  if (dataItem->data != nullptr) {
    for (const acltdtDataItem* other : dataset->items) {
      if (other->data == nullptr || other->device_data == dataItem->device_data) continue;
      return api::BadParam(__func__, "dataItem", api::Hex(dataItem),
                           std::string("an item whose data is ") + (other->device_data ? "device" : "host") +
                               " memory like the dataset's other items (host and device data cannot be mixed)");
    }
  }
  dataset->items.push_back(dataItem);
  return ACL_SUCCESS;
}

size_t acltdtGetDatasetSize(const acltdtDataset* dataset) {
  if (dataset == nullptr || !tdt::Datasets().Has(dataset)) return 0;
  return dataset->items.size();
}

const char* acltdtGetDatasetName(const acltdtDataset* dataset) {
  if (dataset == nullptr) {
    api::NullParam(__func__, "dataset");
    return nullptr;
  }
  if (!tdt::Datasets().Has(dataset))
    return NullResult<const char>(__func__, "dataset", api::Hex(dataset), "not a live dataset");
  return dataset->name.c_str();
}

// ---- channels ----

acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
  return CreateChannel(__func__, deviceId, name, 0, /*legacy=*/true);
}

acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity) {
  return CreateChannel(__func__, deviceId, name, capacity, /*legacy=*/false);
}

aclError acltdtStopChannel(acltdtChannelHandle* handle) {
  ACL_REQUIRE_NOT_NULL(handle);
  if (!tdt::Channels().Has(handle)) return NotLive(__func__, "handle", handle, "channel");
  return ACL_SUCCESS;  // queue-backed channels have nothing to stop
}

aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
  ACL_REQUIRE_NOT_NULL(handle);
  auto ch = tdt::Channels().Take(handle);
  if (!ch) return NotLive(__func__, "handle", handle, "channel");
  (void)tdt::QueueService::Get().Destroy(ch->qid, /*internal=*/true);
  return ACL_SUCCESS;
}

aclError acltdtCleanChannel(acltdtChannelHandle* handle) {
  ACL_REQUIRE_NOT_NULL(handle);
  if (!tdt::Channels().Has(handle)) return NotLive(__func__, "handle", handle, "channel");
  if (handle->legacy) {
    simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009,
                           {__func__, handle->name, "handle",
                            "a channel made by acltdtCreateChannel cannot be cleaned"});
    return ACL_ERROR_FEATURE_UNSUPPORTED;
  }
  ACL_REQUIRE_OK(tdt::QueueService::Get().Clear(handle->qid, /*internal=*/true));
  return ACL_SUCCESS;
}

aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(dataset);
  if (!tdt::Channels().Has(handle)) return NotLive(__func__, "handle", handle, "channel");
  if (!tdt::Datasets().Has(dataset)) return NotLive(__func__, "dataset", dataset, "dataset");
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  if (handle->legacy && timeout != -1)
    return api::BadParam(__func__, "timeout", std::to_string(timeout), "-1 on a channel made by acltdtCreateChannel");
  if (dataset->items.empty()) return api::BadParam(__func__, "dataset", api::Hex(dataset), "a dataset with items");
  std::vector<tdt::TensorView> views;
  views.reserve(dataset->items.size());
  for (const acltdtDataItem* it : dataset->items) {
    if (!tdt::Items().Has(it))
      return api::BadParam(__func__, "dataset", api::Hex(dataset),
                           "a dataset whose items are all live (one was destroyed)");
    tdt::TensorView v;
    v.tdt_type = it->tdt_type;
    v.data_type = it->data_type;
    v.dims = it->dims;
    v.data = static_cast<const uint8_t*>(it->data);
    v.size = it->size;
    v.slice_num = static_cast<uint16_t>(it->slice_num);
    v.slice_id = static_cast<uint16_t>(it->slice_id);
    views.push_back(std::move(v));
  }
  ACL_REQUIRE_OK(tdt::QueueService::Get().Enqueue(handle->qid, tdt::SerializeDataset(views), timeout, true));
  return ACL_SUCCESS;
}

aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(dataset);
  if (!tdt::Channels().Has(handle)) return NotLive(__func__, "handle", handle, "channel");
  if (!tdt::Datasets().Has(dataset)) return NotLive(__func__, "dataset", dataset, "dataset");
  if (aclError rc = CheckTimeout(__func__, timeout)) return rc;
  if (handle->legacy && timeout != -1)
    return api::BadParam(__func__, "timeout", std::to_string(timeout), "-1 on a channel made by acltdtCreateChannel");
  if (!dataset->owns_items && !dataset->items.empty())
    return api::BadParam(__func__, "dataset", api::Hex(dataset),
                         "an empty dataset (or one filled by an earlier receive)");
  auto m = tdt::QueueService::Get().Dequeue(handle->qid, timeout, SIZE_MAX, /*internal=*/true);
  if (!m.ok()) return api::Fail(__func__, m.status());
  std::vector<tdt::TensorView> views;
  ACL_REQUIRE_OK(tdt::ParseDataset(**m, &views));
  DestroyOwnedItems(dataset);  // the previous receive's items and message
  dataset->message = *m;
  dataset->owns_items = true;
  for (auto& v : views) {
    auto it = std::make_unique<acltdtDataItem>();
    it->tdt_type = v.tdt_type;
    it->data_type = v.data_type;
    it->dims = std::move(v.dims);
    it->data = const_cast<uint8_t*>(v.data);
    it->size = v.size;
    it->slice_num = v.slice_num;
    it->slice_id = v.slice_id;
    it->owner = dataset;
    dataset->items.push_back(tdt::Items().Add(std::move(it)));
  }
  return ACL_SUCCESS;
}

aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size) {
  ACL_REQUIRE_NOT_NULL(handle);
  ACL_REQUIRE_NOT_NULL(size);
  if (!tdt::Channels().Has(handle)) return NotLive(__func__, "handle", handle, "channel");
  if (handle->legacy) {
    simnpu::dfx::ReportErr(api::LogModule::kAscendcl, api::ErrCode::EH0009,
                           {__func__, handle->name, "handle",
                            "a channel made by acltdtCreateChannel has no size query"});
    return ACL_ERROR_FEATURE_UNSUPPORTED;
  }
  auto n = tdt::QueueService::Get().Size(handle->qid, /*internal=*/true);
  if (!n.ok()) return api::Fail(__func__, n.status());
  *size = *n;
  return ACL_SUCCESS;
}
