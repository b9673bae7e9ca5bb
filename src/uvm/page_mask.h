// PageMask: one bit per 4 KiB page of a 2 MiB managed block (512 bits).
#ifndef SIMNPU_UVM_PAGE_MASK_H_
#define SIMNPU_UVM_PAGE_MASK_H_

#include <bitset>
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
  PageMask() = default;
  static PageMask Range(size_t first, size_t count) {
    PageMask m;
    m.SetRange(first, count);
    return m;
  }
  static PageMask All() { return Range(0, kPagesPerBlock); }

  bool test(size_t i) const { return bits_.test(i); }
  void set(size_t i) { bits_.set(i); }
  void reset(size_t i) { bits_.reset(i); }
  void SetRange(size_t first, size_t count) {
    for (size_t i = first; i < first + count && i < kPagesPerBlock; ++i) bits_.set(i);
  }
  void ClearRange(size_t first, size_t count) {
    for (size_t i = first; i < first + count && i < kPagesPerBlock; ++i) bits_.reset(i);
  }
  void clear() { bits_.reset(); }
  size_t count() const { return bits_.count(); }
  bool any() const { return bits_.any(); }
  bool none() const { return bits_.none(); }
  bool all() const { return bits_.all(); }
  // Pages set in [first, first+count).
  size_t CountRange(size_t first, size_t count) const {
    size_t n = 0;
    for (size_t i = first; i < first + count && i < kPagesPerBlock; ++i) n += bits_.test(i);
    return n;
  }
  bool AllInRange(size_t first, size_t count) const { return CountRange(first, count) == count; }

  PageMask operator&(const PageMask& o) const { return PageMask(bits_ & o.bits_); }
  PageMask operator|(const PageMask& o) const { return PageMask(bits_ | o.bits_); }
  PageMask operator~() const { return PageMask(~bits_); }
  PageMask& operator&=(const PageMask& o) { bits_ &= o.bits_; return *this; }
  PageMask& operator|=(const PageMask& o) { bits_ |= o.bits_; return *this; }
  bool operator==(const PageMask& o) const { return bits_ == o.bits_; }
  // a & ~b
  PageMask Minus(const PageMask& o) const { return PageMask(bits_ & ~o.bits_); }

  // Calls fn(first, count) for each maximal run of set bits.
  template <typename Fn>
  void ForEachRun(Fn fn) const {
    size_t i = 0;
    while (i < kPagesPerBlock) {
      if (!bits_.test(i)) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < kPagesPerBlock && bits_.test(j)) ++j;
      fn(i, j - i);
      i = j;
    }
  }

 private:
  explicit PageMask(const std::bitset<kPagesPerBlock>& b) : bits_(b) {}
  std::bitset<kPagesPerBlock> bits_;
};

}  // namespace simnpu::uvm

#endif  // SIMNPU_UVM_PAGE_MASK_H_
