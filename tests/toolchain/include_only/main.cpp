// include-only project: a plain ACL host program.
#include "acl/acl.h"
int main() { return aclInit(nullptr) == ACL_SUCCESS ? 0 : 1; }
