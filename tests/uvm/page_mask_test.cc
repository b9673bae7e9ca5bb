// PageMask (word-at-a-time bit operations) against std::bitset, randomised.
#include <gtest/gtest.h>

#include <bitset>
#include <random>

#include "uvm/page_mask.h"

using simnpu::uvm::PageMask;

TEST(UvmPageMask, MatchesABitsetUnderRandomRangeOperations) {
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 20000; ++iter) {
    PageMask m;
    std::bitset<512> ref;
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) {
      size_t a = rng() % 512, n = rng() % 600;
      bool set = rng() % 3 != 0;
      if (set) m.SetRange(a, n);
      else m.ClearRange(a, n);
      for (size_t i = a; i < a + n && i < 512; ++i) ref[i] = set;
    }
    ASSERT_EQ(m.count(), ref.count());
    for (size_t i = 0; i < 512; ++i) ASSERT_EQ(m.test(i), ref[i]) << i;
    ASSERT_EQ(m.all(), ref.all());
    ASSERT_EQ(m.any(), ref.any());
    size_t a = rng() % 512, n = rng() % 600, c = 0;
    for (size_t i = a; i < a + n && i < 512; ++i) c += ref[i];
    ASSERT_EQ(m.CountRange(a, n), c);
    std::bitset<512> seen;
    m.ForEachRun([&](size_t f, size_t cnt) {
      ASSERT_GT(cnt, 0u);
      if (f > 0) ASSERT_FALSE(ref[f - 1]);              // runs are maximal
      if (f + cnt < 512) ASSERT_FALSE(ref[f + cnt]);
      for (size_t i = f; i < f + cnt; ++i) seen[i] = true;
    });
    ASSERT_EQ(seen, ref);
  }
}

TEST(UvmPageMask, SetAlgebra) {
  PageMask a = PageMask::Range(10, 100), b = PageMask::Range(50, 100);
  EXPECT_EQ((a & b).count(), 60u);
  EXPECT_EQ((a | b).count(), 140u);
  EXPECT_EQ(a.Minus(b).count(), 40u);
  EXPECT_EQ((~a).count(), 412u);
  EXPECT_TRUE(PageMask::All().all());
  EXPECT_TRUE(PageMask().none());
}
