// Data-type helpers (acl-api.md §4.1, §9 item 18): aclDataTypeSize for every
// enum value and unknown values; half <-> float conversions including
// subnormals, round-to-nearest-even ties, overflow and the documented
// Inf/NaN quirks; data buffers.
#include <cmath>
#include <cstring>
#include <limits>

#include "api_test_util.h"

namespace {

TEST(ApiDataTypeTest, SizeOfEveryType) {
  struct {
    aclDataType t;
    size_t size;
  } const cases[] = {
      {ACL_DT_UNDEFINED, 0},  {ACL_FLOAT, 4},         {ACL_FLOAT16, 2},       {ACL_INT8, 1},
      {ACL_INT32, 4},         {ACL_UINT8, 1},         {ACL_INT16, 2},         {ACL_UINT16, 2},
      {ACL_UINT32, 4},        {ACL_INT64, 8},         {ACL_UINT64, 8},        {ACL_DOUBLE, 8},
      {ACL_BOOL, 1},          {ACL_STRING, 0},        {ACL_COMPLEX64, 8},     {ACL_COMPLEX128, 16},
      {ACL_BF16, 2},          {ACL_INT4, 1},          {ACL_UINT1, 1},         {ACL_COMPLEX32, 4},
      {ACL_HIFLOAT8, 1},      {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1}, {ACL_FLOAT8_E8M0, 1},
      // Not in the size table: the default branch reports 8.
      {ACL_FLOAT6_E3M2, 8},   {ACL_FLOAT6_E2M3, 8},   {ACL_FLOAT4_E2M1, 8},   {ACL_FLOAT4_E1M2, 8},
  };
  for (const auto& c : cases) EXPECT_EQ(c.size, aclDataTypeSize(c.t)) << "type " << c.t;
}

TEST(ApiDataTypeTest, SizeOfUnknownValues) {
  for (int v : {5, 14, 15, 18, 26, 28, 31, 32, 42, 100, 1000, -2, 0x7fffffff})
    EXPECT_EQ(8u, aclDataTypeSize(static_cast<aclDataType>(v))) << v;
}

float F(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST(ApiDataTypeTest, HalfToFloatNormalAndSpecial) {
  EXPECT_EQ(0.0f, aclFloat16ToFloat(0x0000));
  EXPECT_TRUE(std::signbit(aclFloat16ToFloat(0x8000)));
  EXPECT_EQ(0.0f, aclFloat16ToFloat(0x8000));
  EXPECT_EQ(1.0f, aclFloat16ToFloat(0x3C00));
  EXPECT_EQ(-2.0f, aclFloat16ToFloat(0xC000));
  EXPECT_EQ(0.5f, aclFloat16ToFloat(0x3800));
  EXPECT_EQ(1.0f + 1.0f / 1024, aclFloat16ToFloat(0x3C01));
  EXPECT_EQ(65504.0f, aclFloat16ToFloat(0x7BFF));
  EXPECT_EQ(-65504.0f, aclFloat16ToFloat(0xFBFF));
  EXPECT_EQ(std::ldexp(1.0f, -14), aclFloat16ToFloat(0x0400));  // smallest normal
  EXPECT_EQ(3.140625f, aclFloat16ToFloat(0x4248));
}

TEST(ApiDataTypeTest, HalfToFloatSubnormals) {
  EXPECT_EQ(std::ldexp(1.0f, -24), aclFloat16ToFloat(0x0001));
  EXPECT_EQ(std::ldexp(1023.0f, -24), aclFloat16ToFloat(0x03FF));
  EXPECT_EQ(-std::ldexp(512.0f, -24), aclFloat16ToFloat(0x8200));
}

TEST(ApiDataTypeTest, HalfToFloatInfAndNanQuirks) {
  // Exponent 31 is read as an ordinary exponent.
  EXPECT_EQ(65536.0f, aclFloat16ToFloat(0x7C00));
  EXPECT_EQ(-65536.0f, aclFloat16ToFloat(0xFC00));
  EXPECT_EQ(98304.0f, aclFloat16ToFloat(0x7E00));
  EXPECT_FALSE(std::isinf(aclFloat16ToFloat(0x7C00)));
  EXPECT_FALSE(std::isnan(aclFloat16ToFloat(0x7E00)));
}

TEST(ApiDataTypeTest, FloatToHalfNormal) {
  EXPECT_EQ(0x0000, aclFloatToFloat16(0.0f));
  EXPECT_EQ(0x8000, aclFloatToFloat16(-0.0f));
  EXPECT_EQ(0x3C00, aclFloatToFloat16(1.0f));
  EXPECT_EQ(0xC000, aclFloatToFloat16(-2.0f));
  EXPECT_EQ(0x3800, aclFloatToFloat16(0.5f));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(65504.0f));
  EXPECT_EQ(0x0400, aclFloatToFloat16(std::ldexp(1.0f, -14)));
  EXPECT_EQ(0x4248, aclFloatToFloat16(3.140625f));
  // Round trip of every finite half.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7C00) == 0x7C00) continue;
    ASSERT_EQ(h, aclFloatToFloat16(aclFloat16ToFloat(static_cast<aclFloat16>(h)))) << std::hex << h;
  }
}

TEST(ApiDataTypeTest, FloatToHalfRoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 0x3C00 and 0x3C01: even is 0x3C00.
  EXPECT_EQ(0x3C00, aclFloatToFloat16(1.0f + std::ldexp(1.0f, -11)));
  // 1 + 3*2^-11 lies halfway between 0x3C01 and 0x3C02: even is 0x3C02.
  EXPECT_EQ(0x3C02, aclFloatToFloat16(1.0f + 3 * std::ldexp(1.0f, -11)));
  // Just above / below the tie.
  EXPECT_EQ(0x3C01, aclFloatToFloat16(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)));
  EXPECT_EQ(0x3C01, aclFloatToFloat16(std::nextafter(1.0f + 3 * std::ldexp(1.0f, -11), 0.0f)));
  // Rounding carries into the exponent: 2 - 2^-12 -> 2.0.
  EXPECT_EQ(0x4000, aclFloatToFloat16(2.0f - std::ldexp(1.0f, -12)));
  EXPECT_EQ(0xBC00, aclFloatToFloat16(-(1.0f + std::ldexp(1.0f, -11))));
}

TEST(ApiDataTypeTest, FloatToHalfSubnormals) {
  EXPECT_EQ(0x0001, aclFloatToFloat16(std::ldexp(1.0f, -24)));
  EXPECT_EQ(0x03FF, aclFloatToFloat16(std::ldexp(1023.0f, -24)));
  EXPECT_EQ(0x8001, aclFloatToFloat16(-std::ldexp(1.0f, -24)));
  // Ties between subnormals go to even.
  EXPECT_EQ(0x0000, aclFloatToFloat16(std::ldexp(1.0f, -25)));       // 0.5 ulp
  EXPECT_EQ(0x0002, aclFloatToFloat16(std::ldexp(3.0f, -25)));       // 1.5 ulp
  EXPECT_EQ(0x0002, aclFloatToFloat16(std::ldexp(5.0f, -25)));       // 2.5 ulp
  EXPECT_EQ(0x0001, aclFloatToFloat16(std::ldexp(1.5f, -25)));       // 0.75 ulp
  // Largest subnormal + half ulp rounds up to the smallest normal (even).
  EXPECT_EQ(0x0400, aclFloatToFloat16(std::ldexp(2047.0f, -25)));
  // Underflow to (signed) zero.
  EXPECT_EQ(0x0000, aclFloatToFloat16(std::ldexp(1.0f, -26)));
  EXPECT_EQ(0x8000, aclFloatToFloat16(-std::ldexp(1.0f, -30)));
  EXPECT_EQ(0x0000, aclFloatToFloat16(std::numeric_limits<float>::denorm_min()));
}

TEST(ApiDataTypeTest, FloatToHalfOverflowAndSpecialsSaturate) {
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(65519.0f));   // rounds down to 65504
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(65520.0f));   // would round to Inf: saturates
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(1.0e6f));
  EXPECT_EQ(0xFBFF, aclFloatToFloat16(-1.0e6f));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::max()));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::infinity()));
  EXPECT_EQ(0xFBFF, aclFloatToFloat16(-std::numeric_limits<float>::infinity()));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(F(0x7F800001u)));  // signalling NaN
  EXPECT_EQ(0x7BFF, aclFloatToFloat16(F(0xFFC00000u)));  // negative NaN
}

TEST(ApiDataTypeTest, DataBuffers) {
  char storage[16];
  aclDataBuffer* b = aclCreateDataBuffer(storage, sizeof storage);
  ASSERT_NE(nullptr, b);
  EXPECT_EQ(storage, aclGetDataBufferAddr(b));
  EXPECT_EQ(sizeof storage, aclGetDataBufferSizeV2(b));
  EXPECT_ACL_OK(aclUpdateDataBuffer(b, storage + 4, 8));
  EXPECT_EQ(storage + 4, aclGetDataBufferAddr(b));
  EXPECT_EQ(8u, aclGetDataBufferSizeV2(b));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclUpdateDataBuffer(nullptr, storage, 1));
  EXPECT_EQ(nullptr, aclGetDataBufferAddr(nullptr));
  EXPECT_EQ(0u, aclGetDataBufferSizeV2(nullptr));
  EXPECT_ACL_OK(aclDestroyDataBuffer(b));
  EXPECT_ACL(ACL_ERROR_INVALID_PARAM, aclDestroyDataBuffer(nullptr));
  // A buffer describing no memory is allowed.
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(nullptr, empty);
  EXPECT_ACL_OK(aclDestroyDataBuffer(empty));
  apitest::ClearErrorState();
}

}  // namespace
