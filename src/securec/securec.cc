// libc_sec.so: the securec bounds-checked memory and string functions
// (include/securec.h states the return-code contract). Standalone: it
// depends on nothing else of simnpu. No state, no locking.
//
// Checks run in this order for every function: destMax (0 or above the
// maximum: ERANGE, nothing written), dest NULL (EINVAL), then the source and
// size checks, which clear the destination and return the *_AND_RESET codes.
#include "securec.h"

#include <cstdio>
#include <cstring>
#include <cwchar>

namespace {

bool Overlap(const void* a, size_t an, const void* b, size_t bn) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bn && y < x + an;
}

template <typename T>
size_t Len(const T* s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != 0) ++n;
  return n;
}

template <typename T>
errno_t MemCopy(T* dest, size_t destMax, const T* src, size_t count, size_t max_len, bool allow_overlap) {
  if (destMax == 0 || destMax > max_len) return ERANGE;
  if (!dest) return EINVAL;
  if (count > destMax) {
    std::memset(dest, 0, destMax * sizeof(T));
    return ERANGE_AND_RESET;
  }
  if (!src) {
    std::memset(dest, 0, destMax * sizeof(T));
    return EINVAL_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (!allow_overlap && Overlap(dest, count * sizeof(T), src, count * sizeof(T))) {
    std::memset(dest, 0, destMax * sizeof(T));
    return EOVERLAP_AND_RESET;
  }
  std::memmove(dest, src, count * sizeof(T));
  return EOK;
}

// The checks every string function starts with: EOK when they pass, else
// the code (dest emptied where the code says so).
template <typename T>
errno_t StrPrologue(T* dest, size_t destMax, const T* src, bool bounded, size_t count, size_t max_len) {
  if (destMax == 0 || destMax > max_len) return ERANGE;
  if (!dest) return EINVAL;
  if (!src) {
    dest[0] = 0;
    return EINVAL_AND_RESET;
  }
  if (bounded && count > max_len) {
    dest[0] = 0;
    return ERANGE_AND_RESET;
  }
  return EOK;
}

// strcpy_s / strncpy_s: copy n characters of src (n already <= strlen) plus a NUL.
template <typename T>
errno_t StrCopy(T* dest, size_t destMax, const T* src, bool bounded, size_t count, size_t max_len) {
  if (errno_t e = StrPrologue(dest, destMax, src, bounded, count, max_len)) return e;
  if (bounded && count == 0) {
    dest[0] = 0;
    return EOK;
  }
  const size_t n = bounded ? Len(src, count) : Len(src, destMax);
  if (n >= destMax) {
    dest[0] = 0;
    return ERANGE_AND_RESET;
  }
  if (dest == src) return EOK;
  if (Overlap(dest, (n + 1) * sizeof(T), src, (n + 1) * sizeof(T))) {
    dest[0] = 0;
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest, src, n * sizeof(T));
  dest[n] = 0;
  return EOK;
}

template <typename T>
errno_t StrCat(T* dest, size_t destMax, const T* src, bool bounded, size_t count, size_t max_len) {
  if (errno_t e = StrPrologue(dest, destMax, src, bounded, count, max_len)) return e;
  const size_t have = Len(dest, destMax);
  if (have == destMax) {  // dest is not terminated within destMax
    dest[0] = 0;
    return EINVAL_AND_RESET;
  }
  const size_t n = bounded ? Len(src, count) : Len(src, destMax - have);
  if (have + n >= destMax) {
    dest[0] = 0;
    return ERANGE_AND_RESET;
  }
  if (Overlap(dest, (have + n + 1) * sizeof(T), src, (n + 1) * sizeof(T))) {
    dest[0] = 0;
    return EOVERLAP_AND_RESET;
  }
  std::memcpy(dest + have, src, n * sizeof(T));
  dest[have + n] = 0;
  return EOK;
}

template <typename T>
bool IsDelim(T c, const T* delims) {
  for (const T* d = delims; *d; ++d)
    if (*d == c) return true;
  return false;
}

template <typename T>
T* Tok(T* token, const T* delims, T** context) {
  if (!context || !delims) return nullptr;
  T* s = token ? token : *context;
  if (!s) return nullptr;
  while (*s && IsDelim(*s, delims)) ++s;
  if (!*s) {
    *context = s;
    return nullptr;
  }
  T* start = s;
  while (*s && !IsDelim(*s, delims)) ++s;
  if (*s) *s++ = 0;
  *context = s;
  return start;
}

int VPrint(char* dest, size_t destMax, const char* fmt, va_list ap) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || !dest) return -1;
  if (!fmt) {
    dest[0] = 0;
    return -1;
  }
  const int n = std::vsnprintf(dest, destMax, fmt, ap);
  if (n < 0 || static_cast<size_t>(n) >= destMax) {
    dest[0] = 0;
    return -1;
  }
  return n;
}

}  // namespace

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  return MemCopy(static_cast<char*>(dest), destMax, static_cast<const char*>(src), count, SECUREC_MEM_MAX_LEN, false);
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return MemCopy(static_cast<char*>(dest), destMax, static_cast<const char*>(src), count, SECUREC_MEM_MAX_LEN, true);
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (!dest) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return StrCopy(strDest, destMax, strSrc, false, 0, SECUREC_STRING_MAX_LEN);
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  return StrCopy(strDest, destMax, strSrc, true, count, SECUREC_STRING_MAX_LEN);
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return StrCat(strDest, destMax, strSrc, false, 0, SECUREC_STRING_MAX_LEN);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  return StrCat(strDest, destMax, strSrc, true, count, SECUREC_STRING_MAX_LEN);
}

char* strtok_s(char* strToken, const char* strDelimit, char** context) { return Tok(strToken, strDelimit, context); }

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  return VPrint(strDest, destMax, format, argList);
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = VPrint(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || !strDest) return -1;
  if (!format || count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = 0;
    return -1;
  }
  if (count >= destMax) return VPrint(strDest, destMax, format, argList);
  // At most count characters: a longer output is cut there and reported as -1.
  const int n = std::vsnprintf(strDest, count + 1, format, argList);
  if (n < 0) {
    strDest[0] = 0;
    return -1;
  }
  return static_cast<size_t>(n) > count ? -1 : n;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_s(strDest, destMax, count, format, ap);
  va_end(ap);
  return n;
}

int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || !strDest) return -1;
  if (!format) {
    strDest[0] = 0;
    return -1;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0) {
    strDest[0] = 0;
    return -1;
  }
  return static_cast<size_t>(n) >= destMax ? static_cast<int>(destMax - 1) : n;
}

int snprintf_truncated_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf_truncated_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

errno_t wmemcpy_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  return MemCopy(dest, destMax, src, count, SECUREC_WCHAR_MEM_MAX_LEN, false);
}

errno_t wmemmove_s(wchar_t* dest, size_t destMax, const wchar_t* src, size_t count) {
  return MemCopy(dest, destMax, src, count, SECUREC_WCHAR_MEM_MAX_LEN, true);
}

errno_t wcscpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc) {
  return StrCopy(strDest, destMax, strSrc, false, 0, SECUREC_WCHAR_STRING_MAX_LEN);
}

errno_t wcsncpy_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc, size_t count) {
  return StrCopy(strDest, destMax, strSrc, true, count, SECUREC_WCHAR_STRING_MAX_LEN);
}

errno_t wcscat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc) {
  return StrCat(strDest, destMax, strSrc, false, 0, SECUREC_WCHAR_STRING_MAX_LEN);
}

errno_t wcsncat_s(wchar_t* strDest, size_t destMax, const wchar_t* strSrc, size_t count) {
  return StrCat(strDest, destMax, strSrc, true, count, SECUREC_WCHAR_STRING_MAX_LEN);
}

wchar_t* wcstok_s(wchar_t* strToken, const wchar_t* strDelimit, wchar_t** context) {
  return Tok(strToken, strDelimit, context);
}

}  // extern "C"
