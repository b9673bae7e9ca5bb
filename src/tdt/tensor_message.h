// The wire form of a dataset sent over a channel: one message per dataset,
// each item a packed 64-byte header, its dims (int64 each), then its data
// bytes, items back to back (acl-api-ext.md §8.3).
#ifndef SIMNPU_TDT_TENSOR_MESSAGE_H_
#define SIMNPU_TDT_TENSOR_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "platform/status.h"
#include "tdt/mbuf.h"

namespace simnpu::tdt {

#pragma pack(push, 1)
struct ItemHeader {
  uint32_t version;
  int32_t data_type;    // acltdtTensorType
  uint32_t cur_cnt;     // index of this item in the dataset
  uint32_t cnt;         // items in the dataset
  int32_t tensor_type;  // aclDataType
  uint32_t dim_num;
  uint32_t dynamic_bit_size;
  uint16_t slice_num;
  uint16_t slice_id;
  uint8_t reserved[24];
  uint64_t data_len;
};
#pragma pack(pop)
static_assert(sizeof(ItemHeader) == 64, "the item header is 64 bytes");

constexpr uint32_t kMessageVersion = 2;

struct TensorView {
  int32_t tdt_type = 0;
  int32_t data_type = 0;
  std::vector<int64_t> dims;
  const uint8_t* data = nullptr;  // serialise: source; parse: into the message
  size_t size = 0;
  uint16_t slice_num = 0;
  uint16_t slice_id = 0;
};

// One buffer holding every item.
std::shared_ptr<Mbuf> SerializeDataset(const std::vector<TensorView>& items);
// The items of a message; data pointers point into m. 100000 when the
// message is malformed (truncated, or another version).
Status ParseDataset(const Mbuf& m, std::vector<TensorView>* items);

}  // namespace simnpu::tdt

#endif  // SIMNPU_TDT_TENSOR_MESSAGE_H_
