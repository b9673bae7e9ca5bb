/*
 * simnpu public header: stream-ordered device memory pools.
 *
 * A pool hands out device memory in stream order: aclrtMemPoolMallocAsync
 * returns an address at once, usable by the tasks submitted to the stream
 * after the call; aclrtMemPoolFreeAsync returns the block to the pool when
 * the stream reaches the free. A later allocation on the same stream may
 * reuse a freed block at once; another stream reuses it once the free has
 * executed. Memory the pool keeps beyond its release threshold goes back to
 * the device when a stream is synchronised, or with aclrtMemPoolTrimTo.
 */
#ifndef SIMNPU_ACL_ACL_RT_MEMORY_SOMA_H
#define SIMNPU_ACL_ACL_RT_MEMORY_SOMA_H

#include <stddef.h>
#include <stdint.h>
#include "acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtMemPool;

/* Pool attributes (aclrtMemPoolSetAttr / GetAttr). The three REUSE switches
 * take a uint32_t (0 or 1); the others a uint64_t byte count. RESERVED and
 * USED are read-only except that their HIGH marks may be reset to 0. */
typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

/* allocType must be ACL_MEM_ALLOCATION_TYPE_PINNED, location.type
 * ACL_MEM_LOCATION_TYPE_DEVICE, reserved all zero; maxSize is the most the
 * pool may hold (0: no limit but the device's memory). */
typedef struct {
    aclrtMemAllocationType allocType;
    aclrtMemHandleType handleType;
    aclrtMemLocation location;
    size_t maxSize;
    unsigned char reserved[32];
} aclrtMemPoolProps;

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);

/* Blocks still allocated from the pool are freed with it. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

/* size 0 succeeds and allocates nothing. stream must not be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream);

/* Gives free memory back to the device until the pool holds at most
 * minBytesToKeep bytes of free memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACL_ACL_RT_MEMORY_SOMA_H */
