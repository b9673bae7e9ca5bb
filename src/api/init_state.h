// Whether ACL is initialised (between a successful aclInit and aclFinalize);
// defined in acl_init.cc, used by entry points whose codes depend on it.
#ifndef SIMNPU_API_INIT_STATE_H_
#define SIMNPU_API_INIT_STATE_H_

namespace simnpu::api {
bool AclInitialized();
}  // namespace simnpu::api

#endif  // SIMNPU_API_INIT_STATE_H_
