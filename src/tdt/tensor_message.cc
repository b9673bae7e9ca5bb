#include "tdt/tensor_message.h"

#include <cstring>
#include <string>

#include "tdt/codes.h"

namespace simnpu::tdt {

std::shared_ptr<Mbuf> SerializeDataset(const std::vector<TensorView>& items) {
  size_t total = 0;
  for (auto& it : items) total += sizeof(ItemHeader) + it.dims.size() * sizeof(int64_t) + it.size;
  auto m = MakeMbuf(total);
  uint8_t* p = m->data();
  for (size_t i = 0; i < items.size(); ++i) {
    const TensorView& it = items[i];
    ItemHeader h;
    std::memset(&h, 0, sizeof h);
    h.version = kMessageVersion;
    h.data_type = it.tdt_type;
    h.cur_cnt = static_cast<uint32_t>(i);
    h.cnt = static_cast<uint32_t>(items.size());
    h.tensor_type = it.data_type;
    h.dim_num = static_cast<uint32_t>(it.dims.size());
    h.slice_num = it.slice_num;
    h.slice_id = it.slice_id;
    h.data_len = it.size;
    std::memcpy(p, &h, sizeof h);
    p += sizeof h;
    if (!it.dims.empty()) std::memcpy(p, it.dims.data(), it.dims.size() * sizeof(int64_t));
    p += it.dims.size() * sizeof(int64_t);
    if (it.size) std::memcpy(p, it.data, it.size);
    p += it.size;
  }
  return m;
}

Status ParseDataset(const Mbuf& m, std::vector<TensorView>* items) {
  items->clear();
  const uint8_t* p = m.area->data();
  size_t left = m.data_len;
  while (left > 0) {
    ItemHeader h;
    if (left < sizeof h) return Status(kInvalidParam, "truncated item header in a channel message");
    std::memcpy(&h, p, sizeof h);
    p += sizeof h;
    left -= sizeof h;
    if (h.version != kMessageVersion)
      return Status(kInvalidParam, "unknown channel message version " + std::to_string(h.version));
    if (h.dim_num > left / sizeof(int64_t)) return Status(kInvalidParam, "truncated dims in a channel message");
    TensorView v;
    v.tdt_type = h.data_type;
    v.data_type = h.tensor_type;
    v.dims.resize(h.dim_num);
    if (h.dim_num) std::memcpy(v.dims.data(), p, h.dim_num * sizeof(int64_t));
    p += h.dim_num * sizeof(int64_t);
    left -= h.dim_num * sizeof(int64_t);
    if (h.data_len > left) return Status(kInvalidParam, "truncated data in a channel message");
    v.data = p;
    v.size = static_cast<size_t>(h.data_len);
    v.slice_num = h.slice_num;
    v.slice_id = h.slice_id;
    p += v.size;
    left -= v.size;
    items->push_back(std::move(v));
  }
  return Status::Ok();
}

}  // namespace simnpu::tdt
