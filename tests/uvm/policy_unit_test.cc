// The UVM policies as pure functions on a block: thrashing (OnMigration)
// driven with synthetic clocks (events, throttles, pins, doubling of
// back-to-back pins, forgiveness after a quiet second) and placement
// (migrate, duplicate or map remotely) for every advice combination.
#include <gtest/gtest.h>

#include "uvm/policy.h"
#include "uvm/va_block.h"

using namespace simnpu::uvm;

namespace {

constexpr uint64_t kMs = 1000000;

class ThrashPolicy : public ::testing::Test {
 protected:
  void SetUp() override {
    Tunables& t = Tunables::Mutable();
    t.thrash_enable = true;
    t.thrash_lapse_us = 500;
    t.thrash_threshold = 3;
    t.thrash_pin_threshold = 2;
    t.thrash_pin_ms = 10;
  }
  // Ping-pongs `b` between the host and device 0 every 100 us from `*now`
  // until a pin is issued; returns the hints seen.
  std::vector<ThrashHint> PingPongUntilPinned(VaBlock& b, uint64_t* now) {
    std::vector<ThrashHint> hints;
    for (int i = 0; i < 100; ++i) {
      *now += 100000;
      hints.push_back(OnMigration(b, (i % 2) ? kHost : 0, *now));
      if (hints.back() == ThrashHint::kPin) break;
    }
    return hints;
  }
};

TEST_F(ThrashPolicy, EventsThenThrottlesThenPin) {
  VaBlock b(0x200000, nullptr, 1);
  uint64_t now = 1000 * kMs;
  std::vector<ThrashHint> h = PingPongUntilPinned(b, &now);
  // First migration has no predecessor; events 1 and 2 pass; events 3 and 4
  // are throttled; event 5 pins.
  std::vector<ThrashHint> want = {ThrashHint::kNone,     ThrashHint::kNone,     ThrashHint::kNone,
                                  ThrashHint::kThrottle, ThrashHint::kThrottle, ThrashHint::kPin};
  EXPECT_EQ(h, want);
  EXPECT_TRUE(IsPinned(b, now));
  EXPECT_TRUE(IsPinned(b, now + 10 * kMs - 1));
  EXPECT_FALSE(IsPinned(b, now + 10 * kMs));
}

TEST_F(ThrashPolicy, SlowMigrationsAreNotThrashing) {
  VaBlock b(0x200000, nullptr, 1);
  uint64_t now = 1000 * kMs;
  for (int i = 0; i < 50; ++i) {
    now += 600000;  // beyond the 500 us lapse
    EXPECT_EQ(OnMigration(b, (i % 2) ? kHost : 0, now), ThrashHint::kNone);
  }
  EXPECT_FALSE(IsPinned(b, now));
}

TEST_F(ThrashPolicy, BackToBackPinsDoubleUpToThirtyTwoTimes) {
  VaBlock b(0x200000, nullptr, 1);
  uint64_t now = 1000 * kMs;
  const uint64_t want_ms[] = {10, 20, 40, 80, 160, 320, 320};
  for (uint64_t w : want_ms) {
    PingPongUntilPinned(b, &now);
    const uint64_t pinned_at = now;
    EXPECT_TRUE(IsPinned(b, pinned_at + w * kMs - 1)) << w;
    EXPECT_FALSE(IsPinned(b, pinned_at + w * kMs)) << w;
    now = pinned_at + w * kMs;  // thrash again right after the pin ends
  }
}

TEST_F(ThrashPolicy, AQuietSecondResetsThePinLength) {
  VaBlock b(0x200000, nullptr, 1);
  uint64_t now = 1000 * kMs;
  PingPongUntilPinned(b, &now);
  now += 10 * kMs;
  PingPongUntilPinned(b, &now);
  EXPECT_FALSE(IsPinned(b, now + 20 * kMs));
  EXPECT_TRUE(IsPinned(b, now + 20 * kMs - 1));
  now += 20 * kMs + 1001 * kMs;  // quiet for more than a second after the pin
  PingPongUntilPinned(b, &now);
  EXPECT_TRUE(IsPinned(b, now + 10 * kMs - 1));
  EXPECT_FALSE(IsPinned(b, now + 10 * kMs));
}

TEST_F(ThrashPolicy, APreferredLocationIsNeverPinned) {
  VaBlock b(0x200000, nullptr, 1);
  b.preferred = 0;
  uint64_t now = 1000 * kMs;
  for (int i = 0; i < 50; ++i) {
    now += 100000;
    EXPECT_NE(OnMigration(b, (i % 2) ? kHost : 0, now), ThrashHint::kPin);
  }
  EXPECT_FALSE(IsPinned(b, now));
}

TEST(Placement, PlainBlocksMigrateBothWays) {
  VaBlock b(0x200000, nullptr, 2);
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 0), Placement::kMigrate);
  EXPECT_EQ(DeviceFaultPlacement(b, 1, true, 0), Placement::kMigrate);
  EXPECT_EQ(HostFaultPlacement(b, false, false), Placement::kMigrate);
  EXPECT_EQ(HostFaultPlacement(b, true, true), Placement::kMigrate);
}

TEST(Placement, ReadMostlyDuplicatesReadsOnly) {
  VaBlock b(0x200000, nullptr, 2);
  b.read_mostly = true;
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 0), Placement::kDuplicate);
  EXPECT_EQ(DeviceFaultPlacement(b, 0, true, 0), Placement::kMigrate);
  EXPECT_EQ(HostFaultPlacement(b, false, false), Placement::kDuplicate);
  EXPECT_EQ(HostFaultPlacement(b, false, true), Placement::kMigrate);  // nothing to duplicate yet
  EXPECT_EQ(HostFaultPlacement(b, true, false), Placement::kMigrate);
  b.preferred = kHost;  // read-mostly wins over a host preference
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 0), Placement::kDuplicate);
}

TEST(Placement, HostPreferenceAccessedByAndPinsMapRemotely) {
  VaBlock b(0x200000, nullptr, 2);
  b.preferred = kHost;
  EXPECT_EQ(DeviceFaultPlacement(b, 0, true, 0), Placement::kMapRemote);
  b.preferred = 0;
  EXPECT_EQ(DeviceFaultPlacement(b, 1, true, 0), Placement::kMigrate);
  b.accessed_by = 1u << (1 + 1);  // device 1
  EXPECT_EQ(DeviceFaultPlacement(b, 1, false, 0), Placement::kMapRemote);
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 0), Placement::kMigrate);
  b.accessed_by = 0;
  b.pinned_until_ns = 5 * kMs;
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 5 * kMs - 1), Placement::kMapRemote);
  EXPECT_EQ(DeviceFaultPlacement(b, 0, false, 5 * kMs), Placement::kMigrate);
  EXPECT_EQ(HostFaultPlacement(b, true, false), Placement::kMigrate);
}

}  // namespace
