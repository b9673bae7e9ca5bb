// Chunk pool: the recorder's 2 MiB event buffers, handed out with their
// pages already faulted in.
//
// Why. Writing an event into fresh anonymous memory takes a page fault per
// 4 KiB (64 events) where transparent huge pages are not granted (the
// common case on VMs here: AnonHugePages stays 0), ~1-2 us each: 15-30 ns
// per event, as much as the rest of recording. The pool moves that work off
// the recording threads: Start() fills it to the reserve
// (SIMNPU_PROFILE_RESERVE_MB, default 8 MiB = 4 chunks, 0 = off), a refill
// thread keeps it topped up while a session records, and the chunks of a
// stopped session come back to it (up to the reserve; the rest is unmapped).
// A recording thread that finds the pool empty maps a fresh chunk itself.
//
// Locking: ChunkPool::mu_ guards ready_, want_ and the refill thread's
// state; it is a leaf. A fork() child gets the pool with no refill thread
// (pthread_atfork keeps mu_ consistent); its first Reserve() starts one.
#ifndef SIMNPU_DFX_TRACE_CHUNK_POOL_H_
#define SIMNPU_DFX_TRACE_CHUNK_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace simnpu::dfx::trace {

class ChunkPool {
 public:
  static constexpr size_t kChunkBytes = size_t{2} << 20;
  static ChunkPool& Get();

  // A chunk of kChunkBytes, 2 MiB-aligned (nullptr when mapping fails).
  void* Take();
  // Gives a chunk back (kept up to the reserve, else unmapped).
  void Give(void* chunk);
  // Sets the reserve from SIMNPU_PROFILE_RESERVE_MB and fills the pool to
  // it now (called by Start, outside the recorder lock).
  void Reserve();
  size_t ReadyForTest();

 private:
  ChunkPool() = default;
  static void* MapFaulted();
  static void* Map();
  void RefillLoop();
  void StartRefillLocked();
  static void AtForkPrepare();
  static void AtForkParent();
  static void AtForkChild();

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<void*> ready_;  // GUARDED_BY(mu_): faulted chunks
  size_t want_ = 0;           // GUARDED_BY(mu_): the reserve, in chunks
  bool refill_running_ = false;  // GUARDED_BY(mu_)
};

}  // namespace simnpu::dfx::trace

#endif  // SIMNPU_DFX_TRACE_CHUNK_POOL_H_
