/*
 * simnpu public header: user-supplied device memory allocators.
 *
 * A program describes its own allocator with a descriptor object (the
 * allocator object plus alloc / free / alloc-advise / block-address
 * callbacks) and registers it for a stream. The runtime keeps a copy of the
 * descriptor per stream; aclrtAllocatorGetByStream hands the registration
 * back (frameworks look it up to obtain workspace for a stream). The handle
 * types (aclrtAllocatorDesc, aclrtAllocator, aclrtAllocatorBlock,
 * aclrtAllocatorAddr) are declared in acl_base_rt.h.
 */
#ifndef SIMNPU_ACL_ACL_RT_ALLOCATOR_H
#define SIMNPU_ACL_ACL_RT_ALLOCATOR_H

#include <stddef.h>
#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns a block of at least size bytes (NULL on failure). */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
/* Gives a block back. */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
/* Like the alloc function, with an address hint. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
/* The device address of a block. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* A new, empty descriptor (NULL when out of memory). CANN declares it with
 * an empty parameter list; (void) accepts the same calls and is a prototype
 * in C too. */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

/* NULL -> ACL_ERROR_INVALID_PARAM. Registrations keep their own copy. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/* Each setter: NULL descriptor or NULL value -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func);

/* Registers a copy of the descriptor for stream (not the default stream:
 * NULL -> ACL_ERROR_INVALID_PARAM). The descriptor needs the object and the
 * alloc, free and block-address functions (alloc-advise is optional).
 * Registering again for the same stream replaces the registration. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/* The registration of stream: the descriptor handle given to Register and
 * its fields. allocatorDesc and stream are required; every other output may
 * be NULL. An unregistered stream -> ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator,
                                                       aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/* Removes the registration of stream (none is not an error). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACL_ACL_RT_ALLOCATOR_H */
