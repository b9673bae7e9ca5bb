// Virtual memory management: physical handles mapped into reserved ranges,
// shared with another process through a shareable handle (whitelist, V2).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "ipc/ipc_child.h"
#include "ipc/ipc_fixture.h"

using simnpu_test::AllBytes;
using simnpu_test::Child;

namespace {

aclrtPhysicalMemProp Prop() {
  aclrtPhysicalMemProp p;
  std::memset(&p, 0, sizeof p);
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  p.memAttr = ACL_HBM_MEM_NORMAL;
  return p;
}

class VmmTest : public simnpu_test::IpcTest {};

TEST_F(VmmTest, GranularityAndPropertyChecks) {
  aclrtPhysicalMemProp p = Prop();
  size_t g = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
  EXPECT_EQ(g, 2u << 20);
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g), ACL_SUCCESS);
  EXPECT_EQ(g, 2u << 20);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtPhysicalMemProp bad = Prop();
  bad.memAttr = ACL_HBM_MEM;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_INVALID_PARAM);
  bad = Prop();
  bad.memAttr = ACL_DDR_MEM_HUGE;  // DDR on a DEVICE location
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_INVALID_PARAM);
  bad = Prop();
  bad.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
  EXPECT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_ERROR_INVALID_PARAM);
  bad = Prop();
  bad.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
  aclrtDrvMemHandle h = nullptr;
  EXPECT_EQ(aclrtMallocPhysical(&h, g, &bad, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&h, 0, &p, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&h, g, &p, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&h, 4096, &p, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(nullptr, g, &p, 0), ACL_ERROR_INVALID_PARAM);
  void* va = nullptr;
  EXPECT_EQ(aclrtReserveMemAddress(&va, 0, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(&va, g, 0, nullptr, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReserveMemAddress(nullptr, g, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreePhysical(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemSetAccess(nullptr, g, nullptr, 1), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemImportFromShareableHandle(12345, 0, &h), ACL_ERROR_RT_PARAM_INVALID);  // forged
  EXPECT_EQ(aclrtMemImportFromShareableHandle(12345, 0, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(VmmTest, MappedRangeWorksLikeDeviceMemory) {
  aclrtPhysicalMemProp p = Prop();
  const size_t g = 2u << 20, size = 2 * g;
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, size, &p, 0), ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 3 * g, 0, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMapMem(va, g, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);   // not the handle's size
  EXPECT_EQ(aclrtMapMem(va, size, g, h, 0), ACL_ERROR_RT_PARAM_INVALID);  // offset must be 0
  EXPECT_EQ(aclrtMapMem(va, size, 0, h, 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMapMem(va, size, 0, h, 0), ACL_SUCCESS);
  aclrtMemAccessDesc d;
  std::memset(&d, 0, sizeof d);
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  EXPECT_EQ(aclrtMemSetAccess(va, size, &d, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemSetAccess(va, g, &d, 1), ACL_ERROR_RT_PARAM_INVALID);  // must cover the mapping
  ASSERT_EQ(aclrtMemset(va, size, 0x3C, size), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(dev, size, va, size, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  EXPECT_TRUE(AllBytes(dev, size, 0x3C));
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);  // still mapped
  // Freeing the handle while mapped: the mapping keeps the pages.
  EXPECT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  EXPECT_TRUE(AllBytes(va, size, 0x3C));
  EXPECT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  aclrtFree(dev);
}

TEST_F(VmmTest, ShareableHandleWithWhitelistAcrossProcesses) {
  aclrtPhysicalMemProp p = Prop();
  const size_t g = 2u << 20;
  aclrtDrvMemHandle h = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&h, g, &p, 0), ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, g, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(va, g, 0, h, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(va, g, 0x77, g), ACL_SUCCESS);
  uint64_t sh = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &sh), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &sh), ACL_SUCCESS);
  uint64_t again = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &again),
            ACL_ERROR_RT_PARAM_INVALID);  // one shareable handle per handle
  aclrtDrvMemHandle self = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(sh, 0, &self), ACL_ERROR_RT_PARAM_INVALID);  // own export
  Child c({IPC_PEER_PATH, "vmm-import", "119"});
  std::string pl = c.Line();
  ASSERT_EQ(pl.rfind("pid ", 0), 0u);
  int32_t pid = std::atoi(pl.c_str() + 4);
  c.Send(std::to_string(sh));
  EXPECT_EQ(c.Line(), "rc 207006");  // not whitelisted
  ASSERT_EQ(aclrtMemSetPidToShareableHandle(sh, &pid, 1), ACL_SUCCESS);
  c.Send("go");
  EXPECT_EQ(c.Line(), "rc 0");  // import
  EXPECT_EQ(c.Line(), "rc 0");  // reserve
  EXPECT_EQ(c.Line(), "rc 0");  // map
  EXPECT_EQ(c.Line(), "rc 0");  // set access
  EXPECT_EQ(c.Line(), "data ok");
  EXPECT_EQ(c.Line(), "rc 0");  // memset 0x5A
  EXPECT_EQ(c.Line(), "rc 0");  // unmap
  EXPECT_EQ(c.Line(), "rc 0");  // release
  EXPECT_EQ(c.Line(), "rc 0");  // free
  EXPECT_EQ(c.Wait(), 0);
  EXPECT_TRUE(AllBytes(va, g, 0x5A));
  ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
}

TEST_F(VmmTest, V2DefaultAndFabricHandlesWithoutPidCheck) {
  aclrtPhysicalMemProp p = Prop();
  const size_t g = 2u << 20;
  for (int fabric = 0; fabric < 2; ++fabric) {
    aclrtDrvMemHandle h = nullptr;
    ASSERT_EQ(aclrtMallocPhysical(&h, g, &p, 0), ACL_SUCCESS);
    void* va = nullptr;
    ASSERT_EQ(aclrtReserveMemAddress(&va, g, 0, nullptr, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMapMem(va, g, 0, h, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(va, g, 0x19, g), ACL_SUCCESS);
    aclrtMemFabricHandle fh;
    std::memset(&fh, 0, sizeof fh);
    uint64_t sh = 0;
    EXPECT_EQ(aclrtMemExportToShareableHandleV2(h, 1, static_cast<aclrtMemSharedHandleType>(3), &fh),
              ACL_ERROR_RT_PARAM_INVALID);
    if (fabric) {
      ASSERT_EQ(aclrtMemExportToShareableHandleV2(h, 1, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fh), ACL_SUCCESS);
      std::memcpy(&sh, fh.data, sizeof sh);
    } else {
      ASSERT_EQ(aclrtMemExportToShareableHandleV2(h, 1, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh), ACL_SUCCESS);
    }
    Child c({IPC_PEER_PATH, "vmm-import", "25"});
    c.Line();
    c.Send(std::to_string(sh));
    EXPECT_EQ(c.Line(), "rc 0");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(c.Line(), "rc 0");
    EXPECT_EQ(c.Line(), "data ok");
    for (int i = 0; i < 4; ++i) EXPECT_EQ(c.Line(), "rc 0");
    EXPECT_EQ(c.Wait(), 0);
    EXPECT_TRUE(AllBytes(va, g, 0x5A));
    aclrtDrvMemHandle imp = nullptr;
    EXPECT_EQ(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &imp), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
    ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
    ASSERT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  }
}

}  // namespace
