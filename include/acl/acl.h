/*
 * simnpu public header: the entry point of the ACL C API.
 *
 * Programs include "acl/acl.h". The runtime API is in acl_rt.h; acl_op.h and
 * acl_mdl.h are placeholders in a runtime-only installation.
 */
#ifndef SIMNPU_ACL_ACL_H
#define SIMNPU_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* SIMNPU_ACL_ACL_H */
