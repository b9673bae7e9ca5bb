// Compile-only check: the whole ACL API through acl/acl.h as strict C++11
// (-std=c++11 -pedantic-errors -Wall -Wextra -Werror and a few more; a second
// build without -pedantic-errors adds the GNU-only ACL_APP_LOG), using
// the C++ form of dim3, brace initialisation of the API structures and the
// error codes in constant expressions, the way C++ samples do.
#include "acl/acl.h"

#include <cstdio>
#include <vector>

static_assert(sizeof(aclrtLaunchKernelAttr) == 20, "aclrtLaunchKernelAttr");
static_assert(sizeof(aclrtErrorInfo) == 2576, "aclrtErrorInfo");
static_assert(sizeof(dim3) == 12, "dim3");
static_assert(ACL_SUCCESS == 0 && ACL_ERROR_INVALID_PARAM == 100000, "ACL codes are constant expressions");
static_assert(ACL_ERROR_GE_PARAM_INVALID == 145000U, "GE codes are constant expressions");

namespace {

constexpr dim3 kBlocks(8);
static_assert(kBlocks.x == 8 && kBlocks.y == 1 && kBlocks.z == 1, "dim3 defaults");

// Constant expressions in switch labels, as error-handling code does.
const char *Describe(aclError code)
{
    switch (code) {
        case ACL_SUCCESS:
            return "ok";
        case ACL_ERROR_INVALID_PARAM:
            return "invalid parameter";
        case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
            return "not supported";
        case ACL_ERROR_RT_PARAM_INVALID:
            return "runtime: invalid parameter";
        default:
            return "other";
    }
}

}  // namespace

int CxxUsesTheApi();
int CxxUsesTheApi()
{
    aclError ret = aclInit(nullptr);
    std::printf("%s %s\n", Describe(ret), aclrtGetSocName());
    aclrtStream stream = nullptr;
    ret = aclrtSetDevice(0);
    ret = aclrtCreateStream(&stream);
    void *x = nullptr;
    ret = aclrtMemAllocManaged(&x, 32768, ACL_RT_MEM_ATTACH_GLOBAL);
    aclrtMemManagedLocation loc{ACL_MEM_LOCATIONTYPE_HOST, 0};
    ret = aclrtMemManagedPrefetchAsync(x, 2U << 20, loc, 0, stream);
    const void *ptrs[1] = {x};
    size_t sizes[1] = {2U << 20};
    size_t idx[1] = {0};
    ret = aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, &loc, idx, 1, 0, stream);
    aclrtMemManagedRangeAttribute attr = ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION;
    int32_t where = 0;
    ret = aclrtMemManagedGetAttr(attr, x, 2U << 20, &where, sizeof(where));

    std::vector<aclrtLaunchKernelAttr> attrs(2);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
    attrs[0].value.dynUBufSize = 1024;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
    attrs[1].value.blockDimOffset = 0;
    aclrtLaunchKernelCfg cfg{attrs.data(), attrs.size()};
    aclrtPlaceHolderInfo ph{8, 16};
    uint64_t blob[4] = {0, 0, 0, 0};
    ret = aclrtLaunchKernelWithHostArgs(nullptr, kBlocks.x, stream, &cfg, blob, sizeof(blob), &ph, 1);

    aclrtStreamConfigHandle *handle = aclrtCreateStreamConfigHandle();
    size_t flag = ACL_STREAM_FAST_LAUNCH;
    ret = aclrtSetStreamConfigOpt(handle, ACL_RT_STREAM_FLAG, &flag, sizeof(flag));
    ret = aclrtCreateStreamV2(&stream, handle);
    ret = aclrtDestroyStreamConfigHandle(handle);

    aclrtPtrAttributes pattr{};
    ret = aclrtPointerGetAttributes(x, &pattr);
#ifdef SIMNPU_USE_GNU_MACROS
    // ACL_APP_LOG relies on ", ##__VA_ARGS__" (a GNU extension), so it is only
    // exercised in the non-pedantic build of this file.
    if (pattr.location.type == ACL_MEM_LOCATION_TYPE_MANAGED) {
        ACL_APP_LOG(ACL_INFO, "managed on %u", pattr.location.id);
    }
    ACL_APP_LOG(ACL_WARNING, "format only");
#endif
    ret = aclrtFree(x);
    ret = aclrtDestroyStreamForce(stream);
    ret = aclrtResetDeviceForce(0);
    ret = aclFinalize();
    return ret;
}
