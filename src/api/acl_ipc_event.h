// What the event entry points may do with an IPC event (created with
// ACL_EVENT_IPC, or opened with aclrtIpcOpenEventHandle), per the reference
// (acl-api-ext.md 3.3): record, stream wait, synchronize, query status and
// destroy work as for any event; reset, query, wait-status query, elapsed
// time, timestamp and event id are refused, and so is recording or waiting
// on a stream that records into a task graph (a capture or a bound model).
// Every refusal is ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000), what the real
// runtime answers, with a message naming the call.
#ifndef SIMNPU_API_ACL_IPC_EVENT_H_
#define SIMNPU_API_ACL_IPC_EVENT_H_

#include "acl/acl.h"
#include "core/event.h"
#include "core/stream.h"

namespace simnpu::api {

// 207000 when e is an IPC event (the calls it is forbidden in), else 0.
aclError RefuseIpcEvent(const char* func, const core::Event* e);
// 207000 when e is an IPC event and s records into a task graph, else 0.
aclError RefuseIpcEventInGraph(const char* func, const core::Event* e, const core::Stream* s);

}  // namespace simnpu::api

#endif  // SIMNPU_API_ACL_IPC_EVENT_H_
