/*
 * simnpu error-message extension: lets simnpu's libraries that live outside
 * libacl_rt.so (libnnopbase.so, libopapi.so: the aclnn API) queue a message
 * for aclGetRecentErrMsg() on the calling thread, as every failing ACL call
 * does. Exported by libacl_rt.so; C99 and C++11.
 */
#ifndef SIMNPU_ERRMSG_H_
#define SIMNPU_ERRMSG_H_

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SIMNPU_ERRMSG_API __attribute__((visibility("default")))
#else
#define SIMNPU_ERRMSG_API
#endif

/* Kinds of simnpu_report_error messages (the title and code of the line). */
#define SIMNPU_ERRMSG_INVALID_ARGUMENT 0 /* EH0012 Invalid_Argument */
#define SIMNPU_ERRMSG_INTERNAL 1         /* EH9999 Internal_Error */

/* Queues `text` (NULL: ignored) for aclGetRecentErrMsg and logs it at ERROR
 * under module ASCENDCL. Never fails; safe before aclInit. */
SIMNPU_ERRMSG_API void simnpu_report_error(int kind, const char *text);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ERRMSG_H_ */
