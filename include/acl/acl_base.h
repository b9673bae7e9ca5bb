/*
 * simnpu public header: umbrella for the base layer.
 *
 * Declares nothing itself. The first two includes use the "acl/..." form, so
 * the directory that contains acl/ must be on the include path (as with a
 * CANN install, where that is <prefix>/include); the error-code headers are
 * found next to this file.
 */
#ifndef SIMNPU_ACL_ACL_BASE_H
#define SIMNPU_ACL_ACL_BASE_H

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* SIMNPU_ACL_ACL_BASE_H */
