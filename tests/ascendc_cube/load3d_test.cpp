// In-process tests of Load3D v2 (image to column, L1 -> L0A / L0B):
// every element of the loaded window compared with an im2col reference
// written here from the documented order (rows: output pixels; columns:
// [C1, Kh, Kw, C0]; padValue outside the map), the fmatrix registers
// (SetFmatrix / SetLoadDataPaddingValue with isSetFMatrix/isSetPadding
// false), a convolution through Load3D + Mmad, and the rule messages.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "../ascendc_model/harness.h"
#include "kernel_operator.h"

namespace {

struct Conv {
  uint32_t c, h, w;         // channels (of half: c0 16), feature-map rows, columns
  uint32_t fh, fw;          // filter
  uint32_t sh, sw, dh, dw;  // stride, dilation
  uint8_t pad[4];           // left, right, top, bottom
  uint32_t m0, mext, k0, kext;
  uint32_t to_b;            // 1: load to L0B (ZN of the K x M matrix)
  uint32_t regs;            // 1: fmatrix and padding from SetFmatrix / SetLoadDataPaddingValue
};

float MapValue(uint32_t c, uint32_t h, uint32_t w) { return static_cast<float>((c * 7 + h * 13 + w * 3) % 61) - 30.0f; }

uint32_t Wo(const Conv& p) { return (p.w + p.pad[0] + p.pad[1] - p.dw * (p.fw - 1) - 1) / p.sw + 1; }
uint32_t Ho(const Conv& p) { return (p.h + p.pad[2] + p.pad[3] - p.dh * (p.fh - 1) - 1) / p.sh + 1; }

// (m, k) of the im2col matrix
float Im2col(const Conv& p, uint32_t m, uint32_t k, float padv) {
  const uint32_t wo = Wo(p), oh = m / wo, ow = m % wo;
  const uint32_t cc = k % 16, kw = (k / 16) % p.fw, kh = (k / 16 / p.fw) % p.fh, c1 = k / 16 / p.fw / p.fh;
  const int h = static_cast<int>(oh * p.sh + kh * p.dh) - p.pad[2];
  const int w = static_cast<int>(ow * p.sw + kw * p.dw) - p.pad[0];
  const uint32_t c = c1 * 16 + cc;
  if (h < 0 || w < 0 || h >= static_cast<int>(p.h) || w >= static_cast<int>(p.w) || c >= p.c) return padv;
  return MapValue(c, h, w);
}

void Load3dKernel(GM_ADDR out, Conv p) {
  using namespace AscendC;
  const uint32_t c1 = (p.c + 15) / 16;
  LocalTensor<half> l1(TPosition::A1, 0, c1 * p.h * p.w * 16);
  for (uint32_t c = 0; c < c1 * 16; ++c) {
    for (uint32_t h = 0; h < p.h; ++h) {
      for (uint32_t w = 0; w < p.w; ++w) {
        l1.SetValue(((c / 16) * p.h * p.w + h * p.w + w) * 16 + c % 16, half(c < p.c ? MapValue(c, h, w) : 99.0f));
      }
    }
  }
  const uint32_t n = (p.mext + 15) / 16 * 16 * ((p.kext + 15) / 16 * 16);
  LocalTensor<half> l0(p.to_b ? TPosition::B2 : TPosition::A2, 0, n);
  for (uint32_t i = 0; i < n; ++i) l0.SetValue(i, half(-77.0f));  // untouched padding stays
  LoadData3DParamsV2<half> q;
  for (int i = 0; i < 4; ++i) q.padList[i] = p.pad[i];
  q.l1H = static_cast<uint16_t>(p.h);
  q.l1W = static_cast<uint16_t>(p.w);
  q.channelSize = static_cast<uint16_t>(p.c);
  q.kExtension = static_cast<uint16_t>(p.kext);
  q.mExtension = static_cast<uint16_t>(p.mext);
  q.kStartPt = static_cast<uint16_t>(p.k0);
  q.mStartPt = static_cast<uint16_t>(p.m0);
  q.strideW = static_cast<uint8_t>(p.sw);
  q.strideH = static_cast<uint8_t>(p.sh);
  q.filterW = static_cast<uint8_t>(p.fw);
  q.filterH = static_cast<uint8_t>(p.fh);
  q.dilationFilterW = static_cast<uint8_t>(p.dw);
  q.dilationFilterH = static_cast<uint8_t>(p.dh);
  q.padValue = half(0.5f);
  if (p.regs) {
    SetFmatrix(static_cast<uint16_t>(p.h), static_cast<uint16_t>(p.w), p.pad, FmatrixMode::FMATRIX_RIGHT);
    SetLoadDataPaddingValue(half(-2.0f));
    q.l1H = 1;  // ignored: the register holds the fmatrix
    q.l1W = 1;
    q.fMatrixCtrl = true;
    static constexpr IsResetLoad3dConfig kRegs = {false, false};
    LoadData<half, kRegs>(l0, l1, q);
  } else {
    LoadData(l0, l1, q);
  }
  __gm__ half* o = reinterpret_cast<__gm__ half*>(out);
  for (uint32_t i = 0; i < n; ++i) o[i] = l0.GetValue(i);
}

std::string RunLoad3d(const Conv& p, std::vector<half>* out) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  const uint32_t n = (p.mext + 15) / 16 * 16 * ((p.kext + 15) / 16 * 16);
  out->assign(n, half(0.0f));
  const int rc = r.Run<&Load3dKernel>(1, reinterpret_cast<GM_ADDR>(out->data()), p);
  return rc == 0 ? std::string() : r.FirstError();
}

void Check(const Conv& p, float padv) {
  std::vector<half> out;
  ASSERT_EQ(RunLoad3d(p, &out), "");
  const uint32_t mb = (p.mext + 15) / 16, kb = (p.kext + 15) / 16;
  uint32_t checked = 0;
  for (uint32_t m = 0; m < mb * 16; ++m) {
    for (uint32_t k = 0; k < kb * 16; ++k) {
      const size_t idx = p.to_b ? (static_cast<size_t>(k / 16) * mb + m / 16) * 256 + (m % 16) * 16 + k % 16
                                : (static_cast<size_t>(m / 16) * kb + k / 16) * 256 + (m % 16) * 16 + k % 16;
      const float want = m < p.mext && k < p.kext ? Im2col(p, p.m0 + m, p.k0 + k, padv) : -77.0f;
      ASSERT_EQ(out[idx].val, half(want).val) << "m " << m << " k " << k;
      ++checked;
    }
  }
  EXPECT_EQ(checked, mb * kb * 256);
}

TEST(CubeLoad3d, Im2colWindowToL0A) {
  // 32 channels, 5 x 6 map, 3 x 3 filter, stride 2 x 1, dilation 1 x 2, padding l1 r1 t1 b0
  Conv p{32, 5, 6, 3, 3, 2, 1, 1, 2, {1, 1, 1, 0}, 3, 20, 16, 240, 0, 0};
  ASSERT_EQ(Ho(p), 2u);
  ASSERT_EQ(Wo(p), 4u);
  p.mext = 5;  // 8 output pixels; rows 3..7
  Check(p, 0.5f);
  // channels not a multiple of c0 read as padding; the whole matrix
  Conv q{20, 4, 4, 2, 2, 1, 1, 1, 1, {0, 0, 0, 0}, 0, 9, 0, 128, 0, 0};
  Check(q, 0.5f);
}

TEST(CubeLoad3d, ToL0BAndRegisters) {
  Conv p{16, 6, 6, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}, 4, 30, 32, 112, 1, 0};
  Check(p, 0.5f);
  p.regs = 1;  // fmatrix from SetFmatrix(FMATRIX_RIGHT), pad value -2 from SetLoadDataPaddingValue
  p.to_b = 0;
  Check(p, -2.0f);
}

// A 3 x 3 convolution of a 16-channel 6 x 6 map with 16 filters (padding 1)
// as Load3D (A) x weights (B, ZN, filled directly) through Mmad: each output
// equals the direct convolution accumulated in k order.
void ConvKernel(GM_ADDR out) {
  using namespace AscendC;
  LocalTensor<half> l1(TPosition::A1, 0, 16 * 36);
  for (uint32_t h = 0; h < 6; ++h) {
    for (uint32_t w = 0; w < 6; ++w) {
      for (uint32_t c = 0; c < 16; ++c) l1.SetValue((h * 6 + w) * 16 + c, half(MapValue(c, h, w) / 8));
    }
  }
  const uint32_t K = 9 * 16;  // [kh, kw, c]
  LocalTensor<half> a(TPosition::A2, 0, 48 * K);
  LocalTensor<half> b(TPosition::B2, 0, K * 16);
  for (uint32_t k = 0; k < K; ++k) {
    for (uint32_t n = 0; n < 16; ++n) b.SetValue((k / 16) * 256 + n * 16 + k % 16, half(static_cast<float>((k * 5 + n * 11) % 9) - 4));
  }
  uint8_t pad[4] = {1, 1, 1, 1};
  LoadData3DParamsV2<half> q(pad, 6, 6, 16, static_cast<uint16_t>(K), 36, 0, 0, 1, 1, 3, 3, 1, 1, false, false, half(0.0f));
  LoadData(a, l1, q);
  LocalTensor<float> c(TPosition::CO1, 0, 48 * 16);
  Mmad(c, a, b, MmadParams(36, 16, static_cast<uint16_t>(K), false, 0, false, false, false));
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 36 * 16);
  Fixpipe<float, float>(g, c, FixpipeParamsV220(16, 36, 48, 16, false));
}

TEST(CubeLoad3d, ConvolutionThroughMmad) {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  std::vector<float> out(36 * 16, -1.0f);
  ASSERT_EQ(r.Run<&ConvKernel>(1, reinterpret_cast<GM_ADDR>(out.data())), 0) << r.FirstError();
  for (int oh = 0; oh < 6; ++oh) {
    for (int ow = 0; ow < 6; ++ow) {
      for (int n = 0; n < 16; ++n) {
        float acc = 0.0f;
        for (int k = 0; k < 144; ++k) {
          const int c = k % 16, kw = (k / 16) % 3, kh = k / 48;
          const int h = oh + kh - 1, w = ow + kw - 1;
          const float x = h < 0 || w < 0 || h >= 6 || w >= 6 ? 0.0f : static_cast<float>(half(MapValue(c, h, w) / 8));
          acc = acc + x * static_cast<float>((k * 5 + n * 11) % 9 - 4);
        }
        ASSERT_EQ(out[(oh * 6 + ow) * 16 + n], acc) << oh << "," << ow << "," << n;
      }
    }
  }
}

void BadWindow(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> l1(TPosition::A1, 0, 16 * 16);
  LocalTensor<half> l0(TPosition::A2, 0, 512);
  uint8_t pad[4] = {0, 0, 0, 0};
  // 4 x 4 map, 3 x 3 filter: 2 x 2 = 4 output pixels; rows [2, 18) are outside
  LoadData(l0, l1, LoadData3DParamsV2<half>(pad, 4, 4, 16, 16, 16, 0, 2, 1, 1, 3, 3, 1, 1, false, false, half(0.0f)));
}
void FromUb(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> ub(TPosition::VECIN, 0, 256);
  LocalTensor<half> l0(TPosition::A2, 0, 256);
  uint8_t pad[4] = {0, 0, 0, 0};
  LoadData(l0, ub, LoadData3DParamsV2<half>(pad, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, half(0.0f)));
}
void Transposed(GM_ADDR) {
  using namespace AscendC;
  LocalTensor<half> l1(TPosition::A1, 0, 256);
  LocalTensor<half> l0(TPosition::A2, 0, 256);
  uint8_t pad[4] = {0, 0, 0, 0};
  LoadData(l0, l1, LoadData3DParamsV2<half>(pad, 4, 4, 16, 16, 16, 0, 0, 1, 1, 1, 1, 1, 1, true, false, half(0.0f)));
}

template <auto Fn>
std::string Fails() {
  simnpu_test::FakeServices svc;
  simnpu_test::Runner r(&svc);
  r.core_type = SIMNPU_KERNEL_AIC;
  EXPECT_EQ(r.Run<Fn>(1, static_cast<GM_ADDR>(nullptr)), SIMNPU_BLOCK_CHECK_FAILED);
  return r.FirstError();
}

TEST(CubeLoad3d, Messages) {
  EXPECT_NE(Fails<&BadWindow>().find("LoadData(LoadData3DParamsV2): rows [2, 18) are outside the 4 output pixels (2 x 2)"),
            std::string::npos);
  EXPECT_NE(Fails<&FromUb>().find("LoadData(LoadData3DParamsV2): the source is in position VECIN"), std::string::npos)
      << Fails<&FromUb>();
  EXPECT_NE(Fails<&Transposed>().find("LoadData(LoadData3DParamsV2): enTranspose is not modelled"), std::string::npos);
}

}  // namespace
