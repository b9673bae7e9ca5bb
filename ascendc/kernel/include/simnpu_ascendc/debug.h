// simnpu Ascend C model: the debug family of the kernel language.
//   AscendC::DumpTensor(tensor, desc, dumpSize)    LocalTensor or GlobalTensor
//   AscendC::DumpAccChkPoint(tensor, index, countOff, dumpSize)
//   asc_dump(ptr, desc, count), asc_dump_gm, asc_dump_ubuf   (utils/debug/asc_dump.h)
//   ascendc_assert(cond[, fmt, args...]), ASSERT(cond)       (like assert, print.h)
//   ASCENDC_ASSERT(cond, behavior)                          (runs behavior, then fails)
//   KERNEL_LOG(KERNEL_ERROR|KERNEL_WARN|KERNEL_INFO|KERNEL_DEBUG, fmt, args...)
//
// Dumps go through the block's printf output (kept per block, printed in
// block order when the kernel ends), one header line and one line of values:
//   DumpTensor: desc=5, addr=0, data_type=float16, position=UB, dump_size=32
//   [1.000000, 2.000000, ...]
// addr is the byte offset in the unified buffer (or L1/L0C) for local
// tensors, the address (hex) for global tensors; float values print as %f,
// integers in decimal. Global memory is read through the checked GM path.
// A dumpSize beyond the tensor is cut to the tensor's size, with a warning.
// ASCENDC_DUMP=0 (compile definition or environment) turns dumps off, like
// printf; -DASCENDC_DUMP=0 and NDEBUG also turn the assertions off.
//
// KERNEL_LOG writes "[LEVEL][Block_<n>][AIV_0][file:line][func] message":
// into the block's output in the CPU-debug run mode (ASCENDC_CPU_DEBUG, as
// the devkit's CPU debug prints it); otherwise, as the NPU prints nothing,
// to the runtime's log (KERNEL_WARN and KERNEL_ERROR also to stderr).
#ifndef SIMNPU_ASCENDC_DEBUG_H_
#define SIMNPU_ASCENDC_DEBUG_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP == 0)
#define SIMNPU_ASCENDC_DUMP_OFF 1
#else
#define SIMNPU_ASCENDC_DUMP_OFF 0
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

template <typename T>
inline const char* DumpTypeName() {
  if constexpr (std::is_same<T, half>::value) return "float16";
  else if constexpr (std::is_same<T, bfloat16_t>::value) return "bfloat16";
  else if constexpr (std::is_same<T, float>::value) return "float32";
  else if constexpr (std::is_same<T, double>::value) return "float64";
  else if constexpr (std::is_same<T, bool>::value) return "bool";
  else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
    return sizeof(T) == 1 ? "int8" : sizeof(T) == 2 ? "int16" : sizeof(T) == 4 ? "int32" : "int64";
  } else if constexpr (std::is_integral<T>::value) {
    return sizeof(T) == 1 ? "uint8" : sizeof(T) == 2 ? "uint16" : sizeof(T) == 4 ? "uint32" : "uint64";
  } else {
    return "unknown";
  }
}

template <typename T>
inline void AppendDumpValue(std::string& out, const T& v) {
  char buf[64];
  if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
    std::snprintf(buf, sizeof buf, "%f", static_cast<double>(static_cast<float>(v)));
  } else if constexpr (std::is_floating_point<T>::value) {
    std::snprintf(buf, sizeof buf, "%f", static_cast<double>(v));
  } else if constexpr (std::is_same<T, bool>::value) {
    std::snprintf(buf, sizeof buf, "%d", v ? 1 : 0);
  } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else if constexpr (std::is_integral<T>::value) {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  } else {
    static_assert(std::is_trivially_copyable<T>::value, "DumpTensor: unsupported element type");
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    std::string hex = "0x";
    for (size_t i = sizeof(T); i-- > 0;) {
      std::snprintf(buf, sizeof buf, "%02x", raw[i]);
      hex += buf;
    }
    out += hex;
    return;
  }
  out += buf;
}

inline const char* DumpPositionName(AscendC::TPosition p) {
  switch (p) {
    case AscendC::TPosition::GM:
      return "GM";
    case AscendC::TPosition::A1:
    case AscendC::TPosition::B1:
    case AscendC::TPosition::C1:
    case AscendC::TPosition::TSCM:
      return "L1";
    case AscendC::TPosition::CO1:
      return "L0C";
    case AscendC::TPosition::A2:
      return "L0A";
    case AscendC::TPosition::B2:
      return "L0B";
    default:
      return "UB";
  }
}

inline bool DumpDisabled() { return SIMNPU_ASCENDC_DUMP_OFF != 0 || PrintfDisabled(); }

// Header and values of one dump; `values` are count elements already in
// local (host) memory.
template <typename T>
inline void EmitDump(const char* what, uint32_t desc, const std::string& addr, const char* position, const T* values,
                     uint32_t count, const char* extra) {
  std::string out = what;
  out += ": desc=";
  AppendInt(out, desc);
  out += ", addr=" + addr + ", data_type=" + DumpTypeName<T>() + ", position=" + position;
  if (extra != nullptr) out += extra;
  out += ", dump_size=";
  AppendInt(out, count);
  out += "\n[";
  for (uint32_t i = 0; i < count; ++i) {
    if (i != 0) out += ", ";
    AppendDumpValue(out, values[i]);
  }
  out += "]\n";
  AppendPrintOutput(out);
}

inline uint32_t ClipDump(const char* api, uint64_t want, uint64_t have, const SrcLoc& loc) {
  if (want <= have) return static_cast<uint32_t>(want);
  Diagnostic(2, loc, "%s: dumpSize %llu is larger than the tensor (%llu elements); %llu are dumped", api,
             static_cast<unsigned long long>(want), static_cast<unsigned long long>(have),
             static_cast<unsigned long long>(have));
  return static_cast<uint32_t>(have);
}

// Offset of a local buffer in its memory (UB or a cube-side buffer).
inline uint64_t LocalOffset(const void* p) {
  BlockContext* c = tls_ctx;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (c != nullptr && c->ub_base != nullptr && a >= reinterpret_cast<uintptr_t>(c->ub_base) &&
      a < reinterpret_cast<uintptr_t>(c->ub_base) + c->ub_size) {
    return a - reinterpret_cast<uintptr_t>(c->ub_base);
  }
  return a;
}

inline bool InUnifiedBuffer(const void* p) {
  BlockContext* c = tls_ctx;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  return c != nullptr && c->ub_base != nullptr && a >= reinterpret_cast<uintptr_t>(c->ub_base) &&
         a < reinterpret_cast<uintptr_t>(c->ub_base) + c->ub_size;
}

inline std::string DecimalText(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  return buf;
}
inline std::string HexText(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

template <typename T>
inline void DumpGlobal(const char* what, const T* gm, uint32_t desc, uint32_t count, const char* extra,
                       const SrcLoc& loc) {
  std::string buf(static_cast<size_t>(count) * sizeof(T), '\0');
  GmRead(&buf[0], gm, buf.size(), loc);
  EmitDump(what, desc, HexText(gm), "GM", reinterpret_cast<const T*>(buf.data()), count, extra);
}

template <typename... Args>
inline void KernelLog(int level, const SrcLoc& loc, const char* fmt, Args... args) {
  static const char* const kNames[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  const int l = level < 0 ? 0 : (level > 3 ? 3 : level);
  const PrintArg list[sizeof...(Args) + 1] = {MakePrintArg(args)..., PrintArg{}};
  std::string msg;
  FormatPrintf(msg, fmt, list, sizeof...(Args));
#ifdef ASCENDC_CPU_DEBUG
  std::string line = Prefix(kNames[l], loc) + msg;
  if (line.empty() || line.back() != '\n') line.push_back('\n');
  AppendPrintOutput(line);
#else
  (void)kNames;
  Diagnostic(l, loc, "%s", msg.c_str());
#endif
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename T>
inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  const uint32_t n = d::ClipDump("DumpTensor", dumpSize, tensor.GetSize(), simnpuLoc);
  d::EmitDump("DumpTensor", desc, d::DecimalText(d::LocalOffset(tensor.GetPhyAddr())),
              d::DumpPositionName(tensor.GetPosition()), tensor.GetPhyAddr(), n, nullptr);
}

template <typename T>
inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  const uint64_t have = tensor.GetSize() != 0 ? tensor.GetSize() : dumpSize;
  const uint32_t n = d::ClipDump("DumpTensor", dumpSize, have, simnpuLoc);
  d::DumpGlobal("DumpTensor", tensor.GetPhyAddr(), desc, n, nullptr, simnpuLoc);
}

// Dumps dumpSize elements from element countOff on; index is the user's
// check-point number.
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                            SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  const uint32_t have = countOff < tensor.GetSize() ? tensor.GetSize() - countOff : 0;
  const uint32_t n = d::ClipDump("DumpAccChkPoint", dumpSize, have, simnpuLoc);
  std::string extra = ", offset=" + d::DecimalText(countOff);
  d::EmitDump("DumpAccChkPoint", index, d::DecimalText(d::LocalOffset(tensor.GetPhyAddr())),
              d::DumpPositionName(tensor.GetPosition()), tensor.GetPhyAddr() + countOff, n, extra.c_str());
}

template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                            SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  const uint64_t size = tensor.GetSize();
  const uint64_t have = size == 0 ? dumpSize : (countOff < size ? size - countOff : 0);
  const uint32_t n = d::ClipDump("DumpAccChkPoint", dumpSize, have, simnpuLoc);
  std::string extra = ", offset=" + d::DecimalText(countOff);
  d::DumpGlobal("DumpAccChkPoint", tensor.GetPhyAddr() + countOff, index, n, extra.c_str(), simnpuLoc);
}

}  // namespace AscendC

// ---- asc_dump: pointer forms of the ASC kernel language (a pointer into the
// block's unified buffer dumps as UB, any other as GM).
template <typename T>
inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size,
                          SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  (void)simnpuLoc;
  d::EmitDump("DumpTensor", desc, d::DecimalText(d::LocalOffset(input)), "UB", input, dump_size, nullptr);
}
template <typename T>
inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size, SIMNPU_ASCENDC_LOC_PARAM) {
  namespace d = ::simnpu::ascendc::detail;
  if (d::DumpDisabled()) return;
  d::DumpGlobal("DumpTensor", input, desc, dump_size, nullptr, simnpuLoc);
}
template <typename T>
inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size, SIMNPU_ASCENDC_LOC_PARAM) {
  if (::simnpu::ascendc::detail::InUnifiedBuffer(input)) {
    asc_dump_ubuf(input, desc, dump_size, simnpuLoc);
  } else {
    asc_dump_gm(input, desc, dump_size, simnpuLoc);
  }
}

// ---- assertions and kernel logs
// (ASSERT is defined only if the program has not defined it already)
#undef ascendc_assert
#if SIMNPU_ASCENDC_DUMP_OFF || defined(NDEBUG) || defined(SIMNPU_ASCENDC_NO_ASSERT)
#define ascendc_assert(...) ((void)0)
#ifndef ASSERT
#define ASSERT(...) ((void)0)
#endif
#else
#define ascendc_assert(...)                                                                            \
  ::simnpu::ascendc::detail::AssertCheck(::simnpu::ascendc::SrcLoc::Here(),                            \
                                         SIMNPU_ASCENDC_FIRST_ARG_TEXT(__VA_ARGS__, 0), __VA_ARGS__)
#ifndef ASSERT
#define ASSERT(...) ascendc_assert(__VA_ARGS__)
#endif
#endif
// ASCENDC_ASSERT(cond, behavior): when cond is false, runs behavior (a
// statement or a braced block, typically a KERNEL_LOG) and then fails the
// block like ascendc_assert; compiled out where ascendc_assert is. (Defined
// only if the program has not defined it already.)
#ifndef ASCENDC_ASSERT
#if SIMNPU_ASCENDC_DUMP_OFF || defined(NDEBUG) || defined(SIMNPU_ASCENDC_NO_ASSERT)
#define ASCENDC_ASSERT(cond, ...) ((void)0)
#else
#define ASCENDC_ASSERT(cond, ...)                                                       \
  do {                                                                                  \
    if (__builtin_expect(!static_cast<bool>(cond), 0)) {                                \
      __VA_ARGS__;                                                                      \
      ::simnpu::ascendc::detail::AssertFail(::simnpu::ascendc::SrcLoc::Here(), #cond, nullptr); \
    }                                                                                   \
  } while (0)
#endif
#endif
#if SIMNPU_ASCENDC_DUMP_OFF && !defined(SIMNPU_ASCENDC_NO_ASSERT)
#undef assert
#define assert(...) ((void)0)
#endif

// the levels of KERNEL_LOG (enumerators, not macros: a program's own names
// in its namespaces stay usable)
enum SimnpuKernelLogLevel : int { KERNEL_DEBUG = 0, KERNEL_INFO = 1, KERNEL_WARN = 2, KERNEL_ERROR = 3 };
#define KERNEL_LOG(level, fmt, ...) \
  ::simnpu::ascendc::detail::KernelLog((level), ::simnpu::ascendc::SrcLoc::Here(), (fmt), ##__VA_ARGS__)

#endif  // SIMNPU_ASCENDC_DEBUG_H_
