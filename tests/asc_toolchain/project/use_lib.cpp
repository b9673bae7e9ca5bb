// A C++ program (compiled by the C++ compiler) using a library of .asc sources.
#include <cstdio>

#include "acl/acl.h"

extern "C" uint32_t LibScale(int* devData, int n, aclrtStream stream);

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream s = nullptr;
    aclrtCreateStream(&s);
    constexpr int kN = 100;
    int host[kN];
    for (int i = 0; i < kN; ++i) host[i] = i - 50;
    int* dev = nullptr;
    aclrtMalloc((void**)&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
    uint32_t rc = LibScale(dev, kN, s);
    aclError sync = aclrtSynchronizeStream(s);
    aclrtMemcpy(host, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    int bad = rc != 0 || sync != ACL_SUCCESS;
    for (int i = 0; i < kN; ++i) bad |= host[i] != (i - 50) * EXPECT_SCALE;
    std::printf("library kernel (scale %d): launch %u, sync %d: %s\n", EXPECT_SCALE, rc, (int)sync,
                bad ? "WRONG" : "ok");
    aclrtFree(dev);
    aclrtDestroyStream(s);
    aclrtResetDevice(0);
    aclFinalize();
    return bad;
}
