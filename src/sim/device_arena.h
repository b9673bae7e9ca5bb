// DeviceArena: one simulated device's memory.
//
// The arena is a separate reservation of address space per device, twice
// the device capacity (SOC memory size, or SIMNPU_DEVICE_MEMORY), aligned to
// 2 MiB and cut into 2 MiB chunks. Its two halves hold two kinds of chunk:
//   - the plain half, plain allocations (aclrtMalloc): a run of whole chunks
//     for large requests, or a slab chunk that is sub-allocated for small
//     ones. Each plain chunk is backed by a shared memory object in the
//     per-user directory (platform/shm_dir.h, "<stem>-d<dev>-c<index>"), so
//     another process can map the same pages (IPC export). A chunk keeps its
//     object while it is free, for reuse, unless it was exported: then the
//     object is unlinked when the chunk frees and the chunk gets a new one
//     (an importer's mapping keeps the old pages alive). An exported slab
//     chunk is sealed: nothing new is sub-allocated from it (freed ranges
//     included) until all of it is free, since an importer maps the whole
//     chunk and may still hold the pages of a freed export. The plain half also
//     holds other processes' exported chunks mapped here by an import
//     (kImport: not counted against the capacity, it is their memory);
//   - the frame half, private anonymous memory the UVM engine registers with
//     its userfaultfd: physical frames for managed pages resident on this
//     device (one chunk per 2 MiB managed block). UFFDIO_MOVE moves only
//     private anonymous pages, so frames never live in shared objects.
// Every plain or frame chunk in use counts against the one capacity; running
// out is ACL_ERROR_RT_MEMORY_ALLOCATION (207001).
//
// Physical pages: a chunk is either populated (its pages exist) or a hole
// (no pages; the UVM engine moves pages in and out of frames with
// UFFDIO_MOVE). Holes exist only after a HoleFiller is installed: the UVM
// engine registers the arena with its userfaultfd and installs one; before
// that, a touched page is simply populated by the kernel. Plain allocations
// are always fully populated before they are returned (so the runtime never
// takes a userfault on device memory).
//
// Lock: mu_ guards everything below it. The hole filler is called with mu_
// held (populating a chunk and marking it in use is one step), so the lock
// order is DeviceArena::mu_ -> the filler's locks (the UVM engine's page
// pool); the filler must never call back into an arena.
#ifndef SIMNPU_SIM_DEVICE_ARENA_H_
#define SIMNPU_SIM_DEVICE_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <mutex>
#include <vector>

#include "platform/status.h"

namespace simnpu::sim {

class HoleFiller {
 public:
  virtual ~HoleFiller() = default;
  // Gives the 2 MiB hole at `chunk` physical pages (contents unspecified).
  // Returns 0 or -errno. Called with the arena's lock held (see above).
  virtual int FillHole(void* chunk) = 0;
};

class DeviceArena {
 public:
  static constexpr size_t kChunk = 2u << 20;

  DeviceArena(int phys_id, uint64_t capacity_bytes);
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  Status Init();  // reserves and commits the address space

  uintptr_t base() const { return base_; }
  size_t size() const { return size_; }
  // The frame half (what the UVM engine registers with its userfaultfd).
  uintptr_t frame_base() const { return base_ + chunks_ * kChunk; }
  size_t frame_size() const { return chunks_ * kChunk; }
  uint64_t capacity() const { return static_cast<uint64_t>(chunks_) * kChunk; }
  uint64_t used() const;
  uint64_t free_bytes() const { return capacity() - used(); }
  bool Contains(const void* p) const {
    auto a = reinterpret_cast<uintptr_t>(p);
    return a >= base_ && a < base_ + size_;
  }

  // Plain allocation of `size` bytes (already rounded by the caller), at least
  // 64-byte aligned; runs of whole chunks are 2 MiB aligned. 207001 when full.
  StatusOr<void*> Allocate(size_t size);
  // Frees a plain allocation by its exact start address; 107000 if unknown.
  Status Free(void* p);
  // Finds the plain allocation containing p.
  bool FindAllocation(const void* p, uintptr_t* alloc_base, size_t* alloc_size) const;
  // Frees every plain allocation (device reset).
  void FreeAllPlain();

  // UVM frames. AllocFrame returns a 2 MiB chunk that is a hole when
  // `want_hole` (a MOVE destination) or populated otherwise; nullptr when the
  // device is full (the caller evicts and retries).
  void* AllocFrame(bool want_hole);
  // Returns a frame; `is_hole` says whether its pages were moved out.
  void FreeFrame(void* frame, bool is_hole);
  uint64_t frames_in_use() const;

  // Installs the filler; installing the same one again changes nothing.
  void SetHoleFiller(HoleFiller* f);

  // IPC export of [p, p+size), which must lie in one plain allocation: the
  // chunks whose objects hold it. Marks them exported (see above). 107000
  // when the range is not inside one plain allocation.
  struct Span {
    uint32_t first_chunk = 0;
    uint32_t chunks = 0;
    uint64_t offset = 0;  // of p in the first chunk
  };
  StatusOr<Span> Export(const void* p, size_t size);
  // Maps `chunks` objects of another process (stem, device phys) starting at
  // chunk index `first` contiguously into the plain half; returns the start.
  StatusOr<void*> MapForeign(const std::string& stem, int phys, uint32_t first, uint32_t chunks);
  // Where the arena publishes its bytes in use (the registry's word for this
  // process and device; other processes read it).
  void SetUsageSink(uint64_t* sink);

  // Undoes MapForeign by the address it returned (also releases a ReserveRange).
  Status UnmapForeign(void* base);
  // VMM: an address range of `chunks` unbacked chunks in the plain half (not
  // counted against the capacity), and mapping / unmapping one shared object
  // (an fd of a chunk object) at a chunk inside it.
  StatusOr<void*> ReserveRange(uint32_t chunks);
  Status MapObjectAt(void* at, int fd);
  void UnmapAt(void* at);
  // An fd (O_RDWR) of plain chunk `idx`'s object of process `stem`, device phys; -errno.
  static int OpenChunkObject(const std::string& stem, int phys, uint32_t idx);

 private:
  enum class ChunkState : uint8_t { kFree, kRun, kSlab, kFrame, kImport };
  struct Slab {
    std::map<uint32_t, uint32_t> free;       // offset -> length of free extents
    std::map<uint32_t, uint32_t> allocated;  // offset -> length
  };
  // REQUIRES: mu_ held. Finds n consecutive free chunks; -1 if none.
  long FindFreeRun(size_t n, bool prefer_populated) const;
  // Populates the holes among chunks [first, first+n) through the filler,
  // which is called with mu_ held (the chunks are free until the caller marks
  // them in use, so dropping mu_ here would let another caller take them).
  // REQUIRES: mu_ held.
  Status EnsurePopulated(size_t first, size_t n);
  // Plain chunk i gets a fresh shared object / loses its object. REQUIRES: mu_ held.
  Status BackChunk(size_t i);
  void UnbackChunk(size_t i);
  // A plain chunk turning free: drops its object if it was exported. REQUIRES: mu_ held.
  void ReleasePlainChunk(size_t i);
  void Publish();  // REQUIRES: mu_ held

  const int phys_id_;
  uintptr_t base_ = 0;
  size_t size_ = 0;
  size_t chunks_ = 0;

  mutable std::mutex mu_;
  // Indices [0, chunks_) are the plain half, [chunks_, 2*chunks_) the frame half.
  std::vector<ChunkState> state_;  // per chunk. GUARDED_BY(mu_)
  std::vector<bool> backed_;       // plain chunk has a shared object mapped. GUARDED_BY(mu_)
  std::vector<bool> exported_;     // plain chunk's object was exported. GUARDED_BY(mu_)
  std::vector<bool> hole_;         // per chunk: true = no pages. GUARDED_BY(mu_)
  std::vector<uint32_t> run_len_;  // kRun: chunks in the run (at its first chunk). GUARDED_BY(mu_)
  std::map<size_t, Slab> slabs_;   // chunk index -> slab. GUARDED_BY(mu_)
  size_t used_chunks_ = 0;         // GUARDED_BY(mu_)
  size_t frame_chunks_ = 0;        // GUARDED_BY(mu_)
  HoleFiller* filler_ = nullptr;   // GUARDED_BY(mu_)
  uint64_t* usage_sink_ = nullptr; // GUARDED_BY(mu_)
};

}  // namespace simnpu::sim

#endif  // SIMNPU_SIM_DEVICE_ARENA_H_
