// MemPool: stream-ordered device memory pools (acl/acl_rt_memory_soma.h).
//
// A pool owns blocks of device memory taken from its device's arena. Each
// block is one arena allocation (no splitting); a block is either in use
// (handed out by Malloc and registered in the allocation map, so kernels and
// copies accept it) or free (cached in the pool, unregistered).
//
// Stream order. Free(ptr, stream) unregisters the block at once and queues a
// marker task on the stream; the block becomes "free after (stream, seq)".
// Malloc(size, stream) takes a cached block when
//   - it was freed on the same stream (later tasks run after the free), or
//   - its free has executed (REUSE_ALLOW_OPPORTUNISTIC, default on), or
//   - REUSE_ALLOW_INTERNAL_DEPENDENCIES (default on): the pool queues a wait
//     for the free's stream position on the allocating stream first;
// otherwise it allocates a new block. REUSE_FOLLOW_EVENT_DEPENDENCIES is
// stored but, with no event-dependency tracking, grants nothing beyond the
// rules above.
//
// Release: cached blocks whose free has executed go back to the arena when
// the pool holds more than RELEASE_THRESHOLD bytes (checked on every stream
// synchronize, MemPools::OnSynchronize), and on TrimTo. maxSize (non-zero)
// caps the bytes the pool holds.
//
// Device reset: when a device is torn down (aclrtResetDevice of its last
// user), its pools are destroyed with it: MemPools::OnDeviceReset drops them
// from the registry (their handles then name no pool: 107017) and returns
// every block to the arena before the arena frees its plain memory, so no
// block is freed twice or handed out again after the reset.
//
// Lock order: MemPools::mu_ -> MemPool::mu_ -> (AllocationMap, arena locks).
// No stream lock is taken while a pool lock is held except through
// Stream::completed() (atomic) and Stream::Submit (its mutex is a leaf).
#ifndef SIMNPU_CORE_MEM_POOL_H_
#define SIMNPU_CORE_MEM_POOL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "platform/status.h"

namespace simnpu::sim {
class DeviceArena;
}

namespace simnpu::core {

class Stream;

struct PoolAttrs {
  uint32_t follow_event_deps = 1;
  uint32_t allow_opportunistic = 1;
  uint32_t allow_internal_deps = 1;
  uint64_t release_threshold = 0;
  uint64_t reserved_high = 0;
  uint64_t used_high = 0;
};

class MemPool {
 public:
  MemPool(int device_id, int phys, sim::DeviceArena* arena, size_t max_size)
      : device_id_(device_id), phys_(phys), arena_(arena), max_size_(max_size) {}
  ~MemPool();

  StatusOr<void*> Malloc(size_t size, const std::shared_ptr<Stream>& stream);
  // The block at exactly p, allocated from this pool and not yet freed?
  bool Owns(const void* p) const;
  Status Free(void* p, const std::shared_ptr<Stream>& stream);
  // Releases free blocks whose free executed until at most `keep` free bytes remain.
  void TrimTo(size_t keep);
  // Applies the release threshold.
  void Release();
  // Frees every block (waits for queued frees first). Called once, by Destroy.
  void FreeAll();
  // Device teardown: frees every block at once (the device's streams are
  // gone, so no queued free is waited for). The pool is empty afterwards.
  void Invalidate();

  int device_id() const { return device_id_; }
  int phys_id() const { return phys_; }
  // Attributes; the counters are computed.
  PoolAttrs attrs() const;
  uint64_t reserved() const;
  uint64_t used() const;
  void set_attrs(const PoolAttrs& a);

 private:
  struct Block {
    void* p = nullptr;
    size_t size = 0;
    bool in_use = false;
    std::weak_ptr<Stream> freed_on;  // free block: the stream of its free
    int32_t freed_stream_id = -1;
    uint64_t freed_seq = 0;          // its marker task's sequence number
  };
  bool FreeDone(const Block& b) const;
  void ReleaseLocked(size_t keep);
  void ReleaseBlockLocked(std::map<void*, Block>::iterator it);

  const int device_id_;
  const int phys_;
  sim::DeviceArena* const arena_;
  const size_t max_size_;
  mutable std::mutex mu_;
  std::map<void*, Block> blocks_;  // GUARDED_BY(mu_)
  PoolAttrs attrs_;                // GUARDED_BY(mu_)
  uint64_t reserved_ = 0;          // bytes of all blocks. GUARDED_BY(mu_)
  uint64_t used_ = 0;              // bytes of blocks in use. GUARDED_BY(mu_)
};

// The live pools of the process (handles of aclrtMemPoolCreate).
class MemPools {
 public:
  static MemPools& Get();
  void Add(const std::shared_ptr<MemPool>& p);
  std::shared_ptr<MemPool> Find(const void* h) const;
  std::shared_ptr<MemPool> Remove(const void* h);
  // The pool a block in use came from, or null.
  std::shared_ptr<MemPool> Owning(const void* p) const;
  // After a stream synchronize: every pool applies its release threshold.
  void OnSynchronize();
  // The device with physical id `phys` is being torn down: its pools are
  // removed and invalidated. Returns how many.
  size_t OnDeviceReset(int phys);

 private:
  mutable std::mutex mu_;
  std::vector<std::shared_ptr<MemPool>> pools_;  // GUARDED_BY(mu_)
};

}  // namespace simnpu::core

#endif  // SIMNPU_CORE_MEM_POOL_H_
