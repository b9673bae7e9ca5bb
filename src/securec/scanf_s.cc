// The securec scanf family (sscanf_s, fscanf_s, scanf_s, their v* and wide
// forms): one input engine, templated on the character type and on where
// the characters come from (a string, or a stream read with getc/ungetc and
// one character of push-back, as the C library's scanf does).
//
// What differs from C scanf (include/securec.h has the contract): every
// %s, %c and %[ that assigns takes two arguments, the buffer and its size in
// characters (read as size_t, low 32 bits). A size of 0 or above the string
// maximum stops the scan with the buffer untouched; input that does not fit
// (with its terminating zero for %s and %[) stops the scan with the buffer
// emptied. A NULL argument or an unknown or malformed conversion returns
// SECUREC_SCANF_ERROR_PARA (-2); a NULL buffer or format, or the end of the
// input before the first conversion, returns SECUREC_SCANF_EINVAL (-1);
// otherwise the number of fields assigned. No state, no locking.
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <string>
#include <type_traits>

#include "securec.h"

namespace {

constexpr int SECUREC_SCANF_EINVAL = -1;
constexpr int SECUREC_SCANF_ERROR_PARA = -2;
constexpr long kEof = -1;
constexpr long kNothing = -2;  // no look-ahead character (the width was used up)

// Input from a zero-terminated string.
template <typename C>
struct StringInput {
  const C* p;
  long Get() {
    if (*p == 0) return kEof;
    return static_cast<long>(static_cast<std::make_unsigned_t<C>>(*p++));
  }
  void Unget(long c) {
    if (c != kEof) --p;
  }
};

struct FileInput {
  FILE* f;
  long Get() {
    const int c = std::getc(f);
    return c == EOF ? kEof : c;
  }
  void Unget(long c) {
    if (c != kEof) std::ungetc(static_cast<int>(c), f);
  }
};

struct WideFileInput {
  FILE* f;
  long Get() {
    const wint_t c = std::getwc(f);
    return c == WEOF ? kEof : static_cast<long>(c);
  }
  void Unget(long c) {
    if (c != kEof) std::ungetwc(static_cast<wint_t>(c), f);
  }
};

bool IsSpace(long c) { return c != kEof && (c == ' ' || (c >= '\t' && c <= '\r')); }

long Lower(long c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

int DigitValue(long c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  c = Lower(c);
  if (c >= 'a' && c <= 'z') return static_cast<int>(c - 'a' + 10);
  return 99;
}

enum class Len { kNone, kHH, kH, kL, kLL, kJ, kZ, kT, kBigL };

// Counts the characters read (for %n) and remembers the last one.
template <typename In>
struct Reader {
  In& in;
  long last = 0;
  long count = 0;
  long Get() {
    last = in.Get();
    if (last != kEof) ++count;
    return last;
  }
  void Unget(long c) {
    if (c == kEof) return;
    in.Unget(c);
    --count;
  }
};

// A %[ set: up to 256 byte values as a bitmap; wider characters are
// compared against the format text directly.
template <typename C>
struct ScanSet {
  const C* begin = nullptr;  // first character of the set (after ^)
  const C* end = nullptr;    // the closing ]
  bool negate = false;
  bool Has(long c) const {
    bool in = false;
    for (const C* p = begin; p < end; ++p) {
      const long lo = static_cast<long>(static_cast<std::make_unsigned_t<C>>(*p));
      if (p + 2 < end && p[1] == '-') {
        const long hi = static_cast<long>(static_cast<std::make_unsigned_t<C>>(p[2]));
        if (c >= lo && c <= hi) in = true;
        p += 2;
      } else if (c == lo) {
        in = true;
      }
    }
    return in != negate;
  }
};

// Where a %s/%c/%[ puts what it reads: a narrow or a wide buffer of `cap`
// elements, or nowhere (suppressed).
class Sink {
 public:
  Sink(void* buf, size_t cap, bool wide) : buf_(buf), cap_(cap), wide_(wide) { std::memset(&mb_, 0, sizeof mb_); }
  // Stores one input character (from a narrow or a wide input); false
  // when it does not fit.
  bool PutNarrowInput(unsigned char c) {
    if (!buf_) return true;
    if (!wide_) return PutByte(c);
    // A narrow input into a wide buffer: multibyte sequences become one wchar_t.
    wchar_t w = 0;
    char ch = static_cast<char>(c);
    const size_t r = std::mbrtowc(&w, &ch, 1, &mb_);
    if (r == static_cast<size_t>(-2)) return true;  // incomplete: more bytes follow
    if (r == static_cast<size_t>(-1)) {
      std::memset(&mb_, 0, sizeof mb_);
      w = static_cast<wchar_t>(c);
    }
    return PutWide(w);
  }
  bool PutWideInput(wchar_t w) {
    if (!buf_) return true;
    if (wide_) return PutWide(w);
    char tmp[MB_LEN_MAX];
    mbstate_t st;
    std::memset(&st, 0, sizeof st);
    size_t n = std::wcrtomb(tmp, w, &st);
    if (n == static_cast<size_t>(-1)) {
      tmp[0] = static_cast<char>(w);
      n = 1;
    }
    if (used_ + n > cap_) return false;
    for (size_t i = 0; i < n; ++i) static_cast<char*>(buf_)[used_++] = tmp[i];
    return true;
  }
  void Terminate() {
    if (!buf_) return;
    if (wide_)
      static_cast<wchar_t*>(buf_)[used_] = 0;
    else
      static_cast<char*>(buf_)[used_] = 0;
  }
  // The error path: the buffer left as an empty string.
  void Clear() {
    if (!buf_) return;
    if (wide_)
      static_cast<wchar_t*>(buf_)[0] = 0;
    else
      static_cast<char*>(buf_)[0] = 0;
  }

 private:
  bool PutByte(unsigned char c) {
    if (used_ >= cap_) return false;
    static_cast<char*>(buf_)[used_++] = static_cast<char>(c);
    return true;
  }
  bool PutWide(wchar_t w) {
    if (used_ >= cap_) return false;
    static_cast<wchar_t*>(buf_)[used_++] = w;
    return true;
  }
  void* buf_;
  size_t cap_;
  bool wide_;
  size_t used_ = 0;
  mbstate_t mb_;
};

template <typename C>
void StoreSigned(void* p, Len len, long long v) {
  switch (len) {
    case Len::kHH: *static_cast<signed char*>(p) = static_cast<signed char>(v); break;
    case Len::kH: *static_cast<short*>(p) = static_cast<short>(v); break;
    case Len::kL: *static_cast<long*>(p) = static_cast<long>(v); break;
    case Len::kLL:
    case Len::kBigL: *static_cast<long long*>(p) = v; break;
    case Len::kJ: *static_cast<intmax_t*>(p) = v; break;
    case Len::kZ: *static_cast<std::make_signed_t<size_t>*>(p) = static_cast<std::make_signed_t<size_t>>(v); break;
    case Len::kT: *static_cast<ptrdiff_t*>(p) = static_cast<ptrdiff_t>(v); break;
    default: *static_cast<int*>(p) = static_cast<int>(v); break;
  }
}

template <typename C>
void StoreUnsigned(void* p, Len len, unsigned long long v) {
  switch (len) {
    case Len::kHH: *static_cast<unsigned char*>(p) = static_cast<unsigned char>(v); break;
    case Len::kH: *static_cast<unsigned short*>(p) = static_cast<unsigned short>(v); break;
    case Len::kL: *static_cast<unsigned long*>(p) = static_cast<unsigned long>(v); break;
    case Len::kLL:
    case Len::kBigL: *static_cast<unsigned long long*>(p) = v; break;
    case Len::kJ: *static_cast<uintmax_t*>(p) = v; break;
    case Len::kZ: *static_cast<size_t*>(p) = static_cast<size_t>(v); break;
    case Len::kT: *static_cast<ptrdiff_t*>(p) = static_cast<ptrdiff_t>(v); break;
    default: *static_cast<unsigned*>(p) = static_cast<unsigned>(v); break;
  }
}

// Outcome of one directive.
enum class Step { kOk, kStop, kParamError };

template <typename C, typename In>
class Scanner {
 public:
  Scanner(In& in, va_list ap) : r_{in} { va_copy(ap_, ap); }
  ~Scanner() { va_end(ap_); }

  int Run(const C* fmt) {
    const C* f = fmt;
    bool param_error = false;
    while (*f) {
      if (IsSpace(Char(*f))) {
        while (IsSpace(Char(*f))) ++f;
        long c;
        do c = r_.Get();
        while (IsSpace(c));
        if (c == kEof) break;
        r_.Unget(c);
        continue;
      }
      if (*f != '%') {
        const long c = r_.Get();
        if (c != Char(*f)) {
          r_.Unget(c);
          break;
        }
        ++f;
        continue;
      }
      const Step st = Directive(&f);
      if (st == Step::kParamError) {
        param_error = true;
        break;
      }
      if (st == Step::kStop) break;
      ++matched_;
    }
    if (r_.last == kEof && !param_error) return assigned_ || matched_ ? assigned_ : SECUREC_SCANF_EINVAL;
    if (param_error) return SECUREC_SCANF_ERROR_PARA;
    return assigned_;
  }

 private:
  static long Char(C c) { return static_cast<long>(static_cast<std::make_unsigned_t<C>>(c)); }

  // One % directive; *pf points at the '%' and is left after it.
  Step Directive(const C** pf) {
    const C* f = *pf + 1;
    bool suppress = false;
    if (*f == '*') {
      suppress = true;
      ++f;
    }
    bool width_set = false;
    unsigned long long width = 0;
    while (*f >= '0' && *f <= '9') {
      width_set = true;
      width = width * 10 + static_cast<unsigned long long>(*f - '0');
      if (width > INT_MAX) return Step::kParamError;
      ++f;
    }
    if (width_set && width == 0) return Step::kParamError;  // %0d: malformed
    Len len = Len::kNone;
    switch (*f) {
      case 'h':
        ++f;
        if (*f == 'h') {
          ++f;
          len = Len::kHH;
        } else {
          len = Len::kH;
        }
        break;
      case 'l':
        ++f;
        if (*f == 'l') {
          ++f;
          len = Len::kLL;
        } else {
          len = Len::kL;
        }
        break;
      case 'q': ++f; len = Len::kLL; break;
      case 'j': ++f; len = Len::kJ; break;
      case 'z': ++f; len = Len::kZ; break;
      case 't': ++f; len = Len::kT; break;
      case 'L': ++f; len = Len::kBigL; break;
      default: break;
    }
    const long conv = Char(*f);
    if (conv == 0) return Step::kParamError;  // the format ends inside a directive
    ++f;
    *pf = f;
    if (conv == '%') {
      long c;
      do c = r_.Get();
      while (IsSpace(c));
      if (c != '%') {
        r_.Unget(c);
        return Step::kStop;
      }
      return Step::kOk;
    }
    if (conv == 'n') {
      if (!suppress) {
        void* p = va_arg(ap_, void*);
        if (!p) return Step::kParamError;
        StoreSigned<C>(p, len, r_.count);
      }
      return Step::kOk;
    }
    switch (conv) {
      case 'c':
      case 's':
      case '[':
      case 'C':
      case 'S': {
        ScanSet<C> set;
        if (conv == '[') {
          // The set runs to the first ] that is not its first character.
          const C* s = f;
          if (*s == '^') {
            set.negate = true;
            ++s;
          }
          set.begin = s;
          if (*s == ']') ++s;
          while (*s && *s != ']') ++s;
          if (!*s) return Step::kParamError;  // unterminated set
          set.end = s;
          *pf = s + 1;
        }
        return Text(conv, suppress, width_set ? static_cast<size_t>(width) : 0, len, set);
      }
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'p':
        return Integer(conv, suppress, width_set ? static_cast<size_t>(width) : SIZE_MAX, len);
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        return Float(suppress, width_set ? static_cast<size_t>(width) : SIZE_MAX, len);
      default:
        return Step::kParamError;  // unknown conversion
    }
  }

  Step Text(long conv, bool suppress, size_t width, Len len, const ScanSet<C>& set) {
    // Which buffer type: the input's own, unless %l (wide) or %h (narrow)
    // or the upper-case forms (the other width) say otherwise.
    constexpr bool kWideInput = sizeof(C) > 1;
    bool wide = kWideInput;
    if (len == Len::kL) wide = true;
    if (len == Len::kH) wide = false;
    if (conv == 'S' || conv == 'C') wide = !kWideInput;
    const bool is_c = conv == 'c' || conv == 'C';
    const bool is_set = conv == '[';
    void* buf = nullptr;
    size_t cap = 0;
    if (!suppress) {
      buf = va_arg(ap_, void*);
      if (!buf) return Step::kParamError;
      const size_t size = va_arg(ap_, size_t) & 0xFFFFFFFFu;
      const size_t max = wide ? SECUREC_WCHAR_STRING_MAX_LEN : SECUREC_STRING_MAX_LEN;
      if (size == 0 || size > max) return Step::kStop;  // the buffer is left as it is
      cap = is_c ? size : size - 1;                     // %s and %[ need room for the zero
    }
    if (is_c && width == 0) width = 1;
    if (width == 0) width = SIZE_MAX;
    long c;
    if (!is_c && !is_set) {
      do c = r_.Get();
      while (IsSpace(c));
    } else {
      c = r_.Get();
    }
    if (c == kEof) return Step::kStop;
    Sink sink(buf, cap, wide);
    size_t n = 0;
    while (n < width && c != kEof) {
      if (!is_c && !is_set && IsSpace(c)) break;
      if (is_set && !set.Has(c)) break;
      const bool fits = kWideInput ? sink.PutWideInput(static_cast<wchar_t>(c))
                                   : sink.PutNarrowInput(static_cast<unsigned char>(c));
      if (!fits) {
        sink.Clear();
        return Step::kStop;
      }
      ++n;
      c = n < width ? r_.Get() : kNothing;
    }
    if (c != kNothing) r_.Unget(c);
    if (n == 0) return Step::kStop;  // nothing matched
    if (!is_c) sink.Terminate();
    if (!suppress) ++assigned_;
    return Step::kOk;
  }

  // Reads the longest prefix of an integer in `base` (0: decided by the
  // prefix) into text; false when no digit was read.
  bool CollectInteger(int* base, size_t width, std::string* text) {
    long c;
    do c = r_.Get();
    while (IsSpace(c));
    size_t n = 0;
    auto take = [&](long ch) {
      text->push_back(static_cast<char>(ch));
      ++n;
      c = n < width ? r_.Get() : kNothing;
    };
    if (c == '+' || c == '-') take(c);
    bool digits = false;
    if (c == '0' && n < width) {
      take(c);
      digits = true;
      if ((*base == 16 || *base == 0) && (c == 'x' || c == 'X') && n < width) {
        take(c);
        *base = 16;
        digits = false;
      } else if (*base == 0) {
        *base = 8;
      }
    }
    if (*base == 0) *base = 10;
    while (c >= 0 && DigitValue(c) < *base) {
      take(c);
      digits = true;
    }
    if (c != kNothing) r_.Unget(c);
    return digits;
  }

  Step Integer(long conv, bool suppress, size_t width, Len len) {
    int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : 16;
    std::string text;
    if (!CollectInteger(&base, width, &text)) return Step::kStop;
    if (suppress) return Step::kOk;
    void* p = va_arg(ap_, void*);
    if (!p) return Step::kParamError;
    if (conv == 'p') {
      *static_cast<void**>(p) = reinterpret_cast<void*>(static_cast<uintptr_t>(std::strtoull(text.c_str(), nullptr, 16)));
    } else if (conv == 'd' || conv == 'i') {
      StoreSigned<C>(p, len, std::strtoll(text.c_str(), nullptr, base));
    } else {
      StoreUnsigned<C>(p, len, std::strtoull(text.c_str(), nullptr, base));
    }
    ++assigned_;
    return Step::kOk;
  }

  Step Float(bool suppress, size_t width, Len len) {
    long c;
    do c = r_.Get();
    while (IsSpace(c));
    std::string text;
    size_t n = 0;
    auto take = [&]() {
      text.push_back(static_cast<char>(c));
      ++n;
      c = n < width ? r_.Get() : kNothing;
    };
    if (c == '+' || c == '-') take();
    bool ok = false;
    if (Lower(c) == 'i' || Lower(c) == 'n') {
      // inf, infinity, nan: as far as the word matches.
      const char* word = Lower(c) == 'i' ? "infinity" : "nan";
      size_t k = 0;
      while (word[k] && c >= 0 && Lower(c) == word[k]) {
        take();
        ++k;
      }
      ok = k == 3 || k == 8;
    } else {
      bool hex = false;
      if (c == '0') {
        take();
        ok = true;
        if (Lower(c) == 'x') {
          take();
          hex = true;
          ok = false;
        }
      }
      auto is_digit = [&](long ch) { return ch >= 0 && DigitValue(ch) < (hex ? 16 : 10); };
      while (is_digit(c)) {
        take();
        ok = true;
      }
      if (c == '.') {
        take();
        while (is_digit(c)) {
          take();
          ok = true;
        }
      }
      if (ok && (Lower(c) == (hex ? 'p' : 'e'))) {
        take();
        if (c == '+' || c == '-') take();
        while (c >= 0 && DigitValue(c) < 10) take();
      }
    }
    if (c != kNothing) r_.Unget(c);
    if (!ok) return Step::kStop;
    if (suppress) return Step::kOk;
    void* p = va_arg(ap_, void*);
    if (!p) return Step::kParamError;
    if (len == Len::kBigL)
      *static_cast<long double*>(p) = std::strtold(text.c_str(), nullptr);
    else if (len == Len::kL)
      *static_cast<double*>(p) = std::strtod(text.c_str(), nullptr);
    else
      *static_cast<float*>(p) = std::strtof(text.c_str(), nullptr);
    ++assigned_;
    return Step::kOk;
  }

  Reader<In> r_;
  va_list ap_;
  int assigned_ = 0;
  int matched_ = 0;
};

template <typename C, typename In>
int Scan(In& in, const C* format, va_list ap) {
  Scanner<C, In> s(in, ap);
  return s.Run(format);
}

}  // namespace

extern "C" {

SECUREC_API int vsscanf_s(const char* buffer, const char* format, va_list argList) {
  if (!buffer || !format) return SECUREC_SCANF_EINVAL;
  StringInput<char> in{buffer};
  return Scan(in, format, argList);
}

SECUREC_API int sscanf_s(const char* buffer, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vsscanf_s(buffer, format, ap);
  va_end(ap);
  return r;
}

SECUREC_API int vfscanf_s(FILE* stream, const char* format, va_list argList) {
  if (!stream || !format) return SECUREC_SCANF_EINVAL;
  FileInput in{stream};
  return Scan(in, format, argList);
}

SECUREC_API int fscanf_s(FILE* stream, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vfscanf_s(stream, format, ap);
  va_end(ap);
  return r;
}

SECUREC_API int vscanf_s(const char* format, va_list argList) { return vfscanf_s(stdin, format, argList); }

SECUREC_API int scanf_s(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vfscanf_s(stdin, format, ap);
  va_end(ap);
  return r;
}

SECUREC_API int vswscanf_s(const wchar_t* buffer, const wchar_t* format, va_list argList) {
  if (!buffer || !format) return SECUREC_SCANF_EINVAL;
  StringInput<wchar_t> in{buffer};
  return Scan(in, format, argList);
}

SECUREC_API int swscanf_s(const wchar_t* buffer, const wchar_t* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vswscanf_s(buffer, format, ap);
  va_end(ap);
  return r;
}

SECUREC_API int vfwscanf_s(FILE* stream, const wchar_t* format, va_list argList) {
  if (!stream || !format) return SECUREC_SCANF_EINVAL;
  WideFileInput in{stream};
  return Scan(in, format, argList);
}

SECUREC_API int fwscanf_s(FILE* stream, const wchar_t* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vfwscanf_s(stream, format, ap);
  va_end(ap);
  return r;
}

SECUREC_API int vwscanf_s(const wchar_t* format, va_list argList) { return vfwscanf_s(stdin, format, argList); }

SECUREC_API int wscanf_s(const wchar_t* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int r = vfwscanf_s(stdin, format, ap);
  va_end(ap);
  return r;
}

}  // extern "C"
