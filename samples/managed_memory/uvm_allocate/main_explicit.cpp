// Explicit-copy baseline of the managed-memory sample: the same z = x + y
// with device memory from aclrtMalloc, host buffers from aclrtMallocHost and
// every transfer spelled out with aclrtMemcpy. Same inputs, same kernel, same
// output file as uvm_allocate, so the two can be verified and timed alike.
//
// Exit status: 0 on success, 1 when any step (including release) fails.
#include <cstdint>
#include <cstdlib>

#include "acl/acl.h"
#include "file_io.h"
#include "sample_config.h"
#include "sample_log.h"

namespace {

using namespace uvm_sample;

struct Resources {
    bool aclInitialized = false;
    bool deviceSet = false;
    aclrtStream stream = nullptr;
    void* hostX = nullptr;
    void* hostY = nullptr;
    void* hostZ = nullptr;
    void* devX = nullptr;
    void* devY = nullptr;
    void* devZ = nullptr;
    aclrtBinHandle binary = nullptr;

    bool Release()
    {
        bool ok = true;
        if (binary != nullptr) {
            ok = CHECK_ACL(aclrtBinaryUnLoad(binary)) && ok;
            binary = nullptr;
        }
        void** device[] = {&devZ, &devY, &devX};
        for (void** buffer : device) {
            if (*buffer != nullptr) {
                ok = CHECK_ACL(aclrtFree(*buffer)) && ok;
                *buffer = nullptr;
            }
        }
        void** host[] = {&hostZ, &hostY, &hostX};
        for (void** buffer : host) {
            if (*buffer != nullptr) {
                ok = CHECK_ACL(aclrtFreeHost(*buffer)) && ok;
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

bool AppendPointer(aclrtArgsHandle args, void* pointer)
{
    aclrtParamHandle param = nullptr;
    return CHECK_ACL(aclrtKernelArgsAppend(args, &pointer, sizeof(uintptr_t), &param));
}

bool Run(Resources& res)
{
    if (!CHECK_ACL(aclInit(nullptr))) {
        return false;
    }
    res.aclInitialized = true;
    if (!CHECK_ACL(aclrtSetDevice(kDeviceId))) {
        return false;
    }
    res.deviceSet = true;
    if (!CHECK_ACL(aclrtCreateStream(&res.stream))) {
        return false;
    }

    if (!CHECK_ACL(aclrtMallocHost(&res.hostX, kBufferBytes)) ||
        !CHECK_ACL(aclrtMallocHost(&res.hostY, kBufferBytes)) ||
        !CHECK_ACL(aclrtMallocHost(&res.hostZ, kBufferBytes)) ||
        !CHECK_ACL(aclrtMalloc(&res.devX, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST)) ||
        !CHECK_ACL(aclrtMalloc(&res.devY, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST)) ||
        !CHECK_ACL(aclrtMalloc(&res.devZ, kBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST))) {
        return false;
    }

    if (!ReadExactFile(kInputX, res.hostX, kBufferBytes) || !ReadExactFile(kInputY, res.hostY, kBufferBytes)) {
        return false;
    }
    if (!CHECK_ACL(aclrtMemcpy(res.devX, kBufferBytes, res.hostX, kBufferBytes, ACL_MEMCPY_HOST_TO_DEVICE)) ||
        !CHECK_ACL(aclrtMemcpy(res.devY, kBufferBytes, res.hostY, kBufferBytes, ACL_MEMCPY_HOST_TO_DEVICE))) {
        return false;
    }

    aclrtFuncHandle kernel = nullptr;
    if (!CHECK_ACL(aclrtBinaryLoadFromFile(kKernelImage, nullptr, &res.binary)) ||
        !CHECK_ACL(aclrtBinaryGetFunction(res.binary, kKernelName, &kernel))) {
        return false;
    }
    aclrtArgsHandle args = nullptr;
    if (!CHECK_ACL(aclrtKernelArgsInit(kernel, &args)) || !AppendPointer(args, res.devX) ||
        !AppendPointer(args, res.devY) || !AppendPointer(args, res.devZ) ||
        !CHECK_ACL(aclrtKernelArgsFinalize(args))) {
        return false;
    }
    if (!CHECK_ACL(aclrtLaunchKernelWithConfig(kernel, kBlockDim, res.stream, nullptr, args, nullptr)) ||
        !CHECK_ACL(aclrtSynchronizeStream(res.stream))) {
        return false;
    }

    if (!CHECK_ACL(aclrtMemcpy(res.hostZ, kBufferBytes, res.devZ, kBufferBytes, ACL_MEMCPY_DEVICE_TO_HOST))) {
        return false;
    }
    return WriteWholeFile(kOutputZ, res.hostZ, kBufferBytes);
}

}  // namespace

int main()
{
    Resources res;
    const bool done = Run(res);
    const bool released = res.Release();
    if (!done || !released) {
        ERROR_LOG("The uvm_allocate explicit-copy baseline failed.");
        return EXIT_FAILURE;
    }
    INFO_LOG("Run the uvm_allocate explicit-copy baseline successfully.");
    return EXIT_SUCCESS;
}
