// MemPool (see mem_pool.h).
#include "core/mem_pool.h"

#include <algorithm>

#include "core/allocation_map.h"
#include "core/basic_tasks.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "sim/device_arena.h"

namespace simnpu::core {
namespace {

constexpr size_t kGranule = 512;  // block sizes are rounded up to this
constexpr int kAllocFail = 207001;  // ACL_ERROR_RT_MEMORY_ALLOCATION
constexpr int kParamInvalid = 107000;

size_t RoundUp(size_t n) { return (n + kGranule - 1) / kGranule * kGranule; }

}  // namespace

MemPool::~MemPool() = default;

bool MemPool::FreeDone(const Block& b) const {
  auto s = b.freed_on.lock();
  return !s || s->completed() >= b.freed_seq;
}

StatusOr<void*> MemPool::Malloc(size_t size, const std::shared_ptr<Stream>& stream) {
  const size_t want = RoundUp(size);
  std::lock_guard<std::mutex> g(mu_);
  // The smallest cached block that fits and that this stream may use.
  auto best = blocks_.end();
  int best_rank = 3;  // 0 same stream / executed, 1 needs a wait
  for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
    const Block& b = it->second;
    if (b.in_use || b.size < want || b.size > 2 * want) continue;
    int rank;
    if (b.freed_stream_id == stream->id() || (attrs_.allow_opportunistic && FreeDone(b))) rank = 0;
    else if (attrs_.allow_internal_deps) rank = 1;
    else continue;
    if (rank < best_rank || (rank == best_rank && b.size < best->second.size)) {
      best = it;
      best_rank = rank;
    }
  }
  if (best != blocks_.end()) {
    Block& b = best->second;
    if (best_rank == 1) {
      // Internal dependency: this stream waits for the free's position on the other one.
      std::shared_ptr<Stream> other = b.freed_on.lock();
      const uint64_t seq = b.freed_seq;
      if (other) {
        stream->Submit(std::make_unique<HostFuncTask>(
            [other, seq](ExecContext&) {
              other->WaitFor(seq);
              return 0;
            },
            "mem_pool_wait", false));
      }
    }
    Status reg = AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(b.p), size, b.size, MemKind::kDevice, phys_);
    if (!reg.ok()) return reg;
    b.in_use = true;
    b.freed_on.reset();
    b.freed_stream_id = -1;
    used_ += b.size;
    attrs_.used_high = std::max(attrs_.used_high, used_);
    return b.p;
  }
  // A new block; first make room under maxSize with executed frees.
  if (max_size_ != 0 && reserved_ + want > max_size_) {
    for (auto it = blocks_.begin(); it != blocks_.end() && reserved_ + want > max_size_;) {
      auto next = std::next(it);
      if (!it->second.in_use && FreeDone(it->second)) ReleaseBlockLocked(it);
      it = next;
    }
    if (reserved_ + want > max_size_)
      return Status(kAllocFail, "the pool holds " + std::to_string(reserved_) + " bytes; " + std::to_string(want) +
                                    " more would exceed its maxSize " + std::to_string(max_size_));
  }
  auto p = arena_->Allocate(want);
  if (!p.ok()) return p.status();
  Status reg = AllocationMap::Get().Register(reinterpret_cast<uintptr_t>(p.value()), size, want, MemKind::kDevice, phys_);
  if (!reg.ok()) {
    (void)arena_->Free(p.value());
    return reg;
  }
  Block b;
  b.p = p.value();
  b.size = want;
  b.in_use = true;
  blocks_[b.p] = b;
  reserved_ += want;
  used_ += want;
  attrs_.reserved_high = std::max(attrs_.reserved_high, reserved_);
  attrs_.used_high = std::max(attrs_.used_high, used_);
  return p.value();
}

bool MemPool::Owns(const void* p) const {
  std::lock_guard<std::mutex> g(mu_);
  auto it = blocks_.find(const_cast<void*>(p));
  return it != blocks_.end() && it->second.in_use;
}

Status MemPool::Free(void* p, const std::shared_ptr<Stream>& stream) {
  std::lock_guard<std::mutex> g(mu_);
  auto it = blocks_.find(p);
  if (it == blocks_.end() || !it->second.in_use) return Status(kParamInvalid, "not a block in use of this pool");
  Block& b = it->second;
  AllocationMap::Get().Unregister(reinterpret_cast<uintptr_t>(p));
  // The marker: the block's free has executed once the stream passes it.
  const uint64_t seq = stream->Submit(std::make_unique<HostFuncTask>([](ExecContext&) { return 0; }, "mem_pool_free", false));
  b.in_use = false;
  b.freed_on = stream;
  b.freed_stream_id = stream->id();
  b.freed_seq = seq;
  used_ -= b.size;
  return Status();
}

void MemPool::ReleaseBlockLocked(std::map<void*, Block>::iterator it) {
  Status st = arena_->Free(it->second.p);
  if (!st.ok()) SIMNPU_LOGW(kRuntime, "memory pool: releasing a block failed: %s", st.message().c_str());
  reserved_ -= it->second.size;
  blocks_.erase(it);
}

void MemPool::ReleaseLocked(size_t keep) {
  uint64_t free_bytes = reserved_ - used_;
  for (auto it = blocks_.begin(); it != blocks_.end() && free_bytes > keep;) {
    auto next = std::next(it);
    if (!it->second.in_use && FreeDone(it->second)) {
      free_bytes -= it->second.size;
      ReleaseBlockLocked(it);
    }
    it = next;
  }
}

void MemPool::TrimTo(size_t keep) {
  std::lock_guard<std::mutex> g(mu_);
  ReleaseLocked(keep);
}

void MemPool::Release() {
  std::lock_guard<std::mutex> g(mu_);
  if (reserved_ > attrs_.release_threshold) {
    // Keep free memory only up to what the threshold allows in all.
    const uint64_t room = attrs_.release_threshold > used_ ? attrs_.release_threshold - used_ : 0;
    ReleaseLocked(static_cast<size_t>(room));
  }
}

void MemPool::FreeAll() {
  std::vector<std::pair<std::shared_ptr<Stream>, uint64_t>> waits;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto& [p, b] : blocks_)
      if (!b.in_use)
        if (auto s = b.freed_on.lock()) waits.emplace_back(s, b.freed_seq);
  }
  for (auto& [s, seq] : waits) s->WaitFor(seq);
  std::lock_guard<std::mutex> g(mu_);
  for (auto& [p, b] : blocks_) {
    if (b.in_use) AllocationMap::Get().Unregister(reinterpret_cast<uintptr_t>(p));
    (void)arena_->Free(p);
  }
  blocks_.clear();
  reserved_ = used_ = 0;
}

void MemPool::Invalidate() {
  std::lock_guard<std::mutex> g(mu_);
  for (auto& [p, b] : blocks_) {
    if (b.in_use) AllocationMap::Get().Unregister(reinterpret_cast<uintptr_t>(p));
    (void)arena_->Free(p);
  }
  blocks_.clear();
  reserved_ = used_ = 0;
}

PoolAttrs MemPool::attrs() const {
  std::lock_guard<std::mutex> g(mu_);
  return attrs_;
}
uint64_t MemPool::reserved() const {
  std::lock_guard<std::mutex> g(mu_);
  return reserved_;
}
uint64_t MemPool::used() const {
  std::lock_guard<std::mutex> g(mu_);
  return used_;
}
void MemPool::set_attrs(const PoolAttrs& a) {
  std::lock_guard<std::mutex> g(mu_);
  attrs_ = a;
}

MemPools& MemPools::Get() {
  static auto* p = new MemPools();
  return *p;
}

void MemPools::Add(const std::shared_ptr<MemPool>& p) {
  std::lock_guard<std::mutex> g(mu_);
  pools_.push_back(p);
}

std::shared_ptr<MemPool> MemPools::Find(const void* h) const {
  std::lock_guard<std::mutex> g(mu_);
  for (auto& p : pools_)
    if (p.get() == h) return p;
  return nullptr;
}

std::shared_ptr<MemPool> MemPools::Remove(const void* h) {
  std::lock_guard<std::mutex> g(mu_);
  for (auto it = pools_.begin(); it != pools_.end(); ++it) {
    if (it->get() == h) {
      auto p = *it;
      pools_.erase(it);
      return p;
    }
  }
  return nullptr;
}

std::shared_ptr<MemPool> MemPools::Owning(const void* ptr) const {
  std::vector<std::shared_ptr<MemPool>> all;
  {
    std::lock_guard<std::mutex> g(mu_);
    all = pools_;
  }
  for (auto& p : all)
    if (p->Owns(ptr)) return p;
  return nullptr;
}

size_t MemPools::OnDeviceReset(int phys) {
  std::vector<std::shared_ptr<MemPool>> gone;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (auto it = pools_.begin(); it != pools_.end();) {
      if ((*it)->phys_id() == phys) {
        gone.push_back(*it);
        it = pools_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& p : gone) p->Invalidate();
  return gone.size();
}

void MemPools::OnSynchronize() {
  std::vector<std::shared_ptr<MemPool>> all;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (pools_.empty()) return;
    all = pools_;
  }
  for (auto& p : all) p->Release();
}

}  // namespace simnpu::core
