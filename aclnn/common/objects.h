// The aclnn objects behind the opaque handles of aclnn/acl_meta.h, shared by
// libnnopbase.so (which creates, queries and destroys them) and libopapi.so
// (which reads them while planning an operator). Both libraries are built
// from this tree with the same compiler, so they agree on the layout.
//
// Objects are immutable after creation except aclTensor's data address
// (none of the public functions changes it) and the executor's state.
// No locks: like the real library, an object must not be destroyed while
// another thread uses it.
#ifndef SIMNPU_ACLNN_COMMON_OBJECTS_H_
#define SIMNPU_ACLNN_COMMON_OBJECTS_H_

#include <cstdint>
#include <vector>

#include "aclnn/aclnn_base.h"

// Every object starts with a magic word, so a destroy or getter given a
// pointer of the wrong kind (or a stale one still mapped) is refused with
// ACLNN_ERR_PARAM_INVALID instead of being misread.
enum : uint32_t {
  kAclnnTensorMagic = 0x544e5341u,       // "ASNT"
  kAclnnScalarMagic = 0x4c435341u,       // "ASCL"
  kAclnnIntArrayMagic = 0x49525341u,     // "ASRI"
  kAclnnFloatArrayMagic = 0x46525341u,   // "ASRF"
  kAclnnBoolArrayMagic = 0x42525341u,    // "ASRB"
  kAclnnTensorListMagic = 0x544c5341u,   // "ASLT"
  kAclnnScalarListMagic = 0x534c5341u,   // "ASLS"
  kAclnnExecutorMagic = 0x58455341u,     // "ASEX"
  kAclnnDeadMagic = 0xdeadbeefu,
};

struct aclTensor {
  uint32_t magic = kAclnnTensorMagic;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> view;     // view shape (empty: a 0-d tensor of one element)
  std::vector<int64_t> strides;  // element strides of the view, one per dimension
  int64_t offset = 0;            // element offset of the view's first element
  std::vector<int64_t> storage;  // storage shape
  void* data = nullptr;          // device address of storage element 0
};

struct aclScalar {
  uint32_t magic = kAclnnScalarMagic;
  aclDataType dtype = ACL_FLOAT;
  // The value as given (copied at creation), widened: floating types in f,
  // integer and bool in i.
  bool is_float = true;
  double f = 0.0;
  int64_t i = 0;
};

struct aclIntArray {
  uint32_t magic = kAclnnIntArrayMagic;
  std::vector<int64_t> values;
};
struct aclFloatArray {
  uint32_t magic = kAclnnFloatArrayMagic;
  std::vector<float> values;
};
struct aclBoolArray {
  uint32_t magic = kAclnnBoolArrayMagic;
  std::vector<bool> values;
};
struct aclTensorList {
  uint32_t magic = kAclnnTensorListMagic;
  std::vector<const aclTensor*> values;  // borrowed
};
struct aclScalarList {
  uint32_t magic = kAclnnScalarListMagic;
  std::vector<const aclScalar*> values;  // borrowed
};

// The executor: made by an operator's first phase (libopapi), run by its
// second. libnnopbase only flags it repeatable or destroys it, through the
// virtual destructor, so it never needs to know the plan inside.
struct aclOpExecutor {
  uint32_t magic = kAclnnExecutorMagic;
  bool repeatable = false;
  virtual ~aclOpExecutor() { magic = kAclnnDeadMagic; }
};

#endif  // SIMNPU_ACLNN_COMMON_OBJECTS_H_
