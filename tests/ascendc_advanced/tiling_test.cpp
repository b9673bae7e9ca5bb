// Host tiling of the advanced API families (tiling/tiling_api.h): the values
// the tiling functions compute, the host and kernel forms agree byte for
// byte, and the temporary-space sizes follow the rules in the headers.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

TEST(AdvTiling, SoftMaxTilingFuncFillsShapeAndSplit) {
  ge::Shape shape({4, 80, 64});  // [m0, m1, k]: m = 320
  const uint32_t mn = AscendC::GetSoftMaxMinTmpSize(shape, 2, false);
  const uint32_t mx = AscendC::GetSoftMaxMaxTmpSize(shape, 2, false);
  EXPECT_EQ(mn, 64u * 4u + 32u);
  EXPECT_EQ(mx, 320u * mn);
  optiling::SoftMaxTiling host;
  AscendC::SoftMaxTilingFunc(shape, 2, mn * 10, host);
  EXPECT_EQ(host.get_srcM(), 320u);
  EXPECT_EQ(host.get_srcK(), 64u);
  EXPECT_EQ(host.get_srcSize(), 320u * 64u);
  EXPECT_EQ(host.get_outMaxK(), 16u);  // one 32-byte block of halves per row
  EXPECT_EQ(host.get_splitM(), 10u);
  EXPECT_EQ(host.get_rangeM(), 32u);
  EXPECT_EQ(host.get_tailM(), 0u);
  // the saved bytes are the kernel struct
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  ASSERT_EQ(buf.size(), sizeof(SoftMaxTiling));
  SoftMaxTiling k;
  AscendC::SoftMaxTilingFunc(shape, 2, mn * 10, k);
  EXPECT_EQ(std::memcmp(buf.data(), &k, sizeof k), 0);
}

TEST(AdvTiling, LayerNormTilingFromTheExampleShape) {
  ge::Shape shape({2, 16, 64, 64});  // {B, S, H, originalH}, as the LayerNorm example passes it
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, mx, mn);
  EXPECT_EQ(mn, 2u * 64u * 4u);
  EXPECT_EQ(mx, mn * 32u);
  optiling::LayerNormTiling host;
  AscendC::GetLayerNormNDTilingInfo(shape, mn * 4, sizeof(float), false, host);
  EXPECT_EQ(host.get_bLength(), 2u);
  EXPECT_EQ(host.get_sLength(), 16u);
  EXPECT_EQ(host.get_hLength(), 64u);
  EXPECT_EQ(host.get_originalHLength(), 64u);
  EXPECT_EQ(host.get_meanVarSize(), 32u);
  EXPECT_EQ(host.get_bsCurLength(), 4u);
  EXPECT_EQ(host.get_loopRound(), 8u);
  EXPECT_FLOAT_EQ(host.get_lastDimValueBack(), 1.0f / 64.0f);
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  ASSERT_EQ(buf.size(), sizeof(LayerNormTiling));
}

TEST(AdvTiling, RmsNormTilingRejectsTooLittleSpace) {
  ge::Shape shape({1, 8, 256});
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(shape, sizeof(float), mx, mn));
  EXPECT_EQ(mn, 256u * 4u + 32u);
  optiling::RmsNormTiling host;
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(shape, shape, mn - 1, sizeof(float), host));
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(shape, ge::Shape({1, 8, 200}), mn * 3, sizeof(float), host));
  EXPECT_EQ(host.get_hLength(), 256u);
  EXPECT_EQ(host.get_originalHLength(), 200u);
  EXPECT_FLOAT_EQ(host.get_reciprocalOfHLength(), 1.0f / 200.0f);
  EXPECT_EQ(host.get_mainBsLength(), 3u);
  EXPECT_EQ(host.get_loopRound(), 2u);
  EXPECT_EQ(host.get_tailBsLength(), 2u);
}

TEST(AdvTiling, ElementwiseTmpSizes) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({1000}), 4, false, mx, mn);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 4000u);
  AscendC::GetSwiGLUMaxMinTmpSize(ge::Shape({8}), 4, mx, mn, false);
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 256u);
}

TEST(AdvTiling, PadAndUnPadTilingFromTheExampleShapes) {
  ge::Shape src({320, 63}), ori({320, 63});  // the Pad Tiling example: [320, 63] half
  uint32_t mx = 0, mn = 0;
  AscendC::GetPadMaxMinTmpSize(src, 2, mx, mn);
  EXPECT_EQ(mn, 128u);  // one row of 63 halves, 32-byte aligned
  EXPECT_EQ(mx, 320u * 128u);
  optiling::PadTiling host;
  AscendC::PadTilingFunc(src, ori, mn * 16, 2, host);
  EXPECT_EQ(host.get_srcHeight(), 320u);
  EXPECT_EQ(host.get_srcWidth(), 63u);
  EXPECT_EQ(host.get_srcOriWidth(), 63u);
  EXPECT_EQ(host.get_blocksPerRow(), 4u);
  EXPECT_EQ(host.get_heightTiling(), 16u);
  EXPECT_EQ(host.get_heightFractal(), 20u);
  EXPECT_EQ(host.get_heightFractalTail(), 0u);
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  ASSERT_EQ(buf.size(), sizeof(PadTiling));
  PadTiling k;
  AscendC::PadTilingFunc(src, ori, mn * 16, 2, k);
  EXPECT_EQ(std::memcmp(buf.data(), &k, sizeof k), 0);

  ge::Shape usrc({320, 64});  // the UnPad Tiling example: [320, 64] -> [320, 63]
  optiling::UnPadTiling uhost;
  AscendC::UnPadTilingFunc(usrc, 128u * 8u, 2, uhost);
  EXPECT_EQ(uhost.get_srcHeight(), 320u);
  EXPECT_EQ(uhost.get_srcWidth(), 64u);
  EXPECT_EQ(uhost.get_tmpBuffer1RowNum(), 8u);
  std::vector<uint8_t> ubuf(uhost.GetDataSize());
  uhost.SaveToBuffer(ubuf.data(), ubuf.size());
  ASSERT_EQ(ubuf.size(), sizeof(UnPadTiling));
  UnPadTiling uk;
  AscendC::UnPadTilingFunc(usrc, 128u * 8u, 2, uk);
  EXPECT_EQ(std::memcmp(ubuf.data(), &uk, sizeof uk), 0);
}

TEST(AdvTiling, TopKTilingSizesAndBytes) {
  auto plat = platform_ascendc::PlatformAscendC(nullptr);
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(plat, 32, 2, false, true, AscendC::TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  EXPECT_EQ(mn, 256u);
  EXPECT_EQ(mx, 512u);
  EXPECT_FALSE(AscendC::GetTopKMaxMinTmpSize(plat, 64, 2, false, true, AscendC::TopKMode::TOPK_NSMALL, true, 4, mx, mn));
  EXPECT_FALSE(AscendC::GetTopKMaxMinTmpSize(plat, 40, 2, false, true, AscendC::TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  optiling::TopkTiling host;
  ASSERT_TRUE(AscendC::TopKTilingFunc(plat, 32, 2, 5, 4, true, AscendC::TopKMode::TOPK_NORMAL, true, host));
  EXPECT_EQ(host.get_allDataSize(), 64);
  EXPECT_EQ(host.get_kAlignFourBytes(), 8);
  EXPECT_EQ(host.get_kAlignTwoBytes(), 16);
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  ASSERT_EQ(buf.size(), sizeof(TopkTiling));
  TopkTiling k;
  ASSERT_TRUE(AscendC::TopKTilingFunc(plat, 32, 2, 5, 4, true, AscendC::TopKMode::TOPK_NORMAL, true, k));
  EXPECT_EQ(std::memcmp(buf.data(), &k, sizeof k), 0);
}

TEST(AdvTiling, LayerNormSeparateTilingForTheRstdForm) {
  ge::Shape shape({6, 104});  // [A, R]
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, true, false, mx, mn);
  EXPECT_EQ(mn, 416u);  // one row of 104 floats
  EXPECT_EQ(mx, 6u * 416u);
  optiling::LayerNormSeparateTiling host;
  AscendC::GetLayerNormNDTilingInfo(shape, mn * 2, sizeof(float), false, true, host);
  EXPECT_EQ(host.get_aLength(), 6u);
  EXPECT_EQ(host.get_rLength(), 104u);
  EXPECT_EQ(host.get_rHeadLength(), 64u);
  EXPECT_EQ(host.get_aCurLength(), 2u);
  EXPECT_EQ(host.get_loopRound(), 3u);
  std::vector<uint8_t> buf(host.GetDataSize());
  host.SaveToBuffer(buf.data(), buf.size());
  ASSERT_EQ(buf.size(), sizeof(LayerNormSeparateTiling));
  LayerNormSeparateTiling k;
  AscendC::GetLayerNormNDTilingInfo(shape, mn * 2, sizeof(float), false, true, k);
  EXPECT_EQ(std::memcmp(buf.data(), &k, sizeof k), 0);
}

}  // namespace
