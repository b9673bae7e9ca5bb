#include "tdt/mbuf.h"

namespace simnpu::tdt {

std::shared_ptr<Mbuf> MakeMbuf(size_t size) {
  auto b = std::make_shared<Mbuf>();
  b->area = std::make_shared<std::vector<uint8_t>>(size);
  b->data_len = size;
  return b;
}

MbufTable& MbufTable::Get() {
  static MbufTable* t = new MbufTable();  // never destroyed: used from exit-time teardown
  return *t;
}

void* MbufTable::Adopt(const std::shared_ptr<Mbuf>& b) {
  std::lock_guard<std::mutex> g(mu_);
  live_[b.get()] = b;
  for (auto& c : b->chain) live_[c.get()] = c;
  return b.get();
}

std::shared_ptr<Mbuf> MbufTable::Find(const void* h) const {
  std::lock_guard<std::mutex> g(mu_);
  auto it = live_.find(h);
  return it == live_.end() ? nullptr : it->second;
}

std::shared_ptr<Mbuf> MbufTable::Release(const void* h) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = live_.find(h);
  if (it == live_.end()) return nullptr;
  auto b = it->second;
  live_.erase(it);
  for (auto& c : b->chain) live_.erase(c.get());
  return b;
}

size_t MbufTable::live() const {
  std::lock_guard<std::mutex> g(mu_);
  return live_.size();
}

}  // namespace simnpu::tdt
