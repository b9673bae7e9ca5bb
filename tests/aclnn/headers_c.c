/* The aclnn public headers compile as C99 with -Wall -Wextra -Werror. */
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sub.h"
#include "simnpu/errmsg.h"

int simnpu_aclnn_headers_c_probe(void) { return ACLNN_ERR_PARAM_NULLPTR == 161001 ? 0 : 1; }
