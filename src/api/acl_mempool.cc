// Stream-ordered memory pools (acl/acl_rt_memory_soma.h): argument checks
// and conversion; the pools themselves are core::MemPool.
#include <cstring>

#include "acl/acl_rt_memory_soma.h"
#include "api/api_common.h"
#include "core/mem_pool.h"
#include "core/runtime.h"
#include "dfx/trace/trace.h"
#include "sim/npu_system.h"

using namespace simnpu;

namespace {

#define FIND_POOL(var, h)                          \
  ACL_REQUIRE_NOT_NULL(h);                         \
  auto var = core::MemPools::Get().Find(h);        \
  if (!var) return api::InvalidHandle(__func__, "memory pool", h)

}  // namespace

extern "C" {

aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(memPool);
  ACL_REQUIRE_NOT_NULL(poolProps);
  if (api::RawEnum(poolProps->allocType) != ACL_MEM_ALLOCATION_TYPE_PINNED)
    return api::BadParam(__func__, "poolProps->allocType", std::to_string(api::RawEnum(poolProps->allocType)),
                         "ACL_MEM_ALLOCATION_TYPE_PINNED");
  if (api::RawEnum(poolProps->location.type) != ACL_MEM_LOCATION_TYPE_DEVICE)
    return api::BadParam(__func__, "poolProps->location.type", std::to_string(api::RawEnum(poolProps->location.type)),
                         "ACL_MEM_LOCATION_TYPE_DEVICE");
  static const unsigned char kZeros[sizeof poolProps->reserved] = {};
  if (std::memcmp(poolProps->reserved, kZeros, sizeof kZeros) != 0)
    return api::BadParam(__func__, "poolProps->reserved", "non-zero bytes", "all zero");
  const int dev_id = static_cast<int>(poolProps->location.id);
  auto dev = core::Runtime::Get().GetDevice(dev_id);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  core::Device* d = dev.value();
  auto pool = std::make_shared<core::MemPool>(dev_id, d->phys_id(), &d->npu()->arena(), poolProps->maxSize);
  core::MemPools::Get().Add(pool);
  *memPool = pool.get();
  return ACL_SUCCESS;
}

aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(memPool);
  auto pool = core::MemPools::Get().Remove(memPool);
  if (!pool) return api::InvalidHandle(__func__, "memory pool", memPool);
  pool->FreeAll();
  return ACL_SUCCESS;
}

aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  FIND_POOL(pool, memPool);
  ACL_REQUIRE_NOT_NULL(value);
  core::PoolAttrs a = pool->attrs();
  const int id = api::RawEnum(attr);
  uint32_t u32;
  uint64_t u64;
  switch (id) {
    case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
    case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      std::memcpy(&u32, value, sizeof u32);
      if (u32 > 1) return api::RtBadParam(__func__, "value", std::to_string(u32), "a reuse switch is 0 or 1");
      (id == ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES ? a.follow_event_deps
       : id == ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC    ? a.allow_opportunistic
                                                            : a.allow_internal_deps) = u32;
      break;
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
      std::memcpy(&a.release_threshold, value, sizeof u64);
      break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
      std::memcpy(&u64, value, sizeof u64);
      if (u64 != 0) return api::RtBadParam(__func__, "value", std::to_string(u64), "a high-water mark can only be reset to 0");
      if (id == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH) a.reserved_high = pool->reserved();
      else a.used_high = pool->used();
      break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
      return api::RtBadParam(__func__, "attr", std::to_string(id), "the attribute is read-only");
    default:
      return api::RtBadParam(__func__, "attr", std::to_string(id), "an aclrtMemPoolAttr");
  }
  pool->set_attrs(a);
  return ACL_SUCCESS;
}

aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  FIND_POOL(pool, memPool);
  ACL_REQUIRE_NOT_NULL(value);
  const core::PoolAttrs a = pool->attrs();
  const int id = api::RawEnum(attr);
  uint32_t u32 = 0;
  uint64_t u64 = 0;
  switch (id) {
    case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES: u32 = a.follow_event_deps; break;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC: u32 = a.allow_opportunistic; break;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES: u32 = a.allow_internal_deps; break;
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: u64 = a.release_threshold; break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: u64 = pool->reserved(); break;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: u64 = a.reserved_high; break;
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: u64 = pool->used(); break;
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: u64 = a.used_high; break;
    default:
      return api::RtBadParam(__func__, "attr", std::to_string(id), "an aclrtMemPoolAttr");
  }
  if (id <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES)
    std::memcpy(value, &u32, sizeof u32);
  else
    std::memcpy(value, &u64, sizeof u64);
  return ACL_SUCCESS;
}

aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_REQUIRE_NOT_NULL(memPool);
  ACL_REQUIRE_NOT_NULL(stream);
  if (size == 0) return ACL_SUCCESS;
  FIND_POOL(pool, memPool);
  ACL_RESOLVE_STREAM(s, stream);
  if (s->device_id() != pool->device_id())
    return api::RtBadParam(__func__, "stream", api::Hex(stream),
                           "the stream belongs to device " + std::to_string(s->device_id()) + ", the pool to device " +
                               std::to_string(pool->device_id()));
  auto p = pool->Malloc(size, s);
  if (!p.ok()) return api::Fail(__func__, p.status());
  *ptr = p.value();
  return ACL_SUCCESS;
}

aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(ptr);
  ACL_RESOLVE_STREAM(s, stream);
  auto pool = core::MemPools::Get().Owning(ptr);
  if (!pool)
    return api::RtBadParam(__func__, "ptr", api::Hex(ptr), "not an address aclrtMemPoolMallocAsync returned (or freed already)");
  ACL_REQUIRE_OK(pool->Free(ptr, s));
  return ACL_SUCCESS;
}

aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
  FIND_POOL(pool, memPool);
  pool->TrimTo(minBytesToKeep);
  return ACL_SUCCESS;
}

}  // extern "C"
