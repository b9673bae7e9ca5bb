// The rows of the misuse suite. Codes (acl-api.md §2, §4):
//   100000 ACL_ERROR_INVALID_PARAM (ACL layer: NULL, zero, enum out of range)
//   107000 ACL_ERROR_RT_PARAM_INVALID (runtime: ranges, values, freed memory)
//   107001 bad device id, 107002 no context, 107003 stream of another context,
//   107017 handle not live (destroyed, foreign, never created),
//   207000 not supported / wrong order, 507910/507911 host registration.
#include <cstdint>
#include <cstring>

#include "misuse.h"
#include "simnpu/kernel_abi.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the suite calls the deprecated functions too

namespace misuse {
namespace {

constexpr int kOk = 0;
constexpr int kP = 100000;
constexpr int kRp = 107000;
constexpr int kDev = 107001;
constexpr int kCtx = 107002;
constexpr int kSCtx = 107003;
constexpr int kH = 107017;
constexpr int kNs = 207000;
constexpr int kRepeatFinal = 100037;
constexpr size_t kBig = SIZE_MAX - 32;

#define ROW(level, expected, name, ...) \
  rows.push_back(Row{name, level, expected, [](Fx & f) -> int { (void)f; return (__VA_ARGS__); }})
#define ROW_NOMSG(level, expected, name, ...) \
  rows.push_back(Row{name, level, expected, [](Fx & f) -> int { (void)f; return (__VA_ARGS__); }, false})

aclrtMemManagedLocation Host() { return {ACL_MEM_LOCATIONTYPE_HOST, 0}; }
aclrtMemManagedLocation DevLoc(int id) { return {ACL_MEM_LOCATIONTYPE_DEVICE, id}; }
template <typename E>
E Bad(int v) {
  E e;
  std::memcpy(&e, &v, sizeof e);
  return e;
}

void MemoryRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  // aclrtMalloc
  ROW(D, kP, "aclrtMalloc: devPtr NULL", aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ROW(D, kP, "aclrtMalloc: size 0", [&] { void* p; return aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST); }());
  ROW(D, 207001, "aclrtMalloc: size SIZE_MAX", [&] { void* p; return aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST); }());
  ROW(D, 207001, "aclrtMalloc: size 2^48", [&] { void* p; return aclrtMalloc(&p, 1ull << 48, ACL_MEM_MALLOC_HUGE_FIRST); }());
  ROW(kInit, kCtx, "aclrtMalloc: no context", [&] { void* p; return aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST); }());
  ROW(kFinalized, kCtx, "aclrtMalloc: finalized", [&] { void* p; return aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST); }());
  // aclrtFree
  ROW(D, kP, "aclrtFree: NULL", aclrtFree(nullptr));
  ROW(D, kRp, "aclrtFree: freed (double free)", aclrtFree(f.freed_dev));
  ROW(D, kRp, "aclrtFree: freed managed", aclrtFree(f.freed_managed));
  ROW(D, kRp, "aclrtFree: inside an allocation", aclrtFree(static_cast<char*>(f.dev) + 64));
  ROW(D, kRp, "aclrtFree: stack pointer", aclrtFree(f.host));
  ROW(D, kRp, "aclrtFree: pinned host memory", aclrtFree(f.pinned));
  ROW(D, kRp, "aclrtFree: junk handle", aclrtFree(f.Junk()));
  // aclrtMallocHost / FreeHost
  ROW(D, kP, "aclrtMallocHost: NULL", aclrtMallocHost(nullptr, 64));
  ROW(D, kP, "aclrtMallocHost: size 0", [&] { void* p; return aclrtMallocHost(&p, 0); }());
  ROW(D, 207001, "aclrtMallocHost: size SIZE_MAX", [&] { void* p; return aclrtMallocHost(&p, SIZE_MAX); }());
  ROW(D, kP, "aclrtFreeHost: NULL", aclrtFreeHost(nullptr));
  ROW(D, kRp, "aclrtFreeHost: double free", aclrtFreeHost(f.freed_pinned));
  ROW(D, kRp, "aclrtFreeHost: device memory", aclrtFreeHost(f.dev));
  ROW(D, kRp, "aclrtFreeHost: stack pointer", aclrtFreeHost(f.host));

  // aclrtMemcpy
  ROW(D, kP, "aclrtMemcpy: dst NULL", aclrtMemcpy(nullptr, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kP, "aclrtMemcpy: src NULL", aclrtMemcpy(f.dev, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kP, "aclrtMemcpy: kind 6", aclrtMemcpy(f.dev, 64, f.host, 64, Bad<aclrtMemcpyKind>(6)));
  ROW(D, kP, "aclrtMemcpy: kind 7", aclrtMemcpy(f.dev, 64, f.host, 64, Bad<aclrtMemcpyKind>(7)));
  ROW(D, kP, "aclrtMemcpy: kind -1", aclrtMemcpy(f.dev, 64, f.host, 64, Bad<aclrtMemcpyKind>(-1)));
  ROW(D, kRp, "aclrtMemcpy: count > destMax", aclrtMemcpy(f.dev, 32, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: H2D past the allocation (1 MiB into 4 KiB)",
      aclrtMemcpy(f.dev, 1 << 20, f.host, 8192, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: D2H past the allocation", aclrtMemcpy(f.host, 8192, f.dev, 8192, ACL_MEMCPY_DEVICE_TO_HOST));
  ROW(D, kRp, "aclrtMemcpy: D2D past the destination", aclrtMemcpy(f.dev, 8192, f.canary, 4097, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: D2D at an offset past the end",
      aclrtMemcpy(static_cast<char*>(f.dev) + 4000, 200, f.canary, 200, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: DEFAULT past the allocation", aclrtMemcpy(f.dev, 8192, f.host, 8192, ACL_MEMCPY_DEFAULT));
  ROW(D, kRp, "aclrtMemcpy: H2D into freed memory", aclrtMemcpy(f.freed_dev, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: D2H from freed memory", aclrtMemcpy(f.host, 64, f.freed_dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  ROW(D, kRp, "aclrtMemcpy: D2D from freed managed memory",
      aclrtMemcpy(f.dev, 64, f.freed_managed, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: H2D to a stack pointer", aclrtMemcpy(f.host + 4096, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: dst + count wraps",
      aclrtMemcpy(static_cast<char*>(f.dev) + 64, SIZE_MAX, f.host, kBig, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: src + count wraps",
      aclrtMemcpy(f.host, SIZE_MAX, static_cast<char*>(f.dev) + 64, kBig, ACL_MEMCPY_DEVICE_TO_HOST));
  ROW(D, kRp, "aclrtMemcpy: H2H 2^40 bytes of unmapped memory",
      aclrtMemcpy(f.host, SIZE_MAX, f.host + 1, 1ull << 40, ACL_MEMCPY_HOST_TO_HOST));
  ROW(D, kRp, "aclrtMemcpy: pinned host past its end", aclrtMemcpy(f.pinned, 8192, f.host, 8192, ACL_MEMCPY_HOST_TO_HOST));
  ROW(D, kRp, "aclrtMemcpy: managed past its end",
      aclrtMemcpy(f.managed, 4u << 20, f.dev, (2u << 20) + 1, ACL_MEMCPY_DEVICE_TO_DEVICE));
  ROW(D, kRp, "aclrtMemcpy: junk device pointer", aclrtMemcpy(f.Junk(), 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW_NOMSG(D, kOk, "aclrtMemcpy: count 0 (allowed)", aclrtMemcpy(f.freed_dev, 0, f.host, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW_NOMSG(D, kOk, "aclrtMemcpy: exactly the allocation (allowed)",
            aclrtMemcpy(f.dev, 4096, f.host, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  ROW(kInit, kRp, "aclrtMemset: no device set, program memory", aclrtMemset(f.host, 64, 0, 64));
  // aclrtMemcpyAsync
  ROW(D, kP, "aclrtMemcpyAsync: dst NULL", aclrtMemcpyAsync(nullptr, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kP, "aclrtMemcpyAsync: src NULL", aclrtMemcpyAsync(f.dev, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kP, "aclrtMemcpyAsync: kind 8", aclrtMemcpyAsync(f.dev, 64, f.host, 64, Bad<aclrtMemcpyKind>(8), f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: count > destMax", aclrtMemcpyAsync(f.dev, 8, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: H2D past the allocation",
      aclrtMemcpyAsync(f.dev, 1 << 20, f.host, 8192, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: D2H past the allocation",
      aclrtMemcpyAsync(f.host, 8192, f.dev, 8192, ACL_MEMCPY_DEVICE_TO_HOST, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: D2D past the destination",
      aclrtMemcpyAsync(f.dev, 8192, f.canary, 4097, ACL_MEMCPY_DEVICE_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: D2D from freed device memory",
      aclrtMemcpyAsync(f.dev, 64, f.freed_dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: D2D into freed managed memory",
      aclrtMemcpyAsync(f.freed_managed, 64, f.dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: dst + count wraps (no length_error)",
      aclrtMemcpyAsync(static_cast<char*>(f.dev) + 64, SIZE_MAX, f.host, kBig, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kRp, "aclrtMemcpyAsync: pageable source 2^40 bytes",
      aclrtMemcpyAsync(f.dev, SIZE_MAX, f.host, 1ull << 40, ACL_MEMCPY_HOST_TO_DEVICE, f.stream));
  ROW(D, kH, "aclrtMemcpyAsync: destroyed stream",
      aclrtMemcpyAsync(f.dev, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE, f.dead_stream));
  ROW(D, kH, "aclrtMemcpyAsync: junk stream", aclrtMemcpyAsync(f.dev, 64, f.host, 64, ACL_MEMCPY_HOST_TO_DEVICE, f.Junk()));
  // aclrtMemset / Async
  ROW(D, kP, "aclrtMemset: NULL", aclrtMemset(nullptr, 64, 0, 64));
  ROW(D, kRp, "aclrtMemset: count > maxCount", aclrtMemset(f.dev, 8, 0, 64));
  ROW(D, kRp, "aclrtMemset: past the allocation", aclrtMemset(f.dev, 8192, 0, 4097));
  ROW(D, kRp, "aclrtMemset: SIZE_MAX - 32 from dev + 64 (no hang)",
      aclrtMemset(static_cast<char*>(f.dev) + 64, kBig, 0, kBig));
  ROW(D, kRp, "aclrtMemset: freed device memory", aclrtMemset(f.freed_dev, 64, 0, 64));
  ROW(D, kRp, "aclrtMemset: freed managed memory", aclrtMemset(f.freed_managed, 64, 0, 64));
  ROW(D, kRp, "aclrtMemset: stack pointer", aclrtMemset(f.host, 64, 0, 64));
  ROW(D, kRp, "aclrtMemset: heap pointer", [] {
    static unsigned char* heap = new unsigned char[64];
    return aclrtMemset(heap, 64, 0, 64);
  }());
  ROW(D, kRp, "aclrtMemset: managed past its end", aclrtMemset(f.managed, 4u << 20, 0, (2u << 20) + 1));
  ROW(D, kP, "aclrtMemsetAsync: NULL", aclrtMemsetAsync(nullptr, 64, 0, 64, f.stream));
  ROW(D, kRp, "aclrtMemsetAsync: count > maxCount", aclrtMemsetAsync(f.dev, 8, 0, 64, f.stream));
  ROW(D, kRp, "aclrtMemsetAsync: past the allocation", aclrtMemsetAsync(f.dev, 8192, 0, 4097, f.stream));
  ROW(D, kRp, "aclrtMemsetAsync: SIZE_MAX - 32 from dev + 64 (no runaway stream)",
      aclrtMemsetAsync(static_cast<char*>(f.dev) + 64, kBig, 0, kBig, f.stream));
  ROW(D, kRp, "aclrtMemsetAsync: freed managed memory", aclrtMemsetAsync(f.freed_managed, 64, 0, 64, f.stream));
  ROW(D, kRp, "aclrtMemsetAsync: stack pointer", aclrtMemsetAsync(f.host, 64, 0, 64, f.stream));
  ROW(D, kH, "aclrtMemsetAsync: destroyed stream", aclrtMemsetAsync(f.dev, 64, 0, 64, f.dead_stream));
  // value write / wait
  ROW(D, kP, "aclrtValueWrite: NULL", aclrtValueWrite(nullptr, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: freed memory", aclrtValueWrite(f.freed_dev, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: host memory", aclrtValueWrite(f.host, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: managed memory", aclrtValueWrite(f.managed, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: unaligned", aclrtValueWrite(static_cast<char*>(f.dev) + 4, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: last 4 bytes of the allocation",
      aclrtValueWrite(static_cast<char*>(f.dev) + 4092, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWrite: flag 1", aclrtValueWrite(f.dev, 1, 1, f.stream));
  ROW(D, kH, "aclrtValueWrite: destroyed stream", aclrtValueWrite(f.dev, 1, 0, f.dead_stream));
  ROW(D, kP, "aclrtValueWait: NULL", aclrtValueWait(nullptr, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWait: freed memory", aclrtValueWait(f.freed_dev, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWait: stack memory", aclrtValueWait(f.host, 1, 0, f.stream));
  ROW(D, kRp, "aclrtValueWait: flag 4", aclrtValueWait(f.dev, 1, 4, f.stream));
  ROW(D, kRp, "aclrtValueWait: flag 0xffffffff", aclrtValueWait(f.dev, 1, 0xffffffffu, f.stream));
  // host registration
  ROW(D, kP, "aclrtHostRegisterV2: NULL", aclrtHostRegisterV2(nullptr, 64, ACL_HOST_REG_MAPPED));
  ROW(D, kP, "aclrtHostRegisterV2: size 0", aclrtHostRegisterV2(f.host, 0, ACL_HOST_REG_MAPPED));
  ROW(D, kRp, "aclrtHostRegisterV2: flag 0", aclrtHostRegisterV2(f.host, 64, 0));
  ROW(D, kRp, "aclrtHostRegisterV2: unknown flag bit", aclrtHostRegisterV2(f.host, 64, ACL_HOST_REG_MAPPED | 0x1));
  ROW(D, kRp, "aclrtHostRegisterV2: unmapped address",
      aclrtHostRegisterV2(reinterpret_cast<void*>(uintptr_t{0x10000}), 4096, ACL_HOST_REG_MAPPED));
  ROW(D, kRp, "aclrtHostRegisterV2: device pointer", aclrtHostRegisterV2(f.dev, 4096, ACL_HOST_REG_MAPPED));
  ROW(D, kRp, "aclrtHostRegisterV2: managed pointer", aclrtHostRegisterV2(f.managed, 4096, ACL_HOST_REG_MAPPED));
  ROW(D, kRp, "aclrtHostRegisterV2: size 2^50", aclrtHostRegisterV2(f.host, 1ull << 50, ACL_HOST_REG_MAPPED));
  ROW(D, kRp, "aclrtHostRegisterV2: range wraps", aclrtHostRegisterV2(f.host, UINT64_MAX - 16, ACL_HOST_REG_MAPPED));
  ROW(D, 507910, "aclrtHostRegisterV2: twice", [&] {
    if (aclrtHostRegisterV2(f.host, 4096, ACL_HOST_REG_MAPPED) != 0) return -1;
    return aclrtHostRegisterV2(f.host + 64, 64, ACL_HOST_REG_MAPPED);
  }());
  ROW(D, kP, "aclrtHostUnregister: NULL", aclrtHostUnregister(nullptr));
  ROW(D, 507911, "aclrtHostUnregister: never registered", aclrtHostUnregister(f.host));
  ROW(D, kP, "aclrtHostGetDevicePointer: NULL host", [&] { void* d; return aclrtHostGetDevicePointer(nullptr, &d, 0); }());
  ROW(D, kP, "aclrtHostGetDevicePointer: NULL out", aclrtHostGetDevicePointer(f.host, nullptr, 0));
  ROW(D, kP, "aclrtHostGetDevicePointer: flag 1", [&] { void* d; return aclrtHostGetDevicePointer(f.host, &d, 1); }());
  ROW(D, 507911, "aclrtHostGetDevicePointer: not registered",
      [&] { void* d; return aclrtHostGetDevicePointer(f.host, &d, 0); }());
  ROW(D, kP, "aclrtPointerGetAttributes: NULL ptr", [&] { aclrtPtrAttributes a; return aclrtPointerGetAttributes(nullptr, &a); }());
  ROW(D, kP, "aclrtPointerGetAttributes: NULL out", aclrtPointerGetAttributes(f.dev, nullptr));
  ROW(D, kRp, "aclrtPointerGetAttributes: freed device memory",
      [&] { aclrtPtrAttributes a; return aclrtPointerGetAttributes(f.freed_dev, &a); }());
  ROW(D, kRp, "aclrtPointerGetAttributes: freed managed memory",
      [&] { aclrtPtrAttributes a; return aclrtPointerGetAttributes(f.freed_managed, &a); }());
  ROW(D, kP, "aclrtGetMemInfo: NULL free", [&] { size_t t; return aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &t); }());
}

void ManagedRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  ROW(D, kP, "aclrtMemAllocManaged: NULL", aclrtMemAllocManaged(nullptr, 64, ACL_RT_MEM_ATTACH_GLOBAL));
  ROW(D, kP, "aclrtMemAllocManaged: flag 0", [&] { void* p; return aclrtMemAllocManaged(&p, 64, 0); }());
  ROW(D, kP, "aclrtMemAllocManaged: flag 2", [&] { void* p; return aclrtMemAllocManaged(&p, 64, 2); }());
  ROW(D, kRp, "aclrtMemAllocManaged: size 0", [&] { void* p; return aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL); }());
  ROW(D, 207001, "aclrtMemAllocManaged: size 2^62",
      [&] { void* p; return aclrtMemAllocManaged(&p, 1ull << 62, ACL_RT_MEM_ATTACH_GLOBAL); }());
  ROW(kInit, kCtx, "aclrtMemAllocManaged: no context",
      [&] { void* p; return aclrtMemAllocManaged(&p, 64, ACL_RT_MEM_ATTACH_GLOBAL); }());
  ROW(D, kP, "aclrtMemManagedAdvise: NULL", aclrtMemManagedAdvise(nullptr, 2 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kP, "aclrtMemManagedAdvise: size 0", aclrtMemManagedAdvise(f.managed, 0, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: size not 2 MiB aligned",
      aclrtMemManagedAdvise(f.managed, 4096, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: advise 6",
      aclrtMemManagedAdvise(f.managed, 2 << 20, Bad<aclrtMemManagedAdviseType>(6), Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: advise -1",
      aclrtMemManagedAdvise(f.managed, 2 << 20, Bad<aclrtMemManagedAdviseType>(-1), Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: device id 99",
      aclrtMemManagedAdvise(f.managed, 2 << 20, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, DevLoc(99)));
  ROW(D, kRp, "aclrtMemManagedAdvise: device memory",
      aclrtMemManagedAdvise(f.dev, 2 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: past the allocation",
      aclrtMemManagedAdvise(f.managed, 4 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: freed managed memory",
      aclrtMemManagedAdvise(f.freed_managed, 2 << 20, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kRp, "aclrtMemManagedAdvise: size wraps",
      aclrtMemManagedAdvise(f.managed, UINT64_MAX - (2 << 20) + 1, ACL_MEM_ADVISE_SET_READ_MOSTLY, Host()));
  ROW(D, kP, "aclrtMemManagedPrefetchAsync: NULL", aclrtMemManagedPrefetchAsync(nullptr, 2 << 20, Host(), 0, f.stream));
  ROW(D, kP, "aclrtMemManagedPrefetchAsync: size 0", aclrtMemManagedPrefetchAsync(f.managed, 0, Host(), 0, f.stream));
  ROW(D, kP, "aclrtMemManagedPrefetchAsync: flags 1", aclrtMemManagedPrefetchAsync(f.managed, 2 << 20, Host(), 1, f.stream));
  ROW(D, kRp, "aclrtMemManagedPrefetchAsync: INVALID location",
      aclrtMemManagedPrefetchAsync(f.managed, 2 << 20, aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_INVALID, 0}, 0, f.stream));
  ROW(D, kRp, "aclrtMemManagedPrefetchAsync: device 99",
      aclrtMemManagedPrefetchAsync(f.managed, 2 << 20, DevLoc(99), 0, f.stream));
  ROW(D, kRp, "aclrtMemManagedPrefetchAsync: freed", aclrtMemManagedPrefetchAsync(f.freed_managed, 2 << 20, Host(), 0, f.stream));
  ROW(D, kRp, "aclrtMemManagedPrefetchAsync: size wraps",
      aclrtMemManagedPrefetchAsync(f.managed, SIZE_MAX, Host(), 0, f.stream));
  ROW(D, kH, "aclrtMemManagedPrefetchAsync: destroyed stream",
      aclrtMemManagedPrefetchAsync(f.managed, 2 << 20, Host(), 0, f.dead_stream));
  ROW(D, kP, "aclrtMemManagedGetAttr: NULL data",
      aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, f.managed, 2 << 20, nullptr, 4));
  ROW(D, kRp, "aclrtMemManagedGetAttr: attribute 9", [&] {
    int32_t v;
    return aclrtMemManagedGetAttr(Bad<aclrtMemManagedRangeAttribute>(9), f.managed, 2 << 20, &v, 4);
  }());
  ROW(D, kRp, "aclrtMemManagedGetAttr: dataSize 3", [&] {
    int32_t v;
    return aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, f.managed, 2 << 20, &v, 3);
  }());
  ROW(D, kRp, "aclrtMemManagedGetAttr: freed", [&] {
    int32_t v;
    return aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, f.freed_managed, 2 << 20, &v, 4);
  }());
  ROW(D, kP, "aclrtMemManagedPrefetchBatchAsync: count 0", [&] {
    const void* p[1] = {f.managed};
    size_t s[1] = {2 << 20}, idx[1] = {0};
    aclrtMemManagedLocation l[1] = {Host()};
    return aclrtMemManagedPrefetchBatchAsync(p, s, 0, l, idx, 1, 0, f.stream);
  }());
  ROW(D, kRp, "aclrtMemManagedPrefetchBatchAsync: index not 0 first", [&] {
    const void* p[1] = {f.managed};
    size_t s[1] = {2 << 20}, idx[1] = {1};
    aclrtMemManagedLocation l[1] = {Host()};
    return aclrtMemManagedPrefetchBatchAsync(p, s, 1, l, idx, 1, 0, f.stream);
  }());
  ROW(D, kRp, "aclrtMemManagedPrefetchBatchAsync: freed range", [&] {
    const void* p[1] = {f.freed_managed};
    size_t s[1] = {2 << 20}, idx[1] = {0};
    aclrtMemManagedLocation l[1] = {Host()};
    return aclrtMemManagedPrefetchBatchAsync(p, s, 1, l, idx, 1, 0, f.stream);
  }());
}

void HandleRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  // data buffers
  ROW(D, 1, "aclCreateDataBuffer: data NULL with size 100 -> NULL", aclCreateDataBuffer(nullptr, 100) == nullptr ? 1 : 0);
  ROW(D, kP, "aclDestroyDataBuffer: NULL", aclDestroyDataBuffer(nullptr));
  ROW(D, kH, "aclDestroyDataBuffer: twice", aclDestroyDataBuffer(f.dead_buf));
  ROW(D, kH, "aclDestroyDataBuffer: never created", aclDestroyDataBuffer(reinterpret_cast<aclDataBuffer*>(f.Junk())));
  ROW(D, kP, "aclUpdateDataBuffer: NULL", aclUpdateDataBuffer(nullptr, f.host, 4));
  ROW(D, kH, "aclUpdateDataBuffer: destroyed", aclUpdateDataBuffer(f.dead_buf, f.host, 4));
  ROW(D, kP, "aclUpdateDataBuffer: data NULL with size 4", aclUpdateDataBuffer(f.buf, nullptr, 4));
  ROW(D, 1, "aclGetDataBufferAddr: destroyed -> NULL", aclGetDataBufferAddr(f.dead_buf) == nullptr ? 1 : 0);
  ROW(D, 1, "aclGetDataBufferSizeV2: destroyed -> 0", aclGetDataBufferSizeV2(f.dead_buf) == 0 ? 1 : 0);
  ROW(D, 1, "aclGetDataBufferSize: foreign -> 0",
      aclGetDataBufferSize(reinterpret_cast<aclDataBuffer*>(f.Junk())) == 0 ? 1 : 0);
  // stream config handles
  ROW(D, kP, "aclrtDestroyStreamConfigHandle: NULL", aclrtDestroyStreamConfigHandle(nullptr));
  ROW(D, kH, "aclrtDestroyStreamConfigHandle: twice", aclrtDestroyStreamConfigHandle(f.dead_cfg));
  ROW(D, kH, "aclrtDestroyStreamConfigHandle: never created",
      aclrtDestroyStreamConfigHandle(reinterpret_cast<aclrtStreamConfigHandle*>(f.Junk())));
  ROW(D, kP, "aclrtSetStreamConfigOpt: NULL handle", [&] {
    uint32_t v = 1;
    return aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_PRIORITY, &v, 4);
  }());
  ROW(D, kP, "aclrtSetStreamConfigOpt: NULL value", aclrtSetStreamConfigOpt(f.cfg, ACL_RT_STREAM_PRIORITY, nullptr, 4));
  ROW(D, kH, "aclrtSetStreamConfigOpt: destroyed handle", [&] {
    uint32_t v = 1;
    return aclrtSetStreamConfigOpt(f.dead_cfg, ACL_RT_STREAM_PRIORITY, &v, 4);
  }());
  ROW(D, kP, "aclrtSetStreamConfigOpt: attr 4", [&] {
    uint32_t v = 1;
    return aclrtSetStreamConfigOpt(f.cfg, Bad<aclrtStreamConfigAttr>(4), &v, 4);
  }());
  ROW(D, kP, "aclrtSetStreamConfigOpt: priority 8", [&] {
    uint32_t v = 8;
    return aclrtSetStreamConfigOpt(f.cfg, ACL_RT_STREAM_PRIORITY, &v, 4);
  }());
  ROW(D, kP, "aclrtSetStreamConfigOpt: priority valueSize 2", [&] {
    uint32_t v = 1;
    return aclrtSetStreamConfigOpt(f.cfg, ACL_RT_STREAM_PRIORITY, &v, 2);
  }());
  ROW(D, kP, "aclrtSetStreamConfigOpt: work size valueSize 4", [&] {
    uint32_t v = 1;
    return aclrtSetStreamConfigOpt(f.cfg, ACL_RT_STREAM_WORK_SIZE, &v, 4);
  }());
  ROW(D, kP, "aclrtCreateStreamV2: NULL stream", aclrtCreateStreamV2(nullptr, f.cfg));
  ROW(D, kH, "aclrtCreateStreamV2: destroyed handle", [&] { aclrtStream s; return aclrtCreateStreamV2(&s, f.dead_cfg); }());
  ROW(D, kH, "aclrtCreateStreamV2: foreign handle", [&] {
    static aclrtStreamConfigHandle mine{};
    aclrtStream s;
    return aclrtCreateStreamV2(&s, &mine);
  }());
  // streams
  ROW(D, kP, "aclrtCreateStream: NULL", aclrtCreateStream(nullptr));
  ROW(kInit, kCtx, "aclrtCreateStream: no context", [&] { aclrtStream s; return aclrtCreateStream(&s); }());
  ROW(D, kRp, "aclrtCreateStreamWithConfig: priority 8",
      [&] { aclrtStream s; return aclrtCreateStreamWithConfig(&s, 8, 0); }());
  ROW(D, kP, "aclrtDestroyStream: NULL", aclrtDestroyStream(nullptr));
  ROW(D, kSCtx, "aclrtDestroyStream: destroyed", aclrtDestroyStream(f.dead_stream));
  ROW(D, kSCtx, "aclrtDestroyStream: junk", aclrtDestroyStream(f.Junk()));
  ROW(D, kSCtx, "aclrtDestroyStreamForce: destroyed", aclrtDestroyStreamForce(f.dead_stream));
  ROW(D, kRp, "aclrtDestroyStream: the default stream", [&] {
    aclrtStream s;
    if (aclrtCtxGetCurrentDefaultStream(&s) != 0) return -1;
    return aclrtDestroyStream(s);
  }());
  ROW(D, kH, "aclrtSynchronizeStream: destroyed", aclrtSynchronizeStream(f.dead_stream));
  ROW(D, kH, "aclrtSynchronizeStream: junk", aclrtSynchronizeStream(f.Junk()));
  ROW(D, kRp, "aclrtSynchronizeStreamWithTimeout: timeout -2", aclrtSynchronizeStreamWithTimeout(f.stream, -2));
  ROW(D, kH, "aclrtSynchronizeStreamWithTimeout: destroyed", aclrtSynchronizeStreamWithTimeout(f.dead_stream, 10));
  ROW(D, kP, "aclrtStreamQuery: NULL status", aclrtStreamQuery(f.stream, nullptr));
  ROW(D, kH, "aclrtStreamQuery: destroyed", [&] { aclrtStreamStatus s; return aclrtStreamQuery(f.dead_stream, &s); }());
  ROW(D, kP, "aclrtStreamWaitEvent: NULL event", aclrtStreamWaitEvent(f.stream, nullptr));
  ROW(D, kH, "aclrtStreamWaitEvent: destroyed event", aclrtStreamWaitEvent(f.stream, f.dead_event));
  ROW(D, kH, "aclrtStreamWaitEvent: destroyed stream", aclrtStreamWaitEvent(f.dead_stream, f.event));
  ROW(D, kRp, "aclrtStreamWaitEventWithTimeout: timeout -1", aclrtStreamWaitEventWithTimeout(f.stream, f.event, -1));
  ROW(D, kH, "aclrtSetStreamFailureMode: destroyed", aclrtSetStreamFailureMode(f.dead_stream, 1));
  ROW(kInit, kCtx, "aclrtSetStreamFailureMode: no context", aclrtSetStreamFailureMode(nullptr, 1));
  ROW(D, kH, "aclrtStreamStop: destroyed", aclrtStreamStop(f.dead_stream));
  ROW(D, kH, "aclrtStreamAbort: junk", aclrtStreamAbort(f.Junk()));
  ROW(D, kP, "aclrtStreamGetId: NULL", aclrtStreamGetId(f.stream, nullptr));
  ROW(D, kH, "aclrtStreamGetId: destroyed", [&] { int32_t id; return aclrtStreamGetId(f.dead_stream, &id); }());
  ROW(D, kP, "aclrtStreamGetFlags: NULL", aclrtStreamGetFlags(f.stream, nullptr));
  ROW(D, kH, "aclrtStreamGetFlags: junk", [&] { uint32_t v; return aclrtStreamGetFlags(f.Junk(), &v); }());
  ROW(D, kP, "aclrtStreamGetPriority: NULL", aclrtStreamGetPriority(f.stream, nullptr));
  ROW(D, kP, "aclrtRegStreamStateCallback: NULL name", aclrtRegStreamStateCallback(nullptr, nullptr, nullptr));
  // events
  ROW(D, kP, "aclrtCreateEvent: NULL", aclrtCreateEvent(nullptr));
  ROW(kInit, kCtx, "aclrtCreateEvent: no context", [&] { aclrtEvent e; return aclrtCreateEvent(&e); }());
  ROW(D, kP, "aclrtCreateEventWithFlag: unknown flag", [&] { aclrtEvent e; return aclrtCreateEventWithFlag(&e, 0x80000000u); }());
  ROW(D, kP, "aclrtCreateEventExWithFlag: unknown flag", [&] { aclrtEvent e; return aclrtCreateEventExWithFlag(&e, 0x100u); }());
  ROW(D, kP, "aclrtDestroyEvent: NULL", aclrtDestroyEvent(nullptr));
  ROW(D, kH, "aclrtDestroyEvent: twice", aclrtDestroyEvent(f.dead_event));
  ROW(D, kH, "aclrtDestroyEvent: junk", aclrtDestroyEvent(f.Junk()));
  ROW(D, kP, "aclrtRecordEvent: NULL", aclrtRecordEvent(nullptr, f.stream));
  ROW(D, kH, "aclrtRecordEvent: destroyed event", aclrtRecordEvent(f.dead_event, f.stream));
  ROW(D, kH, "aclrtRecordEvent: destroyed stream", aclrtRecordEvent(f.event, f.dead_stream));
  ROW(D, kH, "aclrtResetEvent: destroyed", aclrtResetEvent(f.dead_event, f.stream));
  ROW(D, kP, "aclrtQueryEventStatus: NULL status", aclrtQueryEventStatus(f.event, nullptr));
  ROW(D, kH, "aclrtQueryEventStatus: destroyed", [&] {
    aclrtEventRecordedStatus s;
    return aclrtQueryEventStatus(f.dead_event, &s);
  }());
  ROW(D, kP, "aclrtQueryEventWaitStatus: NULL status", aclrtQueryEventWaitStatus(f.event, nullptr));
  ROW(D, kP, "aclrtQueryEventWaitStatus: NULL event", [&] {
    aclrtEventWaitStatus s;
    return aclrtQueryEventWaitStatus(nullptr, &s);
  }());
  ROW(D, kH, "aclrtQueryEventWaitStatus: destroyed", [&] {
    aclrtEventWaitStatus s;
    return aclrtQueryEventWaitStatus(f.dead_event, &s);
  }());
  ROW(D, kNs, "aclrtQueryEventWaitStatus: an aclrtCreateEventExWithFlag event", [&] {
    aclrtEvent e = nullptr;
    aclrtEventWaitStatus s;
    return aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC) == 0 ? aclrtQueryEventWaitStatus(e, &s) : -1;
  }());
  ROW(D, kP, "aclrtGetEventId: NULL id", aclrtGetEventId(f.event, nullptr));
  ROW(D, kP, "aclrtGetEventId: NULL event", [&] { uint32_t id; return aclrtGetEventId(nullptr, &id); }());
  ROW(D, kH, "aclrtGetEventId: destroyed", [&] { uint32_t id; return aclrtGetEventId(f.dead_event, &id); }());
  ROW(D, kH, "aclrtGetEventId: junk", [&] { uint32_t id; return aclrtGetEventId(f.Junk(), &id); }());
  ROW(D, kH, "aclrtQueryEvent: junk", [&] { aclrtEventStatus s; return aclrtQueryEvent(f.Junk(), &s); }());
  ROW(D, kH, "aclrtSynchronizeEvent: destroyed", aclrtSynchronizeEvent(f.dead_event));
  ROW(D, kRp, "aclrtSynchronizeEventWithTimeout: timeout -5", aclrtSynchronizeEventWithTimeout(f.event, -5));
  ROW(D, kP, "aclrtEventElapsedTime: NULL ms", aclrtEventElapsedTime(nullptr, f.event, f.event));
  ROW(D, kH, "aclrtEventElapsedTime: destroyed end", [&] { float ms; return aclrtEventElapsedTime(&ms, f.event, f.dead_event); }());
  ROW(D, kP, "aclrtEventGetTimestamp: NULL", aclrtEventGetTimestamp(f.event, nullptr));
  ROW(D, kH, "aclrtEventGetTimestamp: destroyed", [&] { uint64_t t; return aclrtEventGetTimestamp(f.dead_event, &t); }());
  // notifies
  ROW(D, kP, "aclrtCreateNotify: NULL", aclrtCreateNotify(nullptr, 0));
  ROW(D, kP, "aclrtCreateNotify: flag 2", [&] { aclrtNotify n; return aclrtCreateNotify(&n, 2); }());
  ROW(kInit, kCtx, "aclrtCreateNotify: no context", [&] { aclrtNotify n; return aclrtCreateNotify(&n, 0); }());
  ROW(D, kP, "aclrtDestroyNotify: NULL", aclrtDestroyNotify(nullptr));
  ROW(D, kH, "aclrtDestroyNotify: twice", aclrtDestroyNotify(f.dead_notify));
  ROW(D, kH, "aclrtRecordNotify: destroyed", aclrtRecordNotify(f.dead_notify, f.stream));
  ROW(D, kH, "aclrtRecordNotify: destroyed stream", aclrtRecordNotify(f.notify, f.dead_stream));
  ROW(D, kH, "aclrtWaitAndResetNotify: junk", aclrtWaitAndResetNotify(f.Junk(), f.stream, 0));
  // contexts
  ROW(D, kP, "aclrtCreateContext: NULL", aclrtCreateContext(nullptr, 0));
  ROW(D, kDev, "aclrtCreateContext: device 99", [&] { aclrtContext c; return aclrtCreateContext(&c, 99); }());
  ROW(D, kDev, "aclrtCreateContext: device -1", [&] { aclrtContext c; return aclrtCreateContext(&c, -1); }());
  ROW(D, kP, "aclrtDestroyContext: NULL", aclrtDestroyContext(nullptr));
  ROW(D, kH, "aclrtDestroyContext: destroyed", aclrtDestroyContext(f.dead_ctx));
  ROW(D, kH, "aclrtDestroyContext: junk", aclrtDestroyContext(f.Junk()));
  ROW(D, kP, "aclrtSetCurrentContext: NULL", aclrtSetCurrentContext(nullptr));
  ROW(D, kH, "aclrtSetCurrentContext: destroyed", aclrtSetCurrentContext(f.dead_ctx));
  ROW(D, kP, "aclrtGetCurrentContext: NULL", aclrtGetCurrentContext(nullptr));
  ROW(kInit, kCtx, "aclrtGetCurrentContext: none", [&] { aclrtContext c; return aclrtGetCurrentContext(&c); }());
  ROW(D, kP, "aclrtCtxGetCurrentDefaultStream: NULL", aclrtCtxGetCurrentDefaultStream(nullptr));
  ROW(kInit, kCtx, "aclrtCtxGetCurrentDefaultStream: no context",
      [&] { aclrtStream s; return aclrtCtxGetCurrentDefaultStream(&s); }());
  // callbacks
  ROW(D, kRp, "aclrtSubscribeReport: thread id 0", aclrtSubscribeReport(0, f.stream));
  ROW(D, kH, "aclrtSubscribeReport: destroyed stream", aclrtSubscribeReport(1234, f.dead_stream));
  ROW(D, 107011, "aclrtUnSubscribeReport: not subscribed", aclrtUnSubscribeReport(1234, f.stream));
  ROW(D, kP, "aclrtProcessReport: timeout 0", aclrtProcessReport(0));
  ROW(D, kP, "aclrtProcessReport: timeout -2", aclrtProcessReport(-2));
  ROW(D, 107012, "aclrtProcessReport: not subscribed", aclrtProcessReport(10));
  ROW(D, kP, "aclrtLaunchCallback: NULL fn", aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, f.stream));
  ROW(D, kP, "aclrtLaunchCallback: block type 2",
      aclrtLaunchCallback([](void*) {}, nullptr, Bad<aclrtCallbackBlockType>(2), f.stream));
  ROW(D, 107015, "aclrtLaunchCallback: stream not subscribed",
      aclrtLaunchCallback([](void*) {}, nullptr, ACL_CALLBACK_NO_BLOCK, f.stream));
  ROW(D, kP, "aclrtLaunchHostFunc: NULL fn", aclrtLaunchHostFunc(f.stream, nullptr, nullptr));
  ROW(D, kH, "aclrtLaunchHostFunc: destroyed stream", aclrtLaunchHostFunc(f.dead_stream, [](void*) {}, nullptr));
  ROW(D, kRp, "aclrtSubscribeHostFunc: thread id 0", aclrtSubscribeHostFunc(0, f.stream));
}

void DeviceRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  ROW(D, kDev, "aclrtSetDevice: 99", aclrtSetDevice(99));
  ROW(D, kDev, "aclrtSetDevice: -1", aclrtSetDevice(-1));
  ROW(D, kDev, "aclrtSetDevice: INT32_MAX", aclrtSetDevice(INT32_MAX));
  ROW(D, kDev, "aclrtResetDevice: 99", aclrtResetDevice(99));
  ROW(D, kDev, "aclrtResetDeviceForce: -3", aclrtResetDeviceForce(-3));
  ROW(D, kP, "aclrtGetDevice: NULL", aclrtGetDevice(nullptr));
  ROW(kInit, kCtx, "aclrtGetDevice: no context", [&] { int32_t d; return aclrtGetDevice(&d); }());
  ROW(D, kP, "aclrtGetDeviceCount: NULL", aclrtGetDeviceCount(nullptr));
  ROW(D, kP, "aclrtGetDeviceInfo: NULL", aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr));
  ROW(D, kDev, "aclrtGetDeviceInfo: device 99", [&] { int64_t v; return aclrtGetDeviceInfo(99, ACL_DEV_ATTR_AICORE_CORE_NUM, &v); }());
  ROW(D, kNs, "aclrtGetDeviceInfo: attribute 9999", [&] { int64_t v; return aclrtGetDeviceInfo(0, Bad<aclrtDevAttr>(9999), &v); }());
  ROW(D, kP, "aclrtGetDeviceUtilizationRate: NULL", aclrtGetDeviceUtilizationRate(0, nullptr));
  ROW(D, kP, "aclrtGetDeviceUtilizationRate: extend not NULL", [&] {
    aclrtUtilizationInfo u{};
    u.utilizationExtend = reinterpret_cast<aclrtUtilizationExtendInfo*>(f.Junk());
    return aclrtGetDeviceUtilizationRate(0, &u);
  }());
  ROW(D, kP, "aclrtQueryDeviceStatus: NULL", aclrtQueryDeviceStatus(0, nullptr));
  ROW(D, kP, "aclrtGetDeviceResLimit: NULL", aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  ROW(D, kP, "aclrtGetResInCurrentThread: NULL", aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  ROW(D, kP, "aclrtGetErrorVerbose: NULL", aclrtGetErrorVerbose(0, nullptr));
  ROW(D, kP, "aclrtGetDeviceCapability: NULL", aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, nullptr));
  ROW(D, kRp, "aclrtSynchronizeDeviceWithTimeout: timeout -2", aclrtSynchronizeDeviceWithTimeout(-2));
  ROW(D, kP, "aclrtGetRunMode: NULL", aclrtGetRunMode(nullptr));
  ROW(D, kP, "aclrtGetVersion: NULL", aclrtGetVersion(nullptr, nullptr, nullptr));
  ROW(D, kP, "aclsysGetVersionStr: NULL", aclsysGetVersionStr(nullptr, nullptr));
  ROW(D, kP, "aclsysGetVersionNum: NULL", aclsysGetVersionNum(nullptr, nullptr));
  ROW(D, kP, "aclrtCheckArchCompatibility: NULL", aclrtCheckArchCompatibility(nullptr, nullptr));
  ROW(D, kRp, "aclrtCheckArchCompatibility: unknown SOC",
      [&] { int32_t c; return aclrtCheckArchCompatibility("NoSuchSoc", &c); }());
  ROW(D, kP, "aclGetCannAttributeList: NULL", aclGetCannAttributeList(nullptr, nullptr));
  ROW(D, kP, "aclGetCannAttribute: NULL", aclGetCannAttribute(ACL_CANN_ATTR_BF16, nullptr));
  ROW(D, kP, "aclGetCannAttribute: attribute 77", [&] { int32_t v; return aclGetCannAttribute(Bad<aclCannAttr>(77), &v); }());
  ROW(D, kP, "aclrtPeekAtLastError: level 1", aclrtPeekAtLastError(Bad<aclrtLastErrLevel>(1)));
  ROW(D, kP, "aclrtGetLastError: level -1", aclrtGetLastError(Bad<aclrtLastErrLevel>(-1)));
  ROW(D, kP, "aclrtGetThreadLastTaskId: NULL", aclrtGetThreadLastTaskId(nullptr));
  ROW_NOMSG(D, kOk, "aclrtDeviceGetStreamPriorityRange: both NULL (allowed)",
            aclrtDeviceGetStreamPriorityRange(nullptr, nullptr));
  ROW(D, kP, "aclrtGetHardwareSyncAddr: NULL", aclrtGetHardwareSyncAddr(nullptr));
  // exception info getters
  ROW_NOMSG(D, -1, "aclrtGetArgsFromExceptionInfo: NULL info",
            [&] { void* a; uint32_t l; return aclrtGetArgsFromExceptionInfo(nullptr, &a, &l); }());
  ROW_NOMSG(D, -1, "aclrtGetFuncHandleFromExceptionInfo: NULL info",
            [&] { aclrtFuncHandle h; return aclrtGetFuncHandleFromExceptionInfo(nullptr, &h); }());
  ROW_NOMSG(D, 1, "aclrtGetTaskIdFromExceptionInfo: NULL -> 0xFFFFFFFF",
            aclrtGetTaskIdFromExceptionInfo(nullptr) == 0xFFFFFFFFu ? 1 : 0);
  // init and finalize
  ROW(kInit, 100002, "aclInit: twice", aclInit(nullptr));
  ROW(kBare, 100003, "aclInit: missing file", aclInit("/nonexistent/acl.json"));
  ROW(kBare, 100003, "aclInit: a directory", aclInit("/"));
  ROW(kBare, 100006, "aclInit: not JSON", [] {
    FILE* fp = std::fopen("misuse_bad.json", "w");
    if (!fp) return -1;
    std::fputs("{ this is not json", fp);
    std::fclose(fp);
    return aclInit("misuse_bad.json");
  }());
  ROW(kBare, kRepeatFinal, "aclFinalize: never initialised", aclFinalize());
  ROW(kFinalized, kRepeatFinal, "aclFinalize: twice", aclFinalize());
  ROW(kFinalized, kCtx, "aclrtCreateStream: after finalize and reset", [&] { aclrtStream s; return aclrtCreateStream(&s); }());
  ROW(kFinalized, kH, "aclrtSynchronizeStream: stream of a reset device", aclrtSynchronizeStream(f.stream));
  ROW(kFinalized, kRp, "aclrtMemcpy: memory of a reset device",
      aclrtMemcpy(f.host, 64, f.dev, 64, ACL_MEMCPY_DEVICE_TO_HOST));
  ROW(kFinalized, kRp, "aclrtFree: memory of a reset device", aclrtFree(f.dev));
  ROW(kFinalized, kH, "aclrtDestroyEvent: event of a reset device", aclrtDestroyEvent(f.event));
}

void KernelRows(std::vector<Row>& rows) {
  const Level D = kDevice;
  ROW(D, kP, "aclrtBinaryLoadFromFile: NULL path", [&] { aclrtBinHandle b; return aclrtBinaryLoadFromFile(nullptr, nullptr, &b); }());
  ROW(D, kP, "aclrtBinaryLoadFromFile: NULL handle", aclrtBinaryLoadFromFile("x.o", nullptr, nullptr));
  ROW(D, 107009, "aclrtBinaryLoadFromFile: missing file",
      [&] { aclrtBinHandle b; return aclrtBinaryLoadFromFile("/nonexistent/k.o", nullptr, &b); }());
  ROW(D, 107009, "aclrtBinaryLoadFromFile: a directory", [&] { aclrtBinHandle b; return aclrtBinaryLoadFromFile("/", nullptr, &b); }());
  ROW(D, kRp, "aclrtBinaryLoadFromFile: not an ELF file", [&] {
    aclrtBinHandle b;
    return aclrtBinaryLoadFromFile("/proc/self/cmdline", nullptr, &b) == 107009 ? kRp
                                                                                : aclrtBinaryLoadFromFile("/etc/hostname", nullptr, &b);
  }());
  ROW(D, kRp, "aclrtBinaryLoadFromFile: unknown magic", [&] {
    aclrtBinaryLoadOption o{};
    o.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    o.value.magic = 0xdeadbeefu;
    aclrtBinaryLoadOptions opts{&o, 1};
    aclrtBinHandle b;
    return aclrtBinaryLoadFromFile("/etc/hostname", &opts, &b);
  }());
  ROW(D, kP, "aclrtBinaryLoadFromFile: unknown option type", [&] {
    aclrtBinaryLoadOption o{};
    o.type = Bad<aclrtBinaryLoadOptionType>(42);
    aclrtBinaryLoadOptions opts{&o, 1};
    aclrtBinHandle b;
    return aclrtBinaryLoadFromFile("/etc/hostname", &opts, &b);
  }());
  ROW(D, kP, "aclrtBinaryLoadFromFile: options NULL with numOpt 3", [&] {
    aclrtBinaryLoadOptions opts{nullptr, 3};
    aclrtBinHandle b;
    return aclrtBinaryLoadFromFile("/etc/hostname", &opts, &b);
  }());
  ROW(D, kP, "aclrtBinaryLoadFromData: NULL data", [&] { aclrtBinHandle b; return aclrtBinaryLoadFromData(nullptr, 10, nullptr, &b); }());
  ROW(D, kP, "aclrtBinaryLoadFromData: length 0", [&] { aclrtBinHandle b; return aclrtBinaryLoadFromData(f.host, 0, nullptr, &b); }());
  ROW(D, kRp, "aclrtBinaryLoadFromData: length 2^40 for a small buffer (no bad_alloc)",
      [&] { aclrtBinHandle b; return aclrtBinaryLoadFromData(f.host, 1ull << 40, nullptr, &b); }());
  ROW(D, kRp, "aclrtBinaryLoadFromData: garbage bytes", [&] { aclrtBinHandle b; return aclrtBinaryLoadFromData(f.host, 4096, nullptr, &b); }());
  ROW(D, kRp, "aclrtBinaryLoadFromData: ELF magic then garbage", [&] {
    std::memcpy(f.host, "\x7f" "ELF", 4);
    aclrtBinHandle b;
    return aclrtBinaryLoadFromData(f.host, 4096, nullptr, &b);
  }());
  ROW(D, kRp, "aclrtBinaryLoadFromData: in-process record with a bad table", [&] {
    simnpu_inproc_image img{SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, nullptr};
    aclrtBinHandle b;
    return aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &b);
  }());
  ROW(D, kRp, "aclrtBinaryLoadFromData: in-process record with a wild table pointer (no crash)", [&] {
    simnpu_inproc_image img{SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION,
                            reinterpret_cast<const simnpu_kernel_table*>(uintptr_t{0x1000001020})};
    aclrtBinHandle b;
    return aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &b);
  }());
  ROW(D, kP, "aclrtBinaryUnLoad: NULL", aclrtBinaryUnLoad(nullptr));
  ROW(D, kH, "aclrtBinaryUnLoad: twice", aclrtBinaryUnLoad(f.dead_bin));
  ROW(D, kH, "aclrtBinaryUnLoad: junk", aclrtBinaryUnLoad(f.Junk()));
  ROW(D, kP, "aclrtBinaryGetFunction: NULL name", [&] { aclrtFuncHandle h; return aclrtBinaryGetFunction(f.bin, nullptr, &h); }());
  ROW(D, kRp, "aclrtBinaryGetFunction: unknown kernel", [&] { aclrtFuncHandle h; return aclrtBinaryGetFunction(f.bin, "nope", &h); }());
  ROW(D, kH, "aclrtBinaryGetFunction: unloaded binary", [&] { aclrtFuncHandle h; return aclrtBinaryGetFunction(f.dead_bin, "mu_fill", &h); }());
  ROW(D, kRp, "aclrtBinaryGetFunctionByEntry: unknown entry",
      [&] { aclrtFuncHandle h; return aclrtBinaryGetFunctionByEntry(f.bin, 0xfffffff0ull, &h); }());
  ROW(D, kP, "aclrtKernelArgsInit: NULL func", [&] { aclrtArgsHandle a; return aclrtKernelArgsInit(nullptr, &a); }());
  ROW(D, kH, "aclrtKernelArgsInit: stale function", [&] { aclrtArgsHandle a; return aclrtKernelArgsInit(f.dead_func, &a); }());
  ROW(D, kH, "aclrtKernelArgsInit: junk function", [&] { aclrtArgsHandle a; return aclrtKernelArgsInit(f.Junk(), &a); }());
  ROW(D, kP, "aclrtKernelArgsAppend: NULL param", [&] { aclrtParamHandle p; return aclrtKernelArgsAppend(f.args, nullptr, 8, &p); }());
  ROW(D, kP, "aclrtKernelArgsAppend: size 0", [&] { aclrtParamHandle p; return aclrtKernelArgsAppend(f.args, &f.dev, 0, &p); }());
  ROW(D, kRp, "aclrtKernelArgsAppend: size SIZE_MAX", [&] {
    aclrtParamHandle p;
    return aclrtKernelArgsAppend(f.args, &f.dev, SIZE_MAX, &p);
  }());
  ROW(D, kRp, "aclrtKernelArgsAppend: more than 64 KiB", [&] {
    aclrtParamHandle p;
    static unsigned char big[70000];
    return aclrtKernelArgsAppend(f.args, big, sizeof big, &p);
  }());
  ROW(D, kH, "aclrtKernelArgsAppend: junk args", [&] { aclrtParamHandle p; return aclrtKernelArgsAppend(f.Junk(), &f.dev, 8, &p); }());
  ROW(D, kH, "aclrtKernelArgsAppend: after the binary was unloaded", [&] {
    aclrtParamHandle p;
    if (aclrtBinaryUnLoad(f.bin) != 0) return -1;
    return aclrtKernelArgsAppend(f.args, &f.dev, 8, &p);
  }());
  ROW(D, kNs, "aclrtKernelArgsAppend: after Finalize", [&] {
    aclrtParamHandle p;
    uint32_t n = 4;
    if (aclrtKernelArgsAppend(f.args, &f.dev, 8, &p) || aclrtKernelArgsAppend(f.args, &n, 4, &p) ||
        aclrtKernelArgsFinalize(f.args))
      return -1;
    return aclrtKernelArgsAppend(f.args, &n, 4, &p);
  }());
  ROW(D, kNs, "aclrtKernelArgsFinalize: twice", [&] {
    if (aclrtKernelArgsFinalize(f.args)) return -1;
    return aclrtKernelArgsFinalize(f.args);
  }());
  ROW(D, kP, "aclrtKernelArgsFinalize: NULL", aclrtKernelArgsFinalize(nullptr));
  ROW(D, kRp, "aclrtKernelArgsGetPlaceHolderBuffer: dataSize SIZE_MAX (no abort)", [&] {
    aclrtParamHandle p;
    void* buf;
    if (aclrtKernelArgsAppendPlaceHolder(f.args, &p)) return -1;
    return aclrtKernelArgsGetPlaceHolderBuffer(f.args, p, SIZE_MAX, &buf);
  }());
  ROW(D, kP, "aclrtKernelArgsGetPlaceHolderBuffer: dataSize 0", [&] {
    aclrtParamHandle p;
    void* buf;
    if (aclrtKernelArgsAppendPlaceHolder(f.args, &p)) return -1;
    return aclrtKernelArgsGetPlaceHolderBuffer(f.args, p, 0, &buf);
  }());
  ROW(D, kRp, "aclrtKernelArgsGetPlaceHolderBuffer: not a placeholder", [&] {
    aclrtParamHandle p;
    void* buf;
    if (aclrtKernelArgsAppend(f.args, &f.dev, 8, &p)) return -1;
    return aclrtKernelArgsGetPlaceHolderBuffer(f.args, p, 16, &buf);
  }());
  ROW(D, kP, "aclrtLaunchKernelWithConfig: numBlocks 0", aclrtLaunchKernelWithConfig(f.func, 0, f.stream, nullptr, f.args, nullptr));
  ROW(D, kP, "aclrtLaunchKernelWithConfig: reserve not NULL",
      aclrtLaunchKernelWithConfig(f.func, 1, f.stream, nullptr, f.args, f.Junk()));
  ROW(D, kRp, "aclrtLaunchKernelWithConfig: not finalized", aclrtLaunchKernelWithConfig(f.func, 1, f.stream, nullptr, f.args, nullptr));
  ROW(D, kH, "aclrtLaunchKernelWithConfig: stale function",
      aclrtLaunchKernelWithConfig(f.dead_func, 1, f.stream, nullptr, f.args, nullptr));
  ROW(D, kRp, "aclrtLaunchKernelWithConfig: wrong argument count", [&] {
    aclrtParamHandle p;
    if (aclrtKernelArgsAppend(f.args, &f.dev, 8, &p) || aclrtKernelArgsFinalize(f.args)) return -1;
    return aclrtLaunchKernelWithConfig(f.func, 1, f.stream, nullptr, f.args, nullptr);
  }());
  ROW(D, kRp, "aclrtLaunchKernelWithConfig: unknown attribute", [&] {
    aclrtParamHandle p;
    uint32_t n = 4;
    if (aclrtKernelArgsAppend(f.args, &f.dev, 8, &p) || aclrtKernelArgsAppend(f.args, &n, 4, &p) ||
        aclrtKernelArgsFinalize(f.args))
      return -1;
    aclrtLaunchKernelAttr a{};
    a.id = Bad<aclrtLaunchKernelAttrId>(77);
    aclrtLaunchKernelCfg cfg{&a, 1};
    return aclrtLaunchKernelWithConfig(f.func, 1, f.stream, &cfg, f.args, nullptr);
  }());
  ROW(D, kP, "aclrtLaunchKernelWithConfig: cfg attrs NULL", [&] {
    aclrtLaunchKernelCfg cfg{nullptr, 2};
    return aclrtLaunchKernelWithConfig(f.func, 1, f.stream, &cfg, f.args, nullptr);
  }());
  ROW(D, kP, "aclrtLaunchKernelWithHostArgs: NULL args",
      aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, nullptr, 16, nullptr, 0));
  ROW(D, kRp, "aclrtLaunchKernelWithHostArgs: argsSize SIZE_MAX (no over-read)",
      aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, f.host, SIZE_MAX, nullptr, 0));
  ROW(D, kRp, "aclrtLaunchKernelWithHostArgs: argsSize too small",
      aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, f.host, 4, nullptr, 0));
  ROW(D, kP, "aclrtLaunchKernelWithHostArgs: placeholders NULL with count 2",
      aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, f.host, 16, nullptr, 2));
  ROW(D, kRp, "aclrtLaunchKernelWithHostArgs: placeholder outside the block", [&] {
    aclrtPlaceHolderInfo ph{4096, 8};
    return aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, f.host, 16, &ph, 1);
  }());
  ROW(D, kRp, "aclrtLaunchKernelWithHostArgs: placeHolderNum huge", [&] {
    aclrtPlaceHolderInfo ph{0, 8};
    return aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, f.host, 16, &ph, SIZE_MAX / 8);
  }());
  ROW(D, kH, "aclrtLaunchKernelWithHostArgs: destroyed stream",
      aclrtLaunchKernelWithHostArgs(f.func, 1, f.dead_stream, nullptr, f.host, 16, nullptr, 0));
  ROW(D, kRp, "aclrtLaunchKernelWithHostArgs: engine type 5", [&] {
    aclrtLaunchKernelAttr a{};
    a.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    a.value.engineType = Bad<aclrtEngineType>(5);
    aclrtLaunchKernelCfg cfg{&a, 1};
    return aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, &cfg, f.host, 16, nullptr, 0);
  }());
  // a launch whose kernel writes into freed memory fails the stream, not the process
  ROW(D, 507035, "kernel: writes into freed device memory (memcheck)", [&] {
    struct {
      void* z;
      uint64_t n;
    } a{f.freed_dev, 16};
    if (aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, &a, sizeof a, nullptr, 0)) return -1;
    return aclrtSynchronizeStream(f.stream);
  }());
  ROW(D, 507035, "kernel: writes past its buffer (memcheck)", [&] {
    struct {
      void* z;
      uint64_t n;
    } a{f.dev, 1025};
    if (aclrtLaunchKernelWithHostArgs(f.func, 1, f.stream, nullptr, &a, sizeof a, nullptr, 0)) return -1;
    return aclrtSynchronizeStream(f.stream);
  }());
}

}  // namespace

std::vector<Row> AllRows() {
  std::vector<Row> rows;
  MemoryRows(rows);
  ManagedRows(rows);
  HandleRows(rows);
  DeviceRows(rows);
  KernelRows(rows);
  ExtRows(rows);
  return rows;
}

}  // namespace misuse
