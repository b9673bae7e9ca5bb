// The random-number generator and the number conversions of the built-in
// tasks (core/builtin_tasks.h).
#include <gtest/gtest.h>

#include <cmath>

#include "core/builtin_tasks.h"

namespace {

using simnpu::core::Bf16ToFloat;
using simnpu::core::FloatToBf16;
using simnpu::core::FloatToHalf;
using simnpu::core::HalfToFloat;
using simnpu::core::Philox4x32;

// Known-answer vectors of Philox4x32-10 (Random123).
TEST(BuiltinCoreTest, PhiloxKnownAnswers) {
  EXPECT_EQ((std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}),
            Philox4x32({0, 0, 0, 0}, {0, 0}));
  EXPECT_EQ((std::array<uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}),
            Philox4x32({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}));
  EXPECT_EQ((std::array<uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}),
            Philox4x32({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u}));
}

TEST(BuiltinCoreTest, HalfConversions) {
  EXPECT_EQ(0x3C00, FloatToHalf(1.0f));
  EXPECT_EQ(0xC000, FloatToHalf(-2.0f));
  EXPECT_EQ(0x7BFF, FloatToHalf(65504.0f));
  EXPECT_EQ(0x7C00, FloatToHalf(65520.0f));  // rounds up to inf
  EXPECT_EQ(0x7BFF, FloatToHalf(65519.0f));
  EXPECT_EQ(0x0001, FloatToHalf(0x1.0p-24f));  // smallest subnormal
  EXPECT_EQ(0x0000, FloatToHalf(0x1.0p-26f));
  EXPECT_EQ(0x3C00, FloatToHalf(1.0f + 0x1.0p-11f));  // tie to even
  EXPECT_EQ(0x3C02, FloatToHalf(1.0f + 3 * 0x1.0p-11f));
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(NAN))));
  for (uint32_t h = 0; h < 0x7C00; ++h) ASSERT_EQ(h, FloatToHalf(HalfToFloat(static_cast<uint16_t>(h)))) << h;
  EXPECT_EQ(0x3F80, FloatToBf16(1.0f));
  EXPECT_EQ(3.0f, Bf16ToFloat(0x4040));
  EXPECT_EQ(0x3F80, FloatToBf16(1.0f + 0x1.0p-8f));  // tie to even
  EXPECT_EQ(0x3F82, FloatToBf16(1.0f + 3 * 0x1.0p-8f));
}

}  // namespace
