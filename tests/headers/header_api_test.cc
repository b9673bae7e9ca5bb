// Hand-written checks of the public ACL headers that the generated value
// table (header_values_generated.cc) does not cover: handle and callback
// types, the remaining member offsets, macro-versus-object rules, the
// annotation macros, and the exact prototypes of the declared functions.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include <gtest/gtest.h>

#include "acl/acl.h"

#define HA_STR_(...) #__VA_ARGS__
#define HA_XSTR(...) HA_STR_(__VA_ARGS__)

namespace {

template <typename A, typename B>
constexpr bool kSame = std::is_same<A, B>::value;

// ---- scalar and handle typedefs ----
static_assert(kSame<aclError, int>, "aclError");
static_assert(kSame<aclFloat16, uint16_t>, "aclFloat16");
static_assert(kSame<aclrtStream, void *>, "aclrtStream");
static_assert(kSame<aclrtEvent, void *>, "aclrtEvent");
static_assert(kSame<aclrtContext, void *>, "aclrtContext");
static_assert(kSame<aclrtNotify, void *>, "aclrtNotify");
static_assert(kSame<aclrtCntNotify, void *>, "aclrtCntNotify");
static_assert(kSame<aclrtLabel, void *>, "aclrtLabel");
static_assert(kSame<aclrtLabelList, void *>, "aclrtLabelList");
static_assert(kSame<aclrtMbuf, void *>, "aclrtMbuf");
static_assert(kSame<aclmdlRITask, void *>, "aclmdlRITask");
static_assert(kSame<aclrtAllocatorDesc, void *>, "aclrtAllocatorDesc");
static_assert(kSame<aclrtAllocator, void *>, "aclrtAllocator");
static_assert(kSame<aclrtAllocatorBlock, void *>, "aclrtAllocatorBlock");
static_assert(kSame<aclrtAllocatorAddr, void *>, "aclrtAllocatorAddr");
static_assert(kSame<aclrtTaskGrp, void *>, "aclrtTaskGrp");
static_assert(kSame<aclrtDrvMemHandle, void *>, "aclrtDrvMemHandle");
static_assert(kSame<aclrtBinary, void *>, "aclrtBinary");
static_assert(kSame<aclrtBinHandle, void *>, "aclrtBinHandle");
static_assert(kSame<aclrtFuncHandle, void *>, "aclrtFuncHandle");
static_assert(kSame<aclrtArgsHandle, void *>, "aclrtArgsHandle");
static_assert(kSame<aclrtParamHandle, void *>, "aclrtParamHandle");
static_assert(kSame<aclmdlRI, void *>, "aclmdlRI");
static_assert(kSame<aclmdlRICondHandle, void *>, "aclmdlRICondHandle");

// ---- incomplete struct typedefs ----
static_assert(kSame<aclDataBuffer, struct aclDataBuffer>, "aclDataBuffer");
static_assert(kSame<aclrtExceptionInfo, struct rtExceptionInfo>, "aclrtExceptionInfo");
static_assert(kSame<aclrtGroupInfo, struct tagRtGroupInfo>, "aclrtGroupInfo");
static_assert(kSame<aclrtUtilizationExtendInfo, struct aclrtUtilizationExtendInfo>, "aclrtUtilizationExtendInfo");

// ---- callback pointer types ----
static_assert(kSame<aclrtCallback, void (*)(void *)>, "aclrtCallback");
static_assert(kSame<aclrtHostFunc, void (*)(void *)>, "aclrtHostFunc");
static_assert(kSame<aclrtExceptionInfoCallback, void (*)(aclrtExceptionInfo *)>, "aclrtExceptionInfoCallback");
static_assert(kSame<aclrtOpExceptionCallback, void (*)(aclrtExceptionInfo *, void *)>, "aclrtOpExceptionCallback");
static_assert(kSame<aclrtStreamStateCallback, void (*)(aclrtStream, aclrtStreamState, void *)>,
              "aclrtStreamStateCallback");
static_assert(kSame<aclrtDeviceStateCallback, void (*)(int32_t, aclrtDeviceState, void *)>,
              "aclrtDeviceStateCallback");
static_assert(kSame<aclrtDeviceTaskAbortCallback, int32_t (*)(int32_t, aclrtDeviceTaskAbortStage, uint32_t, void *)>,
              "aclrtDeviceTaskAbortCallback");
static_assert(kSame<aclrtSnapShotCallBack, uint32_t (*)(int32_t, void *)>, "aclrtSnapShotCallBack");
static_assert(kSame<aclInitCallbackFunc, aclError (*)(const char *, size_t, void *)>, "aclInitCallbackFunc");
static_assert(kSame<aclFinalizeCallbackFunc, aclError (*)(void *)>, "aclFinalizeCallbackFunc");

// ---- offsets the reference table leaves implicit (LP64, natural alignment) ----
static_assert(offsetof(aclrtTimeoutUs, timeoutLow) == 0 && offsetof(aclrtTimeoutUs, timeoutHigh) == 4, "");
static_assert(offsetof(aclrtMemUceInfo, addr) == 0 && offsetof(aclrtMemUceInfo, len) == 8 &&
                  offsetof(aclrtMemUceInfo, reserved) == 16,
              "aclrtMemUceInfo");
static_assert(offsetof(aclrtMemUceInfoArray, arraySize) == 0 && offsetof(aclrtMemUceInfoArray, memUceInfoArray) == 8,
              "aclrtMemUceInfoArray");
static_assert(offsetof(aclrtMallocConfig, attrs) == 0 && offsetof(aclrtMallocConfig, numAttrs) == 8, "");
static_assert(offsetof(aclrtIpcEventHandle, reserved) == 0, "");
static_assert(offsetof(aclrtUuid, bytes) == 0, "");
static_assert(offsetof(aclCANNPackageVersion, version) == 0 && offsetof(aclCANNPackageVersion, majorVersion) == 128 &&
                  offsetof(aclCANNPackageVersion, minorVersion) == 192 &&
                  offsetof(aclCANNPackageVersion, releaseVersion) == 256 &&
                  offsetof(aclCANNPackageVersion, patchVersion) == 320 &&
                  offsetof(aclCANNPackageVersion, reserved) == 384,
              "aclCANNPackageVersion");
static_assert(offsetof(aclrtMemcpyBatchAttr, dstLoc) == 0 && offsetof(aclrtMemcpyBatchAttr, srcLoc) == 8 &&
                  offsetof(aclrtMemcpyBatchAttr, rsv) == 16,
              "aclrtMemcpyBatchAttr");
static_assert(offsetof(aclrtMemAccessDesc, flags) == 0 && offsetof(aclrtMemAccessDesc, location) == 4 &&
                  offsetof(aclrtMemAccessDesc, rsv) == 12,
              "aclrtMemAccessDesc");
static_assert(offsetof(aclrtPhysicalMemProp, handleType) == 0 && offsetof(aclrtPhysicalMemProp, allocationType) == 4 &&
                  offsetof(aclrtPhysicalMemProp, memAttr) == 8 && offsetof(aclrtPhysicalMemProp, location) == 12 &&
                  offsetof(aclrtPhysicalMemProp, reserve) == 24,
              "aclrtPhysicalMemProp");
static_assert(offsetof(dim3, x) == 0 && offsetof(dim3, y) == 4 && offsetof(dim3, z) == 8, "dim3");

// Union members all start at 0 and have the listed types.
static_assert(kSame<decltype(aclrtLaunchKernelAttrValue::schemMode), uint8_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::dynUBufSize), uint32_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::engineType), aclrtEngineType> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::blockDimOffset), uint32_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::isBlockTaskPrefetch), uint8_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::isDataDump), uint8_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::timeout), uint16_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::timeoutUs), aclrtTimeoutUs> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::enableProfiling), uint8_t> &&
                  kSame<decltype(aclrtLaunchKernelAttrValue::rsv), uint32_t[4]>,
              "aclrtLaunchKernelAttrValue members");
static_assert(kSame<decltype(aclrtBinaryLoadOptionValue::isLazyLoad), uint32_t> &&
                  kSame<decltype(aclrtBinaryLoadOptionValue::magic), uint32_t> &&
                  kSame<decltype(aclrtBinaryLoadOptionValue::cpuKernelMode), int32_t> &&
                  kSame<decltype(aclrtBinaryLoadOptionValue::rsv), uint32_t[4]>,
              "aclrtBinaryLoadOptionValue members");
static_assert(kSame<decltype(aclrtMallocAttrValue::moduleId), uint16_t> &&
                  kSame<decltype(aclrtMallocAttrValue::deviceId), uint32_t> &&
                  kSame<decltype(aclrtMallocAttrValue::vaFlag), uint32_t> &&
                  kSame<decltype(aclrtMallocAttrValue::rsv), uint8_t[8]>,
              "aclrtMallocAttrValue members");
static_assert(kSame<decltype(aclrtErrorInfoDetail::uceInfo), aclrtMemUceInfoArray> &&
                  kSame<decltype(aclrtErrorInfoDetail::aicoreErrType), aclrtAicoreErrorType>,
              "aclrtErrorInfoDetail members");
static_assert(kSame<decltype(aclrtMemManagedLocation::type), aclrtMemManagedLocationType> &&
                  kSame<decltype(aclrtMemManagedLocation::id), int32_t>,
              "aclrtMemManagedLocation members");
static_assert(kSame<decltype(aclrtMemLocation::id), uint32_t> &&
                  kSame<decltype(aclrtMemLocation::type), aclrtMemLocationType>,
              "aclrtMemLocation members");
static_assert(kSame<decltype(aclrtStreamConfigHandle::workptr), void *> &&
                  kSame<decltype(aclrtStreamConfigHandle::workSize), size_t> &&
                  kSame<decltype(aclrtStreamConfigHandle::flag), size_t> &&
                  kSame<decltype(aclrtStreamConfigHandle::priority), uint32_t>,
              "aclrtStreamConfigHandle members");

// ---- the T2/T3 structures whose members the reference lists ----
static_assert(sizeof(aclrtServerPid) == 24 && offsetof(aclrtServerPid, sdid) == 0 &&
                  offsetof(aclrtServerPid, pid) == 8 && offsetof(aclrtServerPid, num) == 16,
              "aclrtServerPid");
static_assert(sizeof(aclrtMemUsageInfo) == 112 && offsetof(aclrtMemUsageInfo, curMemSize) == 32 &&
                  offsetof(aclrtMemUsageInfo, memPeakSize) == 40 && offsetof(aclrtMemUsageInfo, reserved) == 48,
              "aclrtMemUsageInfo");
static_assert(sizeof(aclrtMemFabricHandle) == 128, "aclrtMemFabricHandle");
static_assert(sizeof(aclrtStreamAttrValue) == 16 && kSame<decltype(aclrtStreamAttrValue::failureMode), uint64_t> &&
                  kSame<decltype(aclrtStreamAttrValue::streamPriority), uint32_t>,
              "aclrtStreamAttrValue");
static_assert(sizeof(aclrtSnapShotBackupArgs) == 64 && offsetof(aclrtSnapShotBackupArgs, reserved) == 4, "");
static_assert(sizeof(aclrtSnapShotRestoreArgs) == 64 && offsetof(aclrtSnapShotRestoreArgs, reserved) == 4, "");

// All structs are plain C data.
static_assert(std::is_trivially_copyable<aclrtLaunchKernelAttr>::value, "");
static_assert(std::is_trivially_copyable<aclrtErrorInfo>::value, "");
static_assert(std::is_standard_layout<aclrtStreamConfigHandle>::value, "");

// ---- dim3 (C++ flavour) ----
constexpr dim3 kDefaultDim;
static_assert(kDefaultDim.x == 1 && kDefaultDim.y == 1 && kDefaultDim.z == 1, "dim3 defaults");
constexpr dim3 kDim(8, 2);
static_assert(kDim.x == 8 && kDim.y == 2 && kDim.z == 1, "dim3 partial");

// ---- prototypes (return type and parameter types exactly as the reference gives them) ----
#define HA_SIG(fn, ...) static_assert(kSame<decltype(&fn), __VA_ARGS__>, "prototype of " #fn)

HA_SIG(aclInit, aclError (*)(const char *));
HA_SIG(aclFinalize, aclError (*)());
HA_SIG(aclrtGetSocName, const char *(*)());
HA_SIG(aclrtGetRunMode, aclError (*)(aclrtRunMode *));
HA_SIG(aclsysGetVersionStr, aclError (*)(char *, char *));
HA_SIG(aclsysGetVersionNum, aclError (*)(char *, int32_t *));
HA_SIG(aclGetCannAttributeList, aclError (*)(const aclCannAttr **, size_t *));
HA_SIG(aclGetCannAttribute, aclError (*)(aclCannAttr, int32_t *));
HA_SIG(aclrtCheckArchCompatibility, aclError (*)(const char *, int32_t *));
HA_SIG(aclrtGetDeviceCapability, aclError (*)(int32_t, aclrtDevFeatureType, int32_t *));
HA_SIG(aclDataTypeSize, size_t (*)(aclDataType));
HA_SIG(aclFloat16ToFloat, float (*)(aclFloat16));
HA_SIG(aclFloatToFloat16, aclFloat16 (*)(float));
HA_SIG(aclAppLog, void (*)(aclLogLevel, const char *, const char *, uint32_t, const char *, ...));
HA_SIG(aclGetRecentErrMsg, const char *(*)());

HA_SIG(aclrtSetDevice, aclError (*)(int32_t));
HA_SIG(aclrtResetDevice, aclError (*)(int32_t));
HA_SIG(aclrtResetDeviceForce, aclError (*)(int32_t));
HA_SIG(aclrtGetDevice, aclError (*)(int32_t *));
HA_SIG(aclrtGetDeviceCount, aclError (*)(uint32_t *));
HA_SIG(aclrtSynchronizeDevice, aclError (*)());
HA_SIG(aclrtSynchronizeDeviceWithTimeout, aclError (*)(int32_t));
HA_SIG(aclrtGetDeviceInfo, aclError (*)(uint32_t, aclrtDevAttr, int64_t *));
HA_SIG(aclrtSetDeviceResLimit, aclError (*)(int32_t, aclrtDevResLimitType, uint32_t));
HA_SIG(aclrtGetDeviceResLimit, aclError (*)(int32_t, aclrtDevResLimitType, uint32_t *));
HA_SIG(aclrtResetDeviceResLimit, aclError (*)(int32_t));
HA_SIG(aclrtGetResInCurrentThread, aclError (*)(aclrtDevResLimitType, uint32_t *));
HA_SIG(aclrtGetDeviceUtilizationRate, aclError (*)(int32_t, aclrtUtilizationInfo *));
HA_SIG(aclrtQueryDeviceStatus, aclError (*)(int32_t, aclrtDeviceStatus *));
HA_SIG(aclrtDeviceGetStreamPriorityRange, aclError (*)(int32_t *, int32_t *));
HA_SIG(aclrtGetErrorVerbose, aclError (*)(int32_t, aclrtErrorInfo *));
HA_SIG(aclrtGetMemInfo, aclError (*)(aclrtMemAttr, size_t *, size_t *));

HA_SIG(aclrtCreateContext, aclError (*)(aclrtContext *, int32_t));
HA_SIG(aclrtDestroyContext, aclError (*)(aclrtContext));
HA_SIG(aclrtSetCurrentContext, aclError (*)(aclrtContext));
HA_SIG(aclrtGetCurrentContext, aclError (*)(aclrtContext *));
HA_SIG(aclrtCtxGetCurrentDefaultStream, aclError (*)(aclrtStream *));

HA_SIG(aclrtCreateStream, aclError (*)(aclrtStream *));
HA_SIG(aclrtCreateStreamWithConfig, aclError (*)(aclrtStream *, uint32_t, uint32_t));
HA_SIG(aclrtCreateStreamConfigHandle, aclrtStreamConfigHandle *(*)());
HA_SIG(aclrtDestroyStreamConfigHandle, aclError (*)(aclrtStreamConfigHandle *));
HA_SIG(aclrtSetStreamConfigOpt, aclError (*)(aclrtStreamConfigHandle *, aclrtStreamConfigAttr, const void *, size_t));
HA_SIG(aclrtCreateStreamV2, aclError (*)(aclrtStream *, const aclrtStreamConfigHandle *));
HA_SIG(aclrtDestroyStream, aclError (*)(aclrtStream));
HA_SIG(aclrtDestroyStreamForce, aclError (*)(aclrtStream));
HA_SIG(aclrtSynchronizeStream, aclError (*)(aclrtStream));
HA_SIG(aclrtSynchronizeStreamWithTimeout, aclError (*)(aclrtStream, int32_t));
HA_SIG(aclrtStreamQuery, aclError (*)(aclrtStream, aclrtStreamStatus *));
HA_SIG(aclrtStreamWaitEvent, aclError (*)(aclrtStream, aclrtEvent));
HA_SIG(aclrtStreamWaitEventWithTimeout, aclError (*)(aclrtStream, aclrtEvent, int32_t));
HA_SIG(aclrtSetStreamFailureMode, aclError (*)(aclrtStream, uint64_t));
HA_SIG(aclrtStreamStop, aclError (*)(aclrtStream));
HA_SIG(aclrtStreamAbort, aclError (*)(aclrtStream));
HA_SIG(aclrtStreamGetId, aclError (*)(aclrtStream, int32_t *));
HA_SIG(aclrtStreamGetFlags, aclError (*)(aclrtStream, uint32_t *));
HA_SIG(aclrtStreamGetPriority, aclError (*)(aclrtStream, uint32_t *));
HA_SIG(aclrtRegStreamStateCallback, aclError (*)(const char *, aclrtStreamStateCallback, void *));

HA_SIG(aclrtCreateEvent, aclError (*)(aclrtEvent *));
HA_SIG(aclrtCreateEventWithFlag, aclError (*)(aclrtEvent *, uint32_t));
HA_SIG(aclrtCreateEventExWithFlag, aclError (*)(aclrtEvent *, uint32_t));
HA_SIG(aclrtDestroyEvent, aclError (*)(aclrtEvent));
HA_SIG(aclrtRecordEvent, aclError (*)(aclrtEvent, aclrtStream));
HA_SIG(aclrtResetEvent, aclError (*)(aclrtEvent, aclrtStream));
HA_SIG(aclrtQueryEventStatus, aclError (*)(aclrtEvent, aclrtEventRecordedStatus *));
HA_SIG(aclrtSynchronizeEvent, aclError (*)(aclrtEvent));
HA_SIG(aclrtSynchronizeEventWithTimeout, aclError (*)(aclrtEvent, int32_t));
HA_SIG(aclrtEventElapsedTime, aclError (*)(float *, aclrtEvent, aclrtEvent));
HA_SIG(aclrtEventGetTimestamp, aclError (*)(aclrtEvent, uint64_t *));
HA_SIG(aclrtCreateNotify, aclError (*)(aclrtNotify *, uint64_t));
HA_SIG(aclrtDestroyNotify, aclError (*)(aclrtNotify));
HA_SIG(aclrtRecordNotify, aclError (*)(aclrtNotify, aclrtStream));
HA_SIG(aclrtWaitAndResetNotify, aclError (*)(aclrtNotify, aclrtStream, uint32_t));
HA_SIG(aclrtValueWrite, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));
HA_SIG(aclrtValueWait, aclError (*)(void *, uint64_t, uint32_t, aclrtStream));

HA_SIG(aclrtMalloc, aclError (*)(void **, size_t, aclrtMemMallocPolicy));
HA_SIG(aclrtMallocHost, aclError (*)(void **, size_t));
HA_SIG(aclrtFree, aclError (*)(void *));
HA_SIG(aclrtFreeHost, aclError (*)(void *));
HA_SIG(aclrtMemcpy, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind));
HA_SIG(aclrtMemcpyAsync, aclError (*)(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
HA_SIG(aclrtMemset, aclError (*)(void *, size_t, int32_t, size_t));
HA_SIG(aclrtMemsetAsync, aclError (*)(void *, size_t, int32_t, size_t, aclrtStream));
HA_SIG(aclrtHostRegisterV2, aclError (*)(void *, uint64_t, uint32_t));
HA_SIG(aclrtHostGetDevicePointer, aclError (*)(void *, void **, uint32_t));
HA_SIG(aclrtHostUnregister, aclError (*)(void *));
HA_SIG(aclrtPointerGetAttributes, aclError (*)(const void *, aclrtPtrAttributes *));
HA_SIG(aclrtMemAllocManaged, aclError (*)(void **, uint64_t, uint32_t));
HA_SIG(aclrtMemManagedAdvise, aclError (*)(const void *, uint64_t, aclrtMemManagedAdviseType, aclrtMemManagedLocation));
HA_SIG(aclrtMemManagedGetAttr, aclError (*)(aclrtMemManagedRangeAttribute, const void *, size_t, void *, size_t));
HA_SIG(aclrtMemManagedGetAttrs,
       aclError (*)(aclrtMemManagedRangeAttribute *, size_t, const void *, size_t, void **, size_t *));
HA_SIG(aclrtMemManagedPrefetchAsync,
       aclError (*)(const void *, size_t, aclrtMemManagedLocation, uint32_t, aclrtStream));
HA_SIG(aclrtMemManagedPrefetchBatchAsync, aclError (*)(const void **, size_t *, size_t, aclrtMemManagedLocation *,
                                                       size_t *, size_t, uint64_t, aclrtStream));

HA_SIG(aclrtBinaryLoadFromFile, aclError (*)(const char *, aclrtBinaryLoadOptions *, aclrtBinHandle *));
HA_SIG(aclrtBinaryLoadFromData, aclError (*)(const void *, size_t, const aclrtBinaryLoadOptions *, aclrtBinHandle *));
HA_SIG(aclrtBinaryGetFunction, aclError (*)(aclrtBinHandle, const char *, aclrtFuncHandle *));
HA_SIG(aclrtBinaryGetFunctionByEntry, aclError (*)(aclrtBinHandle, uint64_t, aclrtFuncHandle *));
HA_SIG(aclrtBinaryUnLoad, aclError (*)(aclrtBinHandle));
HA_SIG(aclrtKernelArgsInit, aclError (*)(aclrtFuncHandle, aclrtArgsHandle *));
HA_SIG(aclrtKernelArgsAppend, aclError (*)(aclrtArgsHandle, void *, size_t, aclrtParamHandle *));
HA_SIG(aclrtKernelArgsAppendPlaceHolder, aclError (*)(aclrtArgsHandle, aclrtParamHandle *));
HA_SIG(aclrtKernelArgsGetPlaceHolderBuffer, aclError (*)(aclrtArgsHandle, aclrtParamHandle, size_t, void **));
HA_SIG(aclrtKernelArgsFinalize, aclError (*)(aclrtArgsHandle));
HA_SIG(aclrtLaunchKernelWithConfig,
       aclError (*)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, aclrtArgsHandle, void *));
HA_SIG(aclrtLaunchKernelWithHostArgs, aclError (*)(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *,
                                                   void *, size_t, aclrtPlaceHolderInfo *, size_t));
HA_SIG(aclrtGetHardwareSyncAddr, aclError (*)(void **));

HA_SIG(aclrtLaunchCallback, aclError (*)(aclrtCallback, void *, aclrtCallbackBlockType, aclrtStream));
HA_SIG(aclrtSubscribeReport, aclError (*)(uint64_t, aclrtStream));
HA_SIG(aclrtUnSubscribeReport, aclError (*)(uint64_t, aclrtStream));
HA_SIG(aclrtProcessReport, aclError (*)(int32_t));
HA_SIG(aclrtLaunchHostFunc, aclError (*)(aclrtStream, aclrtHostFunc, void *));
HA_SIG(aclrtSubscribeHostFunc, aclError (*)(uint64_t, aclrtStream));
HA_SIG(aclrtProcessHostFunc, aclError (*)(int32_t));
HA_SIG(aclrtUnSubscribeHostFunc, aclError (*)(uint64_t, aclrtStream));
HA_SIG(aclrtGetTaskIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
HA_SIG(aclrtGetStreamIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
HA_SIG(aclrtGetThreadIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
HA_SIG(aclrtGetDeviceIdFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
HA_SIG(aclrtGetErrorCodeFromExceptionInfo, uint32_t (*)(const aclrtExceptionInfo *));
HA_SIG(aclrtGetArgsFromExceptionInfo, aclError (*)(const aclrtExceptionInfo *, void **, uint32_t *));
HA_SIG(aclrtGetFuncHandleFromExceptionInfo, aclError (*)(const aclrtExceptionInfo *, aclrtFuncHandle *));
HA_SIG(aclrtPeekAtLastError, aclError (*)(aclrtLastErrLevel));
HA_SIG(aclrtGetLastError, aclError (*)(aclrtLastErrLevel));
HA_SIG(aclrtGetThreadLastTaskId, aclError (*)(uint32_t *));

HA_SIG(aclCreateDataBuffer, aclDataBuffer *(*)(void *, size_t));
HA_SIG(aclDestroyDataBuffer, aclError (*)(const aclDataBuffer *));
HA_SIG(aclUpdateDataBuffer, aclError (*)(aclDataBuffer *, void *, size_t));
HA_SIG(aclGetDataBufferAddr, void *(*)(const aclDataBuffer *));
HA_SIG(aclGetDataBufferSizeV2, size_t (*)(const aclDataBuffer *));
HA_SIG(aclGetDeviceCapability, aclError (*)(uint32_t, aclDeviceInfo, int64_t *));

// Deprecated functions: the prototypes, with the warning silenced locally.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
HA_SIG(aclrtGetVersion, aclError (*)(int32_t *, int32_t *, int32_t *));
HA_SIG(aclrtQueryEvent, aclError (*)(aclrtEvent, aclrtEventStatus *));
HA_SIG(aclrtSetExceptionInfoCallback, aclError (*)(aclrtExceptionInfoCallback));
HA_SIG(aclGetDataBufferSize, uint32_t (*)(const aclDataBuffer *));
#pragma GCC diagnostic pop

#undef HA_SIG

}  // namespace

TEST(HeaderApi, AclCodesAreObjectsRuntimeCodesAreMacros) {
#ifdef ACL_ERROR_INVALID_PARAM
  ADD_FAILURE() << "ACL_ERROR_INVALID_PARAM must not be a macro";
#endif
#ifdef ACL_SUCCESS
  ADD_FAILURE() << "ACL_SUCCESS must not be a macro";
#endif
#ifndef ACL_ERROR_RT_PARAM_INVALID
  ADD_FAILURE() << "ACL_ERROR_RT_PARAM_INVALID must be a macro";
#endif
#ifdef ACL_ERROR_GE_PARAM_INVALID
  ADD_FAILURE() << "ACL_ERROR_GE_PARAM_INVALID must not be a macro";
#endif
  // Objects with internal linkage: addressable, const int / const uint32_t.
  EXPECT_TRUE((kSame<decltype(ACL_ERROR_INVALID_PARAM), const int>));
  EXPECT_TRUE((kSame<decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t>));
  EXPECT_TRUE((kSame<decltype(ACL_ERROR_RT_PARAM_INVALID), int>));
  const int *addr = &ACL_ERROR_INVALID_PARAM;
  EXPECT_EQ(*addr, 100000);
}

TEST(HeaderApi, MacroValueTypes) {
  EXPECT_TRUE((kSame<decltype(ACL_RT_MEM_ATTACH_GLOBAL), unsigned int>));
  EXPECT_TRUE((kSame<decltype(ACL_HOST_REG_PINNED), unsigned long>));
  EXPECT_TRUE((kSame<decltype(ACL_RT_DEVS_TOPOLOGY_HCCS_SW), unsigned long long>));
  EXPECT_TRUE((kSame<decltype(ACL_DEV_FEATURE_SUPPORT), int>));
  EXPECT_TRUE((kSame<decltype(ACL_RT_MEM_TYPE_DEV), unsigned int>));
  EXPECT_TRUE((kSame<decltype(ACL_MAJOR_VERSION), int>));
}

TEST(HeaderApi, AnnotationMacros) {
  // The tests are built without FUNC_VISIBILITY, as applications are.
  EXPECT_STREQ(HA_XSTR(ACL_FUNC_VISIBILITY), "");
  EXPECT_STREQ(HA_XSTR(GE_FUNC_VISIBILITY), "");
#if defined(__GNUC__) && (__GNUC__ >= 6) && !defined(__clang__)
  EXPECT_STREQ(HA_XSTR(ACL_DEPRECATED), "__attribute__((deprecated))");
  EXPECT_STREQ(HA_XSTR(ACL_DEPRECATED_MESSAGE("m")), "__attribute__((deprecated(\"m\")))");
#endif
}

TEST(HeaderApi, AppLogMacroExpansion) {
  const std::string_view text = HA_XSTR(ACL_APP_LOG(ACL_INFO, "n=%d", 3));
  EXPECT_EQ(text.substr(0, std::strlen("aclAppLog(ACL_INFO, __FUNCTION__, \"")),
            "aclAppLog(ACL_INFO, __FUNCTION__, \"");
  EXPECT_NE(text.find("\"n=%d\", 3)"), std::string_view::npos) << text;
  // The format-only form must drop the trailing comma.
  const std::string_view bare = HA_XSTR(ACL_APP_LOG(ACL_ERROR, "x"));
  EXPECT_EQ(bare.substr(bare.size() - 6), ", \"x\")") << bare;
}

TEST(HeaderApi, Dim3Defaults) {
  dim3 d;
  EXPECT_EQ(d.x, 1u);
  EXPECT_EQ(d.y, 1u);
  EXPECT_EQ(d.z, 1u);
  dim3 e(4, 5, 6);
  EXPECT_EQ(e.x + e.y + e.z, 15u);
  EXPECT_EQ(sizeof(dim3), 12u);
}
