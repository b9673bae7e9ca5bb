// The rules around multi-device and inter-process memory: device-to-device
// copies and kernel launches that reach another device's memory need peer
// access; the calls the reference forbids on IPC events are refused (207000);
// an exported small allocation's chunk is never handed out again while an
// importer may hold its pages; the allocation map knows VMM-mapped and
// IPC-imported ranges as their own kinds.
// Each case runs in its own process with its own shared-memory directory;
// ipc_peer (IPC_PEER_PATH) is the other process.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "checking/memcheck_kernels.h"
#include "ipc/ipc_child.h"
#include "ipc/ipc_fixture.h"

using simnpu_test::Child;
using simnpu_test::TakeMsg;

namespace {

// aclrtQueryEvent is deprecated (still exported and still refused for IPC events).
aclError QueryEvent(aclrtEvent e, aclrtEventStatus* st) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return aclrtQueryEvent(e, st);
#pragma GCC diagnostic pop
}

class IpcRulesTest : public simnpu_test::IpcTest {
 protected:
  void TearDown() override {
    aclrtResetDeviceForce(1);
    IpcTest::TearDown();
  }
  static void* Alloc(size_t size, int byte) { return simnpu_test::AllocFilled(size, byte); }
  static std::vector<unsigned char> Read(const void* dev, size_t size) {
    std::vector<unsigned char> h(size, 0xCC);
    EXPECT_EQ(aclrtMemcpy(h.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return h;
  }
  static bool All(const std::vector<unsigned char>& v, int byte) {
    for (unsigned char c : v)
      if (c != static_cast<unsigned char>(byte)) return false;
    return true;
  }
};

// --- (a) peer access --------------------------------------------------------

TEST_F(IpcRulesTest, CrossDeviceCopiesNeedPeerAccess) {
  const size_t n = 64 << 10;
  void* a = Alloc(n, 0x11);  // device 0
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* b = Alloc(n, 0x22);  // device 1
  aclrtStream s1 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s0 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);

  // No peer access yet: refused either way, sync and async (at submission),
  // with the kind given or derived from the addresses.
  (void)TakeMsg();
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  const std::string msg = TakeMsg();
  EXPECT_NE(msg.find("no peer access to device 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("aclrtDeviceEnablePeerAccess(1, 0)"), std::string::npos) << msg;
  EXPECT_EQ(aclrtMemcpy(a, n, b, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_FALSE(TakeMsg().empty());
  EXPECT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);  // nothing reached the stream
  EXPECT_TRUE(All(Read(b, n), 0x22));
  EXPECT_TRUE(All(Read(a, n), 0x11));
  // Copies inside one device and copies to or from the host need none.
  void* a2 = Alloc(n, 0x33);
  EXPECT_EQ(aclrtMemcpy(a2, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(a2, n), 0x11));

  // Device 0 -> device 1 enabled: device 0 may copy both ways.
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(b, n), 0x11));
  EXPECT_EQ(aclrtMemset(b, n, 0x44, n), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(a, n, b, n, ACL_MEMCPY_DEFAULT, s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(a, n), 0x44));

  // One direction only: device 1 (its stream, or current) still has none.
  EXPECT_EQ(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s1), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(a, n, 0x55, n), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE, s1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(b, n), 0x55));
  ASSERT_EQ(aclrtDeviceDisablePeerAccess(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);

  // Disabled again on device 0: refused again.
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);

  EXPECT_EQ(aclrtDestroyStream(s0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(a2), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
}

TEST_F(IpcRulesTest, KernelsReachAnotherDevicesMemoryOnlyWithPeerAccess) {
  simnpu_inproc_image img = {SIMNPU_INPROC_IMAGE_MAGIC, SIMNPU_KERNEL_ABI_VERSION, McKernelTable()};
  aclrtBinHandle bin = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromData(&img, sizeof img, nullptr, &bin), ACL_SUCCESS);
  aclrtFuncHandle f = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(bin, "mc_copy", &f), ACL_SUCCESS);
  constexpr uint32_t count = 256;
  const size_t bytes = count * sizeof(float);
  std::vector<float> src(count);
  for (uint32_t i = 0; i < count; ++i) src[i] = 1.5f * static_cast<float>(i);

  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* x1 = nullptr;  // the source, on device 1
  ASSERT_EQ(aclrtMalloc(&x1, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(x1, bytes, src.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* z0 = Alloc(bytes, 0);  // the destination, on device 0
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct alignas(8) Args {
    void* x;
    void* z;
    uint32_t count;
    uint32_t pad;
  } args{x1, z0, count, 0};

  (void)TakeMsg();
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, &args, sizeof args, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  const std::string msg = TakeMsg();
  EXPECT_NE(msg.find("kernel mc_copy argument 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no peer access to device 1"), std::string::npos) << msg;
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);  // nothing was submitted
  EXPECT_TRUE(All(Read(z0, bytes), 0));

  // The argument-handle launch is checked the same way.
  aclrtArgsHandle ah = nullptr;
  aclrtParamHandle ph = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &ah), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(ah, &args.x, sizeof(void*), &ph), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(ah, &args.z, sizeof(void*), &ph), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(ah, &args.count, sizeof(uint32_t), &ph), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(ah), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, s, nullptr, ah, nullptr), ACL_ERROR_RT_PARAM_INVALID);

  // With peer access from device 0 to device 1 the kernel reads device 1's memory.
  ASSERT_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, &args, sizeof args, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  std::vector<float> out(count, -1.0f);
  ASSERT_EQ(aclrtMemcpy(out.data(), bytes, z0, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(out.data(), src.data(), bytes), 0);
  // ... and writes it: z0 -> x1 (device 1's memory as the destination).
  ASSERT_EQ(aclrtMemset(x1, bytes, 0, bytes), ACL_SUCCESS);
  args = {z0, x1, count, 0};
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, &args, sizeof args, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  std::vector<float> back(count, -1.0f);
  ASSERT_EQ(aclrtMemcpy(back.data(), bytes, x1, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back.data(), src.data(), bytes), 0);
  // The argument-handle form (x1 -> z0) runs too now.
  ASSERT_EQ(aclrtMemset(z0, bytes, 0, bytes), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, s, nullptr, ah, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), bytes, z0, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(out.data(), src.data(), bytes), 0);
  ASSERT_EQ(aclrtDeviceDisablePeerAccess(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithHostArgs(f, 1, s, nullptr, &args, sizeof args, nullptr, 0),
            ACL_ERROR_RT_PARAM_INVALID);

  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  (void)aclrtBinaryUnLoad(bin);
  EXPECT_EQ(aclrtFree(z0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(x1), ACL_SUCCESS);
}

// --- (b) IPC events: the forbidden calls ------------------------------------

TEST_F(IpcRulesTest, ForbiddenCallsOnAnIpcEventAre207000) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent ev = nullptr, plain = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  // Allowed: record, synchronize, query status, stream wait.
  EXPECT_EQ(aclrtRecordEvent(ev, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(plain, s), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_EQ(aclrtQueryEventStatus(ev, &rs), ACL_SUCCESS);
  EXPECT_EQ(rs, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtStreamWaitEvent(s, ev), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);

  // Forbidden: reset, query, elapsed time (either side), timestamp.
  (void)TakeMsg();
  EXPECT_EQ(aclrtResetEvent(ev, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  std::string msg = TakeMsg();
  EXPECT_NE(msg.find("aclrtResetEvent does not support IPC events"), std::string::npos) << msg;
  aclrtEventStatus es = ACL_EVENT_STATUS_RESERVED;
  EXPECT_EQ(QueryEvent(ev, &es), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(es, ACL_EVENT_STATUS_RESERVED);  // untouched
  EXPECT_FALSE(TakeMsg().empty());
  float ms = -1;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, plain, ev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, ev, plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(ms, -1);
  uint64_t ts = 77;
  EXPECT_EQ(aclrtEventGetTimestamp(ev, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(ts, 77u);
  EXPECT_FALSE(TakeMsg().empty());
  // The same calls on an ordinary event still work.
  EXPECT_EQ(QueryEvent(plain, &es), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventGetTimestamp(plain, &ts), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, plain, plain), ACL_SUCCESS);

  // In a capture: recording or waiting on the IPC event is refused, the
  // capture goes on (an ordinary record is captured).
  ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(ev, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  msg = TakeMsg();
  EXPECT_NE(msg.find("cannot be used in a task graph"), std::string::npos) << msg;
  EXPECT_EQ(aclrtStreamWaitEvent(s, ev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtRecordEvent(plain, s), ACL_SUCCESS);
  aclmdlRI ri = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  if (ri) {
    EXPECT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  }

  EXPECT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(plain), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST_F(IpcRulesTest, ForbiddenCallsOnAnOpenedIpcEventAre207000) {
  aclrtStream s = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent ev = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ev, ACL_EVENT_IPC), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(ev, s), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
  aclrtIpcEventHandle h;
  std::memset(&h, 0, sizeof h);
  ASSERT_EQ(aclrtIpcGetEventHandle(ev, &h), ACL_SUCCESS);
  // The consumer runs on device 1: opening enables peer access both ways
  // with the exporter's device 0 (acl-api-ext.md 3.3).
  Child c({IPC_PEER_PATH, "event-rules", "1"});
  c.Send(simnpu_test::EventHandleHex(h));
  EXPECT_EQ(c.Line(), "rc 0");       // open
  EXPECT_EQ(c.Line(), "peer 11");
  EXPECT_EQ(c.Line(), "rc 207000");  // aclrtResetEvent
  EXPECT_EQ(c.Line(), "rc 207000");  // aclrtQueryEvent
  EXPECT_EQ(c.Line(), "rc 207000");  // aclrtEventGetTimestamp
  EXPECT_EQ(c.Line(), "rc 207000");  // aclrtEventElapsedTime
  EXPECT_EQ(c.Line(), "rc 0");       // aclrtQueryEventStatus
  EXPECT_EQ(c.Line(), "rc 0");       // aclrtDestroyEvent
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// --- (c) an exported small allocation's chunk -------------------------------

TEST_F(IpcRulesTest, FreedExportedSmallAllocationIsNotReusedWhileImported) {
  const size_t n = 4096;
  void* a = Alloc(n, 0x61);  // small: sub-allocated from a 2 MiB chunk
  void* keep = Alloc(n, 0x62);  // keeps the chunk in use after a is freed
  char key[65] = {0};
  ASSERT_EQ(aclrtIpcMemGetExportKey(a, n, key, sizeof key, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  Child c({IPC_PEER_PATH, "import-hold", std::to_string(n)});
  c.Send(key);
  ASSERT_EQ(c.Line(), "rc 0");
  // The exporter frees a while the importer still holds it (the documented
  // lifetime: the importer keeps valid memory).
  ASSERT_EQ(aclrtFree(a), ACL_SUCCESS);
  // New small allocations must not share the importer's pages.
  std::vector<void*> fresh;
  for (int i = 0; i < 8; ++i) fresh.push_back(Alloc(n, 0x00));
  c.Send("fill 171");  // 0xAB through the importer's mapping
  EXPECT_EQ(c.Line(), "rc 0");
  for (void* p : fresh) {
    EXPECT_NE(p, a);
    EXPECT_TRUE(All(Read(p, n), 0x00)) << "an allocation at " << p << " shares the imported pages";
  }
  EXPECT_TRUE(All(Read(keep, n), 0x62));
  c.Send("close");
  EXPECT_EQ(c.Line(), "rc 0");
  c.CloseInput();
  EXPECT_EQ(c.Wait(), 0);
  for (void* p : fresh) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(keep), ACL_SUCCESS);
  // Once the whole chunk is free it is used again (with fresh pages).
  void* again = Alloc(n, 0x63);
  EXPECT_TRUE(All(Read(again, n), 0x63));
  EXPECT_EQ(aclrtFree(again), ACL_SUCCESS);
}

// --- (d) VMM-mapped and IPC-imported ranges in the allocation map ----------

TEST_F(IpcRulesTest, VmmMappedRangesAreCheckedAsTheirOwnKind) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t g = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, g, &prop, 0), ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0), ACL_SUCCESS);
  // Reserved but unmapped: not memory a copy may touch.
  std::vector<unsigned char> host(g, 0x3C);
  (void)TakeMsg();
  EXPECT_EQ(aclrtMemcpy(va, g, host.data(), g, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_FALSE(TakeMsg().empty());
  ASSERT_EQ(aclrtMapMem(va, g, 0, h, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(va, g, host.data(), g, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(va, g), 0x3C));
  // One byte past the mapping (into the unmapped half of the range).
  EXPECT_EQ(aclrtMemset(va, g + 1, 0, g + 1), ACL_ERROR_RT_PARAM_INVALID);
  std::string msg = TakeMsg();
  EXPECT_NE(msg.find("mapped virtual memory (aclrtMapMem)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("by 1 byte"), std::string::npos) << msg;
  aclrtPtrAttributes attr = {};
  EXPECT_EQ(aclrtPointerGetAttributes(static_cast<char*>(va) + 100, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(aclrtValueWrite(va, 5, 0, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  // Unmapped: freed memory for every call that takes a pointer.
  EXPECT_EQ(aclrtMemset(va, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  msg = TakeMsg();
  EXPECT_NE(msg.find("which was freed"), std::string::npos) << msg;
  EXPECT_EQ(aclrtValueWrite(va, 5, 0, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

TEST_F(IpcRulesTest, ImportedRangesAreCheckedAsTheirOwnKind) {
  Child exporter({IPC_PEER_PATH, "export", "8192", "0x2D", "0", "1"});
  const std::string line = exporter.Line();
  ASSERT_EQ(line.rfind("key ", 0), 0u) << line;
  const std::string key = line.substr(4);
  void* p = nullptr;
  ASSERT_EQ(aclrtIpcMemImportByKey(&p, key.c_str(), 0), ACL_SUCCESS);
  EXPECT_TRUE(All(Read(p, 8192), 0x2D));
  (void)TakeMsg();
  EXPECT_EQ(aclrtMemset(p, 8192 + 512, 0, 8192 + 512), ACL_ERROR_RT_PARAM_INVALID);
  std::string msg = TakeMsg();
  EXPECT_NE(msg.find("imported IPC memory (aclrtIpcMemImportByKey)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("by 512 byte"), std::string::npos) << msg;
  // Bytes before the import (its chunk holds the exporter's other memory)
  // are not the importer's.
  if (reinterpret_cast<uintptr_t>(p) % (2u << 20) != 0) {
    EXPECT_EQ(aclrtMemset(static_cast<char*>(p) - 64, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
  }
  aclrtPtrAttributes attr = {};
  EXPECT_EQ(aclrtPointerGetAttributes(p, &attr), ACL_SUCCESS);
  EXPECT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(aclrtValueWrite(p, 9, 0, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
  // Closed: the range is gone for every call.
  EXPECT_EQ(aclrtMemset(p, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  msg = TakeMsg();
  EXPECT_NE(msg.find("which was freed"), std::string::npos) << msg;
  exporter.Send("exit");
  EXPECT_EQ(exporter.Wait(), 0);
}

}  // namespace
