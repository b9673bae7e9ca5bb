// simnpu Ascend C model: device printf. Output is formatted with C semantics
// (half and bfloat16 arguments become double), buffered per block up to
// 32 KiB, and handed to env->services->print at block end in one piece.
// ASCENDC_DUMP=0 in the environment (or as a compile definition) disables it.
#ifndef SIMNPU_ASCENDC_PRINT_H_
#define SIMNPU_ASCENDC_PRINT_H_
#ifndef SIMNPU_ASCENDC_INSIDE_KERNEL_OPERATOR_H
#error "include kernel_operator.h, not the simnpu_ascendc/ headers"
#endif

namespace simnpu {
namespace ascendc {
namespace detail {

struct PrintArg {
  enum Kind : uint8_t { kInt, kUInt, kDouble, kStr, kPtr };
  Kind kind;
  uint8_t bytes;  // width of an integer argument
  union {
    int64_t i;
    uint64_t u;
    double d;
    const char* s;
    const void* p;
  };
};

template <typename T>
inline PrintArg MakePrintArg(T v) {
  PrintArg a{};
  if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
    a.kind = PrintArg::kDouble;
    a.d = static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_floating_point<T>::value) {
    a.kind = PrintArg::kDouble;
    a.d = static_cast<double>(v);
  } else if constexpr (std::is_enum<T>::value) {
    return MakePrintArg(static_cast<typename std::underlying_type<T>::type>(v));
  } else if constexpr (std::is_integral<T>::value) {
    a.bytes = static_cast<uint8_t>(sizeof(T));
    if constexpr (std::is_signed<T>::value) {
      a.kind = PrintArg::kInt;
      a.i = static_cast<int64_t>(v);
    } else {
      a.kind = PrintArg::kUInt;
      a.u = static_cast<uint64_t>(v);
    }
  } else if constexpr (std::is_same<T, const char*>::value || std::is_same<T, char*>::value) {
    a.kind = PrintArg::kStr;
    a.s = v;
  } else if constexpr (std::is_pointer<T>::value) {
    a.kind = PrintArg::kPtr;
    a.p = reinterpret_cast<const void*>(v);
  } else if constexpr (std::is_same<T, std::nullptr_t>::value) {
    a.kind = PrintArg::kPtr;
    a.p = nullptr;
  } else {
    static_assert(std::is_pointer<T>::value, "AscendC::printf: unsupported argument type");
  }
  return a;
}

inline uint64_t AsUnsigned(const PrintArg& a) {
  switch (a.kind) {
    case PrintArg::kInt:
      return a.bytes >= 8 ? static_cast<uint64_t>(a.i) : (static_cast<uint64_t>(a.i) & ((uint64_t{1} << (8 * a.bytes)) - 1u));
    case PrintArg::kUInt:
      return a.u;
    case PrintArg::kDouble:
      return static_cast<uint64_t>(static_cast<int64_t>(a.d));
    default:
      return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(a.p));
  }
}
inline int64_t AsSigned(const PrintArg& a) {
  switch (a.kind) {
    case PrintArg::kInt:
      return a.i;
    case PrintArg::kUInt:
      return static_cast<int64_t>(a.u);
    case PrintArg::kDouble:
      return static_cast<int64_t>(a.d);
    default:
      return static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.p));
  }
}
inline double AsDouble(const PrintArg& a) {
  switch (a.kind) {
    case PrintArg::kInt:
      return static_cast<double>(a.i);
    case PrintArg::kUInt:
      return static_cast<double>(a.u);
    case PrintArg::kDouble:
      return a.d;
    default:
      return 0.0;
  }
}

template <typename V>
inline void AppendSpec(std::string& out, const std::string& spec, V v) {
  char buf[128];
  int n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(&big[0], big.size(), spec.c_str(), v);
  out.append(big.data(), static_cast<size_t>(n));
}

// Formats fmt with args into out.
inline void AppendInt(std::string& out, int64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  out += buf;
}

inline void FormatPrintf(std::string& out, const char* fmt, const PrintArg* args, size_t nargs) {
  if (fmt == nullptr) return;
  size_t next = 0;
  const char* p = fmt;
  while (*p != '\0') {
    if (*p != '%') {
      const char* q = p;
      while (*q != '\0' && *q != '%') ++q;
      out.append(p, static_cast<size_t>(q - p));
      p = q;
      continue;
    }
    const char* start = p++;
    if (*p == '%') {
      out.push_back('%');
      ++p;
      continue;
    }
    std::string spec = "%";
    while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0') spec.push_back(*p++);
    if (*p == '*') {
      ++p;
      AppendInt(spec, next < nargs ? AsSigned(args[next++]) : 0);
    } else {
      while (*p >= '0' && *p <= '9') spec.push_back(*p++);
    }
    if (*p == '.') {
      spec.push_back(*p++);
      if (*p == '*') {
        ++p;
        AppendInt(spec, next < nargs ? AsSigned(args[next++]) : 0);
      } else {
        while (*p >= '0' && *p <= '9') spec.push_back(*p++);
      }
    }
    int hlen = 0;  // 1: h, 2: hh
    while (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 'j' || *p == 't' || *p == 'q') {
      if (*p == 'h') ++hlen;
      ++p;
    }
    const char conv = *p;
    if (conv == '\0') {
      out.append(start);
      return;
    }
    ++p;
    if (std::strchr("diuxXocsfFeEgGaAp", conv) == nullptr || next >= nargs) {
      out.append(start, static_cast<size_t>(p - start));  // unknown conversion or missing argument
      continue;
    }
    const PrintArg& a = args[next++];
    switch (conv) {
      case 'd':
      case 'i': {
        int64_t v = AsSigned(a);
        if (hlen == 1) v = static_cast<int16_t>(v);
        if (hlen >= 2) v = static_cast<int8_t>(v);
        AppendSpec(out, spec + "lld", static_cast<long long>(v));
        break;
      }
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        uint64_t v = AsUnsigned(a);
        if (hlen == 1) v = static_cast<uint16_t>(v);
        if (hlen >= 2) v = static_cast<uint8_t>(v);
        AppendSpec(out, spec + "ll" + conv, static_cast<unsigned long long>(v));
        break;
      }
      case 'c':
        AppendSpec(out, spec + "c", static_cast<int>(static_cast<unsigned char>(AsSigned(a))));
        break;
      case 's':
        if (a.kind == PrintArg::kStr) {
          AppendSpec(out, spec + "s", a.s != nullptr ? a.s : "(null)");
        } else {
          AppendSpec(out, spec + "s", "(not a string)");
        }
        break;
      case 'p':
        AppendSpec(out, spec + "p", a.kind == PrintArg::kStr ? static_cast<const void*>(a.s) : a.p);
        break;
      default:
        AppendSpec(out, spec + conv, AsDouble(a));
        break;
    }
  }
}

SIMNPU_ASCENDC_HIDDEN inline bool PrintfDisabled() {
#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP == 0)
  return true;  // compiled with -DASCENDC_DUMP=0
#endif
  static const bool off = [] {
    const char* v = std::getenv("ASCENDC_DUMP");
    return v != nullptr && std::strcmp(v, "0") == 0;
  }();
  return off;
}

// Appends to the block's buffer, dropping what exceeds the 32 KiB cap.
inline void AppendPrintOutput(const std::string& text) {
  BlockContext* c = tls_ctx;
  if (c == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  const size_t room = kPrintfCap > c->print_buf.size() ? kPrintfCap - c->print_buf.size() : 0;
  if (text.size() <= room) {
    c->print_buf += text;
  } else {
    c->print_buf.append(text.data(), room);
    c->print_truncated = true;
  }
}

template <typename... Args>
inline void Printf(const char* fmt, Args... args) {
  if (PrintfDisabled()) return;
  const PrintArg list[sizeof...(Args) + 1] = {MakePrintArg(args)..., PrintArg{}};
  std::string out;
  FormatPrintf(out, fmt, list, sizeof...(Args));
  AppendPrintOutput(out);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

namespace AscendC {

template <typename... Args>
inline void printf(const char* fmt, Args... args) {
  ::simnpu::ascendc::detail::Printf(fmt, args...);
}

template <typename... Args>
inline void PRINTF(const char* fmt, Args... args) {
  ::simnpu::ascendc::detail::Printf(fmt, args...);
}

}  // namespace AscendC

#endif  // SIMNPU_ASCENDC_PRINT_H_

// ---- kernel assert: assert(cond) and assert(cond, fmt, args...). A failed
// assertion prints through the block's printf buffer and traps the block.
// Define SIMNPU_ASCENDC_NO_ASSERT to keep the C library's assert.
#ifndef SIMNPU_ASCENDC_NO_ASSERT
namespace simnpu {
namespace ascendc {
namespace detail {

template <typename... Args>
[[noreturn]] SIMNPU_ASCENDC_COLD inline void AssertFail(const SrcLoc& loc, const char* text, const char* fmt,
                                                        Args... args) {
  std::string msg = "[ASSERT] ";
  msg += BaseName(loc.file);
  msg += ":";
  AppendInt(msg, loc.line);
  msg += ": Assertion `";
  msg += text;
  msg += "' failed.";
  if (fmt != nullptr) {
    const PrintArg list[sizeof...(Args) + 1] = {MakePrintArg(args)..., PrintArg{}};
    std::string user;
    FormatPrintf(user, fmt, list, sizeof...(Args));
    msg += " " + user;
  }
  if (msg.empty() || msg.back() != '\n') msg.push_back('\n');
  AppendPrintOutput(msg);
  std::string short_msg = msg.substr(0, msg.size() - 1);
  Fail(SIMNPU_BLOCK_TRAP, loc, "%s", short_msg.c_str());
}

template <typename C>
inline void AssertCheck(const SrcLoc& loc, const char* text, const C& cond) {
  if (__builtin_expect(!static_cast<bool>(cond), 0)) AssertFail(loc, text, nullptr);
}
template <typename C, typename... Args>
inline void AssertCheck(const SrcLoc& loc, const char* text, const C& cond, const char* fmt, Args... args) {
  if (__builtin_expect(!static_cast<bool>(cond), 0)) AssertFail(loc, text, fmt, args...);
}

}  // namespace detail
}  // namespace ascendc
}  // namespace simnpu

#include <cassert>
#undef assert
#ifdef NDEBUG
#define assert(...) ((void)0)
#else
// the message names the condition (the first argument) only
#define SIMNPU_ASCENDC_FIRST_ARG_TEXT(cond, ...) #cond
#define assert(...)                                                                                    \
  ::simnpu::ascendc::detail::AssertCheck(::simnpu::ascendc::SrcLoc::Here(),                            \
                                         SIMNPU_ASCENDC_FIRST_ARG_TEXT(__VA_ARGS__, 0), __VA_ARGS__)
#endif
#endif  // SIMNPU_ASCENDC_NO_ASSERT
