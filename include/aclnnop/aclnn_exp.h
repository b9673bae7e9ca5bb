/* aclnn operator exp (libopapi.so): out = e^self (integer inputs give float); Inplace: into selfRef. Two-phase convention: aclnn/aclnn_base.h. */
#ifndef SIMNPU_ACLNNOP_ACLNN_EXP_H_
#define SIMNPU_ACLNNOP_ACLNN_EXP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACLNNOP_ACLNN_EXP_H_ */
