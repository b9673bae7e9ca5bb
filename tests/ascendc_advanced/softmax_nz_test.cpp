// The NZ data format of the SoftMax family (isDataFormatNZ = true): each
// function runs once on ND data and once on the same data laid out as NZ
// fractals ([k / 16, m, 16], column blocks outermost); the NZ result laid
// back out must equal the ND result byte for byte (main output, padding
// columns left as they were, and the per-row max / sum / expMax blocks).
// Float and half, shapes with padded columns (oriSrcK < srcK) and row counts
// that are not a multiple of 16. The ND path itself is checked against
// numpy in adv_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc_model/harness.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using simnpu_test::FakeServices;
using simnpu_test::Runner;

namespace {

enum NzOp : uint32_t {
  kNzSoftMax = 0,          // SoftMax<T> with sum and max (T)
  kNzSoftMaxHalfFloat = 1, // SoftMax half data, float sum and max
  kNzSimple = 2,           // SimpleSoftMax<T>, inSum / inMax given
  kNzFlashV2 = 3,          // SoftmaxFlashV2<T, false>
  kNzFlashV2Upd = 4,       // SoftmaxFlashV2<T, true> (shared tmp buffer form)
  kNzFlashV2UpdHalf = 5,   // SoftmaxFlashV2<half, true> with float rows
  kNzGrad = 6,             // SoftmaxGrad<T>, not isFront
  kNzGradFront = 7,        // SoftmaxGradFront<T>
  kNzAdjust = 8,           // AdjustSoftMaxRes<T, float>
};

// GM: a, g (main [m, k] T: src, grad), s, x (row blocks: inSum / inExpSum,
// inMax; 32 bytes a row), init and out (d | w | e | f: main, then three row
// segments).
template <typename T>
void NzCase(GM_ADDR a_gm, GM_ADDR g_gm, GM_ADDR s_gm, GM_ADDR x_gm, GM_ADDR init, GM_ADDR out, uint32_t op,
            uint32_t nz, uint32_t m, uint32_t k, uint32_t cols, uint32_t from) {
  const uint32_t main_bytes = m * k * static_cast<uint32_t>(sizeof(T));
  const uint32_t row_bytes = m * 32;
  TPipe pipe;
  TBuf<TPosition::VECCALC> ba, bg, bs, bx, bd, bw, be, bf, bt;
  pipe.InitBuffer(ba, main_bytes);
  pipe.InitBuffer(bg, main_bytes);
  pipe.InitBuffer(bs, row_bytes);
  pipe.InitBuffer(bx, row_bytes);
  pipe.InitBuffer(bd, main_bytes);
  pipe.InitBuffer(bw, row_bytes);
  pipe.InitBuffer(be, row_bytes);
  pipe.InitBuffer(bf, row_bytes);
  pipe.InitBuffer(bt, 1024);
  LocalTensor<uint8_t> a = ba.Get<uint8_t>(), g = bg.Get<uint8_t>(), s = bs.Get<uint8_t>(), x = bx.Get<uint8_t>();
  LocalTensor<uint8_t> d = bd.Get<uint8_t>(), w = bw.Get<uint8_t>(), e = be.Get<uint8_t>(), f = bf.Get<uint8_t>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  auto in = [](const LocalTensor<uint8_t>& t, GM_ADDR p, uint32_t bytes) {
    GlobalTensor<uint8_t> gt;
    gt.SetGlobalBuffer(p, bytes);
    DataCopy(t, gt, bytes);
  };
  auto back = [](GM_ADDR p, const LocalTensor<uint8_t>& t, uint32_t bytes) {
    GlobalTensor<uint8_t> gt;
    gt.SetGlobalBuffer(p, bytes);
    DataCopy(gt, t, bytes);
  };
  in(a, a_gm, main_bytes);
  in(g, g_gm, main_bytes);
  in(s, s_gm, row_bytes);
  in(x, x_gm, row_bytes);
  in(d, init, main_bytes);
  in(w, init + main_bytes, row_bytes);
  in(e, init + main_bytes + row_bytes, row_bytes);
  in(f, init + main_bytes + 2 * row_bytes, row_bytes);
  PipeBarrier<PIPE_ALL>();

  const SoftMaxTiling t{};
  const SoftMaxShapeInfo info{m, k, m, cols};
  auto run = [&](auto nz_c) {
    constexpr bool NZ = decltype(nz_c)::value;
    auto L = [](const LocalTensor<uint8_t>& b) { return b.ReinterpretCast<T>(); };
    auto F = [](const LocalTensor<uint8_t>& b) { return b.ReinterpretCast<float>(); };
    switch (op) {
      case kNzSoftMax:
        SoftMax<T, false, false, NZ>(L(d), L(w), L(e), L(a), tmp, t, info);
        break;
      case kNzSimple:
        SimpleSoftMax<T, false, false, NZ>(L(d), L(s), L(x), L(a), t, info);
        break;
      case kNzFlashV2:
        SoftmaxFlashV2<T, false, false, false, NZ>(L(d), L(w), L(e), L(a), L(f), L(s), L(x), t, info);
        break;
      case kNzFlashV2Upd:
        SoftmaxFlashV2<T, true, false, false, NZ>(L(d), L(w), L(e), L(a), L(f), L(s), L(x), tmp, t, info);
        break;
      case kNzGrad:
        SoftmaxGrad<T, false, NZ>(L(d), L(g), L(a), tmp, t, false, info);
        break;
      case kNzGradFront:
        SoftmaxGradFront<T, false, NZ>(L(w), L(g), L(a), t, info);
        break;
      case kNzAdjust: {
        const bool any = AdjustSoftMaxRes<T, float, NZ>(L(d), F(x), from, T(0.5f), info);
        e.ReinterpretCast<uint32_t>().SetValue(0, any ? 1u : 0u);
        break;
      }
      default:
        if constexpr (std::is_same<T, half>::value) {
          if (op == kNzSoftMaxHalfFloat) {
            SoftMax<half, false, false, NZ>(L(d), F(w), F(e), L(a), t, info);
          } else if (op == kNzFlashV2UpdHalf) {
            SoftmaxFlashV2<half, true, false, false, NZ>(L(d), F(w), F(e), L(a), L(f), F(s), F(x), t, info);
          }
        }
        break;
    }
  };
  if (nz != 0) {
    run(std::true_type{});
  } else {
    run(std::false_type{});
  }
  PipeBarrier<PIPE_ALL>();
  back(out, d, main_bytes);
  back(out + main_bytes, w, row_bytes);
  back(out + main_bytes + row_bytes, e, row_bytes);
  back(out + main_bytes + 2 * row_bytes, f, row_bytes);
}

extern "C" __global__ __aicore__ void nz_case_f32(GM_ADDR a, GM_ADDR g, GM_ADDR s, GM_ADDR x, GM_ADDR init,
                                                  GM_ADDR out, uint32_t op, uint32_t nz, uint32_t m, uint32_t k,
                                                  uint32_t cols, uint32_t from) {
  NzCase<float>(a, g, s, x, init, out, op, nz, m, k, cols, from);
}
extern "C" __global__ __aicore__ void nz_case_f16(GM_ADDR a, GM_ADDR g, GM_ADDR s, GM_ADDR x, GM_ADDR init,
                                                  GM_ADDR out, uint32_t op, uint32_t nz, uint32_t m, uint32_t k,
                                                  uint32_t cols, uint32_t from) {
  NzCase<half>(a, g, s, x, init, out, op, nz, m, k, cols, from);
}

// ND [m, k] index -> NZ index.
size_t NzIndex(uint32_t m, uint32_t r, uint32_t j) {
  return static_cast<size_t>(j / 16) * m * 16 + static_cast<size_t>(r) * 16 + j % 16;
}
template <typename T>
std::vector<T> ToNz(const std::vector<T>& nd, uint32_t m, uint32_t k) {
  std::vector<T> nz(nd.size());
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < k; ++j) nz[NzIndex(m, r, j)] = nd[static_cast<size_t>(r) * k + j];
  }
  return nz;
}
template <typename T>
std::vector<T> FromNz(const std::vector<T>& nz, uint32_t m, uint32_t k) {
  std::vector<T> nd(nz.size());
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < k; ++j) nd[static_cast<size_t>(r) * k + j] = nz[NzIndex(m, r, j)];
  }
  return nd;
}

// Row blocks of 32 bytes: the row's value repeated, as U.
template <typename U>
void PutRows(std::vector<uint8_t>& bytes, const std::vector<float>& v) {
  constexpr uint32_t per = 32 / sizeof(U);
  for (size_t r = 0; r < v.size(); ++r) {
    const U u = U(v[r]);
    for (uint32_t j = 0; j < per; ++j) std::memcpy(&bytes[(r * per + j) * sizeof(U)], &u, sizeof(U));
  }
}

struct Shape {
  uint32_t m, k, cols;
};

template <typename T>
void ExpectNzMatchesNd(uint32_t op, const Shape& sh, uint32_t seed) {
  const uint32_t m = sh.m, k = sh.k, cols = sh.cols;
  const size_t n = static_cast<size_t>(m) * k;
  const size_t main_bytes = n * sizeof(T), row_bytes = static_cast<size_t>(m) * 32;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f), pos(0.5f, 30.0f);
  std::vector<T> src(n), grad(n), dinit(n);
  for (size_t i = 0; i < n; ++i) {
    src[i] = T(u(rng));
    grad[i] = T(u(rng) * 0.25f);
    dinit[i] = T(static_cast<float>(i % 7) - 3.0f);  // padding columns must keep these
  }
  if (op == kNzGrad || op == kNzGradFront) {  // y: a softmax-like row of positives
    for (size_t i = 0; i < n; ++i) src[i] = T(std::fabs(u(rng)) / 16.0f);
  }
  std::vector<float> in_sum(m), in_max(m);
  for (uint32_t r = 0; r < m; ++r) {
    in_sum[r] = pos(rng);
    in_max[r] = u(rng) * 0.5f;
  }
  const bool float_rows = std::is_same<T, float>::value || op == kNzSoftMaxHalfFloat || op == kNzFlashV2UpdHalf ||
                          op == kNzAdjust;
  std::vector<uint8_t> s(row_bytes), x(row_bytes), init(main_bytes + 3 * row_bytes);
  if (float_rows) {
    PutRows<float>(s, in_sum);
    PutRows<float>(x, in_max);
  } else {
    PutRows<half>(s, in_sum);
    PutRows<half>(x, in_max);
  }
  for (size_t i = main_bytes; i < init.size(); ++i) init[i] = static_cast<uint8_t>(0x5a + i);
  uint32_t from = 0;
  if (op == kNzAdjust) {  // rows 1 and m - 1 (when distinct) hold the max value looked for
    for (size_t i = 0; i < n; ++i) dinit[i] = T(static_cast<float>(i % 11) / 16.0f);
    in_max[1] = 2.5f;
    in_max[m - 1] = 2.5f;
    PutRows<float>(x, in_max);
    const float v = 2.5f;
    std::memcpy(&from, &v, 4);
  }

  auto run = [&](bool nz) {
    std::vector<T> a = nz ? ToNz(src, m, k) : src, g = nz ? ToNz(grad, m, k) : grad;
    std::vector<T> d0 = nz ? ToNz(dinit, m, k) : dinit;
    std::vector<uint8_t> in = init;
    std::memcpy(in.data(), d0.data(), main_bytes);
    std::vector<uint8_t> out(init.size(), 0xee);
    FakeServices svc;
    Runner r(&svc);
    uint8_t* pa = reinterpret_cast<uint8_t*>(a.data());
    uint8_t* pg = reinterpret_cast<uint8_t*>(g.data());
    int rc = 0;
    if constexpr (std::is_same<T, float>::value) {
      rc = r.Run<nz_case_f32>(1, pa, pg, s.data(), x.data(), in.data(), out.data(), op, nz ? 1u : 0u, m, k, cols, from);
    } else {
      rc = r.Run<nz_case_f16>(1, pa, pg, s.data(), x.data(), in.data(), out.data(), op, nz ? 1u : 0u, m, k, cols, from);
    }
    EXPECT_EQ(rc, 0) << r.FirstError();
    if (nz) {  // the main output back to ND
      std::vector<T> dz(n);
      std::memcpy(dz.data(), out.data(), main_bytes);
      const std::vector<T> dn = FromNz(dz, m, k);
      std::memcpy(out.data(), dn.data(), main_bytes);
    }
    return out;
  };
  const std::vector<uint8_t> nd = run(false), nz = run(true);
  ASSERT_EQ(nd.size(), nz.size());
  // the ND run did something (the comparison is not of two untouched buffers)
  const bool main_out = op != kNzGradFront;
  if (main_out) {
    EXPECT_NE(std::memcmp(nd.data(), dinit.data(), main_bytes), 0) << "ND main output unchanged";
  } else {
    EXPECT_NE(std::memcmp(nd.data() + main_bytes, init.data() + main_bytes, row_bytes), 0) << "ND row output unchanged";
  }
  for (size_t i = 0; i < nd.size(); ++i) {
    ASSERT_EQ(nd[i], nz[i]) << "op " << op << " [" << m << ", " << k << "] cols " << cols << ": byte " << i
                            << (i < main_bytes ? " of the main output" : " of the row outputs");
  }
  if (op == kNzAdjust) {  // both found the rows
    uint32_t any = 0;
    std::memcpy(&any, nd.data() + main_bytes + row_bytes, 4);
    EXPECT_EQ(any, 1u);
    T got;
    std::memcpy(&got, nd.data() + sizeof(T) * k, sizeof(T));  // row 1, column 0
    EXPECT_EQ(static_cast<float>(got), 0.5f);
  }
}

const Shape kShapes[] = {{16, 32, 32}, {32, 64, 50}, {24, 48, 41}, {8, 16, 9}, {48, 128, 128}};

template <typename T>
void AllShapes(uint32_t op) {
  uint32_t seed = 7 + op;
  for (const Shape& sh : kShapes) ExpectNzMatchesNd<T>(op, sh, seed++);
}

TEST(AdvSoftmaxNz, SoftMaxF32) { AllShapes<float>(kNzSoftMax); }
TEST(AdvSoftmaxNz, SoftMaxF16) { AllShapes<half>(kNzSoftMax); }
TEST(AdvSoftmaxNz, SoftMaxHalfFloatRows) { AllShapes<half>(kNzSoftMaxHalfFloat); }
TEST(AdvSoftmaxNz, SimpleSoftMaxF32) { AllShapes<float>(kNzSimple); }
TEST(AdvSoftmaxNz, SimpleSoftMaxF16) { AllShapes<half>(kNzSimple); }
TEST(AdvSoftmaxNz, FlashV2F32) { AllShapes<float>(kNzFlashV2); }
TEST(AdvSoftmaxNz, FlashV2F16) { AllShapes<half>(kNzFlashV2); }
TEST(AdvSoftmaxNz, FlashV2UpdateF32) { AllShapes<float>(kNzFlashV2Upd); }
TEST(AdvSoftmaxNz, FlashV2UpdateF16) { AllShapes<half>(kNzFlashV2Upd); }
TEST(AdvSoftmaxNz, FlashV2UpdateHalfFloatRows) { AllShapes<half>(kNzFlashV2UpdHalf); }
TEST(AdvSoftmaxNz, GradF32) { AllShapes<float>(kNzGrad); }
TEST(AdvSoftmaxNz, GradF16) { AllShapes<half>(kNzGrad); }
TEST(AdvSoftmaxNz, GradFrontF32) { AllShapes<float>(kNzGradFront); }
TEST(AdvSoftmaxNz, GradFrontF16) { AllShapes<half>(kNzGradFront); }
TEST(AdvSoftmaxNz, AdjustSoftMaxResF32) { AllShapes<float>(kNzAdjust); }
TEST(AdvSoftmaxNz, AdjustSoftMaxResF16) { AllShapes<half>(kNzAdjust); }

// One NZ element in place: SoftMax of a [16, 32] float tensor whose row 3
// holds a single large value in column 20 puts ~1 at NZ offset
// (20 / 16) * 16 * 16 + 3 * 16 + 20 % 16 and the row's max 9 in the max block.
TEST(AdvSoftmaxNz, LayoutOfOneElement) {
  const uint32_t m = 16, k = 32;
  std::vector<float> src(m * k, 0.0f);
  src[3 * k + 20] = 9.0f;
  const std::vector<float> a = ToNz(src, m, k);
  std::vector<float> g(m * k, 0.0f);
  std::vector<uint8_t> s(m * 32, 0), x(m * 32, 0), init(m * k * 4 + 3 * m * 32, 0), out(init.size(), 0);
  FakeServices svc;
  Runner r(&svc);
  ASSERT_EQ(r.Run<nz_case_f32>(1, reinterpret_cast<uint8_t*>(const_cast<float*>(a.data())),
                               reinterpret_cast<uint8_t*>(g.data()), s.data(), x.data(), init.data(), out.data(),
                               uint32_t{kNzSoftMax}, 1u, m, k, k, 0u),
            0)
      << r.FirstError();
  std::vector<float> d(m * k), mx(m * 8);
  std::memcpy(d.data(), out.data(), m * k * 4);
  std::memcpy(mx.data(), out.data() + m * k * 4 + m * 32, m * 32);
  float sum = 0.0f;  // the row's e-sum in column order, as the model adds it
  for (uint32_t j = 0; j < k; ++j) sum += j == 20 ? 1.0f : std::exp(-9.0f);
  const size_t at = 1 * 16 * 16 + 3 * 16 + 4;
  EXPECT_EQ(d[at], 1.0f / sum);
  EXPECT_EQ(d[3 * 16 + 4], std::exp(-9.0f) / sum);  // row 3, column 4 (first column block)
  EXPECT_EQ(d[0], 1.0f / 32.0f);                    // row 0 is uniform
  for (uint32_t j = 0; j < 8; ++j) EXPECT_EQ(mx[3 * 8 + j], 9.0f);
  EXPECT_EQ(mx[0], 0.0f);
}

// ---- the kernel-side SoftMaxFlashV2TilingFunc (it takes isDataFormatNZ)
constexpr SoftMaxTiling kConstTiling =
    SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{64, 96, 64, 90}, 2, 4, 1664, true, false, true);
static_assert(kConstTiling.srcM == 64 && kConstTiling.srcK == 96 && kConstTiling.outMaxK == 8 &&
                  kConstTiling.splitM == 4 && kConstTiling.rangeM == 16,
              "the kernel-side tiling is a constant expression");

extern "C" __global__ __aicore__ void nz_kernel_tiling(GM_ADDR out, uint32_t m, uint32_t k, uint32_t size1,
                                                       uint32_t size2, uint32_t space, uint32_t nz) {
  const SoftMaxTiling t = SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{m, k, m, k}, size1, size2, space, true, false,
                                                   nz != 0);
  GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(out, sizeof(SoftMaxTiling));
  const uint8_t* b = reinterpret_cast<const uint8_t*>(&t);
  for (uint32_t i = 0; i < sizeof(SoftMaxTiling); ++i) g.SetValue(i, b[i]);
}

TEST(AdvSoftmaxNz, KernelSideTilingIsTheHostPlan) {
  struct C {
    uint32_t m, k, s1, s2, space;
  };
  const C cases[] = {{320, 64, 2, 2, 4000}, {64, 96, 2, 4, 1600}, {7, 128, 4, 4, 100}, {33, 16, 4, 4, 1 << 20}};
  for (const C& c : cases) {
    for (uint32_t nz = 0; nz < 2; ++nz) {
      std::vector<uint8_t> got(sizeof(SoftMaxTiling), 0xee);
      FakeServices svc;
      Runner r(&svc);
      ASSERT_EQ(r.Run<nz_kernel_tiling>(1, got.data(), c.m, c.k, c.s1, c.s2, c.space, nz), 0) << r.FirstError();
      SoftMaxTiling host;
      AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({c.m, c.k}), c.s1, c.s2, c.space, host, true);
      EXPECT_EQ(std::memcmp(got.data(), &host, sizeof host), 0) << c.m << " x " << c.k << " nz " << nz;
    }
  }
  EXPECT_EQ(kConstTiling.splitM, 4u);  // 1664 bytes / (96 floats + a block = 416 bytes)
}

// ---- rules
extern "C" __global__ __aicore__ void nz_misuse(uint32_t which) {
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> a = ub.Alloc<float, 2048>(), b = ub.Alloc<float, 2048>(), c = ub.Alloc<float, 512>();
  const SoftMaxTiling t{};
  switch (which) {
    case 0:  // srcK 8: 32-byte aligned, but not whole fractals
      SoftMax<float, false, false, true>(b, c, c, a, t, SoftMaxShapeInfo{16, 8, 16, 8});
      break;
    case 1:
      SoftmaxFlashV2<float, true, false, false, true>(b, c, c, a, c, c, c, t, SoftMaxShapeInfo{16, 24, 16, 24});
      break;
    case 2:
      (void)AdjustSoftMaxRes<float, float, true>(b, c, 0u, 0.0f, SoftMaxShapeInfo{16, 40, 16, 40});
      break;
    case 3:
      (void)AdjustSoftMaxRes<float, float>(b, c, 0u, 0.0f, SoftMaxShapeInfo{16, 32, 16, 48});
      break;
    case 4:  // the NZ tensor is as large as the ND one: [64, 64] does not fit 2048 elements
      SoftmaxGradFront<float, false, true>(c, b, a, t, SoftMaxShapeInfo{64, 64, 64, 64});
      break;
    default: break;
  }
}

std::string Misuse(uint32_t which) {
  FakeServices svc;
  Runner r(&svc);
  EXPECT_EQ(r.Run<nz_misuse>(1, which), SIMNPU_BLOCK_CHECK_FAILED);
  const std::string e = r.FirstError();
  const size_t k = e.find("] ", e.rfind("]["));
  return k == std::string::npos ? e : e.substr(k + 2);
}

TEST(AdvSoftmaxNz, SrcKNotWholeFractals) {
  EXPECT_EQ(Misuse(0), "SoftMax: srcK (8) must be a multiple of 16 in the NZ format (the reduce axis is W1 * W0, W0 = 16)");
  EXPECT_EQ(Misuse(1),
            "SoftmaxFlashV2: srcK (24) must be a multiple of 16 in the NZ format (the reduce axis is W1 * W0, W0 = 16)");
  EXPECT_EQ(Misuse(2),
            "AdjustSoftMaxRes: srcK (40) must be a multiple of 16 in the NZ format (the reduce axis is W1 * W0, W0 = "
            "16)");
}
TEST(AdvSoftmaxNz, AdjustOriSrcKAboveSrcK) {
  EXPECT_EQ(Misuse(3), "AdjustSoftMaxRes: oriSrcK (48) is larger than srcK (32)");
}
TEST(AdvSoftmaxNz, TensorTooSmall) {
  EXPECT_EQ(Misuse(4), "SoftmaxGradFront: srcTensor needs 4096 elements, its LocalTensor has 2048");
}

}  // namespace
