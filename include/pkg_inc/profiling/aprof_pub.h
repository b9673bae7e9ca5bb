/*
 * simnpu header: the public Msprof* entry points of libprofapi.so that
 * CANN programs call (installed under <prefix>/<arch>-linux/pkg_inc/profiling).
 * Needs only the standard integer headers.
 */
#ifndef SIMNPU_PROFILING_APROF_PUB_H
#define SIMNPU_PROFILING_APROF_PUB_H

#include <stddef.h>
#include <stdint.h>

#ifndef MSVP_PROF_API
#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Binds a GE model index to the device its data is reported for; 0 = success. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(uint32_t geModelIdx, uint32_t deviceId);
/* Removes that binding; 0 = success. */
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(uint32_t geModelIdx, uint32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_PROFILING_APROF_PUB_H */
