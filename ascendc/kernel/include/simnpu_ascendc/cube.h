// simnpu Ascend C model: the basic cube API. Data movement into and out of
// the cube unit's buffers (DataCopy with Nd2NzParams GM/UB -> L1, LoadData
// 2D GM/L1 -> L0A/L0B with and without transposition, LoadDataWithTranspose),
// Mmad (L0A x L0B -> L0C, with bias from the bias table or L0C) and Fixpipe
// (L0C -> GM / L1 with NZ -> ND conversion, quantisation and ReLU).
//
// Formats (fractals are 512 bytes, c0 = 32 / sizeof(T) elements):
//  - NZ (L1, L0C): fractals of 16 rows x c0, row-major inside, the fractals
//    column-major: element (r, c) of a matrix with R rows (R a multiple of
//    16) at (c / c0) * R * c0 + r * c0 + c % c0.
//  - ZZ (L0A): 16 x c0 fractals, row-major inside and between them.
//  - ZN (L0B): c0 x 16 fractals, column-major inside, row-major between.
//  - L0C holds float/int32 in NZ with c0 = 16 (16 x 16 fractals).
// Every operand is checked: its position (A2 for Mmad's left matrix ...),
// the 32-byte alignment of a tensor start, and that every byte an API
// touches lies in the LocalTensor, with a clear message naming the operand.
// Per block, no locking (the buffers are per thread, position.h).
#ifndef SIMNPU_ASCENDC_CUBE_H_
#define SIMNPU_ASCENDC_CUBE_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

// Quantisation modes of Fixpipe (global, as kernels write them bare).
enum QuantMode_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
};

// Matrix formats (the Matmul API's MatmulType uses them too).
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW, COLUMN };

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
  Nd2NzParams() {}
  Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
              uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
};

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
  LoadData2DParams() {}
  LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                   uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        sid(sidIn),
        dstGap(dstGapIn),
        ifTranspose(ifTransposeIn),
        addrMode(addrModeIn) {}
};

struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
  LoadData2dTransposeParams() {}
  LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                            uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstFracGapIn),
        addrMode(addrModeIn) {}
};

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;
  MmadParams() {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
             bool enWinogradAIn, bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn, bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn), cmatrixInitVal(cmatrixInitValIn) {}
};

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format;
  bool isToUB;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ, false};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR, false};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR, false};

struct FixpipeParamsV220 {
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;
  uint32_t dstStride = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;
  uint16_t dstNdStride = 0;
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
  FixpipeParamsV220() {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                    QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                    uint16_t dstNdStrideIn, uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
};

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {
namespace cube {

template <typename T>
constexpr uint32_t C0Of() {
  return static_cast<uint32_t>(ElemsIn<T>(32));
}
constexpr uint32_t kFractalBytes = 512;

inline const char* PosName(AscendC::TPosition p) { return PositionName(p); }

// The operand must be in one of the positions (by physical memory).
template <typename T>
inline void RequireMem(const AscendC::LocalTensor<T>& t, std::initializer_list<AscendC::Hardware> mems, const char* api,
                       const char* operand, const SrcLoc& loc) {
  const AscendC::Hardware h = AscendC::GetPhyType(t.GetPosition());
  for (AscendC::Hardware m : mems) {
    if (m == h) return;
  }
  std::string names;
  for (AscendC::Hardware m : mems) {
    if (!names.empty()) names += " or ";
    names += MemName(static_cast<int>(m));
  }
  CheckFail(loc, "%s: %s is in position %s (%s); it must be in the %s", api, operand, PosName(t.GetPosition()),
            MemName(static_cast<int>(h)), names.c_str());
}

template <typename T>
inline void RequireAligned(const AscendC::LocalTensor<T>& t, uint32_t align, const char* api, const char* operand,
                           const SrcLoc& loc) {
  const int m = MemOf(t.GetPosition());
  const uint8_t* base = MemBase(tls_ctx, m);
  const uintptr_t off = base != nullptr ? reinterpret_cast<uintptr_t>(t.GetPhyAddr()) - reinterpret_cast<uintptr_t>(base)
                                        : reinterpret_cast<uintptr_t>(t.GetPhyAddr());
  if ((off % align) != 0) {
    CheckFail(loc, "%s: %s starts at byte %llu of the %s, which is not %u-byte aligned", api, operand,
              static_cast<unsigned long long>(off), MemName(m), align);
  }
}

// Every byte in [0, bytes) of the operand lies in the tensor.
template <typename T>
inline void RequireBytes(const AscendC::LocalTensor<T>& t, uint64_t bytes, const char* api, const char* operand,
                         const SrcLoc& loc) {
  if (bytes > t.GetLength()) {
    CheckFail(loc, "%s: %s needs %llu bytes but the LocalTensor has %u bytes (%u elements)", api, operand,
              static_cast<unsigned long long>(bytes), t.GetLength(), t.GetSize());
  }
}

// ---- element access for the 4-bit type and the others alike.
template <typename T>
inline void CopyElem(T* dst, uint64_t di, const T* src, uint64_t si) {
  if constexpr (fp::kIsHalfByte<T>) {
    SetNibble(dst, di, GetNibble(src, si));
  } else {
    dst[di] = src[si];
  }
}
template <typename T>
inline void ZeroElem(T* dst, uint64_t di) {
  if constexpr (fp::kIsHalfByte<T>) {
    SetNibble(dst, di, 0);
  } else {
    std::memset(static_cast<void*>(dst + di), 0, sizeof(T));
  }
}

// ND -> NZ from a contiguous source (already in local memory or read from
// GM block by block).
template <typename T, typename ReadRow>
inline void Nd2Nz(T* dst, const AscendC::Nd2NzParams& p, ReadRow read_row) {
  const uint32_t c0 = C0Of<T>();
  const uint32_t blocks = (p.dValue + c0 - 1) / c0;
  std::vector<uint8_t> row(BytesOf<T>(static_cast<uint64_t>(blocks) * c0) + 1);
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    for (uint32_t j = 0; j < p.nValue; ++j) {
      const uint64_t src_off = static_cast<uint64_t>(i) * p.srcNdMatrixStride + static_cast<uint64_t>(j) * p.srcDValue;
      std::memset(row.data(), 0, row.size());
      read_row(reinterpret_cast<T*>(row.data()), src_off, p.dValue);
      const T* r = reinterpret_cast<const T*>(row.data());
      for (uint32_t b = 0; b < blocks; ++b) {
        const uint64_t d = static_cast<uint64_t>(i) * p.dstNzMatrixStride +
                           static_cast<uint64_t>(j) * p.dstNzNStride * c0 + static_cast<uint64_t>(b) * p.dstNzC0Stride * c0;
        for (uint32_t e = 0; e < c0; ++e) CopyElem(dst, d + e, r, static_cast<uint64_t>(b) * c0 + e);
      }
    }
  }
}

// Highest element (exclusive) an Nd2Nz writes.
template <typename T>
inline uint64_t Nd2NzDstEnd(const AscendC::Nd2NzParams& p) {
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return 0;
  const uint32_t c0 = C0Of<T>();
  const uint32_t blocks = (p.dValue + c0 - 1) / c0;
  return static_cast<uint64_t>(p.ndNum - 1) * p.dstNzMatrixStride + static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride * c0 +
         static_cast<uint64_t>(blocks - 1) * p.dstNzC0Stride * c0 + c0;
}

template <typename T>
inline void CheckNd2Nz(const AscendC::LocalTensor<T>& dst, const AscendC::Nd2NzParams& p, const char* api,
                       const SrcLoc& loc) {
  RequireMem(dst, {AscendC::Hardware::L1, AscendC::Hardware::UB}, api, "the destination", loc);
  RequireAligned(dst, 32, api, "the destination", loc);
  if (p.dstNzC0Stride == 0 && p.dValue > C0Of<T>()) {
    CheckFail(loc, "%s: dstNzC0Stride is 0 but dValue %u spans more than one %u-element block", api, p.dValue, C0Of<T>());
  }
  RequireBytes(dst, BytesOf<T>(Nd2NzDstEnd<T>(p)), api, "the destination", loc);
}

// One 512-byte fractal transposed as a square of 16 x 16 two-byte elements.
inline void Transpose16x16(uint16_t* dst, const uint16_t* src) {
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) dst[c * 16 + r] = src[r * 16 + c];
  }
}

}  // namespace cube
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// ---- GM -> L1 (or UB) with ND -> NZ conversion (MTE2).
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::cube::CheckNd2Nz(dst, p, "DataCopy(Nd2NzParams) GM->L1", simnpuLoc);
  const T* base = src.GetPhyAddr();
  d::cube::Nd2Nz<T>(dst.GetPhyAddr(), p, [&](T* row, uint64_t off, uint32_t n) {
    if constexpr (::simnpu::ascendc::fp::kIsHalfByte<T>) {
      d::GmRead(row, reinterpret_cast<const uint8_t*>(base) + off / 2, d::BytesOf<T>(n), simnpuLoc);
    } else {
      d::GmRead(row, base + off, static_cast<size_t>(n) * sizeof(T), simnpuLoc);
    }
  });
}

// ---- UB -> L1 with ND -> NZ conversion.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::cube::CheckNd2Nz(dst, p, "DataCopy(Nd2NzParams) UB->L1", simnpuLoc);
  if (p.ndNum != 0 && p.nValue != 0) {
    const uint64_t last = static_cast<uint64_t>(p.ndNum - 1) * p.srcNdMatrixStride +
                          static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue;
    d::cube::RequireBytes(src, d::BytesOf<T>(last), "DataCopy(Nd2NzParams) UB->L1", "the source", simnpuLoc);
  }
  const T* base = src.GetPhyAddr();
  d::cube::Nd2Nz<T>(dst.GetPhyAddr(), p, [&](T* row, uint64_t off, uint32_t n) {
    for (uint32_t e = 0; e < n; ++e) d::cube::CopyElem(row, e, base, off + e);
  });
}

// ---- Load2D: fractal by fractal, GM/L1 -> L0A/L0B (MTE1) or GM -> L1.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  constexpr const char* kApi = "LoadData(LoadData2DParams)";
  d::cube::RequireMem(dst, {Hardware::L0A, Hardware::L0B}, kApi, "the destination", simnpuLoc);
  d::cube::RequireMem(src, {Hardware::L1}, kApi, "the source", simnpuLoc);
  d::cube::RequireAligned(dst, 512, kApi, "the destination", simnpuLoc);
  d::cube::RequireAligned(src, 32, kApi, "the source", simnpuLoc);
  if (p.ifTranspose && sizeof(T) != 2) {
    d::CheckFail(simnpuLoc, "%s: ifTranspose transposes 16 x 16 fractals of 2-byte types only (use LoadDataWithTranspose for %u-bit types)",
                 kApi, static_cast<unsigned>(::simnpu::ascendc::fp::ElemBits<T>::value));
  }
  if (p.repeatTimes == 0) return;
  const uint64_t fb = d::cube::kFractalBytes;
  const uint64_t src_end = (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * fb;
  const uint64_t dst_end = (static_cast<uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap) + 1) * fb;
  d::cube::RequireBytes(src, src_end, kApi, "the source", simnpuLoc);
  d::cube::RequireBytes(dst, dst_end, kApi, "the destination", simnpuLoc);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint8_t* s = in + (p.startIndex + static_cast<uint64_t>(r) * p.srcStride) * fb;
    uint8_t* o = out + static_cast<uint64_t>(r) * (1u + p.dstGap) * fb;
    if (p.ifTranspose) {
      uint16_t tmp[256];
      d::cube::Transpose16x16(tmp, reinterpret_cast<const uint16_t*>(s));
      std::memcpy(o, tmp, fb);
    } else {
      std::memmove(o, s, fb);
    }
  }
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  constexpr const char* kApi = "LoadData(LoadData2DParams) GM";
  d::cube::RequireMem(dst, {Hardware::L1, Hardware::L0A, Hardware::L0B}, kApi, "the destination", simnpuLoc);
  if (p.ifTranspose) d::CheckFail(simnpuLoc, "%s: ifTranspose is not supported from global memory", kApi);
  if (p.repeatTimes == 0) return;
  const uint64_t fb = d::cube::kFractalBytes;
  d::cube::RequireBytes(dst, (static_cast<uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap) + 1) * fb, kApi,
                        "the destination", simnpuLoc);
  uint8_t* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const uint8_t* in = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    d::GmRead(out + static_cast<uint64_t>(r) * (1u + p.dstGap) * fb,
              in + (p.startIndex + static_cast<uint64_t>(r) * p.srcStride) * fb, fb, simnpuLoc);
  }
}

// ---- L1 -> L0A/L0B with transposition of square blocks: 16 x 16 for 2-byte
// types (one fractal), 32 x 32 for 1-byte types (two 16 x 32 fractals one
// above the other), 16 x 16 for 4-byte types (two 16 x 8 fractals side by
// side); the transposed square is split the same way into two fractals,
// the second dstFracGap fractals after the first.
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  constexpr const char* kApi = "LoadDataWithTranspose";
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "LoadDataWithTranspose: 8, 16 or 32-bit types");
  d::cube::RequireMem(dst, {Hardware::L0A, Hardware::L0B}, kApi, "the destination", simnpuLoc);
  d::cube::RequireMem(src, {Hardware::L1}, kApi, "the source", simnpuLoc);
  if (p.repeatTimes == 0) return;
  const uint64_t fb = d::cube::kFractalBytes;
  const uint64_t sq = sizeof(T) == 2 ? fb : 2 * fb;  // bytes of one square
  const uint64_t frac_in_sq = sq / fb;
  d::cube::RequireBytes(src, (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * sq,
                        kApi, "the source", simnpuLoc);
  const uint64_t dst_first_end = static_cast<uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap) * fb + fb;
  d::cube::RequireBytes(dst, dst_first_end + (frac_in_sq - 1) * (1u + p.dstFracGap) * fb, kApi, "the destination", simnpuLoc);
  const T* in = src.GetPhyAddr();
  T* out = dst.GetPhyAddr();
  const uint32_t side = sizeof(T) == 1 ? 32u : 16u;
  std::vector<T> a(side * side), t(side * side);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const T* s = in + (p.startIndex + static_cast<uint64_t>(r) * p.srcStride) * (sq / sizeof(T));
    // assemble the square (row-major side x side)
    if (sizeof(T) == 4) {
      for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t j = 0; j < 16; ++j) a[i * 16 + j] = s[(j / 8) * 128 + i * 8 + j % 8];
      }
    } else {
      for (uint32_t i = 0; i < side * side; ++i) a[i] = s[i];
    }
    for (uint32_t i = 0; i < side; ++i) {
      for (uint32_t j = 0; j < side; ++j) t[j * side + i] = a[i * side + j];
    }
    T* o0 = out + static_cast<uint64_t>(r) * (1u + p.dstGap) * (fb / sizeof(T));
    T* o1 = o0 + (1u + p.dstFracGap) * (fb / sizeof(T));
    if (sizeof(T) == 2) {
      for (uint32_t i = 0; i < 256; ++i) o0[i] = t[i];
    } else if (sizeof(T) == 1) {
      for (uint32_t i = 0; i < 512; ++i) o0[i] = t[i];
      for (uint32_t i = 0; i < 512; ++i) o1[i] = t[512 + i];
    } else {
      for (uint32_t i = 0; i < 16; ++i) {
        for (uint32_t j = 0; j < 8; ++j) {
          o0[i * 8 + j] = t[i * 16 + j];
          o1[i * 8 + j] = t[i * 16 + 8 + j];
        }
      }
    }
  }
}

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {
namespace cube {

// The HF32 mode (SetHF32Mode): float inputs of Mmad keep 10 mantissa bits
// (round to nearest even). Per thread (per core), off by default.
SIMNPU_ASCENDC_HIDDEN inline thread_local bool tls_hf32 = false;
inline void ResetHf32() { tls_hf32 = false; }
SIMNPU_ASCENDC_SOC_STATE_RESET(ResetHf32);

inline float ToTf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) {
    u += 0x0fffu + ((u >> 13) & 1u);
    u &= ~0x1fffu;
  }
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

template <typename T>
inline float ToF(T v) {
  if constexpr (std::is_same<T, float>::value) {
    return tls_hf32 ? ToTf32(v) : v;
  } else {
    return static_cast<float>(v);
  }
}

template <typename T>
inline int32_t ToI(const T* base, uint64_t i) {
  if constexpr (std::is_same<T, AscendC::int4b_t>::value) {
    const uint8_t nib = GetNibble(base, i);
    return (nib & 8u) != 0 ? static_cast<int32_t>(nib) - 16 : static_cast<int32_t>(nib);
  } else {
    return static_cast<int32_t>(base[i]);
  }
}

// fp8 inputs (A5, __NPU_ARCH__ 3510): e4m3/e5m2 in any pairing and
// hifloat8 x hifloat8, to float; the products are exact in fp32.
template <typename A, typename B>
constexpr bool Fp8Pair() {
#if __NPU_ARCH__ == 3510
  constexpr bool a8 = std::is_same<A, fp8_e4m3fn_t>::value || std::is_same<A, fp8_e5m2_t>::value;
  constexpr bool b8 = std::is_same<B, fp8_e4m3fn_t>::value || std::is_same<B, fp8_e5m2_t>::value;
  return (a8 && b8) || (std::is_same<A, hifloat8_t>::value && std::is_same<B, hifloat8_t>::value);
#else
  return false;
#endif
}

template <typename Dst, typename A, typename B>
struct MmadTypes {
  static constexpr bool kFp8 = Fp8Pair<A, B>();
  static constexpr bool kFloat =
      std::is_same<Dst, float>::value &&
      ((std::is_same<A, half>::value && std::is_same<B, half>::value) ||
       (std::is_same<A, bfloat16_t>::value && std::is_same<B, bfloat16_t>::value) ||
       (std::is_same<A, float>::value && std::is_same<B, float>::value) || kFp8);
  static constexpr bool kInt =
      std::is_same<Dst, int32_t>::value &&
      ((std::is_same<A, int8_t>::value && std::is_same<B, int8_t>::value) ||
       (std::is_same<A, uint8_t>::value && std::is_same<B, int8_t>::value) ||
       (std::is_same<A, uint8_t>::value && std::is_same<B, uint8_t>::value) ||
       (std::is_same<A, AscendC::int4b_t>::value && std::is_same<B, AscendC::int4b_t>::value));
  static constexpr bool kOk = kFloat || kInt;
};

template <typename Dst, typename A, typename B, typename Bias>
inline void MmadImpl(const AscendC::LocalTensor<Dst>& dst, const AscendC::LocalTensor<A>& fm,
                     const AscendC::LocalTensor<B>& filter, const AscendC::LocalTensor<Bias>* bias,
                     const AscendC::MmadParams& p, const SrcLoc& loc) {
  static_assert(MmadTypes<Dst, A, B>::kOk,
                "Mmad: supported (A, B -> C) types are half/half, bfloat16_t/bfloat16_t, float/float -> float and "
                "int8_t/int8_t, uint8_t/int8_t, uint8_t/uint8_t, int4b_t/int4b_t -> int32_t (and fp8_e4m3fn_t/fp8_e5m2_t, "
                "hifloat8_t pairs -> float on __NPU_ARCH__ 3510)");
  constexpr const char* kApi = "Mmad";
  RequireMem(dst, {AscendC::Hardware::L0C}, kApi, "dst (C matrix)", loc);
  RequireMem(fm, {AscendC::Hardware::L0A}, kApi, "fm (A matrix)", loc);
  RequireMem(filter, {AscendC::Hardware::L0B}, kApi, "filter (B matrix)", loc);
  RequireAligned(fm, 512, kApi, "fm (A matrix)", loc);
  RequireAligned(filter, 512, kApi, "filter (B matrix)", loc);
  RequireAligned(dst, 64, kApi, "dst (C matrix)", loc);
  if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
    CheckFail(loc, "Mmad: m %u, n %u, k %u out of range [0, 4095]", p.m, p.n, p.k);
  }
  if (p.m == 0 || p.n == 0) return;
  const uint32_t c0k = C0Of<A>();
  const uint32_t mb = (p.m + 15u) / 16u;
  const uint32_t nb = (p.n + 15u) / 16u;
  const uint32_t kb = (p.k + c0k - 1u) / c0k;
  RequireBytes(fm, BytesOf<A>(static_cast<uint64_t>(mb) * kb * 16u * c0k), kApi, "fm (A matrix)", loc);
  RequireBytes(filter, BytesOf<B>(static_cast<uint64_t>(kb) * nb * 16u * c0k), kApi, "filter (B matrix)", loc);
  RequireBytes(dst, static_cast<uint64_t>(mb) * nb * 256u * sizeof(Dst), kApi, "dst (C matrix)", loc);
  const size_t ldc16 = static_cast<size_t>(mb) * 256u;
  Dst* c = dst.GetPhyAddr();
  // initial value of C: bias row, zero, or what L0C holds (accumulate)
  const bool accumulate = bias == nullptr && (p.isBias || !p.cmatrixInitVal);
  if (bias != nullptr) {
    RequireMem(*bias, {AscendC::Hardware::BIAS, AscendC::Hardware::L0C}, kApi, "bias", loc);
    RequireBytes(*bias, static_cast<uint64_t>(p.n) * sizeof(Bias), kApi, "bias", loc);
    static_assert(std::is_same<Bias, Dst>::value || std::is_same<Bias, half>::value || std::is_same<Bias, bfloat16_t>::value,
                  "Mmad: the bias is of the C matrix's type (or half/bfloat16_t for float)");
  }
  if (!accumulate) {
    for (uint32_t i = 0; i < p.m; ++i) {
      for (uint32_t j = 0; j < p.n; ++j) {
        Dst v = Dst{};
        if (bias != nullptr) v = static_cast<Dst>(static_cast<float>(bias->GetPhyAddr()[j]));
        if constexpr (std::is_same<Dst, int32_t>::value) {
          if (bias != nullptr) v = static_cast<int32_t>(bias->GetPhyAddr()[j]);
        }
        c[(j / 16) * ldc16 + i * 16 + j % 16] = v;
      }
    }
  }
  if (p.k == 0) return;
  const A* a = fm.GetPhyAddr();
  const B* b = filter.GetPhyAddr();
  // ZZ: (i, kk) at ((i/16)*kb + kk/c0)*16*c0 + (i%16)*c0 + kk%c0
  auto a_index = [=](int i, int kk) -> uint64_t {
    return (static_cast<uint64_t>(i / 16) * kb + static_cast<uint64_t>(kk) / c0k) * 16u * c0k + (i % 16) * c0k + kk % c0k;
  };
  // ZN: (kk, j) at ((kk/c0)*nb + j/16)*c0*16 + (j%16)*c0 + kk%c0
  auto b_index = [=](int kk, int j) -> uint64_t {
    return (static_cast<uint64_t>(kk) / c0k * nb + static_cast<uint64_t>(j / 16)) * c0k * 16u + (j % 16) * c0k + kk % c0k;
  };
  if constexpr (MmadTypes<Dst, A, B>::kFloat) {
    GemmF32(p.m, p.n, p.k, [&](int i, int kk) { return ToF(a[a_index(i, kk)]); },
            [&](int kk, int j) { return ToF(b[b_index(kk, j)]); }, c, ldc16);
  } else {
    GemmI32(p.m, p.n, p.k, [&](int i, int kk) { return ToI(a, a_index(i, kk)); },
            [&](int kk, int j) { return ToI(b, b_index(kk, j)); }, c, ldc16);
  }
}

}  // namespace cube
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// HF32 mode for float inputs of Mmad (and the Matmul API's SetHF32).
inline void SetHF32Mode(bool hf32Mode) { ::simnpu::ascendc::detail::cube::tls_hf32 = hf32Mode; }
inline void SetHF32TransMode(bool /*hf32TransMode*/) {}

// C = A x B (or C += A x B, C = A x B + bias), A in L0A (ZZ), B in L0B (ZN),
// C in L0C (NZ).
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const MmadParams& mmadParams, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::cube::MmadImpl<T, U, S, T>(dst, fm, filter, nullptr, mmadParams, simnpuLoc);
}
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>& bias, const MmadParams& mmadParams, SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::cube::MmadImpl<T, U, S, V>(dst, fm, filter, &bias, mmadParams, simnpuLoc);
}

}  // namespace AscendC

namespace simnpu {
namespace ascendc {
namespace detail {
namespace cube {

inline float DeqScale(uint64_t bits) {
  const uint32_t lo = static_cast<uint32_t>(bits & 0xffffffffu);
  float f;
  std::memcpy(&f, &lo, 4);
  return f;
}

template <typename T>
inline T Saturate8(float v) {
  const float r = std::nearbyint(v);
  const float lo = std::is_same<T, int8_t>::value ? -128.0f : 0.0f;
  const float hi = std::is_same<T, int8_t>::value ? 127.0f : 255.0f;
  if (!(r >= lo)) return static_cast<T>(std::isnan(r) ? 0 : lo);
  if (r > hi) return static_cast<T>(hi);
  return static_cast<T>(r);
}

// One output element of Fixpipe: quantisation, then ReLU, then the output type.
template <typename T, typename U>
inline T FixElem(U v, QuantMode_t q, float scale, bool relu, const SrcLoc& loc) {
  float f = static_cast<float>(v);
  switch (q) {
    case NoQuant:
      if constexpr (std::is_same<T, U>::value) {
        if (relu && v < U{}) return T{};
        return v;
      } else {
        CheckFail(loc, "Fixpipe: quantPre NoQuant needs the same source and destination types");
      }
    case F322F16:
    case F322BF16:
      break;
    case DEQF16:
    case VDEQF16:
    case REQ8:
    case VREQ8:
    case QF322B8_PRE:
    case VQF322B8_PRE:
      f = static_cast<float>(static_cast<double>(v) * static_cast<double>(scale));
      break;
  }
  if (relu && f < 0.0f) f = 0.0f;
  if constexpr (std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value) {
    return Saturate8<T>(f);
  } else if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_same<T, float>::value) {
    return static_cast<T>(f);
  } else {
    CheckFail(loc, "Fixpipe: quantisation mode %d does not produce this destination type", static_cast<int>(q));
  }
}

template <typename T, typename U>
inline void CheckQuantTypes(QuantMode_t q, const SrcLoc& loc) {
  const bool f32 = std::is_same<U, float>::value;
  const bool i32 = std::is_same<U, int32_t>::value;
  bool ok = false;
  switch (q) {
    case NoQuant: ok = std::is_same<T, U>::value; break;
    case F322F16: ok = f32 && std::is_same<T, half>::value; break;
    case F322BF16: ok = f32 && std::is_same<T, bfloat16_t>::value; break;
    case DEQF16:
    case VDEQF16: ok = i32 && std::is_same<T, half>::value; break;
    case QF322B8_PRE:
    case VQF322B8_PRE: ok = f32 && (std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value); break;
    case REQ8:
    case VREQ8: ok = i32 && (std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value); break;
  }
  if (!ok) {
    CheckFail(loc, "Fixpipe: quantPre %d does not convert a %u-byte %s accumulator to a %u-byte destination element",
              static_cast<int>(q), static_cast<unsigned>(sizeof(U)), f32 ? "float" : "int32_t",
              static_cast<unsigned>(sizeof(T)));
  }
}

// Fixpipe core: src NZ (c0 16) -> write(nd, r, c, value) per element. With
// ndNum > 1 (NZ -> ND only) the source holds ndNum NZ matrices, each
// srcNdStride x 1024 bytes after the previous one (head to head), and every
// one is converted alike; the caller places matrix nd dstNdStride elements
// after the previous one.
template <typename T, typename U, typename Out>
inline void FixpipeRun(const AscendC::LocalTensor<U>& src, const AscendC::FixpipeParamsV220& p, const float* vscale,
                       bool nd_out, const SrcLoc& loc, Out out) {
  constexpr const char* kApi = "Fixpipe";
  static_assert(std::is_same<U, float>::value || std::is_same<U, int32_t>::value, "Fixpipe: the source is float or int32_t (L0C)");
  RequireMem(src, {AscendC::Hardware::L0C}, kApi, "the source", loc);
  RequireAligned(src, 64, kApi, "the source", loc);
  CheckQuantTypes<T, U>(p.quantPre, loc);
  if (p.ndNum == 0) CheckFail(loc, "Fixpipe: ndNum 0 out of range [1, 65535]");
  if (p.ndNum > 1) {
    if (!nd_out) CheckFail(loc, "Fixpipe: ndNum %u > 1 needs the NZ -> ND conversion (CFG_ROW_MAJOR)", p.ndNum);
    if (p.srcNdStride == 0 || p.srcNdStride > 512) {
      CheckFail(loc, "Fixpipe: srcNdStride %u out of range [1, 512] (units of 1024 bytes) with ndNum %u", p.srcNdStride, p.ndNum);
    }
    if (p.dstNdStride == 0) CheckFail(loc, "Fixpipe: dstNdStride 0 out of range [1, 65535] with ndNum %u", p.ndNum);
  }
  if (p.mSize == 0 || p.nSize == 0) return;
  if (p.srcStride < p.mSize) {
    CheckFail(loc, "Fixpipe: srcStride %u (rows between fractal columns) is smaller than mSize %u", p.srcStride, p.mSize);
  }
  const uint32_t nb = (p.nSize + 15u) / 16u;
  const uint64_t nd_elems = static_cast<uint64_t>(p.srcNdStride) * 1024u / sizeof(U);
  const uint64_t one = static_cast<uint64_t>(nb - 1) * p.srcStride * 16u + static_cast<uint64_t>(p.mSize) * 16u;
  RequireBytes(src, (static_cast<uint64_t>(p.ndNum - 1) * nd_elems + one) * sizeof(U), kApi, "the source", loc);
  const bool vec = p.quantPre == VDEQF16 || p.quantPre == VREQ8 || p.quantPre == VQF322B8_PRE;
  const float scale = DeqScale(p.deqScalar);
  for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
    const U* s = src.GetPhyAddr() + nd * nd_elems;
    for (uint32_t r = 0; r < p.mSize; ++r) {
      for (uint32_t c = 0; c < p.nSize; ++c) {
        const U v = s[static_cast<uint64_t>(c / 16) * p.srcStride * 16u + r * 16u + c % 16];
        out(nd, r, c, FixElem<T, U>(v, p.quantPre, vec ? vscale[c] : scale, p.reluEn, loc));
      }
    }
  }
}

template <typename T, typename U, const AscendC::FixpipeConfig& config>
inline void FixpipeToGm(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                        const AscendC::FixpipeParamsV220& p, const float* vscale, const SrcLoc& loc) {
  T* g = dst.GetPhyAddr();
  if constexpr (config.format == AscendC::CO2Layout::NZ) {
    const uint32_t c0 = p.isChannelSplit ? 8u : 16u;
    const uint32_t mAligned = (p.mSize + 15u) / 16u * 16u;
    // each fractal column of the output is dstStride x 32 bytes after the previous
    std::vector<T> tile(static_cast<size_t>(mAligned) * c0);
    const uint32_t cols = (p.nSize + c0 - 1) / c0;
    std::vector<T> all(static_cast<size_t>(cols) * mAligned * c0, T{});
    FixpipeRun<T, U>(src, p, vscale, false, loc, [&](uint32_t, uint32_t r, uint32_t c, T v) {
      all[static_cast<size_t>(c / c0) * mAligned * c0 + static_cast<size_t>(r) * c0 + c % c0] = v;
    });
    for (uint32_t q = 0; q < cols; ++q) {
      GmWrite(reinterpret_cast<uint8_t*>(g) + static_cast<uint64_t>(q) * p.dstStride * 32u,
              all.data() + static_cast<size_t>(q) * mAligned * c0, static_cast<size_t>(p.mSize) * c0 * sizeof(T), loc);
    }
  } else if constexpr (config.format == AscendC::CO2Layout::ROW_MAJOR) {
    if (p.dstStride < p.nSize) CheckFail(loc, "Fixpipe: dstStride %u (elements per output row) is smaller than nSize %u", p.dstStride, p.nSize);
    std::vector<T> row(p.nSize);
    uint64_t cur = UINT64_MAX;  // element offset of the row being assembled
    auto flush = [&]() {
      if (cur != UINT64_MAX) GmWrite(g + cur, row.data(), row.size() * sizeof(T), loc);
    };
    FixpipeRun<T, U>(src, p, vscale, true, loc, [&](uint32_t nd, uint32_t r, uint32_t c, T v) {
      const uint64_t at = static_cast<uint64_t>(nd) * p.dstNdStride + static_cast<uint64_t>(r) * p.dstStride;
      if (at != cur) {
        flush();
        cur = at;
      }
      row[c] = v;
    });
    flush();
  } else {
    if (p.dstStride < p.mSize) CheckFail(loc, "Fixpipe: dstStride %u (elements per output column) is smaller than mSize %u", p.dstStride, p.mSize);
    FixpipeRun<T, U>(src, p, vscale, false, loc, [&](uint32_t, uint32_t r, uint32_t c, T v) {
      GmWrite(g + static_cast<uint64_t>(c) * p.dstStride + r, &v, sizeof(T), loc);
    });
  }
}

inline std::vector<float> VectorScales(const AscendC::LocalTensor<uint64_t>& ws, uint32_t n, const SrcLoc& loc) {
  RequireMem(ws, {AscendC::Hardware::L1}, "Fixpipe", "cbufWorkspace (quantisation parameters)", loc);
  RequireBytes(ws, static_cast<uint64_t>(n) * 8u, "Fixpipe", "cbufWorkspace (quantisation parameters)", loc);
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = DeqScale(ws.GetPhyAddr()[i]);
  return v;
}

}  // namespace cube
}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

// L0C -> GM: ND (CFG_ROW_MAJOR, the default), NZ (CFG_NZ) or column-major.
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  ::simnpu::ascendc::detail::cube::FixpipeToGm<T, U, config>(dst, src, intriParams, nullptr, simnpuLoc);
}
// With per-channel (tensor) quantisation parameters in L1 (VDEQF16, VREQ8, VQF322B8_PRE).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& intriParams, SIMNPU_ASCENDC_LOC_PARAM) {
  const std::vector<float> v = ::simnpu::ascendc::detail::cube::VectorScales(cbufWorkspace, intriParams.nSize, simnpuLoc);
  ::simnpu::ascendc::detail::cube::FixpipeToGm<T, U, config>(dst, src, intriParams, v.data(), simnpuLoc);
}

// L0C -> L1 (NZ, or ND with CFG_ROW_MAJOR; dstStride as for GM).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                    SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  d::cube::RequireMem(dst, {Hardware::L1, Hardware::UB}, "Fixpipe", "the destination", simnpuLoc);
  T* o = dst.GetPhyAddr();
  const uint64_t cap = dst.GetSize();
  auto put = [&](uint64_t idx, T v) {
    if (idx >= cap) d::CheckFail(simnpuLoc, "Fixpipe: element %llu is outside the destination (%llu elements)",
                                 static_cast<unsigned long long>(idx), static_cast<unsigned long long>(cap));
    o[idx] = v;
  };
  if constexpr (config.format == CO2Layout::NZ) {
    const uint32_t c0 = 16;
    d::cube::FixpipeRun<T, U>(src, p, nullptr, false, simnpuLoc, [&](uint32_t, uint32_t r, uint32_t c, T v) {
      put(static_cast<uint64_t>(c / c0) * p.dstStride * 32u / sizeof(T) + static_cast<uint64_t>(r) * c0 + c % c0, v);
    });
  } else {
    d::cube::FixpipeRun<T, U>(src, p, nullptr, true, simnpuLoc, [&](uint32_t nd, uint32_t r, uint32_t c, T v) {
      put(static_cast<uint64_t>(nd) * p.dstNdStride + static_cast<uint64_t>(r) * p.dstStride + c, v);
    });
  }
}

// The C2 (bias table) fill from L1: DataCopy L1 -> C2 of n elements,
// converting half/bfloat16_t to float as the hardware does.
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                     SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  static_assert(!std::is_same<T, U>::value, "internal: same-type DataCopy is data_copy.h's");
  d::cube::RequireMem(dst, {Hardware::BIAS}, "DataCopy L1->C2", "the destination", simnpuLoc);
  d::cube::RequireMem(src, {Hardware::L1}, "DataCopy L1->C2", "the source", simnpuLoc);
  // blockLen counts 64-byte units of the destination (32 bytes of a 2-byte source)
  const uint64_t n_src = static_cast<uint64_t>(p.blockCount) * p.blockLen * 32u / sizeof(U);
  d::cube::RequireBytes(src, n_src * sizeof(U), "DataCopy L1->C2", "the source", simnpuLoc);
  d::cube::RequireBytes(dst, n_src * sizeof(T), "DataCopy L1->C2", "the destination", simnpuLoc);
  for (uint64_t i = 0; i < n_src; ++i) dst.GetPhyAddr()[i] = static_cast<T>(static_cast<float>(src.GetPhyAddr()[i]));
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_CUBE_H_
