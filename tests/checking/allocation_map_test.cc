// core::AllocationMap on its own: registration, lookup, range checks with
// their messages, the graveyard of freed ranges, overflow safety, every kind
// (VMM-mapped and IPC-imported included, as issue 9's code will register
// them), and the initcheck shadow.
#include "core/allocation_map.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace {

using simnpu::core::AllocationMap;
using simnpu::core::KindBit;
using simnpu::core::MemKind;

constexpr uintptr_t kA = 0x100000;
constexpr uintptr_t kB = 0x101000;

const void* P(uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(AllocationMapTest, RegisterFindUnregister) {
  AllocationMap m;
  ASSERT_TRUE(m.Register(kA, 4096, 4160, MemKind::kDevice, 0).ok());
  ASSERT_TRUE(m.Register(kB + 0x1000, 100, 0, MemKind::kHostPinned, -1).ok());
  EXPECT_EQ(2u, m.live_count());
  auto a = m.Find(P(kA + 4095));
  ASSERT_TRUE(a);
  EXPECT_EQ(kA, a->base);
  EXPECT_EQ(4096u, a->size);
  EXPECT_EQ(4160u, a->span);
  EXPECT_EQ(MemKind::kDevice, a->kind);
  EXPECT_TRUE(m.Find(P(kA + 4100)));  // inside the padding of the span
  EXPECT_FALSE(m.Find(P(kA + 4160)));
  EXPECT_FALSE(m.Find(P(kA - 1)));
  EXPECT_FALSE(m.Unregister(kA + 8));  // not a start address
  simnpu::core::Allocation gone;
  EXPECT_TRUE(m.Unregister(kA, &gone));
  EXPECT_EQ(4096u, gone.size);
  EXPECT_FALSE(m.Find(P(kA)));
  EXPECT_FALSE(m.Unregister(kA));
  EXPECT_EQ(1u, m.live_count());
}

TEST(AllocationMapTest, OverlapIsRefused) {
  AllocationMap m;
  ASSERT_TRUE(m.Register(kA, 4096, 0, MemKind::kDevice, 0).ok());
  EXPECT_EQ(507000, m.Register(kA + 4095, 16, 0, MemKind::kDevice, 0).code());
  EXPECT_EQ(507000, m.Register(kA - 8, 16, 0, MemKind::kDevice, 0).code());
  EXPECT_EQ(507000, m.Register(kA, 1, 0, MemKind::kManaged, -1).code());
  EXPECT_TRUE(m.Register(kA + 4096, 16, 0, MemKind::kDevice, 0).ok());
  EXPECT_EQ(507000, m.Register(UINTPTR_MAX - 4, 16, 0, MemKind::kDevice, 0).code());
}

TEST(AllocationMapTest, CheckRangeNamesAllocationAndExcess) {
  AllocationMap m;
  ASSERT_TRUE(m.Register(kA, 4096, 4160, MemKind::kDevice, 1).ok());
  EXPECT_TRUE(m.CheckRange("f dst", P(kA), 4096, KindBit(MemKind::kDevice)).ok());
  EXPECT_TRUE(m.CheckRange("f dst", P(kA + 4000), 96, KindBit(MemKind::kDevice)).ok());
  auto st = m.CheckRange("f dst", P(kA + 64), 1 << 20, KindBit(MemKind::kDevice));
  EXPECT_EQ(107000, st.code());
  EXPECT_NE(std::string::npos, st.message().find("exceeds the 4096-byte device memory (aclrtMalloc) allocation"))
      << st.message();
  EXPECT_NE(std::string::npos, st.message().find("by 1044544 byte(s)")) << st.message();
  EXPECT_NE(std::string::npos, st.message().find("on device 1")) << st.message();
  st = m.CheckRange("f dst", P(kA + 4100), 1, KindBit(MemKind::kDevice));
  EXPECT_NE(std::string::npos, st.message().find("4 byte(s) past the end")) << st.message();
  // a kind the call does not take
  st = m.CheckRange("f devAddr", P(kA), 8, KindBit(MemKind::kManaged));
  EXPECT_EQ(107000, st.code());
  EXPECT_NE(std::string::npos, st.message().find("does not take")) << st.message();
  // unknown memory
  st = m.CheckRange("f ptr", P(0x5000), 8, KindBit(MemKind::kDevice));
  EXPECT_NE(std::string::npos, st.message().find("not memory the runtime allocated")) << st.message();
  EXPECT_TRUE(m.CheckRange("f ptr", P(0x5000), 8, KindBit(MemKind::kDevice), /*allow_unknown=*/true).ok());
  // the span instead of the size
  EXPECT_FALSE(m.CheckRange("f", P(kA), 4160, KindBit(MemKind::kDevice)).ok());
  EXPECT_TRUE(m.CheckRange("f", P(kA), 4160, KindBit(MemKind::kDevice), false, /*use_span=*/true).ok());
  // another code
  EXPECT_EQ(507015, m.CheckRange("f", P(kA), 5000, KindBit(MemKind::kDevice), false, false, nullptr, 507015).code());
}

TEST(AllocationMapTest, WrappingRangesNeverPass) {
  AllocationMap m;
  ASSERT_TRUE(m.Register(kA, 4096, 0, MemKind::kDevice, 0).ok());
  auto st = m.CheckRange("f", P(kA + 64), SIZE_MAX - 32, simnpu::core::kAnyKind);
  EXPECT_EQ(107000, st.code());
  EXPECT_NE(std::string::npos, st.message().find("wraps around")) << st.message();
  EXPECT_FALSE(m.CheckRange("f", P(kA), SIZE_MAX, simnpu::core::kAnyKind, true).ok());
  EXPECT_TRUE(simnpu::core::RangeWraps(P(UINTPTR_MAX), 2));
  EXPECT_FALSE(simnpu::core::RangeWraps(P(UINTPTR_MAX), 1));
  EXPECT_FALSE(simnpu::core::RangeWraps(P(UINTPTR_MAX), 0));
}

TEST(AllocationMapTest, FreedRangesAreNamed) {
  AllocationMap m;
  ASSERT_TRUE(m.Register(kA, 4096, 0, MemKind::kManaged, -1).ok());
  ASSERT_TRUE(m.Unregister(kA));
  auto dead = m.FindFreed(P(kA + 10));
  ASSERT_TRUE(dead);
  EXPECT_EQ(MemKind::kManaged, dead->kind);
  auto st = m.CheckRange("f src", P(kA + 10), 8, simnpu::core::kAnyKind, /*allow_unknown=*/true);
  EXPECT_EQ(107000, st.code());
  EXPECT_NE(std::string::npos, st.message().find("which was freed")) << st.message();
  // reusing the range forgets the freed entry
  ASSERT_TRUE(m.Register(kA, 64, 0, MemKind::kDevice, 0).ok());
  EXPECT_FALSE(m.FindFreed(P(kA + 10)));
}

TEST(AllocationMapTest, EveryKindIncludingVmmAndIpc) {
  AllocationMap m;
  const MemKind kinds[] = {MemKind::kDevice,         MemKind::kHostPinned, MemKind::kManaged,
                           MemKind::kHostRegistered, MemKind::kVmmMapped,  MemKind::kIpcImported};
  uintptr_t at = kA;
  for (MemKind k : kinds) {
    ASSERT_TRUE(m.Register(at, 256, 0, k, k == MemKind::kHostPinned ? -1 : 0).ok());
    EXPECT_TRUE(m.CheckRange("f", P(at), 256, KindBit(k)).ok());
    EXPECT_NE(std::string::npos, m.Find(P(at))->Describe().find(simnpu::core::MemKindName(k)));
    at += 0x1000;
  }
  // device memory proper: aclrtMalloc, VMM-mapped, IPC-imported
  EXPECT_TRUE(m.CheckRange("f", P(kA + 0x4000), 8, simnpu::core::kDeviceKinds).ok());
  EXPECT_TRUE(m.CheckRange("f", P(kA + 0x5000), 8, simnpu::core::kDeviceKinds).ok());
  EXPECT_FALSE(m.CheckRange("f", P(kA + 0x2000), 8, simnpu::core::kDeviceKinds).ok());
  EXPECT_EQ(2u, m.UnregisterDevice(0, MemKind::kDevice) + m.UnregisterDevice(0, MemKind::kVmmMapped));
  EXPECT_EQ(4u, m.live_count());
}

TEST(AllocationMapTest, GraveyardIsBounded) {
  AllocationMap m;
  for (size_t i = 0; i < AllocationMap::kGraveyard + 10; ++i) {
    ASSERT_TRUE(m.Register(kA + i * 64, 64, 0, MemKind::kDevice, 0).ok());
    ASSERT_TRUE(m.Unregister(kA + i * 64));
  }
  EXPECT_FALSE(m.FindFreed(P(kA)));  // the oldest were forgotten
  EXPECT_TRUE(m.FindFreed(P(kA + (AllocationMap::kGraveyard + 9) * 64)));
}

TEST(AllocationMapTest, InitShadowTracksWrittenBytes) {
  AllocationMap m;
  m.EnableInitShadow(true);
  ASSERT_TRUE(m.Register(kA, 1000, 0, MemKind::kDevice, 0).ok());
  ASSERT_TRUE(m.Register(kB, 100, 0, MemKind::kManaged, -1).ok());  // no shadow for managed memory
  EXPECT_EQ(0u, m.FirstUnwritten(P(kA), 10).value());
  m.MarkWritten(P(kA + 10), 100);
  EXPECT_EQ(0u, m.FirstUnwritten(P(kA + 5), 10).value());
  EXPECT_EQ(10u, m.FirstUnwritten(P(kA + 100), 20).value());
  EXPECT_FALSE(m.FirstUnwritten(P(kA + 10), 100));
  EXPECT_EQ(100u, m.FirstUnwritten(P(kA + 10), 101).value());
  m.MarkWritten(P(kA), 1000);
  EXPECT_FALSE(m.FirstUnwritten(P(kA), 1000));
  EXPECT_FALSE(m.FirstUnwritten(P(kB), 100));
}

TEST(AllocationMapTest, ConcurrentLookupsAndChanges) {
  AllocationMap m;
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    while (!stop.load()) (void)m.CheckRange("f", P(kA + 8), 8, simnpu::core::kAnyKind, true);
  });
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(m.Register(kA, 64, 0, MemKind::kDevice, 0).ok());
    ASSERT_TRUE(m.Unregister(kA));
  }
  stop = true;
  reader.join();
  EXPECT_EQ(0u, m.live_count());
}

}  // namespace
