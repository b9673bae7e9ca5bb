// PageMask: one bit per 4 KiB page of a 2 MiB managed block (512 bits).
#ifndef SIMNPU_UVM_PAGE_MASK_H_
#define SIMNPU_UVM_PAGE_MASK_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace simnpu::uvm {

constexpr size_t kPageShift = 12;
constexpr size_t kPageSize = size_t{1} << kPageShift;
constexpr size_t kBlockShift = 21;
constexpr size_t kBlockSize = size_t{1} << kBlockShift;
constexpr size_t kPagesPerBlock = kBlockSize / kPageSize;  // 512

class PageMask {
 public:
  static constexpr size_t kWords = kPagesPerBlock / 64;

  PageMask() = default;
  static PageMask Range(size_t first, size_t count) {
    PageMask m;
    m.SetRange(first, count);
    return m;
  }
  static PageMask All() { return Range(0, kPagesPerBlock); }

  bool test(size_t i) const { return (w_[i >> 6] >> (i & 63)) & 1u; }
  void set(size_t i) { w_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(size_t i) { w_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  // Word-at-a-time range operations (whole-block masks are the common case).
  void SetRange(size_t first, size_t count) { ApplyRange(first, count, true); }
  void ClearRange(size_t first, size_t count) { ApplyRange(first, count, false); }
  void clear() {
    for (auto& w : w_) w = 0;
  }
  size_t count() const {
    size_t n = 0;
    for (uint64_t w : w_) n += static_cast<size_t>(Pop(w));
    return n;
  }
  bool any() const {
    uint64_t o = 0;
    for (uint64_t w : w_) o |= w;
    return o != 0;
  }
  bool none() const { return !any(); }
  bool all() const {
    uint64_t a = ~uint64_t{0};
    for (uint64_t w : w_) a &= w;
    return a == ~uint64_t{0};
  }
  // Pages set in [first, first+count).
  size_t CountRange(size_t first, size_t count) const {
    if (first >= kPagesPerBlock) return 0;
    if (first + count > kPagesPerBlock) count = kPagesPerBlock - first;
    size_t n = 0;
    while (count > 0) {
      size_t word = first >> 6, bit = first & 63, take = std::min<size_t>(64 - bit, count);
      uint64_t mask = take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1) << bit;
      n += static_cast<size_t>(Pop(w_[word] & mask));
      first += take;
      count -= take;
    }
    return n;
  }
  bool AllInRange(size_t first, size_t count) const { return CountRange(first, count) == count; }

  PageMask operator&(const PageMask& o) const { PageMask r; for (size_t i = 0; i < kWords; ++i) r.w_[i] = w_[i] & o.w_[i]; return r; }
  PageMask operator|(const PageMask& o) const { PageMask r; for (size_t i = 0; i < kWords; ++i) r.w_[i] = w_[i] | o.w_[i]; return r; }
  PageMask operator~() const { PageMask r; for (size_t i = 0; i < kWords; ++i) r.w_[i] = ~w_[i]; return r; }
  PageMask& operator&=(const PageMask& o) { for (size_t i = 0; i < kWords; ++i) w_[i] &= o.w_[i]; return *this; }
  PageMask& operator|=(const PageMask& o) { for (size_t i = 0; i < kWords; ++i) w_[i] |= o.w_[i]; return *this; }
  bool operator==(const PageMask& o) const {
    for (size_t i = 0; i < kWords; ++i)
      if (w_[i] != o.w_[i]) return false;
    return true;
  }
  // a & ~b
  PageMask Minus(const PageMask& o) const { PageMask r; for (size_t i = 0; i < kWords; ++i) r.w_[i] = w_[i] & ~o.w_[i]; return r; }

  // Calls fn(first, count) for each maximal run of set bits.
  template <typename Fn>
  void ForEachRun(Fn fn) const {
    size_t i = 0;
    while (i < kPagesPerBlock) {
      uint64_t w = w_[i >> 6] >> (i & 63);
      if (w == 0) {  // skip the rest of this word
        i = (i | 63) + 1;
        continue;
      }
      i += static_cast<size_t>(__builtin_ctzll(w));
      size_t j = i;
      while (j < kPagesPerBlock) {
        uint64_t x = ~w_[j >> 6] >> (j & 63);  // zeros ahead, as ones
        if (x == 0) {
          j = (j | 63) + 1;
          continue;
        }
        j += static_cast<size_t>(__builtin_ctzll(x));
        break;
      }
      if (j > kPagesPerBlock) j = kPagesPerBlock;
      fn(i, j - i);
      i = j;
    }
  }

 private:
  // Software population count: the library is built without -mpopcnt, and
  // libgcc's generic __popcountdi2 is slower than this on every word.
  static int Pop(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
  }
  void ApplyRange(size_t first, size_t count, bool value) {
    if (first >= kPagesPerBlock) return;
    if (first + count > kPagesPerBlock) count = kPagesPerBlock - first;
    while (count > 0) {
      size_t word = first >> 6, bit = first & 63, take = std::min<size_t>(64 - bit, count);
      uint64_t mask = take == 64 ? ~uint64_t{0} : ((uint64_t{1} << take) - 1) << bit;
      if (value) w_[word] |= mask;
      else w_[word] &= ~mask;
      first += take;
      count -= take;
    }
  }

  uint64_t w_[kWords] = {};
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_PAGE_MASK_H_
