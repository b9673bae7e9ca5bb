/*
 * Compile-only check: the whole ACL API through acl/acl.h as strict C99
 * (-std=c99 -pedantic-errors -Wall -Wextra -Werror and a few more; a second
 * build without -pedantic-errors adds the GNU-only ACL_APP_LOG), using
 * the types, macros and the C form of dim3 the way a C program would, and
 * repeating the key layout facts as C99 compile-time assertions so that C
 * and C++ are known to agree.
 */
#include "acl/acl.h"

/* C99 has no _Static_assert: a negative array size stops the build. */
#define C99_ASSERT(name, cond) typedef char c99_assert_##name[(cond) ? 1 : -1]

C99_ASSERT(mem_managed_location, sizeof(aclrtMemManagedLocation) == 8 &&
                                     offsetof(aclrtMemManagedLocation, id) == 4);
C99_ASSERT(mem_location, sizeof(aclrtMemLocation) == 8 && offsetof(aclrtMemLocation, type) == 4);
C99_ASSERT(ptr_attributes, sizeof(aclrtPtrAttributes) == 28 && offsetof(aclrtPtrAttributes, rsv) == 12);
C99_ASSERT(launch_attr_value, sizeof(aclrtLaunchKernelAttrValue) == 16);
C99_ASSERT(launch_attr, sizeof(aclrtLaunchKernelAttr) == 20 && offsetof(aclrtLaunchKernelAttr, value) == 4);
C99_ASSERT(launch_cfg, sizeof(aclrtLaunchKernelCfg) == 16 && offsetof(aclrtLaunchKernelCfg, numAttrs) == 8);
C99_ASSERT(load_option, sizeof(aclrtBinaryLoadOption) == 20 && offsetof(aclrtBinaryLoadOption, value) == 4);
C99_ASSERT(load_options, sizeof(aclrtBinaryLoadOptions) == 16);
C99_ASSERT(place_holder, sizeof(aclrtPlaceHolderInfo) == 8);
C99_ASSERT(stream_config, sizeof(aclrtStreamConfigHandle) == 32 && offsetof(aclrtStreamConfigHandle, priority) == 24);
C99_ASSERT(utilization, sizeof(aclrtUtilizationInfo) == 24 &&
                            offsetof(aclrtUtilizationInfo, utilizationExtend) == 16);
C99_ASSERT(uce_info, sizeof(aclrtMemUceInfo) == 128);
C99_ASSERT(uce_array, sizeof(aclrtMemUceInfoArray) == 2568);
C99_ASSERT(error_detail, sizeof(aclrtErrorInfoDetail) == 2568);
C99_ASSERT(error_info, sizeof(aclrtErrorInfo) == 2576 && offsetof(aclrtErrorInfo, detail) == 8);
C99_ASSERT(malloc_attr, sizeof(aclrtMallocAttribute) == 12 && sizeof(aclrtMallocAttrValue) == 8);
C99_ASSERT(malloc_config, sizeof(aclrtMallocConfig) == 16);
C99_ASSERT(ipc_event_handle, sizeof(aclrtIpcEventHandle) == 64);
C99_ASSERT(uuid, sizeof(aclrtUuid) == 16);
C99_ASSERT(pkg_version, sizeof(aclCANNPackageVersion) == 512);
C99_ASSERT(memcpy_batch_attr, sizeof(aclrtMemcpyBatchAttr) == 32);
C99_ASSERT(mem_access_desc, sizeof(aclrtMemAccessDesc) == 24);
C99_ASSERT(physical_mem_prop, sizeof(aclrtPhysicalMemProp) == 32 && offsetof(aclrtPhysicalMemProp, reserve) == 24);
C99_ASSERT(dim3_size, sizeof(dim3) == 12);
C99_ASSERT(enum_size, sizeof(aclDataType) == 4 && sizeof(aclrtMemMallocPolicy) == 4 && sizeof(aclrtDevAttr) == 4);
C99_ASSERT(rt_code, ACL_ERROR_RT_FEATURE_NOT_SUPPORT == 207000);
C99_ASSERT(attach_global, ACL_RT_MEM_ATTACH_GLOBAL == 1U);
C99_ASSERT(version, ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0);

/* Runtime codes are macros, usable in #if; ACL codes are not. */
#if ACL_ERROR_RT_PARAM_INVALID != 107000
#error "ACL_ERROR_RT_PARAM_INVALID"
#endif
#ifdef ACL_ERROR_INVALID_PARAM
#error "ACL_ERROR_INVALID_PARAM must not be a macro"
#endif

static void on_host(void *args)
{
    (void)args;
}

static void on_stream_state(aclrtStream stream, aclrtStreamState state, void *args)
{
    (void)stream;
    (void)state;
    (void)args;
}

/* A typical T0/T1 host sequence, written against the C declarations. */
int c99_uses_the_api(void);
int c99_uses_the_api(void)
{
    aclrtStream stream = NULL;
    aclrtEvent event = NULL;
    void *managed = NULL;
    aclrtMemManagedLocation loc;
    aclrtPtrAttributes attrs;
    aclrtLaunchKernelAttr kattr[1];
    aclrtLaunchKernelCfg cfg;
    aclrtBinaryLoadOption opt;
    aclrtBinaryLoadOptions opts;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle func = NULL;
    aclrtArgsHandle args = NULL;
    aclrtParamHandle param = NULL;
    aclrtUtilizationInfo util;
    aclrtErrorInfo err;
    dim3 grid = {8, 1, 1};
    aclError ret;
    const char *soc;

    ret = aclInit(NULL);
    if (ret != ACL_SUCCESS && ret != ACL_ERROR_REPEAT_INITIALIZE) {
        return ret;
    }
    soc = aclrtGetSocName();
    (void)soc;
    ret = aclrtSetDevice(0);
    ret = aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    ret = aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE);
    ret = aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC);
    ret = aclrtMemAllocManaged(&managed, 32768, ACL_RT_MEM_ATTACH_GLOBAL);
    if (ret == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        return 0;
    }
    loc.type = ACL_MEM_LOCATIONTYPE_DEVICE;
    loc.id = 0;
    ret = aclrtMemManagedAdvise(managed, 2u << 20, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, loc);
    ret = aclrtMemManagedPrefetchAsync(managed, 2u << 20, loc, 0, stream);
    ret = aclrtPointerGetAttributes(managed, &attrs);
    opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    opt.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
    opts.options = &opt;
    opts.numOpt = 1;
    ret = aclrtBinaryLoadFromFile("./kernel.o", &opts, &bin);
    ret = aclrtBinaryGetFunction(bin, "add_custom", &func);
    ret = aclrtKernelArgsInit(func, &args);
    ret = aclrtKernelArgsAppend(args, &managed, sizeof(managed), &param);
    ret = aclrtKernelArgsFinalize(args);
    kattr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    kattr[0].value.engineType = ACL_RT_ENGINE_TYPE_AIV;
    cfg.attrs = kattr;
    cfg.numAttrs = 1;
    ret = aclrtLaunchKernelWithConfig(func, grid.x, stream, &cfg, args, NULL);
    ret = aclrtLaunchHostFunc(stream, on_host, NULL);
    ret = aclrtRegStreamStateCallback("c99", on_stream_state, NULL);
    ret = aclrtRecordEvent(event, stream);
    ret = aclrtSynchronizeStream(stream);
    util.utilizationExtend = NULL;
    ret = aclrtGetDeviceUtilizationRate(0, &util);
    ret = aclrtGetErrorVerbose(0, &err);
#ifdef SIMNPU_USE_GNU_MACROS
    /* ACL_APP_LOG relies on __FUNCTION__ and ", ##__VA_ARGS__" (GNU C), so it
       is only exercised in the non-pedantic build of this file. */
    ACL_APP_LOG(ACL_INFO, "ret=%d", ret);
    ACL_APP_LOG(ACL_ERROR, "format only");
#endif
    ret = aclrtBinaryUnLoad(bin);
    ret = aclrtFree(managed);
    ret = aclrtDestroyEvent(event);
    ret = aclrtDestroyStreamForce(stream);
    ret = aclrtResetDeviceForce(0);
    ret = aclFinalize();
    return ret;
}
