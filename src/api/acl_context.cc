// Context entry points.
#include "dfx/trace/trace.h"
#include "api/api_common.h"
#include "core/runtime.h"

using namespace simnpu;

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(context);
  auto dev = core::Runtime::Get().GetDevice(deviceId);
  if (!dev.ok()) return api::Fail(__func__, dev.status());
  auto ctx = dev.value()->CreateContext();
  core::Runtime::Get().set_current(ctx);
  *context = ctx.get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  SIMNPU_TRACE_API();
  ACL_REQUIRE_NOT_NULL(context);
  ACL_FIND_HANDLE(ctx, core::Runtime::Get().contexts(), context, "context");
  if (ctx->primary())
    return api::RtBadParam(__func__, "context", api::Hex(context),
                           "the default context of a device is released by aclrtResetDevice");
  ctx->device()->DestroyContext(ctx.get());
  // Not dead code: if it was this thread's current context, current() drops
  // the thread's reference, so the context and its default stream are freed
  // here rather than at the thread's next call. (Without it the next stream
  // created gets the memory, and so the handle, of a stream destroyed above:
  // ApiContextTest.DestroyContextDestroysItsStreams then fails.)
  (void)core::Runtime::Get().current();
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  ACL_REQUIRE_NOT_NULL(context);
  auto ctx = core::Runtime::Get().contexts().Find(context);
  if (!ctx || ctx->destroyed()) return api::InvalidHandle(__func__, "context", context);
  core::Runtime::Get().set_current(ctx);
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  ACL_REQUIRE_NOT_NULL(context);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  *context = ctx.value().get();
  return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  ACL_REQUIRE_NOT_NULL(stream);
  auto ctx = core::Runtime::Get().RequireCurrent();
  if (!ctx.ok()) return api::Fail(__func__, ctx.status());
  *stream = ctx.value()->default_stream().get();
  return ACL_SUCCESS;
}

}  // extern "C"
