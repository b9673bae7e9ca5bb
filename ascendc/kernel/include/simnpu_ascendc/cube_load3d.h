// simnpu Ascend C model: Load3D v2 (image to column), L1 -> L0A / L0B.
//
// The feature map in L1 is NC1HWC0 of one image: channel block c1 (c0 =
// 32 / sizeof(T) channels), then l1H rows of l1W pixels of c0 channels:
// element (c, h, w) at ((c / c0) * l1H * l1W + h * l1W + w) * c0 + c % c0.
// The virtual im2col matrix has one row per output pixel m (oh = m / Wo,
// ow = m % Wo, Wo = (l1W + padLeft + padRight - dilationW * (filterW - 1)
// - 1) / strideW + 1) and one column per k in the order [C1, Kh, Kw, C0]
// (c1 = k / (Kh * Kw * c0), kh, kw, c = c1 * c0 + k % c0); entry = the
// input pixel (oh * strideH - padTop + kh * dilationH, ow * strideW -
// padLeft + kw * dilationW) of channel c, or padValue outside the map or
// beyond channelSize. A LoadData3DParamsV2 copies rows [mStartPt,
// mStartPt + mExtension) x columns [kStartPt, kStartPt + kExtension) of
// it: to L0A in ZZ (as LoadData2D leaves an A matrix), to L0B in ZN as the
// kExtension x mExtension matrix (the pixels are B's columns). Only the
// elements of the window are written (a fractal's padding keeps what it
// held). padList is {left, right, top, bottom}. filterW/H carry their 9th
// bit in filterSizeW/H.
//
// The fmatrix (l1H, l1W, padList) and the padding value are registers on
// the NPU: IsResetLoad3dConfig{isSetFMatrix, isSetPadding} true (the
// default) takes them from the parameters, false from SetFmatrix
// (FMATRIX_LEFT for A, FMATRIX_RIGHT when fMatrixCtrl) and
// SetLoadDataPaddingValue. Per thread (per core), reset per launch.
#ifndef SIMNPU_ASCENDC_CUBE_LOAD3D_H_
#define SIMNPU_ASCENDC_CUBE_LOAD3D_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace AscendC {

constexpr int32_t PAD_SIZE = 4;

struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

template <typename T>
struct LoadData3DParamsV2 {
  LoadData3DParamsV2() {}
  LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                     const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                     const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn, const uint8_t strideHIn,
                     const uint8_t filterWIn, const uint8_t filterHIn, const uint8_t dilationFilterWIn,
                     const uint8_t dilationFilterHIn, const bool enTransposeIn, const bool enSmallKIn, const T padValueIn)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn) {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
  }
  uint8_t padList[PAD_SIZE] = {0, 0, 0, 0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = T{};
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

struct LoadDataRepeatParam {
  LoadDataRepeatParam() {}
  LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {
namespace cube {

struct Fmatrix {
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint8_t pad[4] = {0, 0, 0, 0};
};
struct Load3dState {
  Fmatrix fm[2];             // FMATRIX_LEFT, FMATRIX_RIGHT
  uint8_t pad_bits[4] = {};  // SetLoadDataPaddingValue (the value's low bytes)
  AscendC::LoadDataRepeatParam repeat;
};
SIMNPU_ASCENDC_HIDDEN inline thread_local Load3dState tls_load3d;
inline void ResetLoad3d() { tls_load3d = Load3dState{}; }
SIMNPU_ASCENDC_SOC_STATE_RESET(ResetLoad3d);

template <typename T, const AscendC::IsResetLoad3dConfig& cfg>
inline void Load3dV2(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LoadData3DParamsV2<T>& p, const SrcLoc& loc) {
  constexpr const char* kApi = "LoadData(LoadData3DParamsV2)";
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "LoadData(LoadData3DParamsV2): 8, 16 or 32-bit types");
  RequireMem(dst, {AscendC::Hardware::L0A, AscendC::Hardware::L0B}, kApi, "the destination", loc);
  RequireMem(src, {AscendC::Hardware::L1}, kApi, "the source", loc);
  RequireAligned(dst, 512, kApi, "the destination", loc);
  RequireAligned(src, 32, kApi, "the source", loc);
  const bool to_b = AscendC::GetPhyType(dst.GetPosition()) == AscendC::Hardware::L0B;
  if (p.enTranspose) {
    CheckFail(loc, "%s: enTranspose is not modelled (load without it and use LoadDataWithTranspose)", kApi);
  }
  if (tls_load3d.repeat.repeatTime > 1) {
    CheckFail(loc, "%s: SetLoadDataRepeat with repeatTime %u > 1 is not modelled (issue one LoadData per repeat)", kApi,
              tls_load3d.repeat.repeatTime);
  }
  Fmatrix fm;
  if constexpr (cfg.isSetFMatrix) {
    fm.l1H = p.l1H;
    fm.l1W = p.l1W;
    for (int i = 0; i < 4; ++i) fm.pad[i] = p.padList[i];
  } else {
    fm = tls_load3d.fm[p.fMatrixCtrl ? 1 : 0];
  }
  T pad_value = p.padValue;
  if constexpr (!cfg.isSetPadding) std::memcpy(&pad_value, tls_load3d.pad_bits, sizeof(T));
  const uint32_t fw = p.filterW + (p.filterSizeW ? 256u : 0u);
  const uint32_t fh = p.filterH + (p.filterSizeH ? 256u : 0u);
  if (fm.l1H == 0 || fm.l1W == 0 || p.channelSize == 0 || fw == 0 || fh == 0 || p.strideW == 0 || p.strideH == 0 ||
      p.dilationFilterW == 0 || p.dilationFilterH == 0) {
    CheckFail(loc, "%s: l1H %u, l1W %u, channelSize %u, filter %u x %u, stride %u x %u, dilation %u x %u must all be >= 1", kApi,
              fm.l1H, fm.l1W, p.channelSize, fh, fw, p.strideH, p.strideW, p.dilationFilterH, p.dilationFilterW);
  }
  const int64_t ew = static_cast<int64_t>(fm.l1W) + fm.pad[0] + fm.pad[1] - static_cast<int64_t>(p.dilationFilterW) * (fw - 1) - 1;
  const int64_t eh = static_cast<int64_t>(fm.l1H) + fm.pad[2] + fm.pad[3] - static_cast<int64_t>(p.dilationFilterH) * (fh - 1) - 1;
  if (ew < 0 || eh < 0) {
    CheckFail(loc, "%s: the dilated %u x %u filter does not fit the padded %u x %u feature map", kApi, fh, fw, fm.l1H, fm.l1W);
  }
  const int64_t wo = ew / p.strideW + 1, ho = eh / p.strideH + 1;
  const uint32_t c0 = C0Of<T>();
  const uint32_t c1 = (p.channelSize + c0 - 1) / c0;
  const uint64_t kTotal = static_cast<uint64_t>(c1) * fh * fw * c0;
  if (static_cast<uint64_t>(p.mStartPt) + p.mExtension > static_cast<uint64_t>(ho * wo)) {
    CheckFail(loc, "%s: rows [%u, %u) are outside the %lld output pixels (%lld x %lld)", kApi, p.mStartPt,
              p.mStartPt + p.mExtension, static_cast<long long>(ho * wo), static_cast<long long>(ho),
              static_cast<long long>(wo));
  }
  if (static_cast<uint64_t>(p.kStartPt) + p.kExtension > kTotal) {
    CheckFail(loc, "%s: columns [%u, %u) are outside K = %llu (C1 %u x filter %u x %u x c0 %u)", kApi, p.kStartPt,
              p.kStartPt + p.kExtension, static_cast<unsigned long long>(kTotal), c1, fh, fw, c0);
  }
  RequireBytes(src, static_cast<uint64_t>(c1) * fm.l1H * fm.l1W * c0 * sizeof(T), kApi, "the source (C1 x l1H x l1W x c0)",
               loc);
  if (p.mExtension == 0 || p.kExtension == 0) return;
  const uint32_t mb = (p.mExtension + 15u) / 16u;
  const uint32_t kb = (p.kExtension + c0 - 1u) / c0;
  RequireBytes(dst, static_cast<uint64_t>(mb) * kb * kFractalBytes, kApi, "the destination", loc);
  const T* in = src.GetPhyAddr();
  T* out = dst.GetPhyAddr();
  for (uint32_t m = 0; m < p.mExtension; ++m) {
    const int64_t pix = p.mStartPt + m;
    const int64_t oh = pix / wo, ow = pix % wo;
    for (uint32_t kk = 0; kk < p.kExtension; ++kk) {
      const uint64_t k = p.kStartPt + kk;
      const uint64_t blk = k / c0;  // (c1, kh, kw)
      const uint32_t cc = static_cast<uint32_t>(k % c0);
      const uint32_t kw = static_cast<uint32_t>(blk % fw);
      const uint32_t kh = static_cast<uint32_t>((blk / fw) % fh);
      const uint32_t ci = static_cast<uint32_t>(blk / (static_cast<uint64_t>(fw) * fh));
      const int64_t h = oh * p.strideH - fm.pad[2] + static_cast<int64_t>(kh) * p.dilationFilterH;
      const int64_t w = ow * p.strideW - fm.pad[0] + static_cast<int64_t>(kw) * p.dilationFilterW;
      T v = pad_value;
      if (h >= 0 && h < fm.l1H && w >= 0 && w < fm.l1W && ci * c0 + cc < p.channelSize) {
        v = in[((static_cast<uint64_t>(ci) * fm.l1H + static_cast<uint64_t>(h)) * fm.l1W + static_cast<uint64_t>(w)) * c0 + cc];
      }
      uint64_t di;
      if (!to_b) {  // ZZ: 16 x c0 fractals, row-major inside and between
        di = (static_cast<uint64_t>(m / 16) * kb + kk / c0) * 16u * c0 + (m % 16) * c0 + kk % c0;
      } else {  // ZN of the K x M matrix: c0 x 16 fractals, column-major inside, row-major between
        di = (static_cast<uint64_t>(kk / c0) * mb + m / 16) * c0 * 16u + (m % 16) * c0 + kk % c0;
      }
      out[di] = v;
    }
  }
}

}  // namespace cube
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<T>& loadDataParams,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::cube::Load3dV2<T, defaultConfig>(dst, src, loadDataParams, simnpuLoc);
}

inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
  auto& f = ::simnpu::ascendc::detail::cube::tls_load3d.fm[fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0];
  f.l1H = l1H;
  f.l1W = l1W;
  for (int i = 0; i < 4; ++i) f.pad[i] = padList[i];
}

template <typename T>
inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(sizeof(T) <= 4, "SetLoadDataPaddingValue: 8, 16 or 32-bit values");
  auto& s = ::simnpu::ascendc::detail::cube::tls_load3d;
  std::memset(s.pad_bits, 0, sizeof s.pad_bits);
  std::memcpy(s.pad_bits, &padValue, sizeof(T));
}

inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
  ::simnpu::ascendc::detail::cube::tls_load3d.repeat = repeatParams;
}

inline void SetLoadDataBoundary(uint32_t boundaryValue) { (void)boundaryValue; }

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_CUBE_LOAD3D_H_
