// DeviceArena: chunk and sub-allocation of one device's memory.
#include "sim/device_arena.h"

#include <cerrno>
#include <cstring>

#include "dfx/log.h"
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
  size_ = chunks_ * kChunk;
}

DeviceArena::~DeviceArena() { platform::ReleaseVa(reinterpret_cast<void*>(base_), size_); }

Status DeviceArena::Init() {
  void* p = platform::ReserveVa(size_, kChunk);
  if (!p)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) +
                                    ": cannot reserve " + std::to_string(size_ >> 20) +
                                    " MiB of address space for device memory: " +
                                    std::strerror(errno));
  int e = platform::CommitRw(p, size_, /*huge=*/true);
  if (e) {
    platform::ReleaseVa(p, size_);
    return Status(kOutOfMemory, std::string("device arena commit failed: ") + std::strerror(e));
  }
  base_ = reinterpret_cast<uintptr_t>(p);
  state_.assign(chunks_, ChunkState::kFree);
  hole_.assign(chunks_, false);  // untouched pages populate on first touch until a filler exists
  run_len_.assign(chunks_, 0);
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

void DeviceArena::SetHoleFiller(HoleFiller* f) {
  std::lock_guard<std::mutex> g(mu_);
  if (filler_ == f) return;
  filler_ = f;
  // Once the arena is registered with a userfaultfd, untouched free chunks
  // behave as holes: drop any pages free chunks still have so the state is exact.
  if (used_chunks_ == 0) {
    platform::DropPages(reinterpret_cast<void*>(base_), size_);
    hole_.assign(chunks_, true);
    return;
  }
  for (size_t i = 0; i < chunks_; ++i) {
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
      if (!hole_[first]) return static_cast<long>(first);
      if (fallback < 0) fallback = static_cast<long>(first);
      run = 0;
    }
  }
  return fallback;
}

Status DeviceArena::EnsurePopulated(size_t first, size_t n) {
  for (size_t i = first; i < first + n; ++i) {
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
      for (auto it = slab.free.begin(); it != slab.free.end(); ++it) {
        if (it->second < need) continue;
        uint32_t off = it->first, len = it->second;
        slab.free.erase(it);
        if (len > need) slab.free.emplace(off + need, len - need);
        slab.allocated.emplace(off, need);
        return reinterpret_cast<void*>(base_ + idx * kChunk + off);
      }
    }
    long c = FindFreeRun(1, /*prefer_populated=*/true);
    if (c < 0)
      return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + " is out of memory (" +
                                      std::to_string(used_chunks_ * (kChunk >> 20)) + " of " +
                                      std::to_string(chunks_ * (kChunk >> 20)) + " MiB in use)");
    SIMNPU_RETURN_IF_ERROR(EnsurePopulated(static_cast<size_t>(c), 1));
    state_[c] = ChunkState::kSlab;
    ++used_chunks_;
    Slab& slab = slabs_[static_cast<size_t>(c)];
    slab.allocated.emplace(0, need);
    if (need < kChunk) slab.free.emplace(need, static_cast<uint32_t>(kChunk) - need);
    return reinterpret_cast<void*>(base_ + static_cast<size_t>(c) * kChunk);
  }
  size_t n = (size + kChunk - 1) / kChunk;
  long c = FindFreeRun(n, /*prefer_populated=*/true);
  if (c < 0)
    return Status(kOutOfMemory, "device " + std::to_string(phys_id_) + " is out of memory: " +
                                    std::to_string(size) + " bytes requested, " +
                                    std::to_string((chunks_ - used_chunks_) * (kChunk >> 20)) +
                                    " MiB free (possibly fragmented)");
  SIMNPU_RETURN_IF_ERROR(EnsurePopulated(static_cast<size_t>(c), n));
  for (size_t i = 0; i < n; ++i) state_[static_cast<size_t>(c) + i] = ChunkState::kRun;
  run_len_[static_cast<size_t>(c)] = static_cast<uint32_t>(n);
  used_chunks_ += n;
  return reinterpret_cast<void*>(base_ + static_cast<size_t>(c) * kChunk);
}

Status DeviceArena::Free(void* p) {
  auto a = reinterpret_cast<uintptr_t>(p);
  if (!Contains(p)) return Status(kParamInvalid, "address is not device memory");
  std::lock_guard<std::mutex> g(mu_);
  size_t idx = (a - base_) / kChunk;
  uint32_t off = static_cast<uint32_t>((a - base_) % kChunk);
  if (state_[idx] == ChunkState::kRun && off == 0 && run_len_[idx] > 0) {
    size_t n = run_len_[idx];
    for (size_t i = 0; i < n; ++i) state_[idx + i] = ChunkState::kFree;
    run_len_[idx] = 0;
    used_chunks_ -= n;
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
        --used_chunks_;
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
      run_len_[i] = 0;
      --used_chunks_;
    }
  }
  slabs_.clear();
}

void* DeviceArena::AllocFrame(bool want_hole) {
  std::lock_guard<std::mutex> g(mu_);
  long pick = -1;
  for (size_t i = 0; i < chunks_; ++i) {
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
  ++frame_chunks_;
  return chunk;
}

void DeviceArena::FreeFrame(void* frame, bool is_hole) {
  auto a = reinterpret_cast<uintptr_t>(frame);
  std::lock_guard<std::mutex> g(mu_);
  size_t i = (a - base_) / kChunk;
  if (i >= chunks_ || state_[i] != ChunkState::kFrame) return;
  state_[i] = ChunkState::kFree;
  hole_[i] = is_hole && filler_ != nullptr;
  --used_chunks_;
  --frame_chunks_;
}

}  // namespace simnpu::sim
