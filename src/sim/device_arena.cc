// DeviceArena: chunk and sub-allocation of one device's memory.
#include "sim/device_arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dfx/log.h"
#include "platform/file.h"
#include "platform/shm_dir.h"
#include "platform/vm.h"

namespace simnpu::sim {
namespace {
constexpr uint32_t kSlabAlign = 512;  // sub-allocation granule (>= 64-byte alignment)
constexpr size_t kSlabMax = DeviceArena::kChunk / 2;  // larger requests take whole chunks
constexpr int kOutOfMemory = 207001;                   // ACL_ERROR_RT_MEMORY_ALLOCATION
constexpr int kParamInvalid = 107000;                  // ACL_ERROR_RT_PARAM_INVALID
}  // namespace

DeviceArena::DeviceArena(int phys_id, uint64_t capacity_bytes) : phys_id_(phys_id) {
  chunks_ = static_cast<size_t>(capacity_bytes / kChunk);
  if (chunks_ == 0) chunks_ = 1;
  size_ = 2 * chunks_ * kChunk;  // plain half + frame half
}

DeviceArena::~DeviceArena() { platform::ReleaseVa(reinterpret_cast<void*>(base_), size_); }

Status DeviceArena::Init() {
  void* p = platform::ReserveVa(size_, kChunk);
  if (!p)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) +
                                    ": cannot reserve " + std::to_string(size_ >> 20) +
                                    " MiB of address space for device memory: " +
                                    std::strerror(errno));
  // Only the frame half is committed: plain chunks get their shared objects
  // mapped over the reservation as they are first used.
  int e = platform::CommitRw(static_cast<char*>(p) + chunks_ * kChunk, chunks_ * kChunk, /*huge=*/true);
  if (e) {
    platform::ReleaseVa(p, size_);
    return Status(kOutOfMemory, std::string("device arena commit failed: ") + std::strerror(e));
  }
  base_ = reinterpret_cast<uintptr_t>(p);
  state_.assign(2 * chunks_, ChunkState::kFree);
  hole_.assign(2 * chunks_, false);  // untouched pages populate on first touch until a filler exists
  run_len_.assign(2 * chunks_, 0);
  backed_.assign(chunks_, false);
  exported_.assign(chunks_, false);
  SIMNPU_LOGI(kDrv, "device %d: arena %zu MiB at %#lx", phys_id_, size_ >> 20,
              static_cast<unsigned long>(base_));
  return Status::Ok();
}

uint64_t DeviceArena::used() const {
  std::lock_guard<std::mutex> g(mu_);
  return static_cast<uint64_t>(used_chunks_) * kChunk;
}

uint64_t DeviceArena::frames_in_use() const {
  std::lock_guard<std::mutex> g(mu_);
  return frame_chunks_;
}

void DeviceArena::SetUsageSink(uint64_t* sink) {
  std::lock_guard<std::mutex> g(mu_);
  usage_sink_ = sink;
  Publish();
}

void DeviceArena::Publish() {
  if (usage_sink_) __atomic_store_n(usage_sink_, static_cast<uint64_t>(used_chunks_) * kChunk, __ATOMIC_RELAXED);
}

void DeviceArena::SetHoleFiller(HoleFiller* f) {
  std::lock_guard<std::mutex> g(mu_);
  if (filler_ == f) return;
  filler_ = f;
  // Once the arena is registered with a userfaultfd, untouched free chunks
  // behave as holes: drop any pages free chunks still have so the state is exact.
  if (frame_chunks_ == 0) {
    platform::DropPages(reinterpret_cast<void*>(frame_base()), frame_size());
    for (size_t i = chunks_; i < 2 * chunks_; ++i) hole_[i] = true;
    return;
  }
  for (size_t i = chunks_; i < 2 * chunks_; ++i) {
    if (state_[i] == ChunkState::kFree && !hole_[i]) {
      platform::DropPages(reinterpret_cast<void*>(base_ + i * kChunk), kChunk);
      hole_[i] = true;
    }
  }
}

long DeviceArena::FindFreeRun(size_t n, bool prefer_populated) const {
  long fallback = -1;
  size_t run = 0;
  for (size_t i = 0; i < chunks_; ++i) {
    if (state_[i] != ChunkState::kFree) {
      run = 0;
      continue;
    }
    if (++run == n) {
      size_t first = i + 1 - n;
      if (!prefer_populated || n > 1) return static_cast<long>(first);
      if (backed_[first]) return static_cast<long>(first);
      if (fallback < 0) fallback = static_cast<long>(first);
      run = 0;
    }
  }
  return fallback;
}

Status DeviceArena::BackChunk(size_t i) {
  void* at = reinterpret_cast<void*>(base_ + i * kChunk);
  auto& dir = platform::ShmDir::Get();
  int fd = -1;
  if (dir.ok()) {
    const std::string path = dir.PathFor("d" + std::to_string(phys_id_) + "-c" + std::to_string(i));
    fd = dir.CreateObject(path, kChunk);
    if (fd == -EEXIST) {  // left over by a failed unlink of our own: replace it
      unlink(path.c_str());
      fd = dir.CreateObject(path, kChunk);
    }
  } else {  // no usable directory: still shared pages, but not exportable
    fd = platform::CreateMemfd("simnpu-device");
    if (fd >= 0 && ftruncate(fd, kChunk) != 0) {
      close(fd);
      fd = -errno;
    } else if (fd < 0) {
      fd = -errno;
    }
  }
  if (fd < 0)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) +
                                    ": cannot create a shared memory object for device memory: " +
                                    std::strerror(-fd));
  void* m = mmap(at, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  int e = errno;
  close(fd);
  if (m == MAP_FAILED) {
    UnbackChunk(i);
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + ": cannot map device memory: " +
                                    std::strerror(e));
  }
  backed_[i] = true;
  exported_[i] = false;
  return Status::Ok();
}

void DeviceArena::UnbackChunk(size_t i) {
  void* at = reinterpret_cast<void*>(base_ + i * kChunk);
  // Back to a bare reservation (the address range stays ours).
  mmap(at, kChunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  auto& dir = platform::ShmDir::Get();
  if (dir.ok() && backed_[i])
    unlink(dir.PathFor("d" + std::to_string(phys_id_) + "-c" + std::to_string(i)).c_str());
  backed_[i] = false;
  exported_[i] = false;
}

void DeviceArena::ReleasePlainChunk(size_t i) {
  if (exported_[i]) UnbackChunk(i);
}

Status DeviceArena::EnsurePopulated(size_t first, size_t n) {
  for (size_t i = first; i < first + n; ++i) {
    if (i < chunks_) {
      if (!backed_[i]) SIMNPU_RETURN_IF_ERROR(BackChunk(i));
      continue;
    }
    if (!hole_[i]) continue;
    if (filler_) {
      int rc = filler_->FillHole(reinterpret_cast<void*>(base_ + i * kChunk));
      if (rc != 0)
        return Status(kOutOfMemory, "device " + std::to_string(phys_id_) +
                                        ": cannot populate device memory: " + std::strerror(-rc));
    }
    hole_[i] = false;
  }
  return Status::Ok();
}

StatusOr<void*> DeviceArena::Allocate(size_t size) {
  if (size == 0) size = 1;
  std::lock_guard<std::mutex> g(mu_);
  if (size <= kSlabMax) {
    uint32_t need = static_cast<uint32_t>(platform::AlignUp(size, kSlabAlign));
    for (auto& [idx, slab] : slabs_) {
      // An exported slab chunk is sealed: its pages are (or were) mapped by
      // another process, so no new allocation may share them, and a freed
      // range of it is not reused, until the whole chunk is released and
      // gets a fresh object.
      if (exported_[idx]) continue;
      for (auto it = slab.free.begin(); it != slab.free.end(); ++it) {
        if (it->second < need) continue;
        uint32_t off = it->first, len = it->second;
        slab.free.erase(it);
        if (len > need) slab.free.emplace(off + need, len - need);
        slab.allocated.emplace(off, need);
        return reinterpret_cast<void*>(base_ + idx * kChunk + off);
      }
    }
    long c = used_chunks_ < chunks_ ? FindFreeRun(1, /*prefer_populated=*/true) : -1;
    if (c < 0)
      return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + " is out of memory (" +
                                      std::to_string(used_chunks_ * (kChunk >> 20)) + " of " +
                                      std::to_string(chunks_ * (kChunk >> 20)) + " MiB in use)");
    SIMNPU_RETURN_IF_ERROR(EnsurePopulated(static_cast<size_t>(c), 1));
    state_[c] = ChunkState::kSlab;
    ++used_chunks_;
    Publish();
    Slab& slab = slabs_[static_cast<size_t>(c)];
    slab.allocated.emplace(0, need);
    if (need < kChunk) slab.free.emplace(need, static_cast<uint32_t>(kChunk) - need);
    return reinterpret_cast<void*>(base_ + static_cast<size_t>(c) * kChunk);
  }
  size_t n = (size + kChunk - 1) / kChunk;
  long c = used_chunks_ + n <= chunks_ ? FindFreeRun(n, /*prefer_populated=*/true) : -1;
  if (c < 0)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + " is out of memory: " +
                                    std::to_string(size) + " bytes requested, " +
                                    std::to_string((chunks_ - used_chunks_) * (kChunk >> 20)) +
                                    " MiB free (possibly fragmented)");
  SIMNPU_RETURN_IF_ERROR(EnsurePopulated(static_cast<size_t>(c), n));
  for (size_t i = 0; i < n; ++i) state_[static_cast<size_t>(c) + i] = ChunkState::kRun;
  run_len_[static_cast<size_t>(c)] = static_cast<uint32_t>(n);
  used_chunks_ += n;
  Publish();
  return reinterpret_cast<void*>(base_ + static_cast<size_t>(c) * kChunk);
}

Status DeviceArena::Free(void* p) {
  auto a = reinterpret_cast<uintptr_t>(p);
  if (!Contains(p)) return Status(kParamInvalid, "address is not device memory");
  std::lock_guard<std::mutex> g(mu_);
  size_t idx = (a - base_) / kChunk;
  uint32_t off = static_cast<uint32_t>((a - base_) % kChunk);
  if (idx >= chunks_) return Status(kParamInvalid, "address is not the start of a device allocation");
  if (state_[idx] == ChunkState::kRun && off == 0 && run_len_[idx] > 0) {
    size_t n = run_len_[idx];
    for (size_t i = 0; i < n; ++i) {
      state_[idx + i] = ChunkState::kFree;
      ReleasePlainChunk(idx + i);
    }
    run_len_[idx] = 0;
    used_chunks_ -= n;
    Publish();
    return Status::Ok();
  }
  if (state_[idx] == ChunkState::kSlab) {
    Slab& slab = slabs_[idx];
    auto it = slab.allocated.find(off);
    if (it != slab.allocated.end()) {
      uint32_t len = it->second;
      slab.allocated.erase(it);
      // insert and coalesce
      auto ins = slab.free.emplace(off, len).first;
      auto next = std::next(ins);
      if (next != slab.free.end() && ins->first + ins->second == next->first) {
        ins->second += next->second;
        slab.free.erase(next);
      }
      if (ins != slab.free.begin()) {
        auto prev = std::prev(ins);
        if (prev->first + prev->second == ins->first) {
          prev->second += ins->second;
          slab.free.erase(ins);
        }
      }
      if (slab.allocated.empty()) {
        slabs_.erase(idx);
        state_[idx] = ChunkState::kFree;
        ReleasePlainChunk(idx);
        --used_chunks_;
        Publish();
      }
      return Status::Ok();
    }
  }
  return Status(kParamInvalid, "address is not the start of a device allocation");
}

bool DeviceArena::FindAllocation(const void* p, uintptr_t* alloc_base, size_t* alloc_size) const {
  auto a = reinterpret_cast<uintptr_t>(p);
  if (!Contains(p)) return false;
  std::lock_guard<std::mutex> g(mu_);
  size_t idx = (a - base_) / kChunk;
  if (idx >= chunks_) return false;
  if (state_[idx] == ChunkState::kRun) {
    size_t first = idx;
    while (run_len_[first] == 0 && first > 0) --first;  // walk back to the run head
    *alloc_base = base_ + first * kChunk;
    *alloc_size = run_len_[first] * kChunk;
    return true;
  }
  if (state_[idx] == ChunkState::kSlab) {
    auto sit = slabs_.find(idx);
    if (sit == slabs_.end()) return false;
    uint32_t off = static_cast<uint32_t>((a - base_) % kChunk);
    auto it = sit->second.allocated.upper_bound(off);
    if (it == sit->second.allocated.begin()) return false;
    --it;
    if (off >= it->first + it->second) return false;
    *alloc_base = base_ + idx * kChunk + it->first;
    *alloc_size = it->second;
    return true;
  }
  return false;
}

void DeviceArena::FreeAllPlain() {
  std::lock_guard<std::mutex> g(mu_);
  for (size_t i = 0; i < chunks_; ++i) {
    if (state_[i] == ChunkState::kRun || state_[i] == ChunkState::kSlab) {
      state_[i] = ChunkState::kFree;
      ReleasePlainChunk(i);
      run_len_[i] = 0;
      --used_chunks_;
      Publish();
    }
  }
  slabs_.clear();
}

void* DeviceArena::AllocFrame(bool want_hole) {
  std::lock_guard<std::mutex> g(mu_);
  long pick = -1;
  if (used_chunks_ >= chunks_) return nullptr;
  for (size_t i = chunks_; i < 2 * chunks_; ++i) {
    if (state_[i] != ChunkState::kFree) continue;
    if (hole_[i] == want_hole) {
      pick = static_cast<long>(i);
      break;
    }
    if (pick < 0) pick = static_cast<long>(i);
  }
  if (pick < 0) return nullptr;
  size_t i = static_cast<size_t>(pick);
  void* chunk = reinterpret_cast<void*>(base_ + i * kChunk);
  if (want_hole && !hole_[i]) {
    platform::DropPages(chunk, kChunk);  // cheap for huge pages
    hole_[i] = filler_ != nullptr;       // without uffd a dropped chunk repopulates on touch
  } else if (!want_hole && hole_[i]) {
    if (!EnsurePopulated(i, 1).ok()) return nullptr;
  }
  state_[i] = ChunkState::kFrame;
  ++used_chunks_;
  Publish();
  ++frame_chunks_;
  return chunk;
}

void DeviceArena::FreeFrame(void* frame, bool is_hole) {
  auto a = reinterpret_cast<uintptr_t>(frame);
  std::lock_guard<std::mutex> g(mu_);
  if (a < frame_base()) return;
  size_t i = (a - base_) / kChunk;
  if (i >= 2 * chunks_ || state_[i] != ChunkState::kFrame) return;
  state_[i] = ChunkState::kFree;
  hole_[i] = is_hole && filler_ != nullptr;
  --used_chunks_;
  Publish();
  --frame_chunks_;
}

StatusOr<DeviceArena::Span> DeviceArena::Export(const void* p, size_t size) {
  uintptr_t ab = 0;
  size_t as = 0;
  if (size == 0 || !FindAllocation(p, &ab, &as))
    return Status(kParamInvalid, "the address is not inside a device allocation (aclrtMalloc)");
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (size > ab + as - a)
    return Status(kParamInvalid, "the range of " + std::to_string(size) + " bytes runs " +
                                     std::to_string(size - (ab + as - a)) + " bytes past its allocation");
  std::lock_guard<std::mutex> g(mu_);
  Span s;
  const size_t first = (a - base_) / kChunk, last = (a + size - 1 - base_) / kChunk;
  s.first_chunk = static_cast<uint32_t>(first);
  s.chunks = static_cast<uint32_t>(last - first + 1);
  s.offset = a - (base_ + first * kChunk);
  for (size_t i = first; i <= last; ++i) {
    if (!backed_[i]) return Status(kParamInvalid, "device memory is not backed by a shared object");
    exported_[i] = true;
  }
  if (!platform::ShmDir::Get().ok())
    return Status(207000, "no usable per-user shared memory directory (" + platform::ShmDir::Get().dir() +
                              "): device memory cannot be shared");
  return s;
}

StatusOr<void*> DeviceArena::MapForeign(const std::string& stem, int phys, uint32_t first, uint32_t chunks) {
  auto& dir = platform::ShmDir::Get();
  if (chunks == 0 || chunks > chunks_) return Status(kParamInvalid, "bad chunk count in an export record");
  std::lock_guard<std::mutex> g(mu_);
  long c = FindFreeRun(chunks, /*prefer_populated=*/false);
  if (c < 0)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) +
                                    ": no address range left for imported memory");
  const size_t at = static_cast<size_t>(c);
  for (size_t k = 0; k < chunks; ++k) {
    if (backed_[at + k]) UnbackChunk(at + k);
    const std::string path = dir.PathOf(stem, "d" + std::to_string(phys) + "-c" + std::to_string(first + k));
    int fd = open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    void* m = MAP_FAILED;
    int e = errno;
    if (fd >= 0) {
      m = mmap(reinterpret_cast<void*>(base_ + (at + k) * kChunk), kChunk, PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_FIXED, fd, 0);
      e = errno;
      close(fd);
    }
    if (m == MAP_FAILED) {
      for (size_t j = 0; j <= k; ++j)
        mmap(reinterpret_cast<void*>(base_ + (at + j) * kChunk), kChunk, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
      return Status(kParamInvalid, "the exported memory no longer exists (" + std::string(std::strerror(e)) + ")");
    }
  }
  for (size_t k = 0; k < chunks; ++k) state_[at + k] = ChunkState::kImport;
  run_len_[at] = chunks;
  return reinterpret_cast<void*>(base_ + at * kChunk);
}

StatusOr<void*> DeviceArena::ReserveRange(uint32_t chunks) {
  if (chunks == 0 || chunks > chunks_) return Status(kParamInvalid, "bad size for an address range");
  std::lock_guard<std::mutex> g(mu_);
  long c = FindFreeRun(chunks, /*prefer_populated=*/false);
  if (c < 0) return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + ": no address range left");
  const size_t at = static_cast<size_t>(c);
  for (size_t k = 0; k < chunks; ++k) {
    if (backed_[at + k]) UnbackChunk(at + k);
    state_[at + k] = ChunkState::kImport;
  }
  run_len_[at] = chunks;
  return reinterpret_cast<void*>(base_ + at * kChunk);
}

Status DeviceArena::MapObjectAt(void* at, int fd) {
  void* m = mmap(at, kChunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (m == MAP_FAILED) return Status(kOutOfMemory, std::string("cannot map physical memory: ") + std::strerror(errno));
  return Status::Ok();
}

void DeviceArena::UnmapAt(void* at) {
  mmap(at, kChunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

int DeviceArena::OpenChunkObject(const std::string& stem, int phys, uint32_t idx) {
  const std::string path =
      platform::ShmDir::Get().PathOf(stem, "d" + std::to_string(phys) + "-c" + std::to_string(idx));
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  return fd < 0 ? -errno : fd;
}

Status DeviceArena::UnmapForeign(void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (!Contains(p) || (a - base_) % kChunk != 0) return Status(kParamInvalid, "not an imported range");
  std::lock_guard<std::mutex> g(mu_);
  const size_t at = (a - base_) / kChunk;
  if (at >= chunks_ || state_[at] != ChunkState::kImport || run_len_[at] == 0)
    return Status(kParamInvalid, "not an imported range");
  const size_t n = run_len_[at];
  for (size_t k = 0; k < n; ++k) {
    mmap(reinterpret_cast<void*>(base_ + (at + k) * kChunk), kChunk, PROT_NONE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    state_[at + k] = ChunkState::kFree;
  }
  run_len_[at] = 0;
  return Status::Ok();
}

}  // namespace simnpu::sim
