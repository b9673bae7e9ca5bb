// The host tiling API: tiling data classes (layout of the saved bytes,
// nested structs, arrays, copies, the factory), one field list giving both
// the host class and the kernel struct, ge::Shape.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "graph/tensor.h"
#include "register/tilingdata_base.h"
#include "kernel_tiling/kernel_tiling.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerT)
TILING_DATA_FIELD_DEF(uint8_t, a);
TILING_DATA_FIELD_DEF(uint32_t, b);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(OuterT)
TILING_DATA_FIELD_DEF(uint8_t, u8);
TILING_DATA_FIELD_DEF(uint32_t, u32);
TILING_DATA_FIELD_DEF(uint16_t, u16);
TILING_DATA_FIELD_DEF(uint64_t, u64);
TILING_DATA_FIELD_DEF_ARR(float, 3, arr);
TILING_DATA_FIELD_DEF(int8_t, i8);
TILING_DATA_FIELD_DEF_STRUCT(InnerT, inner);
TILING_DATA_FIELD_DEF(int16_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OuterOp, OuterT)
}  // namespace optiling

namespace {

// offsets: u8 0, u32 4, u16 8, u64 16, arr 24..36, i8 36, inner at 40 (8 bytes:
// a 0, b 4), tail 48; total 50 padded to 56
TEST(AscTilingData, SavedLayout) {
  optiling::OuterT t;
  EXPECT_EQ(t.GetDataSize(), 56u);
  EXPECT_STREQ(t.GetTilingClassName(), "OuterT");
  t.set_u8(0xab);
  t.set_u32(0x11223344u);
  t.set_u16(0x5566);
  t.set_u64(0x0102030405060708ull);
  const float arr[3] = {1.0f, -2.0f, 0.5f};
  t.set_arr(arr);
  t.set_i8(-3);
  t.inner.set_a(7);
  t.inner.set_b(0xdeadbeefu);
  t.set_tail(-2);
  std::vector<uint8_t> buf(64, 0xee);
  t.SaveToBuffer(buf.data(), buf.size());
  std::vector<uint8_t> want(56, 0);
  auto put = [&](size_t off, const void* v, size_t n) { std::memcpy(want.data() + off, v, n); };
  uint8_t u8 = 0xab;
  uint32_t u32 = 0x11223344u;
  uint16_t u16 = 0x5566;
  uint64_t u64 = 0x0102030405060708ull;
  int8_t i8 = -3;
  uint8_t a = 7;
  uint32_t b = 0xdeadbeefu;
  int16_t tail = -2;
  put(0, &u8, 1);
  put(4, &u32, 4);
  put(8, &u16, 2);
  put(16, &u64, 8);
  put(24, arr, 12);
  put(36, &i8, 1);
  put(40, &a, 1);
  put(44, &b, 4);
  put(48, &tail, 2);
  EXPECT_EQ(std::vector<uint8_t>(buf.begin(), buf.begin() + 56), want);
  EXPECT_EQ(buf[56], 0xee);  // nothing written past the data
  EXPECT_EQ(t.get_u64(), u64);
  EXPECT_EQ(t.get_arr()[1], -2.0f);
  EXPECT_EQ(t.inner.get_b(), b);
  const auto info = t.GetFieldInfo();
  ASSERT_EQ(info.size(), 8u);
  EXPECT_STREQ(info[4].name_, "arr");
  EXPECT_STREQ(info[4].classType_, "1");
  EXPECT_EQ(info[4].arrSize_, 3u);
  EXPECT_STREQ(info[6].classType_, "2");
  EXPECT_STREQ(info[6].structType_, "InnerT");
  EXPECT_EQ(info[6].structSize_, 8u);
}

TEST(AscTilingData, SaveToBufferTooSmallWritesNothing) {
  optiling::OuterT t;
  t.set_u32(5);
  std::vector<uint8_t> buf(55, 0x11);
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buf.data(), buf.size());
  t.SaveToBuffer(nullptr, 100);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(buf, std::vector<uint8_t>(55, 0x11));
  EXPECT_NE(err.find("SaveToBuffer(OuterT): the buffer holds 55 bytes, the tiling data needs 56"), std::string::npos)
      << err;
  EXPECT_NE(err.find("the buffer is null"), std::string::npos) << err;
}

TEST(AscTilingData, CopiesAreIndependent) {
  optiling::OuterT t;
  t.set_u32(1);
  t.inner.set_b(2);
  optiling::OuterT c(t);
  c.set_u32(10);
  c.inner.set_b(20);
  optiling::OuterT d;
  d = c;
  d.set_u16(3);
  std::vector<uint8_t> bt(56), bc(56), bd(56);
  t.SaveToBuffer(bt.data(), 56);
  c.SaveToBuffer(bc.data(), 56);
  d.SaveToBuffer(bd.data(), 56);
  uint32_t v;
  std::memcpy(&v, bt.data() + 4, 4);
  EXPECT_EQ(v, 1u);
  std::memcpy(&v, bt.data() + 44, 4);
  EXPECT_EQ(v, 2u);
  std::memcpy(&v, bc.data() + 4, 4);
  EXPECT_EQ(v, 10u);
  std::memcpy(&v, bd.data() + 44, 4);
  EXPECT_EQ(v, 20u);
  uint16_t s;
  std::memcpy(&s, bd.data() + 8, 2);
  EXPECT_EQ(s, 3u);
  std::memcpy(&s, bc.data() + 8, 2);
  EXPECT_EQ(s, 0u);
}

TEST(AscTilingData, SetDataPtrWritesInPlace) {
  optiling::InnerT t;
  t.set_b(9);
  std::vector<uint8_t> ext(8, 0xff);
  t.SetDataPtr(ext.data());
  uint32_t v;
  std::memcpy(&v, ext.data() + 4, 4);
  EXPECT_EQ(v, 9u);  // the current values move there
  t.set_b(10);
  std::memcpy(&v, ext.data() + 4, 4);
  EXPECT_EQ(v, 10u);
}

TEST(AscTilingData, FactoryCreatesRegisteredClasses) {
  auto p = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("OuterOp");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->GetDataSize(), 56u);
  EXPECT_STREQ(p->GetTilingClassName(), "OuterT");
  EXPECT_EQ(optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("NoSuchOp"), nullptr);
  EXPECT_EQ(optiling::StructSizeInfoBase::GetInstance().GetStructSize("InnerT"), 8u);
}

// one field list, both forms
#define TEST_INNER_FIELDS(F, A, S) F(uint16_t, w) F(uint64_t, x)
#define TEST_OUTER_FIELDS(F, A, S) F(uint8_t, flag) A(int32_t, 3, dims) S(TestInner, inner) F(float, scale)
SIMNPU_TILING_KERNEL_STRUCT(TestInner, TEST_INNER_FIELDS)
SIMNPU_TILING_KERNEL_STRUCT(TestOuter, TEST_OUTER_FIELDS)
}  // namespace
namespace optiling {
SIMNPU_TILING_HOST_CLASS(TestInner, TEST_INNER_FIELDS)
SIMNPU_TILING_HOST_CLASS(TestOuter, TEST_OUTER_FIELDS)
}  // namespace optiling
namespace {

TEST(AscTilingStruct, HostClassAndKernelStructShareTheLayout) {
  std::mt19937 rng(42);
  for (int round = 0; round < 20; ++round) {
    TestOuter k;
    optiling::TestOuter h;
    k.flag = static_cast<uint8_t>(rng());
    for (int i = 0; i < 3; ++i) k.dims[i] = static_cast<int32_t>(rng());
    k.inner.w = static_cast<uint16_t>(rng());
    k.inner.x = (static_cast<uint64_t>(rng()) << 32) | rng();
    k.scale = static_cast<float>(rng() % 1000) / 8.0f;
    h.set_flag(k.flag);
    h.set_dims(k.dims);
    h.inner.set_w(k.inner.w);
    h.inner.set_x(k.inner.x);
    h.set_scale(k.scale);
    ASSERT_EQ(h.GetDataSize(), sizeof(TestOuter));
    std::vector<uint8_t> saved(sizeof(TestOuter));
    h.SaveToBuffer(saved.data(), saved.size());
    TestOuter back;
    std::memcpy(&back, saved.data(), sizeof back);
    EXPECT_EQ(back.flag, k.flag);
    EXPECT_EQ(0, std::memcmp(back.dims, k.dims, sizeof k.dims));
    EXPECT_EQ(back.inner.w, k.inner.w);
    EXPECT_EQ(back.inner.x, k.inner.x);
    EXPECT_EQ(back.scale, k.scale);
  }
  EXPECT_EQ(alignof(TestInner), 8u);
  EXPECT_EQ(sizeof(TestOuter), 40u);  // flag 0, dims 4..16, inner 16..32, scale 32, padded to 40
}

TEST(AscGeShape, DimsAndSize) {
  ge::Shape s({4, 8, 2});
  EXPECT_EQ(s.GetDimNum(), 3u);
  EXPECT_EQ(s.GetDim(1), 8);
  EXPECT_EQ(s.GetDim(7), 0);
  EXPECT_EQ(s.GetShapeSize(), 64);
  EXPECT_EQ(s.SetDim(2, 5), ge::GRAPH_SUCCESS);
  EXPECT_EQ(s.GetShapeSize(), 160);
  EXPECT_EQ(s.SetDim(3, 1), ge::GRAPH_FAILED);
  EXPECT_EQ(s.GetDims(), (std::vector<int64_t>{4, 8, 5}));
  EXPECT_EQ(ge::Shape().GetShapeSize(), 0);
  EXPECT_EQ(ge::Shape({3, -1}).GetShapeSize(), -1);
  EXPECT_EQ(ge::DT_BF16, 27);
  EXPECT_EQ(ge::DT_FLOAT8_E4M3FN, 36);
}

}  // namespace
