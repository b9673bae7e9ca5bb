// Argument structures shared by the aclnn operator kernels (aclnn/kernels,
// compiled as Ascend C by simnpu's toolchain) and their host planner
// (aclnn/opapi). Each kernel takes its GM pointers followed by one of these
// structs by value; both sides see the same layout (plain C++17 structs of
// fixed-width fields, no padding surprises: every field 8 bytes or grouped
// in pairs of 4).
#ifndef SIMNPU_ACLNN_COMMON_OP_ARGS_H_
#define SIMNPU_ACLNN_COMMON_OP_ARGS_H_

#include <cstdint>

namespace simnpu {
namespace aclnn {

constexpr int kMaxDims = 8;

// Element-type codes in kernels: the aclDataType values (acl_base_rt.h).
enum KernelDType : int32_t {
  kDtFloat = 0,
  kDtFloat16 = 1,
  kDtInt8 = 2,
  kDtInt32 = 3,
  kDtUint8 = 4,
  kDtInt16 = 6,
  kDtInt64 = 9,
  kDtBool = 12,
  kDtBf16 = 27,
};

// Strided copy with conversion: dst[view index] = convert(src[view index])
// over an N-d index space `shape` (element strides; 0 broadcasts).
struct CopyArgs {
  int32_t src_dtype;
  int32_t dst_dtype;
  int32_t ndim;
  int32_t reserved;
  uint64_t total;  // product of shape
  int64_t src_offset;
  int64_t dst_offset;
  int64_t shape[kMaxDims];
  int64_t src_stride[kMaxDims];
  int64_t dst_stride[kMaxDims];
};

// Element-wise operators over n contiguous elements of one type. Binary
// kernels read y[i], or the scalar when y_is_scalar; alpha scales y for
// add/sub. Floating values travel as double, integers as int64 (each kernel
// uses the one of its type).
struct EwArgs {
  uint64_t n;
  int32_t y_is_scalar;
  int32_t reserved;
  double alpha_f;
  int64_t alpha_i;
  double scalar_f;
  int64_t scalar_i;
};

// Reductions and softmax over a contiguous [outer, len, inner] view.
struct AxisArgs {
  uint64_t outer;
  uint64_t len;
  uint64_t inner;
};

// Batched matrix product over contiguous [batch, m, k] x [batch, k, n].
struct MatmulArgs {
  uint64_t batch;
  uint64_t m;
  uint64_t k;
  uint64_t n;
};

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_COMMON_OP_ARGS_H_
