/* aclnn operator abs (libopapi.so): out = |self|. Two-phase convention: aclnn/aclnn_base.h. */
#ifndef SIMNPU_ACLNNOP_ACLNN_ABS_H_
#define SIMNPU_ACLNNOP_ACLNN_ABS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAbs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* SIMNPU_ACLNNOP_ACLNN_ABS_H_ */
