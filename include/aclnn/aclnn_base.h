/*
 * aclnn base header: the tensor layer (acl_meta.h), the aclnn status codes,
 * the ACLNN_API export macro of the operator headers, and the executor
 * functions of libnnopbase.so.
 *
 * Executor convention: aclnnXxxGetWorkspaceSize validates its arguments,
 * plans the computation on the host and returns a new aclOpExecutor plus the
 * device workspace size it needs; aclnnXxx(workspace, size, executor, stream)
 * enqueues the operator's kernels on `stream` and consumes the executor,
 * unless aclSetAclOpExecutorRepeatable made it reusable (then it lives until
 * aclDestroyAclOpExecutor).
 */
#ifndef SIMNPU_ACLNN_ACLNN_BASE_H_
#define SIMNPU_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001
#define ACLNN_ERR_INNER_TILING_ERROR 561002
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102
#define ACLNN_ERR_INNER_NULLPTR 561103

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACLNN_ACLNN_BASE_H_ */
