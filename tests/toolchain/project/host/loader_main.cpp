// Host program of the toolchain test project (ascendc_fatbin_library and
// ascendc_library OBJECT): loads the kernel image the way the CANN samples do
// (aclrtBinaryLoadFromFile, aclrtKernelArgs*, aclrtLaunchKernelWithConfig).
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define CHECK(expr)                                                                         \
  do {                                                                                      \
    const long long rc_ = static_cast<long long>(expr);                                     \
    if (rc_ != 0) {                                                                         \
      std::printf("[FAILED] %s returned %lld (line %d)\n", #expr, rc_, __LINE__);           \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

int main(int argc, char** argv)
{
    const char* image = argc > 1 ? argv[1] : KERNEL_IMAGE;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    aclrtBinHandle bin = nullptr;
    CHECK(aclrtBinaryLoadFromFile(image, nullptr, &bin));
    aclrtFuncHandle vadd = nullptr;
    CHECK(aclrtBinaryGetFunction(bin, "vadd_float", &vadd));

    uint32_t n = 2048;
    const size_t bytes = n * sizeof(float);
    std::vector<float> hx(n), hy(n), hz(n);
    for (uint32_t i = 0; i < n; ++i) {
        hx[i] = 0.25f * static_cast<float>(i);
        hy[i] = 100.0f - static_cast<float>(i);
    }
    void *dx = nullptr, *dy = nullptr, *dz = nullptr;
    CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dy, bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    aclrtArgsHandle args = nullptr;
    aclrtParamHandle ph = nullptr;
    CHECK(aclrtKernelArgsInit(vadd, &args));
    CHECK(aclrtKernelArgsAppend(args, &dx, sizeof(void*), &ph));
    CHECK(aclrtKernelArgsAppend(args, &dy, sizeof(void*), &ph));
    CHECK(aclrtKernelArgsAppend(args, &dz, sizeof(void*), &ph));
    CHECK(aclrtKernelArgsAppend(args, &n, sizeof(n), &ph));
    CHECK(aclrtKernelArgsFinalize(args));
    CHECK(aclrtLaunchKernelWithConfig(vadd, 8, stream, nullptr, args, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hz.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < n; ++i) {
        if (std::fabs(hz[i] - (hx[i] + hy[i])) > 1e-3f) {
            std::printf("[FAILED] vadd_float: z[%u] = %f, expected %f\n", i, hz[i], hx[i] + hy[i]);
            return 1;
        }
    }
    std::printf("vadd_float: OK\n");

    aclrtFuncHandle trap = nullptr;
    CHECK(aclrtBinaryGetFunction(bin, "trap_kernel", &trap));
    CHECK(aclrtKernelArgsInit(trap, &args));
    CHECK(aclrtKernelArgsFinalize(args));
    CHECK(aclrtLaunchKernelWithConfig(trap, 1, stream, nullptr, args, nullptr));
    const aclError rc = aclrtSynchronizeStream(stream);
    std::printf("trap_kernel: synchronize returned %d\n", static_cast<int>(rc));
    if (rc != 507035) {
        std::printf("[FAILED] trap_kernel: expected 507035\n");
        return 1;
    }

    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dz);
    CHECK(aclrtBinaryUnLoad(bin));
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("[SUCCESS] toolchain project (kernel image)\n");
    return 0;
}
