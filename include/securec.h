/*
 * simnpu public header: the securec bounds-checked memory and string
 * functions (libc_sec.so), as CANN programs call them.
 *
 * Return codes (errno_t functions):
 *   EOK (0)               success
 *   EINVAL (22)           dest is NULL; nothing written
 *   ERANGE (34)           destMax is 0 or above the maximum; nothing written
 *   EINVAL_AND_RESET      src (or format) is NULL; dest is cleared
 *   ERANGE_AND_RESET      the result does not fit (or a count is too large);
 *                         dest is cleared (memset_s fills destMax bytes)
 *   EOVERLAP_AND_RESET    source and destination overlap; dest is cleared
 * "Cleared" means destMax zero bytes for the mem* functions and an empty
 * string (dest[0] = 0) for the string functions. The *printf_s functions
 * return the number of characters written, or -1 on any of those errors
 * (dest cleared when it can be); snprintf_s returns -1 and keeps the first
 * count characters when the output was cut at count.
 *
 * The *scanf_s functions read like scanf, except that every %s, %c and %[
 * that assigns takes the buffer and then its size in characters (size_t;
 * its low 32 bits count), e.g. sscanf_s(in, "%s", buf, sizeof buf):
 *   size 0 or above SECUREC_STRING_MAX_LEN   the scan stops, buffer untouched
 *   input longer than the buffer (%s/%[ keep one element for the zero,
 *   %c stores no zero)                       the scan stops, buffer[0] = 0
 * They return the number of fields assigned (the fields before such a stop
 * included), -1 when buffer/stream or format is NULL or the input ends
 * before the first conversion, -2 for a NULL argument pointer or an
 * unknown or malformed conversion. %ls/%lc/%l[ (and %S/%C) store wide
 * characters from the narrow functions, %hs narrow ones from the wide.
 */
#ifndef SIMNPU_SECUREC_H
#define SIMNPU_SECUREC_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "securectype.h"

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EOVERLAP
#define EOVERLAP 54
#endif
#define EINVAL_AND_RESET (22 | 128)
#define ERANGE_AND_RESET (34 | 128)
#define EOVERLAP_AND_RESET (54 | 128)

#ifdef __cplusplus
extern "C" {
#endif

SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API char *strtok_s(char *strToken, const char *strDelimit, char **context);
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format, ...);
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList);
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...);
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList);
SECUREC_API int snprintf_truncated_s(char *strDest, size_t destMax, const char *format, ...);
SECUREC_API int vsnprintf_truncated_s(char *strDest, size_t destMax, const char *format, va_list argList);

SECUREC_API int scanf_s(const char *format, ...);
SECUREC_API int vscanf_s(const char *format, va_list argList);
SECUREC_API int sscanf_s(const char *buffer, const char *format, ...);
SECUREC_API int vsscanf_s(const char *buffer, const char *format, va_list argList);
SECUREC_API int fscanf_s(FILE *stream, const char *format, ...);
SECUREC_API int vfscanf_s(FILE *stream, const char *format, va_list argList);
SECUREC_API int wscanf_s(const wchar_t *format, ...);
SECUREC_API int vwscanf_s(const wchar_t *format, va_list argList);
SECUREC_API int swscanf_s(const wchar_t *buffer, const wchar_t *format, ...);
SECUREC_API int vswscanf_s(const wchar_t *buffer, const wchar_t *format, va_list argList);
SECUREC_API int fwscanf_s(FILE *stream, const wchar_t *format, ...);
SECUREC_API int vfwscanf_s(FILE *stream, const wchar_t *format, va_list argList);

SECUREC_API errno_t wmemcpy_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count);
SECUREC_API errno_t wmemmove_s(wchar_t *dest, size_t destMax, const wchar_t *src, size_t count);
SECUREC_API errno_t wcscpy_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc);
SECUREC_API errno_t wcsncpy_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc, size_t count);
SECUREC_API errno_t wcscat_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc);
SECUREC_API errno_t wcsncat_s(wchar_t *strDest, size_t destMax, const wchar_t *strSrc, size_t count);
SECUREC_API wchar_t *wcstok_s(wchar_t *strToken, const wchar_t *strDelimit, wchar_t **context);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_SECUREC_H */
