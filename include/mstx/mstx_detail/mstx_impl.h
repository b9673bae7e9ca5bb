/*
 * simnpu public header: the inline implementation of ms_tools_ext.h.
 *
 * Each translation unit resolves the table once (first call) under a
 * pthread once-guard; after that a call costs one indirect call, or nothing
 * but a branch when no injection library was found.
 */
#ifndef SIMNPU_MSTX_DETAIL_MSTX_IMPL_H
#define SIMNPU_MSTX_DETAIL_MSTX_IMPL_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mstx/mstx_detail/mstx_types.h"

#ifdef __cplusplus
extern "C" {
#endif

static mstxFunctionTable mstx_simnpu_table_;
static pthread_once_t mstx_simnpu_once_ = PTHREAD_ONCE_INIT;

static void mstx_simnpu_load_(void) {
  const char *path = getenv("MSTX_INJECTION_PATH");
  void *lib;
  mstxInitInjectionFn init;
  mstxFunctionTable t;
  memset(&mstx_simnpu_table_, 0, sizeof mstx_simnpu_table_);
  if (path == NULL || path[0] == '\0') return;
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) return;
  *(void **)(&init) = dlsym(lib, "InitInjectionMstx");
  if (init == NULL) return;
  memset(&t, 0, sizeof t);
  t.size = sizeof t;
  if (init(&t) == MSTX_SUCCESS) mstx_simnpu_table_ = t;
}

static inline const mstxFunctionTable *mstx_simnpu_get_(void) {
  pthread_once(&mstx_simnpu_once_, mstx_simnpu_load_);
  return &mstx_simnpu_table_;
}

static inline void mstxMarkA(const char *message, aclrtStream stream) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  if (t->markA) t->markA(message, stream);
}

static inline mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  return t->rangeStartA ? t->rangeStartA(message, stream) : 0;
}

static inline void mstxRangeEnd(mstxRangeId id) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  if (t->rangeEnd) t->rangeEnd(id);
}

static inline mstxDomainHandle_t mstxDomainCreateA(const char *name) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  return t->domainCreateA ? t->domainCreateA(name) : (mstxDomainHandle_t)0;
}

static inline void mstxDomainDestroy(mstxDomainHandle_t domain) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  if (t->domainDestroy) t->domainDestroy(domain);
}

static inline void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  if (t->domainMarkA) t->domainMarkA(domain, message, stream);
}

static inline mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  return t->domainRangeStartA ? t->domainRangeStartA(domain, message, stream) : 0;
}

static inline void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  const mstxFunctionTable *t = mstx_simnpu_get_();
  if (t->domainRangeEnd) t->domainRangeEnd(domain, id);
}

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_MSTX_DETAIL_MSTX_IMPL_H */
