/*
 * simnpu public header: types and limits of the securec library (libc_sec.so).
 */
#ifndef SIMNPU_SECURECTYPE_H
#define SIMNPU_SECURECTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#ifndef SECUREC_API
#if defined(__GNUC__)
#define SECUREC_API __attribute__((visibility("default")))
#else
#define SECUREC_API
#endif
#endif

/* errno_t: int, unless the C library (Annex K) already has it. */
#if !defined(__STDC_LIB_EXT1__) && !defined(SECUREC_ERRNO_T_DEFINED) && !defined(_ERRNO_T_DEFINED) && \
    !defined(__errno_t_defined)
#define SECUREC_ERRNO_T_DEFINED
typedef int errno_t;
#endif

/* Largest destination sizes accepted (bytes for memory, characters for strings). */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#define SECUREC_WCHAR_STRING_MAX_LEN (SECUREC_STRING_MAX_LEN / sizeof(wchar_t))
#define SECUREC_WCHAR_MEM_MAX_LEN (SECUREC_MEM_MAX_LEN / sizeof(wchar_t))

#endif /* SIMNPU_SECURECTYPE_H */
