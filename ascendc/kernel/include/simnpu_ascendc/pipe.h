// simnpu Ascend C model: TPipe (carves buffers out of the block's local
// memories), TQue/TQueBind (buffer queues with state checks), TBuf, the
// HardEvent ids and GetTPipePtr. The pipe synchronisation calls are in sync.h.
#ifndef SIMNPU_ASCENDC_PIPE_H_
#define SIMNPU_ASCENDC_PIPE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

using TEventID = int8_t;

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {

static_assert(static_cast<int>(AscendC::HardEvent::MAX) <= kNumHardEvents, "event table too small");

SIMNPU_ASCENDC_HIDDEN inline const char* HardEventName(AscendC::HardEvent e) {
  static const char* const kNames[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",   "M_MTE1",   "MTE2_V",    "V_MTE2",    "MTE3_V",   "V_MTE3",   "M_V",
      "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",  "MTE2_M",    "M_MTE2",   "V_MTE1",   "M_FIX",
      "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",      "V_S",       "S_MTE2",    "MTE2_S",   "S_MTE3",   "MTE3_S",
      "MTE2_FIX",  "FIX_MTE2",  "FIX_S",     "M_S",      "FIX_MTE3",  "MTE1_FIX",  "FIX_MTE1", "FIX_FIX",  "MAX"};
  const unsigned i = static_cast<unsigned>(e);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

inline BlockContext& RequireCtx(const SrcLoc& loc, const char* what) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) CheckFail(loc, "%s called outside of a kernel block", what);
  return *c;
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

class TPipe;
template <TPosition pos, uint32_t bufIDSize>
class TBufPool;

// A queue of num buffers, carved by TPipe::InitBuffer. TQue<pos, depth> is
// TQueBind<pos, pos, depth>.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() = default;
  TQueBind(const TQueBind&) = delete;
  TQueBind& operator=(const TQueBind&) = delete;

  template <typename T>
  LocalTensor<T> AllocTensor(SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    if (__builtin_expect(num_ == 0, 0)) {
      d::CheckFail(simnpuLoc, "AllocTensor: the queue has no buffers (TPipe::InitBuffer was not called for it)");
    }
    d::BlockContext& c = d::RequireCtx(simnpuLoc, "AllocTensor");
    d::BufSlot* slot = nullptr;
    uint32_t idx = next_;
    for (uint32_t k = 0; k < num_; ++k) {
      d::BufSlot& s = slots_[idx];
      if (++idx == num_) idx = 0;
      if (s.state == d::kBufFree) {
        slot = &s;
        next_ = idx;
        break;
      }
    }
    if (__builtin_expect(slot == nullptr, 0)) {
      d::CheckFail(simnpuLoc,
                   "AllocTensor: no free buffer in the %s queue (all %u buffers are allocated; FreeTensor one first)",
                   d::PositionName(src), num_);
    }
    int32_t& outstanding = c.outstanding[static_cast<int>(src)];
    if (__builtin_expect(outstanding >= d::kQueMaxOutstanding, 0)) {
      d::CheckFail(simnpuLoc,
                   "AllocTensor: too many outstanding buffers in position %s (max buffer number in the same queue "
                   "position is %d on arch %d)",
                   d::PositionName(src), d::kQueMaxOutstanding, __NPU_ARCH__);
    }
    ++outstanding;
    slot->state = d::kBufAllocated;
    return LocalTensor<T>(reinterpret_cast<T*>(slot->addr), static_cast<uint32_t>(d::ElemsIn<T>(slot->len)), src, slot);
  }

  // In-place form: tensor becomes the allocated buffer.
  template <typename T>
  void AllocTensor(LocalTensor<T>& tensor, SIMNPU_ASCENDC_LOC_PARAM) {
    tensor = AllocTensor<T>(simnpuLoc);
  }

  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    d::BufSlot* slot = tensor.SimnpuSlot();
    if (slot != nullptr && (slot->state == d::kBufFree || slot->state == d::kBufEnqueued)) {
      d::CheckFail(simnpuLoc, "EnQue: the tensor's buffer is %s", slot->state == d::kBufFree ? "not allocated (freed)" : "already in a queue");
    }
    if (count_ >= Capacity()) return false;
    Entry& e = fifo_[(head_ + count_) % kMaxBuffers];
    e.addr = reinterpret_cast<uint8_t*>(tensor.GetPhyAddr());
    e.bytes = tensor.GetLength();
    e.slot = slot;
    e.pos = tensor.GetPosition();
    ++count_;
    if (slot != nullptr) slot->state = d::kBufEnqueued;
    return true;
  }

  template <typename T>
  LocalTensor<T> DeQue(SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    if (__builtin_expect(count_ == 0, 0)) {
      d::CheckFail(simnpuLoc, "DeQue on an empty %s queue (no tensor was enqueued)", d::PositionName(dst));
    }
    Entry& e = fifo_[head_];
    head_ = (head_ + 1) % kMaxBuffers;
    --count_;
    if (e.slot != nullptr) e.slot->state = d::kBufDequeued;
    return LocalTensor<T>(reinterpret_cast<T*>(e.addr), static_cast<uint32_t>(d::ElemsIn<T>(e.bytes)), dst, e.slot);
  }

  // In-place form: tensor becomes the dequeued buffer.
  template <typename T>
  void DeQue(LocalTensor<T>& tensor, SIMNPU_ASCENDC_LOC_PARAM) {
    tensor = DeQue<T>(simnpuLoc);
  }

  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    d::BufSlot* slot = tensor.SimnpuSlot();
    if (__builtin_expect(slot == nullptr || slot->owner != this, 0)) {
      d::CheckFail(simnpuLoc, "FreeTensor: the tensor was not allocated from this queue");
    }
    if (__builtin_expect(slot->state == d::kBufFree, 0)) {
      d::CheckFail(simnpuLoc, "FreeTensor: the buffer is already free (double free)");
    }
    if (__builtin_expect(slot->state == d::kBufEnqueued, 0)) {
      d::CheckFail(simnpuLoc, "FreeTensor: the buffer is still in a queue (DeQue it first)");
    }
    slot->state = d::kBufFree;
    d::BlockContext* c = d::tls_ctx;
    if (c != nullptr && c->outstanding[static_cast<int>(src)] > 0) --c->outstanding[static_cast<int>(src)];
  }

  bool VacantInQue() const { return count_ < Capacity(); }
  bool HasTensorInQue() const { return count_ > 0; }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(count_); }
  bool HasIdleBuffer() const {
    for (uint32_t k = 0; k < num_; ++k) {
      if (slots_[k].state == ::simnpu::ascendc::detail::kBufFree) return true;
    }
    return false;
  }
  void FreeAllEvent() {}

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;
  static constexpr uint32_t kMaxBuffers = 64;
  struct Entry {
    uint8_t* addr;
    uint32_t bytes;
    ::simnpu::ascendc::detail::BufSlot* slot;
    TPosition pos;
  };
  uint32_t Capacity() const {
    const uint32_t dep = depth > 0 ? static_cast<uint32_t>(depth) : num_;
    return dep < kMaxBuffers ? dep : kMaxBuffers;
  }
  void SimnpuInit(uint8_t* base, uint32_t num, uint32_t len) {
    num_ = num;
    next_ = 0;
    head_ = 0;
    count_ = 0;
    for (uint32_t k = 0; k < num; ++k) {
      slots_[k].owner = this;
      slots_[k].addr = base + static_cast<size_t>(k) * len;
      slots_[k].len = len;
      slots_[k].state = ::simnpu::ascendc::detail::kBufFree;
      slots_[k].pos = static_cast<uint8_t>(src);
    }
  }

  ::simnpu::ascendc::detail::BufSlot slots_[kMaxBuffers];
  Entry fifo_[kMaxBuffers];
  uint32_t num_ = 0;
  uint32_t next_ = 0;
  uint32_t head_ = 0;
  uint32_t count_ = 0;
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TQue = TQueBind<pos, pos, depth, mask>;

// One buffer without queue semantics.
template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  TBuf() = default;

  template <typename T>
  LocalTensor<T> Get(SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckInit(simnpuLoc);
    return LocalTensor<T>(reinterpret_cast<T*>(addr_), static_cast<uint32_t>(::simnpu::ascendc::detail::ElemsIn<T>(len_)), pos, nullptr);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckInit(simnpuLoc);
    if (::simnpu::ascendc::detail::BytesOf<T>(len) > len_) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "TBuf::Get: %u elements (%llu bytes) exceed the buffer (%u bytes)",
                                           len, static_cast<unsigned long long>(len) * sizeof(T), len_);
    }
    return LocalTensor<T>(reinterpret_cast<T*>(addr_), len, pos, nullptr);
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckInit(simnpuLoc);
    if (::simnpu::ascendc::detail::BytesOf<T>(size) + bufOffset > len_) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "TBuf::GetWithOffset: %u elements at byte offset %u exceed the buffer (%u bytes)",
                                           size, bufOffset, len_);
    }
    return LocalTensor<T>(reinterpret_cast<T*>(addr_ + bufOffset), size, pos, nullptr);
  }
  // A TBuf has no queue: giving a tensor back changes nothing (the pages'
  // examples call it after Get). The tensor must come from this buffer.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor, SIMNPU_ASCENDC_LOC_PARAM) const {
    CheckInit(simnpuLoc);
    const uint8_t* p = reinterpret_cast<const uint8_t*>(tensor.GetPhyAddr());
    if (p < addr_ || p >= addr_ + len_) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "TBuf::FreeTensor: the tensor was not taken from this buffer");
    }
  }

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;
  void CheckInit(const ::simnpu::ascendc::SrcLoc& loc) const {
    if (__builtin_expect(addr_ == nullptr, 0)) {
      ::simnpu::ascendc::detail::CheckFail(loc, "TBuf::Get: the buffer was not initialised by TPipe::InitBuffer");
    }
  }
  uint8_t* addr_ = nullptr;
  uint32_t len_ = 0;
};

// A sub-range of one local memory, carved by TPipe::InitBufPool (or a
// parent pool), from which queues and buffers are carved in turn. Reset
// hands the whole range out again (the tensors carved before become stale).
// Pools given the same shared pool reuse its range (time-multiplexed UB).
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    if (num < 1 || num > 64) ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "TBufPool::InitBuffer: num %u is out of range [1, 64]", num);
    que.SimnpuInit(Take(num, len, simnpuLoc), num, Round(len));
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    buf.addr_ = Take(1, len, simnpuLoc);
    buf.len_ = Round(len);
    return true;
  }
  template <TPosition subPos, uint32_t subIds>
  bool InitBufPool(TBufPool<subPos, subIds>& sub, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    sub.SimnpuBind(Take(1, len, simnpuLoc), Round(len));
    return true;
  }
  template <TPosition subPos, uint32_t subIds, TPosition shPos, uint32_t shIds>
  bool InitBufPool(TBufPool<subPos, subIds>& sub, uint32_t len, TBufPool<shPos, shIds>& shared, SIMNPU_ASCENDC_LOC_PARAM) {
    if (shared.base_ == nullptr || Round(len) > shared.size_) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "TBufPool::InitBufPool: the shared pool is not initialised or smaller than %u bytes", len);
    }
    sub.SimnpuBind(shared.base_, Round(len));
    return true;
  }
  void Reset() { used_ = 0; }

  // Model internals (used by TPipe and the parent pools).
  void SimnpuBind(uint8_t* base, uint32_t size) {
    base_ = base;
    size_ = size;
    used_ = 0;
  }

 private:
  template <TPosition, uint32_t>
  friend class TBufPool;
  friend class TPipe;
  static uint32_t Round(uint32_t len) { return (len + 31u) & ~31u; }
  uint8_t* Take(uint32_t num, uint32_t len, const ::simnpu::ascendc::SrcLoc& loc) {
    namespace d = ::simnpu::ascendc::detail;
    if (base_ == nullptr) d::CheckFail(loc, "TBufPool: the pool was not initialised (TPipe::InitBufPool)");
    if (len == 0) d::CheckFail(loc, "TBufPool::InitBuffer: buffer length is 0");
    const uint64_t total = static_cast<uint64_t>(num) * Round(len);
    if (used_ + total > size_) {
      d::CheckFail(loc, "TBufPool: %u buffer(s) of %u bytes at offset %u need %llu bytes, but the pool has %u bytes", num,
                   len, used_, static_cast<unsigned long long>(used_ + total), size_);
    }
    uint8_t* p = base_ + used_;
    used_ += static_cast<uint32_t>(total);
    return p;
  }
  uint8_t* base_ = nullptr;
  uint32_t size_ = 0;
  uint32_t used_ = 0;
};

// Allocator of local buffers and event ids for one block.
class TPipe {
 public:
  TPipe() { Init(); }
  ~TPipe() {
    ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
    if (c != nullptr && c->pipe == this) c->pipe = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  void Init() {
    ::simnpu::ascendc::detail::ResetSocState();  // as on the NPU: TPipe initialises the core state
    for (size_t& u : used_) u = 0;
    buffers_ = 0;
    for (uint32_t& m : event_ids_) m = 0;
    ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
    if (c != nullptr) c->pipe = this;
  }
  void Reset() { Init(); }
  void Destroy() {
    for (size_t& u : used_) u = 0;
    buffers_ = 0;
  }

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    namespace d = ::simnpu::ascendc::detail;
    if (num < 1 || num > 64) d::CheckFail(simnpuLoc, "InitBuffer: num %u is out of range [1, 64]", num);
    uint8_t* base = Carve(src, num, len, simnpuLoc);
    que.SimnpuInit(base, num, RoundLen(len));
    return true;
  }

  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    uint8_t* base = Carve(pos, 1, len, simnpuLoc);
    buf.addr_ = base;
    buf.len_ = RoundLen(len);
    return true;
  }

  // A buffer pool of len bytes of pos's memory.
  template <TPosition pos, uint32_t bufIDSize>
  bool InitBufPool(TBufPool<pos, bufIDSize>& pool, uint32_t len, SIMNPU_ASCENDC_LOC_PARAM) {
    pool.SimnpuBind(Carve(pos, 1, len, simnpuLoc), RoundLen(len));
    return true;
  }
  // A pool that reuses the range of an initialised pool.
  template <TPosition pos, uint32_t bufIDSize, TPosition shPos, uint32_t shIds>
  bool InitBufPool(TBufPool<pos, bufIDSize>& pool, uint32_t len, TBufPool<shPos, shIds>& shared,
                   SIMNPU_ASCENDC_LOC_PARAM) {
    if (shared.base_ == nullptr || RoundLen(len) > shared.size_) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "InitBufPool: the shared pool is not initialised or smaller than %u bytes", len);
    }
    pool.SimnpuBind(shared.base_, RoundLen(len));
    return true;
  }

  // Event ids: FetchEventID peeks at the lowest free id; AllocEventID takes it.
  template <HardEvent evt>
  TEventID FetchEventID() const { return LowestFree(event_ids_[static_cast<int>(evt)]); }
  TEventID FetchEventID(HardEvent evt) const { return LowestFree(event_ids_[static_cast<int>(evt)]); }
  template <HardEvent evt>
  TEventID AllocEventID(SIMNPU_ASCENDC_LOC_PARAM) {
    uint32_t& m = event_ids_[static_cast<int>(evt)];
    const TEventID id = LowestFree(m);
    if (id < 0) {
      ::simnpu::ascendc::detail::CheckFail(simnpuLoc, "AllocEventID<%s>: all %d event ids are in use",
                                           ::simnpu::ascendc::detail::HardEventName(evt), kEventIds);
    }
    m |= 1u << id;
    return id;
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    if (id >= 0 && id < kEventIds) event_ids_[static_cast<int>(evt)] &= ~(1u << id);
  }

  // MutexIDs (MutexID = uint8_t) from the block's pool that the free
  // AllocMutexID / ReleaseMutexID also use; defined in mutex_barrier.h.
  uint8_t AllocMutexID(SIMNPU_ASCENDC_LOC_PARAM);
  void ReleaseMutexID(uint8_t id, SIMNPU_ASCENDC_LOC_PARAM);

 private:
  static constexpr int kEventIds = 8;
  static uint32_t RoundLen(uint32_t len) { return (len + 31u) & ~31u; }
  static TEventID LowestFree(uint32_t m) {
    for (int i = 0; i < kEventIds; ++i) {
      if ((m & (1u << i)) == 0) return static_cast<TEventID>(i);
    }
    return -1;
  }

  uint8_t* Carve(TPosition pos, uint32_t num, uint32_t len, const ::simnpu::ascendc::SrcLoc& loc) {
    namespace d = ::simnpu::ascendc::detail;
    d::BlockContext& c = d::RequireCtx(loc, "TPipe::InitBuffer");
    if (len == 0) d::CheckFail(loc, "InitBuffer: buffer length is 0");
    if (buffers_ + num > d::kMaxPipeBuffers) {
      d::CheckFail(loc, "InitBuffer: too many buffers in one TPipe (%u + %u > %zu)", buffers_, num, d::kMaxPipeBuffers);
    }
    const int m = d::MemOf(pos);
    const size_t total = static_cast<size_t>(num) * RoundLen(len);
    const size_t cap = d::MemSize(&c, m);
    if (m == static_cast<int>(Hardware::GM)) {
      d::CheckFail(loc, "InitBuffer: position %s is global memory on arch %d, not a local buffer", d::PositionName(pos),
                   __NPU_ARCH__);
    }
    if (used_[m] + total > cap) {
      d::CheckFail(loc,
                   "InitBuffer: %s overflow: %u buffer(s) of %u bytes (rounded up to 32 bytes) at offset %zu need %zu "
                   "bytes, but the %s is %zu bytes",
                   d::MemName(m), num, len, used_[m], used_[m] + total, d::MemName(m), cap);
    }
    uint8_t* base = d::MemBase(&c, m) + used_[m];
    used_[m] += total;
    buffers_ += num;
    return base;
  }

  size_t used_[::simnpu::ascendc::detail::kMemCount] = {};
  uint32_t buffers_ = 0;
  uint32_t event_ids_[::simnpu::ascendc::detail::kNumHardEvents] = {};
};

}  // namespace AscendC

// The TPipe of the running block (the one constructed most recently). A
// global function in the devkit; AscendC::GetTPipePtr names the same one.
inline AscendC::TPipe* GetTPipePtr() {
  ::simnpu::ascendc::detail::BlockContext* c = ::simnpu::ascendc::detail::tls_ctx;
  return c != nullptr ? static_cast<AscendC::TPipe*>(c->pipe) : nullptr;
}
namespace AscendC {
using ::GetTPipePtr;
}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_PIPE_H_
