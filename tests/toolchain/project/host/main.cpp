// Host program of the toolchain test project (ascendc_library STATIC/SHARED):
// launches the kernels through the <<<>>> wrappers of the library and through
// the generated aclrtlaunch_<kernel> entry points, then checks the results.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_axpb.h"
#include "aclrtlaunch_trap_kernel.h"
#include "aclrtlaunch_vadd_float.h"

uint32_t VaddDo(uint32_t blockDim, void* stream, float* x, float* y, float* z, uint32_t total);
int32_t AxpbDo(uint32_t blockDim, void* stream, float* out, double scale, int offset, const float* in);
uint32_t TrapDo(uint32_t blockDim, void* stream);

#define CHECK(expr)                                                                         \
  do {                                                                                      \
    const long long rc_ = static_cast<long long>(expr);                                     \
    if (rc_ != 0) {                                                                         \
      std::printf("[FAILED] %s returned %lld (line %d)\n", #expr, rc_, __LINE__);           \
      return 1;                                                                             \
    }                                                                                       \
  } while (0)

static bool Near(float a, float b) { return std::fabs(a - b) <= 1e-4f * (1.0f + std::fabs(b)); }

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    const uint32_t n = 1000;
    const size_t bytes = n * sizeof(float);
    std::vector<float> hx(n), hy(n), hz(n), hz2(n);
    for (uint32_t i = 0; i < n; ++i) {
        hx[i] = static_cast<float>(i);
        hy[i] = 2.0f * static_cast<float>(i) + 0.5f;
    }
    float *dx = nullptr, *dy = nullptr, *dz = nullptr, *dz2 = nullptr, *dout = nullptr;
    CHECK(aclrtMalloc(reinterpret_cast<void**>(&dx), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(reinterpret_cast<void**>(&dy), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(reinterpret_cast<void**>(&dz), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(reinterpret_cast<void**>(&dz2), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(reinterpret_cast<void**>(&dout), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dy, bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    // vector add: through the <<<>>> wrapper and through ACLRT_LAUNCH_KERNEL
    CHECK(VaddDo(8, stream, dx, dy, dz, n));
    CHECK(ACLRT_LAUNCH_KERNEL(vadd_float)(3, stream, dx, dy, dz2, n));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hz.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(hz2.data(), bytes, dz2, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < n; ++i) {
        if (!Near(hz[i], hx[i] + hy[i]) || !Near(hz2[i], hx[i] + hy[i])) {
            std::printf("[FAILED] vadd_float: z[%u] = %f / %f, expected %f\n", i, hz[i], hz2[i], hx[i] + hy[i]);
            return 1;
        }
    }
    std::printf("vadd_float: OK\n");

    // scalar parameters (float, uint32_t), default stream (nullptr)
    const uint32_t m = 16;
    CHECK(AxpbDo(m, nullptr, dout, 0.5, 7, dx));
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtMemcpy(hz.data(), bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < m; ++i) {
        if (!Near(hz[i], 0.5f * hx[i] + 1007.0f)) {
            std::printf("[FAILED] axpb (wrapper): out[%u] = %f, expected %f\n", i, hz[i], 0.5f * hx[i] + 1007.0f);
            return 1;
        }
    }
    CHECK(ACLRT_LAUNCH_KERNEL(axpb)(m, stream, dout, 2.0f, 3u, dy));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hz.data(), bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < m; ++i) {
        if (!Near(hz[i], 2.0f * hy[i] + 1003.0f)) {
            std::printf("[FAILED] axpb (aclrtlaunch): out[%u] = %f, expected %f\n", i, hz[i], 2.0f * hy[i] + 1003.0f);
            return 1;
        }
    }
    std::printf("axpb: OK\n");

    // asm("trap"): the launch is enqueued, the synchronize reports the AIV exception
    CHECK(TrapDo(1, stream));
    const aclError trap = aclrtSynchronizeStream(stream);
    std::printf("trap_kernel: synchronize returned %d\n", static_cast<int>(trap));
    if (trap != 507035) {
        std::printf("[FAILED] trap_kernel: expected 507035\n");
        return 1;
    }

    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dz);
    aclrtFree(dz2);
    aclrtFree(dout);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("[SUCCESS] toolchain project (library)\n");
    return 0;
}
