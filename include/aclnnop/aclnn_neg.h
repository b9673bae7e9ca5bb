/* aclnn operator neg (libopapi.so): out = -self; Inplace: into selfRef. Two-phase convention: aclnn/aclnn_base.h. */
#ifndef SIMNPU_ACLNNOP_ACLNN_NEG_H_
#define SIMNPU_ACLNNOP_ACLNN_NEG_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNeg(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceNegGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceNeg(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACLNNOP_ACLNN_NEG_H_ */
