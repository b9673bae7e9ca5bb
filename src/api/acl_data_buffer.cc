// Data buffers (aclDataBuffer): a pointer and a size the caller describes
// memory with. Every buffer handed out is in a handle registry, so a buffer
// destroyed twice, one never created or one from elsewhere is reported
// (107017 from the calls that return a code; NULL / 0 and a message from the
// getters) instead of being freed twice or read after free.
//
// Decisions where the reference is silent: aclCreateDataBuffer(NULL, n) with
// n > 0 describes no memory and returns NULL (an empty buffer, NULL with
// size 0, is allowed); aclUpdateDataBuffer applies the same rule.
#include <memory>

#include "api/api_common.h"
#include "core/handle_registry.h"

using namespace simnpu;

struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

core::HandleRegistry<aclDataBuffer>& Buffers() {
  static auto* r = new core::HandleRegistry<aclDataBuffer>();
  return *r;
}

// The buffer behind h, or nullptr after queuing a message (getters report
// failure by their return value; the message says why).
std::shared_ptr<aclDataBuffer> Lookup(const char* func, const aclDataBuffer* h) {
  if (h == nullptr) {
    api::NullParam(func, "dataBuffer");
    return nullptr;
  }
  auto b = Buffers().Find(h);
  if (!b) api::InvalidHandle(func, "data buffer", h);
  return b;
}

}  // namespace

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  if (data == nullptr && size != 0) {
    api::BadParam(__func__, "data", "NULL", "a buffer address when size (" + std::to_string(size) + ") is not 0");
    return nullptr;
  }
  auto b = std::make_shared<aclDataBuffer>(aclDataBuffer{data, size});
  Buffers().Add(b);
  return b.get();
}

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  ACL_REQUIRE_NOT_NULL(dataBuffer);
  if (!Buffers().Remove(dataBuffer)) return api::InvalidHandle(__func__, "data buffer", dataBuffer);
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  ACL_REQUIRE_NOT_NULL(dataBuffer);
  ACL_FIND_HANDLE(b, Buffers(), dataBuffer, "data buffer");
  if (data == nullptr && size != 0)
    return api::BadParam(__func__, "data", "NULL", "a buffer address when size (" + std::to_string(size) + ") is not 0");
  b->data = data;
  b->size = size;
  return ACL_SUCCESS;
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  auto b = Lookup(__func__, dataBuffer);
  return b ? b->data : nullptr;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) {
  auto b = Lookup(__func__, dataBuffer);
  return b ? static_cast<uint32_t>(b->size) : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  auto b = Lookup(__func__, dataBuffer);
  return b ? b->size : 0;
}

}  // extern "C"
