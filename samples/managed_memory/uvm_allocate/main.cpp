// Managed-memory (UVM) sample: z = x + y on the NPU with no explicit copy.
//
// x, y and z come from aclrtMemAllocManaged, so the host and the device use
// the same pointers. The host reads the input files straight into x and y,
// the kernel reads x and y and writes z on the device, and the host writes z
// straight to the output file. Every transfer between host and device memory
// is done by the runtime when a page is touched on the other side.
//
// When the first managed allocation reports ACL_ERROR_RT_FEATURE_NOT_SUPPORT
// the SOC has no UVM: the program says so, releases what it set up and exits 0.
//
// Exit status: 0 on success or skip, 1 when any step (including release) fails.
#include <cstdint>
#include <cstdlib>

#include "acl/acl.h"
#include "file_io.h"
#include "sample_config.h"
#include "sample_log.h"

namespace {

using namespace uvm_sample;

// Everything the program acquires, released in reverse order by Release().
struct Resources {
    bool aclInitialized = false;
    bool deviceSet = false;
    aclrtStream stream = nullptr;
    void* x = nullptr;
    void* y = nullptr;
    void* z = nullptr;
    aclrtBinHandle binary = nullptr;

    // Releases whatever exists; false if any release call fails.
    bool Release()
    {
        bool ok = true;
        if (binary != nullptr) {
            ok = CHECK_ACL(aclrtBinaryUnLoad(binary)) && ok;
            binary = nullptr;
        }
        void** buffers[] = {&z, &y, &x};
        for (void** buffer : buffers) {
            if (*buffer != nullptr) {
                ok = CHECK_ACL(aclrtFree(*buffer)) && ok;
                *buffer = nullptr;
            }
        }
        if (stream != nullptr) {
            ok = CHECK_ACL(aclrtDestroyStreamForce(stream)) && ok;
            stream = nullptr;
        }
        if (deviceSet) {
            ok = CHECK_ACL(aclrtResetDeviceForce(kDeviceId)) && ok;
            deviceSet = false;
        }
        if (aclInitialized) {
            ok = CHECK_ACL(aclFinalize()) && ok;
            aclInitialized = false;
        }
        return ok;
    }
};

enum class Outcome { kDone, kSkipped, kFailed };

// Appends one pointer-sized kernel argument.
bool AppendPointer(aclrtArgsHandle args, void* pointer)
{
    aclrtParamHandle param = nullptr;
    return CHECK_ACL(aclrtKernelArgsAppend(args, &pointer, sizeof(uintptr_t), &param));
}

void ReportAllocFailure(const char* name, aclError code)
{
    ERROR_LOG("aclrtMemAllocManaged(&%s, %zu, ACL_RT_MEM_ATTACH_GLOBAL) failed with error code %d", name,
              kBufferBytes, static_cast<int>(code));
}

// One managed buffer of kBufferBytes; *buffer stays nullptr on failure.
bool AllocManaged(void** buffer, const char* name)
{
    const aclError code = aclrtMemAllocManaged(buffer, kBufferBytes, ACL_RT_MEM_ATTACH_GLOBAL);
    if (code != ACL_SUCCESS) {
        *buffer = nullptr;
        ReportAllocFailure(name, code);
        return false;
    }
    return true;
}

Outcome Run(Resources& res)
{
    if (!CHECK_ACL(aclInit(nullptr))) {
        return Outcome::kFailed;
    }
    res.aclInitialized = true;
    if (!CHECK_ACL(aclrtSetDevice(kDeviceId))) {
        return Outcome::kFailed;
    }
    res.deviceSet = true;
    if (!CHECK_ACL(aclrtCreateStream(&res.stream))) {
        return Outcome::kFailed;
    }

    // The first managed allocation tells whether the SOC supports UVM at all.
    const aclError first = aclrtMemAllocManaged(&res.x, kBufferBytes, ACL_RT_MEM_ATTACH_GLOBAL);
    if (first == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        res.x = nullptr;
        const char* soc = aclrtGetSocName();
        INFO_LOG("[SKIP] uvm_allocate sample skipped: the current SOC (%s) does not support UVM, "
                 "aclrtMemAllocManaged returned error code %d.",
                 soc != nullptr ? soc : "unknown", static_cast<int>(first));
        return Outcome::kSkipped;
    }
    if (first != ACL_SUCCESS) {
        res.x = nullptr;
        ReportAllocFailure("x", first);
        return Outcome::kFailed;
    }
    if (!AllocManaged(&res.y, "y") || !AllocManaged(&res.z, "z")) {
        return Outcome::kFailed;
    }

    // The host fills the managed buffers directly: no staging buffer, no copy call.
    if (!ReadExactFile(kInputX, res.x, kBufferBytes) || !ReadExactFile(kInputY, res.y, kBufferBytes)) {
        return Outcome::kFailed;
    }

    aclrtFuncHandle kernel = nullptr;
    if (!CHECK_ACL(aclrtBinaryLoadFromFile(kKernelImage, nullptr, &res.binary)) ||
        !CHECK_ACL(aclrtBinaryGetFunction(res.binary, kKernelName, &kernel))) {
        return Outcome::kFailed;
    }
    aclrtArgsHandle args = nullptr;
    if (!CHECK_ACL(aclrtKernelArgsInit(kernel, &args)) || !AppendPointer(args, res.x) ||
        !AppendPointer(args, res.y) || !AppendPointer(args, res.z) ||
        !CHECK_ACL(aclrtKernelArgsFinalize(args))) {
        return Outcome::kFailed;
    }
    // The managed pointers go to the kernel as they are.
    if (!CHECK_ACL(aclrtLaunchKernelWithConfig(kernel, kBlockDim, res.stream, nullptr, args, nullptr)) ||
        !CHECK_ACL(aclrtSynchronizeStream(res.stream))) {
        return Outcome::kFailed;
    }

    // The host writes the result straight from managed memory.
    if (!WriteWholeFile(kOutputZ, res.z, kBufferBytes)) {
        return Outcome::kFailed;
    }
    return Outcome::kDone;
}

}  // namespace

int main()
{
    Resources res;
    const Outcome outcome = Run(res);
    const bool released = res.Release();
    if (outcome == Outcome::kFailed || !released) {
        ERROR_LOG("The uvm_allocate sample failed.");
        return EXIT_FAILURE;
    }
    if (outcome == Outcome::kDone) {
        INFO_LOG("Run the uvm_allocate sample successfully.");
    }
    return EXIT_SUCCESS;
}
