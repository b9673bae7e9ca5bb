/*
 * simnpu public header: mstx types and the injection interface between
 * ms_tools_ext.h and the library that implements it (libprofapi.so).
 */
#ifndef SIMNPU_MSTX_DETAIL_MSTX_TYPES_H
#define SIMNPU_MSTX_DETAIL_MSTX_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

typedef uint64_t mstxRangeId;
struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;
/* The same type acl/acl_base_rt.h declares (C++ accepts the repetition; C99
 * does not, so C skips it when that header came first). */
#if defined(__cplusplus) || !defined(SIMNPU_ACL_ACL_BASE_RT_H)
typedef void *aclrtStream;
#endif

/* The function table an injection library fills. `size` is the size the
 * header was built with; a library fills at most that many bytes. */
typedef struct mstxFunctionTable {
  size_t size;
  void (*markA)(const char *message, aclrtStream stream);
  mstxRangeId (*rangeStartA)(const char *message, aclrtStream stream);
  void (*rangeEnd)(mstxRangeId id);
  mstxDomainHandle_t (*domainCreateA)(const char *name);
  void (*domainDestroy)(mstxDomainHandle_t domain);
  void (*domainMarkA)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
  mstxRangeId (*domainRangeStartA)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
  void (*domainRangeEnd)(mstxDomainHandle_t domain, mstxRangeId id);
} mstxFunctionTable;

/* Exported by the injection library: fills *table, returns MSTX_SUCCESS. */
typedef int (*mstxInitInjectionFn)(mstxFunctionTable *table);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_MSTX_DETAIL_MSTX_TYPES_H */
