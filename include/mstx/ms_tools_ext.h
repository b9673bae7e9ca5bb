/*
 * simnpu public header: mstx, the MindStudio tools extension (markers,
 * ranges and domains in the profiling timeline).
 *
 * Header-only: every function is static inline and finds its implementation
 * lazily. The first call reads MSTX_INJECTION_PATH; when it names a library
 * (msprof and SIMNPU_PROFILE point it at libprofapi.so), the library is
 * dlopen()ed and its InitInjectionMstx fills the function table. Without it
 * every call does nothing and range ids are 0. Link with -ldl.
 * Define MSTX_NO_IMPL to get the declarations only.
 */
#ifndef SIMNPU_MSTX_MS_TOOLS_EXT_H
#define SIMNPU_MSTX_MS_TOOLS_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "mstx/mstx_detail/mstx_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef MSTX_NO_IMPL
void mstxMarkA(const char *message, aclrtStream stream);
mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
void mstxRangeEnd(mstxRangeId id);
mstxDomainHandle_t mstxDomainCreateA(const char *name);
void mstxDomainDestroy(mstxDomainHandle_t domain);
void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);
#endif

#ifdef __cplusplus
}
#endif

#ifndef MSTX_NO_IMPL
#include "mstx/mstx_detail/mstx_impl.h"
#endif

#endif /* SIMNPU_MSTX_MS_TOOLS_EXT_H */
