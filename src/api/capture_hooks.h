// What the other entry points ask of the model-runtime-instance layer
// (acl_model_ri.cc): record, wait and reset events on a stream that records
// (captured or bound to a model), refuse synchronising a captured stream,
// and refuse "unsafe" synchronous calls while a capture forbids them.
#ifndef SIMNPU_API_CAPTURE_HOOKS_H_
#define SIMNPU_API_CAPTURE_HOOKS_H_

#include <cstdint>
#include <memory>

#include "acl/acl.h"
#include "core/event.h"
#include "core/stream.h"

namespace simnpu::api {

// Each returns true when the call was handled by the model layer (the stream
// records, or, for a wait, joins a capture); *rc is then the call's result.
bool CaptureRecordEvent(const char* func, core::Stream* s, const std::shared_ptr<core::Event>& e, bool external,
                        aclError* rc);
bool CaptureWaitEvent(const char* func, core::Stream* s, const std::shared_ptr<core::Event>& e, int32_t timeout_ms,
                      bool external, aclError* rc);
bool CaptureResetEvent(const char* func, core::Stream* s, const std::shared_ptr<core::Event>& e, aclError* rc);

// 107027 (and the capture is invalidated) when s takes part in a capture.
aclError RefuseCapturedStream(const char* func, core::Stream* s);
// 107028 (and the capture is invalidated) when e was recorded in a capture in progress.
aclError RefuseCapturedEvent(const char* func, const core::Event* e);
// 107027 when a capture is active on the device.
aclError RefuseCapturingDevice(const char* func, int device_id);
// 107041 when the calling thread may not make an unsafe synchronous call now.
aclError RefuseUnsafeCall(const char* func);

}  // namespace simnpu::api

#endif  // SIMNPU_API_CAPTURE_HOOKS_H_
