// User allocators (acl/acl_rt_allocator.h, acl-api-ext.md §7.1).
//
// A descriptor is a small record of the user's allocator object and
// callbacks. aclrtAllocatorRegister copies it into a process-wide table keyed
// by the stream handle (last registration wins); GetByStream returns the copy
// and the descriptor handle it was made from (which may have been destroyed
// since: the handle is only handed back, never dereferenced).
//
// Where the runtime calls the allocator: CANN uses it for the workspace of
// single-operator execution and dynamic-shape model inference, neither of
// which simnpu's runtime performs, so the runtime itself never calls the
// callbacks (as in the S50 flow); the table is there for frameworks that
// look the registration up.
//
// Lock order: the table's mutex and the descriptor registry's are leaves.
#include <map>
#include <mutex>

#include "api/api_common.h"
#include "acl/acl_rt_allocator.h"
#include "core/handle_registry.h"

using namespace simnpu;

namespace {

struct AllocatorDesc {
  aclrtAllocator obj = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc addr = nullptr;
};

core::HandleRegistry<AllocatorDesc>& Descs() {
  static auto* r = new core::HandleRegistry<AllocatorDesc>();
  return *r;
}

struct Registration {
  aclrtAllocatorDesc handle;
  AllocatorDesc copy;
};

struct Table {
  std::mutex mu;
  std::map<const void*, Registration> by_stream;  // GUARDED_BY(mu)
};
Table& Registrations() {
  static auto* t = new Table();
  return *t;
}

// A descriptor argument: NULL or not a live descriptor -> 100000.
#define FIND_DESC(var, h)                                                                 \
  ACL_REQUIRE_NOT_NULL(h);                                                                \
  auto var = Descs().Find(h);                                                             \
  if (!var) return api::BadParam(__func__, #h, api::Hex(h), "a descriptor from aclrtAllocatorCreateDesc")

}  // namespace

extern "C" {

aclrtAllocatorDesc aclrtAllocatorCreateDesc(void) {
  auto d = std::make_shared<AllocatorDesc>();
  Descs().Add(d);
  return d.get();
}

aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc) {
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  if (!Descs().Remove(allocatorDesc))
    return api::BadParam(__func__, "allocatorDesc", api::Hex(allocatorDesc), "a descriptor from aclrtAllocatorCreateDesc");
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator) {
  FIND_DESC(d, allocatorDesc);
  ACL_REQUIRE_NOT_NULL(allocator);
  d->obj = allocator;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func) {
  FIND_DESC(d, allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  d->alloc = func;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func) {
  FIND_DESC(d, allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  d->free = func;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func) {
  FIND_DESC(d, allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  d->advise = func;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                     aclrtAllocatorGetAddrFromBlockFunc func) {
  FIND_DESC(d, allocatorDesc);
  ACL_REQUIRE_NOT_NULL(func);
  d->addr = func;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc) {
  if (stream == nullptr)
    return api::BadParam(__func__, "stream", "NULL", "a created stream (the default stream cannot have an allocator)");
  FIND_DESC(d, allocatorDesc);
  if (!d->obj || !d->alloc || !d->free || !d->addr)
    return api::BadParam(__func__, "allocatorDesc", api::Hex(allocatorDesc),
                         "a descriptor with the allocator object and the alloc, free and get-address functions set");
  if (!core::Runtime::Get().streams().Find(stream)) return api::InvalidHandle(__func__, "stream", stream);
  std::lock_guard<std::mutex> g(Registrations().mu);
  Registrations().by_stream[stream] = Registration{allocatorDesc, *d};
  return ACL_SUCCESS;
}

aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
                                   aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
                                   aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                   aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc) {
  ACL_REQUIRE_NOT_NULL(stream);
  ACL_REQUIRE_NOT_NULL(allocatorDesc);
  Registration r;
  {
    std::lock_guard<std::mutex> g(Registrations().mu);
    auto it = Registrations().by_stream.find(stream);
    if (it == Registrations().by_stream.end())
      return api::BadParam(__func__, "stream", api::Hex(stream), "a stream with a registered allocator");
    r = it->second;
  }
  *allocatorDesc = r.handle;
  if (allocator) *allocator = r.copy.obj;
  if (allocFunc) *allocFunc = r.copy.alloc;
  if (freeFunc) *freeFunc = r.copy.free;
  if (allocAdviseFunc) *allocAdviseFunc = r.copy.advise;
  if (getAddrFromBlockFunc) *getAddrFromBlockFunc = r.copy.addr;
  return ACL_SUCCESS;
}

aclError aclrtAllocatorUnregister(aclrtStream stream) {
  ACL_REQUIRE_NOT_NULL(stream);
  std::lock_guard<std::mutex> g(Registrations().mu);
  Registrations().by_stream.erase(stream);
  return ACL_SUCCESS;
}

}  // extern "C"
