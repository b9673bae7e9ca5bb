// Misuse rows for the families added after the first table: IPC memory,
// IPC events and notifies, VMM, task graphs (aclmdlRI*), memory pools, TDT
// channels and queues, and the aclnn tensor/executor layer. Codes as in
// misuse_rows.cc (acl-api.md §2, acl-api-ext.md §3-§5, §8, §11); aclnn:
// 161001 ACLNN_ERR_PARAM_NULLPTR, 161002 ACLNN_ERR_PARAM_INVALID.
// A row that needs an object of its family makes it inside its call (the
// fixture of misuse_main.cc has none of these kinds).
#include <cstdint>
#include <cstring>
#include <string>

#include "acl/acl_rt_memory_soma.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_add.h"
#include "misuse.h"

namespace misuse {
namespace {

constexpr int kP = 100000;
constexpr int kRp = 107000;
constexpr int kDev = 107001;
constexpr int kCtx = 107002;
constexpr int kH = 107017;
constexpr int kNs = 207000;
constexpr int kCaptured = 107027;     // ACL_ERROR_RT_STREAM_CAPTURED
constexpr int kNotCaptured = 107029;  // ACL_ERROR_RT_STREAM_NOT_CAPTURED
constexpr int kModelExec = 507011;    // ACL_ERROR_RT_MODEL_EXECUTE
constexpr int kNnNull = 161001;
constexpr int kNnBad = 161002;

// An event created with ACL_EVENT_IPC (NULL if that fails), for the rows of
// the calls the reference forbids on IPC events.
aclrtEvent IpcEventForRows() {
  aclrtEvent e = nullptr;
  return aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC) == 0 ? e : nullptr;
}

#define ROW(level, expected, name, ...) \
  rows.push_back(Row{name, level, expected, [](Fx & f) -> int { (void)f; return (__VA_ARGS__); }})

template <typename E>
E Bad(int v) {
  E e;
  std::memcpy(&e, &v, sizeof e);
  return e;
}

// A key of 200 non-NUL characters (no terminator within 65 bytes).
const char* LongKey() {
  static char k[201];
  std::memset(k, 'k', 200);
  k[200] = '\0';
  return k;
}

aclrtPhysicalMemProp Prop() {
  aclrtPhysicalMemProp p{};
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.memAttr = ACL_HBM_MEM_HUGE;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  return p;
}
constexpr size_t kGran = 2u << 20;

aclrtMemPoolProps PoolProps() {
  aclrtMemPoolProps p;
  std::memset(&p, 0, sizeof p);
  p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  return p;
}

aclrtStream Persistent() {
  aclrtStream s = nullptr;
  return aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT) == ACL_SUCCESS ? s : nullptr;
}

void IpcRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  // aclrtIpcMemGetExportKey
  ROW(D, kP, "aclrtIpcMemGetExportKey: devPtr NULL", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(nullptr, 4096, key, sizeof key, 0);
  }());
  ROW(D, kP, "aclrtIpcMemGetExportKey: key NULL", aclrtIpcMemGetExportKey(f.dev, 4096, nullptr, 65, 0));
  ROW(D, kRp, "aclrtIpcMemGetExportKey: size 0", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 0, key, sizeof key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: len 0", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 4096, key, 0, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: len 2^32 (narrowed to 0)", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 4096, key, size_t{1} << 32, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: flags 2", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 4096, key, sizeof key, 2);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: len 4 (key does not fit)", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 4096, key, 4, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: freed device memory", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.freed_dev, 4096, key, sizeof key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: past the allocation", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.dev, 8192, key, sizeof key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: size wraps", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(static_cast<char*>(f.dev) + 64, SIZE_MAX - 32, key, sizeof key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: pinned host memory", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.pinned, 4096, key, sizeof key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemGetExportKey: program memory", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.host, 4096, key, sizeof key, 0);
  }());
  ROW(kInit, kCtx, "aclrtIpcMemGetExportKey: no context", [&] {
    char key[65];
    return aclrtIpcMemGetExportKey(f.host, 4096, key, sizeof key, 0);
  }());
  // aclrtIpcMemSetImportPid
  ROW(D, kP, "aclrtIpcMemSetImportPid: key NULL", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid(nullptr, &pid, 1);
  }());
  ROW(D, kP, "aclrtIpcMemSetImportPid: pid NULL", aclrtIpcMemSetImportPid("snpm0000", nullptr, 1));
  ROW(D, kRp, "aclrtIpcMemSetImportPid: num 0", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid("snpm0000", &pid, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemSetImportPid: num SIZE_MAX (narrowed to -1)", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid("snpm0000", &pid, SIZE_MAX);
  }());
  ROW(D, kRp, "aclrtIpcMemSetImportPid: empty key", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid("", &pid, 1);
  }());
  ROW(D, kRp, "aclrtIpcMemSetImportPid: key of 200 characters", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid(LongKey(), &pid, 1);
  }());
  ROW(D, kRp, "aclrtIpcMemSetImportPid: key never exported", [&] {
    int32_t pid = 1;
    return aclrtIpcMemSetImportPid("snpm00000123456789abcdef", &pid, 1);
  }());
  ROW(D, kRp, "aclrtIpcMemSetImportPid: key closed", [&] {
    char key[65];
    int32_t pid = 1;
    if (aclrtIpcMemGetExportKey(f.dev, 4096, key, sizeof key, 0) || aclrtIpcMemClose(key)) return -1;
    return aclrtIpcMemSetImportPid(key, &pid, 1);
  }());
  // aclrtIpcMemImportByKey
  ROW(D, kP, "aclrtIpcMemImportByKey: devPtr NULL", aclrtIpcMemImportByKey(nullptr, "snpm0000", 0));
  ROW(D, kP, "aclrtIpcMemImportByKey: key NULL", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, nullptr, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: flags 2", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, "snpm0000", 2);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: empty key", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, "", 0);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: key of 200 characters", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, LongKey(), 0);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: key never exported", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, "snpm00000123456789abcdef", 0);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: own key (same process)", [&] {
    char key[65];
    void* p = nullptr;
    if (aclrtIpcMemGetExportKey(f.dev, 4096, key, sizeof key, 1)) return -1;
    return aclrtIpcMemImportByKey(&p, key, 0);
  }());
  ROW(D, kRp, "aclrtIpcMemImportByKey: a notify's key", [&] {
    char key[65];
    void* p = nullptr;
    if (aclrtNotifyGetExportKey(f.notify, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)) return -1;
    return aclrtIpcMemImportByKey(&p, key, 0);
  }());
  ROW(kInit, kCtx, "aclrtIpcMemImportByKey: no context", [&] {
    void* p = nullptr;
    return aclrtIpcMemImportByKey(&p, "snpm0000", 0);
  }());
  // aclrtIpcMemClose
  ROW(D, kP, "aclrtIpcMemClose: NULL", aclrtIpcMemClose(nullptr));
  ROW(D, kRp, "aclrtIpcMemClose: empty key", aclrtIpcMemClose(""));
  ROW(D, kRp, "aclrtIpcMemClose: key of 200 characters", aclrtIpcMemClose(LongKey()));
  ROW(D, kRp, "aclrtIpcMemClose: key never exported", aclrtIpcMemClose("snpm00000123456789abcdef"));
  ROW(D, kRp, "aclrtIpcMemClose: twice", [&] {
    char key[65];
    if (aclrtIpcMemGetExportKey(f.dev, 4096, key, sizeof key, 0) || aclrtIpcMemClose(key)) return -1;
    return aclrtIpcMemClose(key);
  }());
  ROW(D, kRp, "aclrtIpcMemClose: key of freed memory", [&] {
    char key[65];
    void* p = nullptr;
    if (aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtIpcMemGetExportKey(p, 4096, key, sizeof key, 0) ||
        aclrtFree(p))
      return -1;
    return aclrtIpcMemClose(key);
  }());
  ROW(D, kP, "aclrtDeviceGetBareTgid: NULL", aclrtDeviceGetBareTgid(nullptr));

  // IPC events
  ROW(D, kP, "aclrtIpcGetEventHandle: event NULL", [&] {
    aclrtIpcEventHandle h;
    return aclrtIpcGetEventHandle(nullptr, &h);
  }());
  ROW(D, kP, "aclrtIpcGetEventHandle: handle NULL", aclrtIpcGetEventHandle(f.event, nullptr));
  ROW(D, kH, "aclrtIpcGetEventHandle: destroyed event", [&] {
    aclrtIpcEventHandle h;
    return aclrtIpcGetEventHandle(f.dead_event, &h);
  }());
  ROW(D, kH, "aclrtIpcGetEventHandle: never created", [&] {
    aclrtIpcEventHandle h;
    return aclrtIpcGetEventHandle(f.Junk(), &h);
  }());
  ROW(D, kRp, "aclrtIpcGetEventHandle: event without ACL_EVENT_IPC", [&] {
    aclrtIpcEventHandle h;
    return aclrtIpcGetEventHandle(f.event, &h);
  }());
  ROW(D, kRp, "aclrtCreateEventExWithFlag: ACL_EVENT_IPC with another flag", [&] {
    aclrtEvent e = nullptr;
    return aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC);
  }());
  ROW(D, kP, "aclrtIpcOpenEventHandle: event NULL", [&] {
    aclrtIpcEventHandle h;
    std::memset(&h, 0, sizeof h);
    return aclrtIpcOpenEventHandle(h, nullptr);
  }());
  ROW(D, kRp, "aclrtIpcOpenEventHandle: all-zero handle", [&] {
    aclrtIpcEventHandle h;
    std::memset(&h, 0, sizeof h);
    aclrtEvent e = nullptr;
    return aclrtIpcOpenEventHandle(h, &e);
  }());
  ROW(D, kRp, "aclrtIpcOpenEventHandle: all-ones handle", [&] {
    aclrtIpcEventHandle h;
    std::memset(&h, 0xff, sizeof h);
    aclrtEvent e = nullptr;
    return aclrtIpcOpenEventHandle(h, &e);
  }());
  ROW(D, kRp, "aclrtIpcOpenEventHandle: handle of a destroyed export", [&] {
    aclrtEvent e = nullptr;
    aclrtIpcEventHandle h;
    std::memset(&h, 0, sizeof h);
    if (aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC) || aclrtIpcGetEventHandle(e, &h)) return -1;
    uint64_t v = 0;
    std::memcpy(&v, h.reserved, sizeof v);
    v += 1000003;  // a neighbour nobody exported
    std::memcpy(h.reserved, &v, sizeof v);
    aclrtEvent opened = nullptr;
    return aclrtIpcOpenEventHandle(h, &opened);
  }());
  // the calls the reference forbids on an IPC event (acl-api-ext.md §3)
  ROW(D, kNs, "aclrtResetEvent: an IPC event", [&] {
    aclrtEvent e = IpcEventForRows();
    return e ? aclrtResetEvent(e, f.stream) : -1;
  }());
  ROW(D, kNs, "aclrtEventElapsedTime: an IPC event", [&] {
    aclrtEvent e = IpcEventForRows();
    float ms = 0;
    return e ? aclrtEventElapsedTime(&ms, e, e) : -1;
  }());
  ROW(D, kNs, "aclrtEventGetTimestamp: an IPC event", [&] {
    aclrtEvent e = IpcEventForRows();
    uint64_t ts = 0;
    return e ? aclrtEventGetTimestamp(e, &ts) : -1;
  }());
  ROW(D, kNs, "aclrtQueryEventWaitStatus: an IPC event", [&] {
    aclrtEvent e = IpcEventForRows();
    aclrtEventWaitStatus ws;
    return e ? aclrtQueryEventWaitStatus(e, &ws) : -1;
  }());
  ROW(D, kNs, "aclrtGetEventId: an IPC event", [&] {
    aclrtEvent e = IpcEventForRows();
    uint32_t id = 0;
    return e ? aclrtGetEventId(e, &id) : -1;
  }());
  ROW(kInit, kCtx, "aclrtIpcOpenEventHandle: no context", [&] {
    aclrtIpcEventHandle h;
    std::memset(&h, 0, sizeof h);
    aclrtEvent e = nullptr;
    return aclrtIpcOpenEventHandle(h, &e);
  }());

  // IPC notifies
  ROW(D, kP, "aclrtNotifyGetExportKey: notify NULL", [&] {
    char key[65];
    return aclrtNotifyGetExportKey(nullptr, key, sizeof key, 0);
  }());
  ROW(D, kP, "aclrtNotifyGetExportKey: key NULL", aclrtNotifyGetExportKey(f.notify, nullptr, 65, 0));
  ROW(D, kRp, "aclrtNotifyGetExportKey: len 0", [&] {
    char key[65];
    return aclrtNotifyGetExportKey(f.notify, key, 0, 0);
  }());
  ROW(D, kRp, "aclrtNotifyGetExportKey: flags 1", [&] {
    char key[65];
    return aclrtNotifyGetExportKey(f.notify, key, sizeof key, 1);
  }());
  ROW(D, kRp, "aclrtNotifyGetExportKey: len 4 (key does not fit)", [&] {
    char key[65];
    return aclrtNotifyGetExportKey(f.notify, key, 4, 0);
  }());
  ROW(D, kH, "aclrtNotifyGetExportKey: destroyed notify", [&] {
    char key[65];
    return aclrtNotifyGetExportKey(f.dead_notify, key, sizeof key, 0);
  }());
  ROW(D, kP, "aclrtNotifySetImportPid: notify NULL", [&] {
    int32_t pid = 1;
    return aclrtNotifySetImportPid(nullptr, &pid, 1);
  }());
  ROW(D, kP, "aclrtNotifySetImportPid: pid NULL", aclrtNotifySetImportPid(f.notify, nullptr, 1));
  ROW(D, kRp, "aclrtNotifySetImportPid: num 0", [&] {
    int32_t pid = 1;
    return aclrtNotifySetImportPid(f.notify, &pid, 0);
  }());
  ROW(D, kRp, "aclrtNotifySetImportPid: notify never exported", [&] {
    int32_t pid = 1;
    return aclrtNotifySetImportPid(f.notify, &pid, 1);
  }());
  ROW(D, kH, "aclrtNotifySetImportPid: destroyed notify", [&] {
    int32_t pid = 1;
    return aclrtNotifySetImportPid(f.dead_notify, &pid, 1);
  }());
  ROW(D, kP, "aclrtNotifyImportByKey: notify NULL", aclrtNotifyImportByKey(nullptr, "snpn0000", 0));
  ROW(D, kP, "aclrtNotifyImportByKey: key NULL", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, nullptr, 0);
  }());
  ROW(D, kRp, "aclrtNotifyImportByKey: flags 4", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, "snpn0000", 4);
  }());
  ROW(D, kNs, "aclrtNotifyImportByKey: flag 1 (device download, no MC2)", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, "snpn0000", 1);
  }());
  ROW(D, kRp, "aclrtNotifyImportByKey: empty key", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, "", 0);
  }());
  ROW(D, kRp, "aclrtNotifyImportByKey: key of 200 characters", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, LongKey(), 0);
  }());
  ROW(D, kRp, "aclrtNotifyImportByKey: key never exported", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, "snpn00000123456789abcdef", 0);
  }());
  ROW(D, kRp, "aclrtNotifyImportByKey: an IPC memory key", [&] {
    char key[65];
    aclrtNotify n = nullptr;
    if (aclrtIpcMemGetExportKey(f.dev, 4096, key, sizeof key, 1)) return -1;
    return aclrtNotifyImportByKey(&n, key, 0);
  }());
  ROW(kInit, kCtx, "aclrtNotifyImportByKey: no context", [&] {
    aclrtNotify n = nullptr;
    return aclrtNotifyImportByKey(&n, "snpn0000", 0);
  }());
}

void VmmRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  // aclrtMemGetAllocationGranularity
  ROW(D, kP, "aclrtMemGetAllocationGranularity: prop NULL", [&] {
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: granularity NULL", [&] {
    aclrtPhysicalMemProp p = Prop();
    return aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: option 2", [&] {
    aclrtPhysicalMemProp p = Prop();
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(&p, Bad<aclrtMemGranularityOptions>(2), &g);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: handleType 1", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.handleType = Bad<aclrtMemHandleType>(1);
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: location MANAGED", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.location.type = Bad<aclrtMemLocationType>(3);
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: memAttr 0 (generic DDR)", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.memAttr = Bad<aclrtMemAttr>(0);
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  }());
  ROW(D, kP, "aclrtMemGetAllocationGranularity: DEVICE with a DDR attribute", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.memAttr = Bad<aclrtMemAttr>(2);
    size_t g = 0;
    return aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g);
  }());
  // aclrtMallocPhysical / aclrtFreePhysical
  ROW(D, kP, "aclrtMallocPhysical: handle NULL", [&] {
    aclrtPhysicalMemProp p = Prop();
    return aclrtMallocPhysical(nullptr, kGran, &p, 0);
  }());
  ROW(D, kP, "aclrtMallocPhysical: prop NULL", [&] {
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, kGran, nullptr, 0);
  }());
  ROW(D, kP, "aclrtMallocPhysical: size 0", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, 0, &p, 0);
  }());
  ROW(D, kP, "aclrtMallocPhysical: flags 1", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, kGran, &p, 1);
  }());
  ROW(D, kP, "aclrtMallocPhysical: size not a multiple of the granularity", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, kGran + 4096, &p, 0);
  }());
  ROW(D, kP, "aclrtMallocPhysical: allocationType 1", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.allocationType = Bad<aclrtMemAllocationType>(1);
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, kGran, &p, 0);
  }());
  ROW(D, kDev, "aclrtMallocPhysical: device 99", [&] {
    aclrtPhysicalMemProp p = Prop();
    p.location.id = 99;
    aclrtDrvMemHandle h = nullptr;
    return aclrtMallocPhysical(&h, kGran, &p, 0);
  }());
  ROW(D, kP, "aclrtFreePhysical: NULL", aclrtFreePhysical(nullptr));
  ROW(D, kRp, "aclrtFreePhysical: never created", aclrtFreePhysical(f.Junk()));
  ROW(D, kRp, "aclrtFreePhysical: twice", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtFreePhysical(h)) return -1;
    return aclrtFreePhysical(h);
  }());
  // aclrtReserveMemAddress / aclrtReleaseMemAddress
  ROW(D, kP, "aclrtReserveMemAddress: virPtr NULL", aclrtReserveMemAddress(nullptr, kGran, 0, nullptr, 0));
  ROW(D, kP, "aclrtReserveMemAddress: size 0", [&] {
    void* v = nullptr;
    return aclrtReserveMemAddress(&v, 0, 0, nullptr, 0);
  }());
  ROW(D, kP, "aclrtReserveMemAddress: flags 2", [&] {
    void* v = nullptr;
    return aclrtReserveMemAddress(&v, kGran, 0, nullptr, 2);
  }());
  ROW(D, kP, "aclrtReserveMemAddress: alignment 4096 (reserved)", [&] {
    void* v = nullptr;
    return aclrtReserveMemAddress(&v, kGran, 4096, nullptr, 0);
  }());
  ROW(kInit, kCtx, "aclrtReserveMemAddress: no context", [&] {
    void* v = nullptr;
    return aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0);
  }());
  ROW(D, kP, "aclrtReleaseMemAddress: NULL", aclrtReleaseMemAddress(nullptr));
  ROW(D, kRp, "aclrtReleaseMemAddress: device memory from aclrtMalloc", aclrtReleaseMemAddress(f.dev));
  ROW(D, kRp, "aclrtReleaseMemAddress: twice", [&] {
    void* v = nullptr;
    if (aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0) || aclrtReleaseMemAddress(v)) return -1;
    return aclrtReleaseMemAddress(v);
  }());
  ROW(D, kRp, "aclrtReleaseMemAddress: still mapped", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0) ||
        aclrtMapMem(v, kGran, 0, h, 0))
      return -1;
    return aclrtReleaseMemAddress(v);
  }());
  // aclrtMapMem / aclrtUnmapMem
  ROW(D, kP, "aclrtMapMem: virPtr NULL", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMapMem(nullptr, kGran, 0, h, 0);
  }());
  ROW(D, kP, "aclrtMapMem: handle NULL", [&] {
    void* v = nullptr;
    if (aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(v, kGran, 0, nullptr, 0);
  }());
  ROW(D, kP, "aclrtMapMem: size 0", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(v, 0, 0, h, 0);
  }());
  ROW(D, kP, "aclrtMapMem: flags 1", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(v, kGran, 0, h, 1);
  }());
  ROW(D, kRp, "aclrtMapMem: offset 4096", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(v, kGran, 4096, h, 0);
  }());
  ROW(D, kRp, "aclrtMapMem: size differs from the handle's", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, 2 * kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(v, 2 * kGran, 0, h, 0);
  }());
  ROW(D, kRp, "aclrtMapMem: address never reserved", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMapMem(f.host, kGran, 0, h, 0);
  }());
  ROW(D, kRp, "aclrtMapMem: past the reserved range", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtMapMem(static_cast<char*>(v) + kGran, kGran, 0, h, 0);
  }());
  ROW(D, kRp, "aclrtMapMem: over an existing mapping", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle a = nullptr;
    aclrtDrvMemHandle b = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&a, kGran, &p, 0) || aclrtMallocPhysical(&b, kGran, &p, 0) ||
        aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0) || aclrtMapMem(v, kGran, 0, a, 0))
      return -1;
    return aclrtMapMem(v, kGran, 0, b, 0);
  }());
  ROW(D, kRp, "aclrtMapMem: freed handle", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtFreePhysical(h) ||
        aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0))
      return -1;
    return aclrtMapMem(v, kGran, 0, h, 0);
  }());
  ROW(D, kP, "aclrtUnmapMem: NULL", aclrtUnmapMem(nullptr));
  ROW(D, kRp, "aclrtUnmapMem: not a mapping", aclrtUnmapMem(f.dev));
  ROW(D, kRp, "aclrtUnmapMem: reserved but never mapped", [&] {
    void* v = nullptr;
    if (aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0)) return -1;
    return aclrtUnmapMem(v);
  }());
  ROW(D, kRp, "aclrtUnmapMem: twice", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0) ||
        aclrtMapMem(v, kGran, 0, h, 0) || aclrtUnmapMem(v))
      return -1;
    return aclrtUnmapMem(v);
  }());
  ROW(D, kRp, "aclrtMemcpy: into an unmapped VMM range", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, kGran, 0, nullptr, 0) ||
        aclrtMapMem(v, kGran, 0, h, 0) || aclrtUnmapMem(v))
      return -1;
    return aclrtMemcpy(v, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE);
  }());
  ROW(D, kRp, "aclrtMemcpy: past a VMM mapping", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    void* v = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtReserveMemAddress(&v, 2 * kGran, 0, nullptr, 0) ||
        aclrtMapMem(v, kGran, 0, h, 0))
      return -1;
    return aclrtMemcpy(static_cast<char*>(v) + kGran - 64, 128, f.host, 128, ACL_MEMCPY_HOST_TO_DEVICE);
  }());
  ROW(D, kRp, "aclrtMemSetAccess: virPtr NULL", [&] {
    aclrtMemAccessDesc d{};
    return aclrtMemSetAccess(nullptr, kGran, &d, 1);
  }());
  ROW(D, kRp, "aclrtMemSetAccess: not a mapping", [&] {
    aclrtMemAccessDesc d{};
    return aclrtMemSetAccess(f.dev, 4096, &d, 1);
  }());
  // shareable handles
  ROW(D, kP, "aclrtMemExportToShareableHandle: handle NULL", [&] {
    uint64_t s = 0;
    return aclrtMemExportToShareableHandle(nullptr, ACL_MEM_HANDLE_TYPE_NONE, 0, &s);
  }());
  ROW(D, kP, "aclrtMemExportToShareableHandle: out NULL", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, nullptr);
  }());
  ROW(D, kP, "aclrtMemExportToShareableHandle: handleType 1", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    uint64_t s = 0;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMemExportToShareableHandle(h, Bad<aclrtMemHandleType>(1), 0, &s);
  }());
  ROW(D, kRp, "aclrtMemExportToShareableHandle: flags 2", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    uint64_t s = 0;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &s);
  }());
  ROW(D, kRp, "aclrtMemExportToShareableHandle: twice", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    uint64_t s = 0;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &s))
      return -1;
    return aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &s);
  }());
  ROW(D, kRp, "aclrtMemExportToShareableHandle: never created", [&] {
    uint64_t s = 0;
    return aclrtMemExportToShareableHandle(f.Junk(), ACL_MEM_HANDLE_TYPE_NONE, 0, &s);
  }());
  ROW(D, kRp, "aclrtMemExportToShareableHandleV2: shareType 0", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    uint64_t s = 0;
    if (aclrtMallocPhysical(&h, kGran, &p, 0)) return -1;
    return aclrtMemExportToShareableHandleV2(h, 0, Bad<aclrtMemSharedHandleType>(0), &s);
  }());
  ROW(D, kP, "aclrtMemImportFromShareableHandle: handle NULL", aclrtMemImportFromShareableHandle(1, 0, nullptr));
  ROW(D, kDev, "aclrtMemImportFromShareableHandle: device 99", [&] {
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandle(1, 99, &h);
  }());
  ROW(D, kRp, "aclrtMemImportFromShareableHandle: never exported", [&] {
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandle(0x0123456789abcdefull, 0, &h);
  }());
  ROW(D, kRp, "aclrtMemImportFromShareableHandle: 0", [&] {
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandle(0, 0, &h);
  }());
  ROW(D, kRp, "aclrtMemImportFromShareableHandle: own export (same process)", [&] {
    aclrtPhysicalMemProp p = Prop();
    aclrtDrvMemHandle h = nullptr;
    uint64_t s = 0;
    if (aclrtMallocPhysical(&h, kGran, &p, 0) || aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &s))
      return -1;
    aclrtDrvMemHandle in = nullptr;
    return aclrtMemImportFromShareableHandle(s, 0, &in);
  }());
  ROW(D, kP, "aclrtMemImportFromShareableHandleV2: shareableHandle NULL", [&] {
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandleV2(nullptr, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h);
  }());
  ROW(D, kP, "aclrtMemImportFromShareableHandleV2: flags 1", [&] {
    uint64_t s = 1;
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandleV2(&s, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &h);
  }());
  ROW(D, kRp, "aclrtMemImportFromShareableHandleV2: shareType 3", [&] {
    uint64_t s = 1;
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandleV2(&s, Bad<aclrtMemSharedHandleType>(3), 0, &h);
  }());
  ROW(D, kRp, "aclrtMemImportFromShareableHandleV2: fabric handle nobody exported", [&] {
    aclrtMemFabricHandle fh;
    std::memset(&fh, 0x7e, sizeof fh);
    aclrtDrvMemHandle h = nullptr;
    return aclrtMemImportFromShareableHandleV2(&fh, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h);
  }());
  ROW(D, kP, "aclrtMemSetPidToShareableHandle: pid NULL", aclrtMemSetPidToShareableHandle(1, nullptr, 1));
  ROW(D, kP, "aclrtMemSetPidToShareableHandle: pidNum 0", [&] {
    int32_t pid = 1;
    return aclrtMemSetPidToShareableHandle(1, &pid, 0);
  }());
  ROW(D, kRp, "aclrtMemSetPidToShareableHandle: never exported", [&] {
    int32_t pid = 1;
    return aclrtMemSetPidToShareableHandle(0x0123456789abcdefull, &pid, 1);
  }());
}

void ModelRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  ROW(D, kP, "aclmdlRIBuildBegin: modelRI NULL", aclmdlRIBuildBegin(nullptr, 0));
  ROW(D, kP, "aclmdlRIBuildBegin: flag 1", [&] {
    aclmdlRI m = nullptr;
    return aclmdlRIBuildBegin(&m, 1);
  }());
  ROW(kInit, kCtx, "aclmdlRIBuildBegin: no context", [&] {
    aclmdlRI m = nullptr;
    return aclmdlRIBuildBegin(&m, 0);
  }());
  ROW(D, kP, "aclmdlRIBindStream: modelRI NULL", aclmdlRIBindStream(nullptr, f.stream, 0));
  ROW(D, kH, "aclmdlRIBindStream: never created", aclmdlRIBindStream(f.Junk(), f.stream, 0));
  ROW(D, kH, "aclmdlRIBindStream: destroyed model", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIDestroy(m)) return -1;
    return aclmdlRIBindStream(m, Persistent(), 0);
  }());
  ROW(D, kP, "aclmdlRIBindStream: stream NULL", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIBindStream(m, nullptr, 0);
  }());
  ROW(D, kH, "aclmdlRIBindStream: destroyed stream", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIBindStream(m, f.dead_stream, 0);
  }());
  ROW(D, kRp, "aclmdlRIBindStream: stream not persistent", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIBindStream(m, f.stream, 0);
  }());
  ROW(D, kRp, "aclmdlRIBindStream: flag 5", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIBindStream(m, Persistent(), 5);
  }());
  ROW(D, kRp, "aclmdlRIBindStream: already bound", [&] {
    aclmdlRI m = nullptr;
    aclrtStream s = Persistent();
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIBindStream(m, s, 0)) return -1;
    return aclmdlRIBindStream(m, s, 0);
  }());
  ROW(D, kRp, "aclmdlRIBindStream: model already finished", [&] {
    aclmdlRI m = nullptr;
    aclrtStream s = Persistent();
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIBindStream(m, s, 0) || aclmdlRIEndTask(m, s) ||
        aclmdlRIBuildEnd(m, nullptr))
      return -1;
    return aclmdlRIBindStream(m, Persistent(), 0);
  }());
  ROW(D, kRp, "aclmdlRIUnbindStream: stream not bound", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIUnbindStream(m, Persistent());
  }());
  ROW(D, kRp, "aclmdlRIEndTask: stream not bound", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIEndTask(m, Persistent());
  }());
  ROW(D, kP, "aclmdlRIBuildEnd: reserve not NULL", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIBuildEnd(m, f.host);
  }());
  ROW(D, kRp, "aclmdlRIBuildEnd: twice", [&] {
    aclmdlRI m = nullptr;
    aclrtStream s = Persistent();
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIBindStream(m, s, 0) || aclmdlRIEndTask(m, s) ||
        aclmdlRIBuildEnd(m, nullptr))
      return -1;
    return aclmdlRIBuildEnd(m, nullptr);
  }());
  ROW(D, kModelExec, "aclmdlRIExecuteAsync: model still being built", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIExecuteAsync(m, f.stream);
  }());
  ROW(D, kH, "aclmdlRIExecuteAsync: destroyed model", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIDestroy(m)) return -1;
    return aclmdlRIExecuteAsync(m, f.stream);
  }());
  ROW(D, kRp, "aclmdlRIExecuteAsync: on a stream bound to a model", [&] {
    aclmdlRI m = nullptr;
    aclrtStream s = Persistent();
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIBindStream(m, s, 0) || aclmdlRIEndTask(m, s) ||
        aclmdlRIBuildEnd(m, nullptr))
      return -1;
    return aclmdlRIExecuteAsync(m, s);
  }());
  ROW(D, kRp, "aclmdlRIExecute: timeout 0", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIExecute(m, 0);
  }());
  ROW(D, kRp, "aclmdlRIExecute: timeout -2", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIExecute(m, -2);
  }());
  ROW(D, kP, "aclmdlRIDestroy: NULL", aclmdlRIDestroy(nullptr));
  ROW(D, kH, "aclmdlRIDestroy: twice", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0) || aclmdlRIDestroy(m)) return -1;
    return aclmdlRIDestroy(m);
  }());
  ROW(D, kH, "aclmdlRIDestroy: never created", aclmdlRIDestroy(f.Junk()));
  ROW(D, kP, "aclmdlRIGetName: maxLen 0", [&] {
    aclmdlRI m = nullptr;
    char name[8];
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIGetName(m, 0, name);
  }());
  ROW(D, kP, "aclmdlRISetName: name NULL", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRISetName(m, nullptr);
  }());
  ROW(D, kP, "aclmdlRIDebugJsonPrint: flags 2", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIDebugJsonPrint(m, "/tmp/x.json", 2);
  }());
  ROW(D, kRp, "aclmdlRIDebugJsonPrint: path in a missing directory", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRIDebugJsonPrint(m, "/nonexistent-simnpu-dir/x.json", 0);
  }());
  // capture
  ROW(D, kP, "aclmdlRICaptureBegin: stream NULL", aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ROW(D, kRp, "aclmdlRICaptureBegin: mode 3", aclmdlRICaptureBegin(f.stream, Bad<aclmdlRICaptureMode>(3)));
  ROW(D, kH, "aclmdlRICaptureBegin: destroyed stream",
      aclmdlRICaptureBegin(f.dead_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ROW(D, kCaptured, "aclmdlRICaptureBegin: twice", [&] {
    if (aclmdlRICaptureBegin(f.stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED)) return -1;
    const int rc = aclmdlRICaptureBegin(f.stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    aclmdlRI m = nullptr;
    (void)aclmdlRICaptureEnd(f.stream, &m);
    (void)aclmdlRIDestroy(m);
    return rc;
  }());
  ROW(D, kP, "aclmdlRICaptureEnd: modelRI NULL", aclmdlRICaptureEnd(f.stream, nullptr));
  ROW(D, kNotCaptured, "aclmdlRICaptureEnd: not capturing", [&] {
    aclmdlRI m = nullptr;
    return aclmdlRICaptureEnd(f.stream, &m);
  }());
  ROW(D, kP, "aclmdlRICaptureGetInfo: both outputs NULL", aclmdlRICaptureGetInfo(f.stream, nullptr, nullptr));
  ROW(D, kP, "aclmdlRICaptureThreadExchangeMode: NULL", aclmdlRICaptureThreadExchangeMode(nullptr));
  ROW(D, kNotCaptured, "aclmdlRICaptureTaskGrpBegin: not capturing", aclmdlRICaptureTaskGrpBegin(f.stream));
  ROW(D, kP, "aclmdlRICaptureTaskGrpEnd: handle NULL", aclmdlRICaptureTaskGrpEnd(f.stream, nullptr));
  ROW(D, kP, "aclmdlRICaptureTaskUpdateBegin: handle NULL", aclmdlRICaptureTaskUpdateBegin(f.stream, nullptr));
  ROW(D, kH, "aclmdlRICaptureTaskUpdateBegin: never created", aclmdlRICaptureTaskUpdateBegin(f.stream, f.Junk()));
  ROW(D, kCaptured, "aclmdlRIExecuteAsync: on a capturing stream", [&] {
    aclmdlRI m = nullptr;
    aclmdlRI cap = nullptr;
    aclrtStream s = nullptr;
    if (aclrtCreateStream(&s) || aclmdlRIBuildBegin(&m, 0)) return -1;
    aclrtStream b = Persistent();
    if (aclmdlRIBindStream(m, b, 0) || aclmdlRIEndTask(m, b) || aclmdlRIBuildEnd(m, nullptr)) return -1;
    if (aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED)) return -1;
    const int rc = aclmdlRIExecuteAsync(m, s);
    (void)aclmdlRICaptureEnd(s, &cap);
    (void)aclmdlRIDestroy(cap);
    return rc;
  }());
  ROW(D, kP, "aclmdlRICondHandleCreate: handle NULL", [&] {
    aclmdlRI m = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRICondHandleCreate(m, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, nullptr);
  }());
  ROW(D, kRp, "aclmdlRICondHandleCreate: flag 2", [&] {
    aclmdlRI m = nullptr;
    aclmdlRICondHandle h = nullptr;
    if (aclmdlRIBuildBegin(&m, 0)) return -1;
    return aclmdlRICondHandleCreate(m, 0, Bad<aclmdlRICondHandleFlag>(2), &h);
  }());
  ROW(D, kH, "aclmdlRICondHandleGetCondPtr: never created", [&] {
    uint64_t* p = nullptr;
    return aclmdlRICondHandleGetCondPtr(f.Junk(), &p);
  }());
  ROW(D, kP, "aclrtRecordEventWithFlag: flag 2", aclrtRecordEventWithFlag(f.event, f.stream, 2));
  ROW(D, kP, "aclrtStreamWaitEventWithFlag: EXTERNAL with a timeout", aclrtStreamWaitEventWithFlag(f.stream, f.event, 5, 1));
  ROW(D, kP, "aclrtCreateLabel: NULL", aclrtCreateLabel(nullptr));
  ROW(D, kH, "aclrtDestroyLabel: never created", aclrtDestroyLabel(f.Junk()));
  ROW(D, kP, "aclrtCreateLabelList: num 0", [&] {
    aclrtLabel l = nullptr;
    aclrtLabelList list = nullptr;
    if (aclrtCreateLabel(&l)) return -1;
    return aclrtCreateLabelList(&l, 0, &list);
  }());
  ROW(D, kH, "aclrtDestroyLabelList: never created", aclrtDestroyLabelList(f.Junk()));
}

void PoolRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  ROW(D, kP, "aclrtMemPoolCreate: memPool NULL", [&] {
    aclrtMemPoolProps p = PoolProps();
    return aclrtMemPoolCreate(nullptr, &p);
  }());
  ROW(D, kP, "aclrtMemPoolCreate: props NULL", [&] {
    aclrtMemPool pool = nullptr;
    return aclrtMemPoolCreate(&pool, nullptr);
  }());
  ROW(D, kP, "aclrtMemPoolCreate: allocType 1", [&] {
    aclrtMemPoolProps p = PoolProps();
    p.allocType = Bad<aclrtMemAllocationType>(1);
    aclrtMemPool pool = nullptr;
    return aclrtMemPoolCreate(&pool, &p);
  }());
  ROW(D, kP, "aclrtMemPoolCreate: location HOST", [&] {
    aclrtMemPoolProps p = PoolProps();
    p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    aclrtMemPool pool = nullptr;
    return aclrtMemPoolCreate(&pool, &p);
  }());
  ROW(D, kP, "aclrtMemPoolCreate: reserved bytes set", [&] {
    aclrtMemPoolProps p = PoolProps();
    p.reserved[31] = 1;
    aclrtMemPool pool = nullptr;
    return aclrtMemPoolCreate(&pool, &p);
  }());
  ROW(D, kDev, "aclrtMemPoolCreate: device 99", [&] {
    aclrtMemPoolProps p = PoolProps();
    p.location.id = 99;
    aclrtMemPool pool = nullptr;
    return aclrtMemPoolCreate(&pool, &p);
  }());
  ROW(D, kP, "aclrtMemPoolDestroy: NULL", aclrtMemPoolDestroy(nullptr));
  ROW(D, kH, "aclrtMemPoolDestroy: never created", aclrtMemPoolDestroy(f.Junk()));
  ROW(D, kH, "aclrtMemPoolDestroy: twice", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    if (aclrtMemPoolCreate(&pool, &p) || aclrtMemPoolDestroy(pool)) return -1;
    return aclrtMemPoolDestroy(pool);
  }());
  ROW(D, kP, "aclrtMemPoolSetAttr: value NULL", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, nullptr);
  }());
  ROW(D, kRp, "aclrtMemPoolSetAttr: reuse switch 2", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    uint32_t v = 2;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v);
  }());
  ROW(D, kRp, "aclrtMemPoolSetAttr: read-only attribute", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    uint64_t v = 0;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v);
  }());
  ROW(D, kRp, "aclrtMemPoolSetAttr: high mark set to non-zero", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    uint64_t v = 5;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v);
  }());
  ROW(D, kRp, "aclrtMemPoolSetAttr: attr 99", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    uint64_t v = 0;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolSetAttr(pool, Bad<aclrtMemPoolAttr>(99), &v);
  }());
  ROW(D, kH, "aclrtMemPoolSetAttr: never created", [&] {
    uint64_t v = 0;
    return aclrtMemPoolSetAttr(f.Junk(), ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v);
  }());
  ROW(D, kRp, "aclrtMemPoolGetAttr: attr 0", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    uint64_t v = 0;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolGetAttr(pool, Bad<aclrtMemPoolAttr>(0), &v);
  }());
  ROW(D, kP, "aclrtMemPoolMallocAsync: ptr NULL", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolMallocAsync(nullptr, 64, pool, f.stream);
  }());
  ROW(D, kP, "aclrtMemPoolMallocAsync: pool NULL", [&] {
    void* q = nullptr;
    return aclrtMemPoolMallocAsync(&q, 64, nullptr, f.stream);
  }());
  ROW(D, kP, "aclrtMemPoolMallocAsync: stream NULL", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolMallocAsync(&q, 64, pool, nullptr);
  }());
  ROW(D, kH, "aclrtMemPoolMallocAsync: destroyed pool", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p) || aclrtMemPoolDestroy(pool)) return -1;
    return aclrtMemPoolMallocAsync(&q, 64, pool, f.stream);
  }());
  ROW(D, kH, "aclrtMemPoolMallocAsync: destroyed stream", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolMallocAsync(&q, 64, pool, f.dead_stream);
  }());
  ROW(D, 207001, "aclrtMemPoolMallocAsync: size past the pool's maxSize", [&] {
    aclrtMemPoolProps p = PoolProps();
    p.maxSize = 1u << 20;
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p)) return -1;
    return aclrtMemPoolMallocAsync(&q, 2u << 20, pool, f.stream);
  }());
  ROW(D, kP, "aclrtMemPoolFreeAsync: ptr NULL", aclrtMemPoolFreeAsync(nullptr, f.stream));
  ROW(D, kRp, "aclrtMemPoolFreeAsync: memory from aclrtMalloc", aclrtMemPoolFreeAsync(f.dev, f.stream));
  ROW(D, kRp, "aclrtMemPoolFreeAsync: twice", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p) || aclrtMemPoolMallocAsync(&q, 64, pool, f.stream) ||
        aclrtMemPoolFreeAsync(q, f.stream))
      return -1;
    return aclrtMemPoolFreeAsync(q, f.stream);
  }());
  ROW(D, kRp, "aclrtMemcpy: past a pool block", [&] {
    aclrtMemPoolProps p = PoolProps();
    aclrtMemPool pool = nullptr;
    void* q = nullptr;
    if (aclrtMemPoolCreate(&pool, &p) || aclrtMemPoolMallocAsync(&q, 4096, pool, f.stream) ||
        aclrtSynchronizeStream(f.stream))
      return -1;
    return aclrtMemcpy(q, 8192, f.host, 8192, ACL_MEMCPY_HOST_TO_DEVICE);
  }());
  ROW(D, kH, "aclrtMemPoolTrimTo: never created", aclrtMemPoolTrimTo(f.Junk(), 0));
}

void TdtRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  // data items and datasets (pointer results: NULL on bad input)
  ROW(D, 1, "acltdtCreateDataItem: tensor type 9 -> NULL", [&] {
    return acltdtCreateDataItem(Bad<acltdtTensorType>(9), nullptr, 0, ACL_FLOAT, f.host, 16) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "acltdtCreateDataItem: dims NULL with dimNum 2 -> NULL", [&] {
    return acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_FLOAT, f.host, 16) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "acltdtCreateDataItem: dimNum 129 -> NULL", [&] {
    static int64_t dims[129] = {};
    return acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 129, ACL_FLOAT, f.host, 16) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "acltdtCreateDataItem: dims on an END_OF_SEQUENCE item -> NULL", [&] {
    int64_t dims[1] = {4};
    return acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 1, ACL_FLOAT, f.host, 16) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "acltdtCreateDataItem: data NULL with size 16 -> NULL", [&] {
    int64_t dims[1] = {4};
    return acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, nullptr, 16) == nullptr ? 1 : 0;
  }());
  ROW(D, kP, "acltdtDestroyDataItem: NULL", acltdtDestroyDataItem(nullptr));
  ROW(D, kP, "acltdtDestroyDataItem: never created", acltdtDestroyDataItem(reinterpret_cast<acltdtDataItem*>(f.Junk())));
  ROW(D, kP, "acltdtDestroyDataItem: twice", [&] {
    int64_t dims[1] = {4};
    acltdtDataItem* it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, f.host, 16);
    if (!it || acltdtDestroyDataItem(it)) return -1;
    return acltdtDestroyDataItem(it);
  }());
  ROW(D, kP, "acltdtGetDimsFromItem: dimNum smaller than the item's", [&] {
    int64_t dims[2] = {2, 2};
    int64_t out[1];
    acltdtDataItem* it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, f.host, 16);
    if (!it) return -1;
    return acltdtGetDimsFromItem(it, out, 1);
  }());
  ROW(D, kP, "acltdtGetSliceInfoFromItem: sliceId NULL", [&] {
    int64_t dims[1] = {4};
    size_t n = 0;
    acltdtDataItem* it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, f.host, 16);
    if (!it) return -1;
    return acltdtGetSliceInfoFromItem(it, &n, nullptr);
  }());
  ROW(D, kP, "acltdtDestroyDataset: never created", acltdtDestroyDataset(reinterpret_cast<acltdtDataset*>(f.Junk())));
  ROW(D, kP, "acltdtDestroyDataset: twice", [&] {
    acltdtDataset* d = acltdtCreateDataset();
    if (!d || acltdtDestroyDataset(d)) return -1;
    return acltdtDestroyDataset(d);
  }());
  ROW(D, kP, "acltdtAddDataItem: destroyed dataset", [&] {
    int64_t dims[1] = {4};
    acltdtDataItem* it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, f.host, 16);
    acltdtDataset* d = acltdtCreateDataset();
    if (!it || !d || acltdtDestroyDataset(d)) return -1;
    return acltdtAddDataItem(d, it);
  }());
  ROW(D, kP, "acltdtAddDataItem: host and device data in one dataset", [&] {
    int64_t dims[1] = {4};
    acltdtDataItem* a = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, f.host, 16);
    acltdtDataItem* b = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, f.dev, 16);
    acltdtDataset* d = acltdtCreateDataset();
    if (!a || !b || !d || acltdtAddDataItem(d, a)) return -1;
    return acltdtAddDataItem(d, b);
  }());
  // channels
  ROW(D, 1, "acltdtCreateChannelWithCapacity: name NULL -> NULL",
      acltdtCreateChannelWithCapacity(0, nullptr, 4) == nullptr ? 1 : 0);
  ROW(D, 1, "acltdtCreateChannelWithCapacity: capacity 1 -> NULL",
      acltdtCreateChannelWithCapacity(0, "misuse", 1) == nullptr ? 1 : 0);
  ROW(D, 1, "acltdtCreateChannelWithCapacity: capacity 8193 -> NULL",
      acltdtCreateChannelWithCapacity(0, "misuse", 8193) == nullptr ? 1 : 0);
  ROW(D, 1, "acltdtCreateChannelWithCapacity: name of 200 characters -> NULL",
      acltdtCreateChannelWithCapacity(0, LongKey(), 4) == nullptr ? 1 : 0);
  ROW(D, 1, "acltdtCreateChannelWithCapacity: device 99 -> NULL",
      acltdtCreateChannelWithCapacity(99, "misuse", 4) == nullptr ? 1 : 0);
  ROW(D, kP, "acltdtSendTensor: channel NULL", [&] {
    acltdtDataset* d = acltdtCreateDataset();
    return acltdtSendTensor(nullptr, d, 0);
  }());
  ROW(D, kP, "acltdtSendTensor: timeout -2", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    acltdtDataset* d = acltdtCreateDataset();
    if (!ch || !d) return -1;
    return acltdtSendTensor(ch, d, -2);
  }());
  ROW(D, kP, "acltdtSendTensor: destroyed channel", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    acltdtDataset* d = acltdtCreateDataset();
    if (!ch || !d || acltdtDestroyChannel(ch)) return -1;
    return acltdtSendTensor(ch, d, 0);
  }());
  ROW(D, kP, "acltdtReceiveTensor: dataset NULL", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    if (!ch) return -1;
    return acltdtReceiveTensor(ch, nullptr, 0);
  }());
  ROW(D, 207013, "acltdtReceiveTensor: empty channel, no wait", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    acltdtDataset* d = acltdtCreateDataset();
    if (!ch || !d) return -1;
    return acltdtReceiveTensor(ch, d, 0);
  }());
  ROW(D, kP, "acltdtQueryChannelSize: size NULL", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    if (!ch) return -1;
    return acltdtQueryChannelSize(ch, nullptr);
  }());
  ROW(D, kP, "acltdtDestroyChannel: NULL", acltdtDestroyChannel(nullptr));
  ROW(D, kP, "acltdtDestroyChannel: never created",
      acltdtDestroyChannel(reinterpret_cast<acltdtChannelHandle*>(f.Junk())));
  ROW(D, kP, "acltdtDestroyChannel: twice", [&] {
    acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "misuse", 4);
    if (!ch || acltdtDestroyChannel(ch)) return -1;
    return acltdtDestroyChannel(ch);
  }());
  // queues
  ROW(D, kP, "acltdtSetQueueAttr: attr NULL", [&] {
    uint32_t depth = 4;
    return acltdtSetQueueAttr(nullptr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth);
  }());
  ROW(D, kP, "acltdtSetQueueAttr: type 5", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t depth = 4;
    if (!a) return -1;
    return acltdtSetQueueAttr(a, Bad<acltdtQueueAttrType>(5), sizeof depth, &depth);
  }());
  ROW(D, kP, "acltdtSetQueueAttr: depth with len 8", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint64_t depth = 4;
    if (!a) return -1;
    return acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &depth);
  }());
  ROW(D, kP, "acltdtSetQueueAttr: name of 200 characters", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    const char* name = LongKey();
    if (!a) return -1;
    return acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name);
  }());
  ROW(D, kP, "acltdtSetQueueAttr: name pointer NULL", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    const char* name = nullptr;
    if (!a) return -1;
    return acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &name);
  }());
  ROW(D, kP, "acltdtGetQueueAttr: len 1 for the depth", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t depth = 0;
    size_t ret = 0;
    if (!a) return -1;
    return acltdtGetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 1, &ret, &depth);
  }());
  ROW(D, kP, "acltdtCreateQueue: qid NULL", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    if (!a) return -1;
    return acltdtCreateQueue(a, nullptr);
  }());
  ROW(kInit, kCtx, "acltdtCreateQueue: no device", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    if (!a) return -1;
    return acltdtCreateQueue(a, &qid);
  }());
  ROW(D, kP, "acltdtEnqueueData: userDataSize 97", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    if (!a || acltdtCreateQueue(a, &qid)) return -1;
    return acltdtEnqueueData(qid, f.host, 16, f.host, 97, 0, 0);
  }());
  ROW(D, kP, "acltdtEnqueueData: data NULL with size 16", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    if (!a || acltdtCreateQueue(a, &qid)) return -1;
    return acltdtEnqueueData(qid, nullptr, 16, nullptr, 0, 0, 0);
  }());
  ROW(D, kP, "acltdtDequeueData: retDataSize NULL", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    if (!a || acltdtCreateQueue(a, &qid)) return -1;
    return acltdtDequeueData(qid, f.host, 16, nullptr, nullptr, 0, 0);
  }());
  ROW(D, 207013, "acltdtDequeueData: empty queue, no wait", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    size_t got = 0;
    if (!a || acltdtCreateQueue(a, &qid)) return -1;
    return acltdtDequeueData(qid, f.host, 16, &got, nullptr, 0, 0);
  }());
  ROW(D, kP, "acltdtEnqueue: buf NULL", [&] {
    acltdtQueueAttr* a = acltdtCreateQueueAttr();
    uint32_t qid = 0;
    if (!a || acltdtCreateQueue(a, &qid)) return -1;
    return acltdtEnqueue(qid, nullptr, 0);
  }());
  ROW(D, kP, "acltdtDequeue: buf NULL", acltdtDequeue(0, nullptr, 0));
  ROW(D, kP, "acltdtAttachQueue: permission NULL", acltdtAttachQueue(0, 0, nullptr));
  ROW(D, kP, "acltdtGetQueueRoute: index out of range", [&] {
    acltdtQueueRouteList* l = acltdtCreateQueueRouteList();
    acltdtQueueRoute* r = acltdtCreateQueueRoute(1, 2);
    if (!l || !r) return -1;
    return acltdtGetQueueRoute(l, 0, r);
  }());
  ROW(D, kP, "acltdtGetQueueRouteParam: type 7", [&] {
    acltdtQueueRoute* r = acltdtCreateQueueRoute(1, 2);
    uint32_t v = 0;
    size_t ret = 0;
    if (!r) return -1;
    return acltdtGetQueueRouteParam(r, Bad<acltdtQueueRouteParamType>(7), sizeof v, &ret, &v);
  }());
  ROW(D, kP, "acltdtAddQueueRoute: route NULL", [&] {
    acltdtQueueRouteList* l = acltdtCreateQueueRouteList();
    if (!l) return -1;
    return acltdtAddQueueRoute(l, nullptr);
  }());
  ROW(D, kP, "acltdtAllocBuf: buf NULL", acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, nullptr));
  ROW(D, kP, "acltdtFreeBuf: NULL", acltdtFreeBuf(nullptr));
}

void AclnnRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  static const int64_t kDims[2] = {4, 2};
  static const int64_t kStrides[2] = {2, 1};
  ROW(D, 1, "aclCreateTensor: viewDims NULL with 2 dims -> NULL",
      aclCreateTensor(nullptr, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateTensor: stride NULL with 2 dims -> NULL",
      aclCreateTensor(kDims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, kDims, 2, f.dev) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateTensor: data type 999 -> NULL",
      aclCreateTensor(kDims, 2, Bad<aclDataType>(999), kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateTensor: negative offset -> NULL",
      aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, -1, ACL_FORMAT_ND, kDims, 2, f.dev) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateTensor: negative dimension -> NULL", [&] {
    const int64_t dims[2] = {4, -2};
    return aclCreateTensor(dims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, dims, 2, f.dev) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateTensor: negative stride -> NULL", [&] {
    const int64_t st[2] = {2, -1};
    return aclCreateTensor(kDims, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, kDims, 2, f.dev) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateTensor: 9 dimensions -> NULL", [&] {
    const int64_t dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    return aclCreateTensor(dims, 9, ACL_FLOAT, dims, 0, ACL_FORMAT_ND, dims, 9, f.dev) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateTensor: element count overflows -> NULL", [&] {
    const int64_t dims[2] = {INT64_MAX / 2, 4};
    const int64_t st[2] = {4, 1};
    return aclCreateTensor(dims, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, dims, 2, f.dev) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateTensor: view past its storage -> NULL", [&] {
    const int64_t storage[1] = {4};
    return aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, storage, 1, f.dev) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateScalar: value NULL -> NULL", aclCreateScalar(nullptr, ACL_FLOAT) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateScalar: data type 999 -> NULL", [&] {
    float v = 1;
    return aclCreateScalar(&v, Bad<aclDataType>(999)) == nullptr ? 1 : 0;
  }());
  ROW(D, 1, "aclCreateIntArray: value NULL with size 3 -> NULL", aclCreateIntArray(nullptr, 3) == nullptr ? 1 : 0);
  ROW(D, 1, "aclCreateTensorList: an element that is no tensor -> NULL", [&] {
    const aclTensor* list[1] = {reinterpret_cast<const aclTensor*>(f.Junk())};
    return aclCreateTensorList(list, 1) == nullptr ? 1 : 0;
  }());
  ROW(D, kNnBad, "aclDestroyTensor: never created", aclDestroyTensor(reinterpret_cast<const aclTensor*>(f.Junk())));
  ROW(D, kNnBad, "aclDestroyScalar: a tensor", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    if (!t) return -1;
    return aclDestroyScalar(reinterpret_cast<const aclScalar*>(t));
  }());
  ROW(D, kNnBad, "aclDestroyTensor: twice", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    if (!t || aclDestroyTensor(t) != 0) return -1;
    return aclDestroyTensor(t);
  }());
  ROW(D, kNnBad, "aclDestroyScalar: twice", [&] {
    float v = 1;
    aclScalar* sc = aclCreateScalar(&v, ACL_FLOAT);
    if (!sc || aclDestroyScalar(sc) != 0) return -1;
    return aclDestroyScalar(sc);
  }());
  ROW(D, kNnBad, "aclDestroyAclOpExecutor: twice", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    float v = 1;
    aclScalar* a1 = aclCreateScalar(&v, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (!t || !a1 || aclnnAddGetWorkspaceSize(t, t, a1, t, &ws, &ex) != 0 || aclDestroyAclOpExecutor(ex) != 0) return -1;
    return aclDestroyAclOpExecutor(ex);
  }());
  ROW(D, kNnNull, "aclGetViewShape: tensor NULL", [&] {
    int64_t* d = nullptr;
    uint64_t n = 0;
    return aclGetViewShape(nullptr, &d, &n);
  }());
  // operators: bad arguments to the planning phase, bad executors
  ROW(D, kNnNull, "aclnnAddGetWorkspaceSize: self NULL", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    float one = 1;
    aclScalar* a = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (!t || !a) return -1;
    return aclnnAddGetWorkspaceSize(nullptr, t, a, t, &ws, &ex);
  }());
  ROW(D, kNnNull, "aclnnAddGetWorkspaceSize: executor NULL", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    float one = 1;
    aclScalar* a = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    if (!t || !a) return -1;
    return aclnnAddGetWorkspaceSize(t, t, a, t, &ws, nullptr);
  }());
  ROW(D, kNnBad, "aclnnAddGetWorkspaceSize: self never created", [&] {
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    float one = 1;
    aclScalar* a = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (!t || !a) return -1;
    return aclnnAddGetWorkspaceSize(reinterpret_cast<const aclTensor*>(f.Junk()), t, a, t, &ws, &ex);
  }());
  ROW(D, kNnBad, "aclnnAddGetWorkspaceSize: shapes that do not broadcast", [&] {
    const int64_t d3[2] = {4, 3};
    const int64_t s3[2] = {3, 1};
    aclTensor* t = aclCreateTensor(kDims, 2, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kDims, 2, f.dev);
    aclTensor* u = aclCreateTensor(d3, 2, ACL_FLOAT, s3, 0, ACL_FORMAT_ND, d3, 2, f.canary);
    float one = 1;
    aclScalar* a = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (!t || !u || !a) return -1;
    return aclnnAddGetWorkspaceSize(t, u, a, t, &ws, &ex);
  }());
  ROW(D, kNnNull, "aclnnAdd: executor NULL", aclnnAdd(nullptr, 0, nullptr, f.stream));
  ROW(D, kNnBad, "aclnnAdd: executor never created",
      aclnnAdd(nullptr, 0, reinterpret_cast<aclOpExecutor*>(f.Junk()), f.stream));
  ROW(D, kNnBad, "aclDestroyAclOpExecutor: never created",
      aclDestroyAclOpExecutor(reinterpret_cast<aclOpExecutor*>(f.Junk())));
}

}  // namespace

void ExtRows(std::vector<Row>& rows) {
  IpcRows(rows);
  VmmRows(rows);
  ModelRows(rows);
  PoolRows(rows);
  TdtRows(rows);
  AclnnRows(rows);
}

}  // namespace misuse
