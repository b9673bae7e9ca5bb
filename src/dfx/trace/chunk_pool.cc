// Chunk pool (see chunk_pool.h).
#include "dfx/trace/chunk_pool.h"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <thread>

#include "platform/env.h"

namespace simnpu::dfx::trace {

ChunkPool& ChunkPool::Get() {
  static ChunkPool* p = [] {
    auto* pool = new ChunkPool();  // never destroyed: recording may run during exit
    pthread_atfork(&ChunkPool::AtForkPrepare, &ChunkPool::AtForkParent, &ChunkPool::AtForkChild);
    return pool;
  }();
  return *p;
}

void ChunkPool::AtForkPrepare() { Get().mu_.lock(); }
void ChunkPool::AtForkParent() { Get().mu_.unlock(); }
void ChunkPool::AtForkChild() {
  ChunkPool& p = Get();
  p.refill_running_ = false;  // the thread stayed in the parent
  p.mu_.unlock();
}

// Chunks are 2 MiB-aligned with transparent huge pages requested: where
// they are granted, a chunk is one fault.
void* ChunkPool::Map() {
  void* raw = ::mmap(nullptr, 2 * kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto a = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (a + kChunkBytes - 1) & ~(kChunkBytes - 1);
  if (aligned > a) ::munmap(raw, aligned - a);
  const uintptr_t end = a + 2 * kChunkBytes, keep_end = aligned + kChunkBytes;
  if (end > keep_end) ::munmap(reinterpret_cast<void*>(keep_end), end - keep_end);
  ::madvise(reinterpret_cast<void*>(aligned), kChunkBytes, MADV_HUGEPAGE);
  return reinterpret_cast<void*>(aligned);
}

void* ChunkPool::MapFaulted() {
  void* c = Map();
  if (!c) return nullptr;
  // One write per 4 KiB page faults the chunk in (zero-filled by the kernel).
  auto* p = static_cast<volatile char*>(c);
  for (size_t off = 0; off < kChunkBytes; off += 4096) p[off] = 0;
  return c;
}

void* ChunkPool::Take() {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (!ready_.empty()) {
      void* c = ready_.back();
      ready_.pop_back();
      if (refill_running_ && ready_.size() < want_) cv_.notify_one();
      return c;
    }
    if (refill_running_ && want_ > 0) cv_.notify_one();
  }
  return Map();  // the pool ran dry: fault this one in while writing
}

void ChunkPool::Give(void* chunk) {
  if (!chunk) return;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (ready_.size() < want_) {
      ready_.push_back(chunk);  // its pages stay faulted; old events are overwritten
      return;
    }
  }
  ::munmap(chunk, kChunkBytes);
}

void ChunkPool::Reserve() {
  const uint64_t mb = platform::GetEnvSize("SIMNPU_PROFILE_RESERVE_MB", 8);
  const size_t want = static_cast<size_t>(std::min<uint64_t>(mb, 1024) * (uint64_t{1} << 20) / kChunkBytes);
  size_t missing = 0;
  {
    std::lock_guard<std::mutex> g(mu_);
    want_ = want;
    while (ready_.size() > want_) {
      ::munmap(ready_.back(), kChunkBytes);
      ready_.pop_back();
    }
    missing = want_ - ready_.size();
    if (want_ > 0) StartRefillLocked();
  }
  // Filled here rather than by the refill thread, so a session's first
  // events already find faulted chunks.
  for (; missing > 0; --missing) {
    void* c = MapFaulted();
    if (!c) break;
    Give(c);
  }
}

size_t ChunkPool::ReadyForTest() {
  std::lock_guard<std::mutex> g(mu_);
  return ready_.size();
}

void ChunkPool::StartRefillLocked() {
  if (refill_running_) return;
  refill_running_ = true;
  std::thread([this] { RefillLoop(); }).detach();
}

void ChunkPool::RefillLoop() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return !refill_running_ || ready_.size() < want_; });
    if (!refill_running_) return;
    lk.unlock();
    void* c = MapFaulted();
    lk.lock();
    if (!c) {
      want_ = ready_.size();  // out of memory: stop asking until the next Reserve()
      continue;
    }
    if (ready_.size() < want_) {
      ready_.push_back(c);
    } else {
      lk.unlock();
      ::munmap(c, kChunkBytes);
      lk.lock();
    }
  }
}

}  // namespace simnpu::dfx::trace
