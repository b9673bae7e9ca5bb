/*
 * simnpu public header: user-supplied device memory allocators.
 *
 * In CANN this header carries the aclrtAllocator* API, which lets a program
 * plug its own allocator into the runtime (descriptor objects holding
 * alloc / free / advise / block-address callbacks, registered per stream).
 * The handle types it uses (aclrtAllocatorDesc, aclrtAllocator,
 * aclrtAllocatorBlock, aclrtAllocatorAddr) are declared in acl_base_rt.h.
 *
 * simnpu does not implement custom allocators yet, so no functions are
 * declared here; the header exists because acl/acl_rt.h includes it.
 */
#ifndef SIMNPU_ACL_ACL_RT_ALLOCATOR_H
#define SIMNPU_ACL_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#endif /* SIMNPU_ACL_ACL_RT_ALLOCATOR_H */
