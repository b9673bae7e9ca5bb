// Element types of the aclnn layer: sizes, names, classes and the type
// promotion table (the PyTorch-style rules the aclnn pages refer to as
// "type derivation": bool < integers < floating; among floats the wider one;
// float16 with bfloat16 gives float32; uint8 with int8 gives int16).
#ifndef SIMNPU_ACLNN_COMMON_DTYPES_H_
#define SIMNPU_ACLNN_COMMON_DTYPES_H_

#include <cstddef>

#include "acl/acl_base.h"

namespace simnpu {
namespace aclnn {

// Size in bytes of one element, 0 for types the aclnn layer does not know.
inline size_t DTypeSize(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

inline const char* DTypeName(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: return "FLOAT";
    case ACL_FLOAT16: return "FLOAT16";
    case ACL_BF16: return "BFLOAT16";
    case ACL_INT8: return "INT8";
    case ACL_UINT8: return "UINT8";
    case ACL_INT16: return "INT16";
    case ACL_INT32: return "INT32";
    case ACL_INT64: return "INT64";
    case ACL_BOOL: return "BOOL";
    case ACL_DOUBLE: return "DOUBLE";
    case ACL_UINT16: return "UINT16";
    case ACL_UINT32: return "UINT32";
    case ACL_UINT64: return "UINT64";
    case ACL_COMPLEX64: return "COMPLEX64";
    case ACL_COMPLEX128: return "COMPLEX128";
    default: return "UNKNOWN";
  }
}

inline bool IsFloating(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE; }
inline bool IsIntegral(aclDataType t) {
  return t == ACL_INT8 || t == ACL_UINT8 || t == ACL_INT16 || t == ACL_INT32 || t == ACL_INT64;
}

// The types the simnpu operators compute in (the kernels' element types).
inline bool IsKernelType(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_INT8 || t == ACL_UINT8 || t == ACL_INT16 ||
         t == ACL_INT32 || t == ACL_INT64 || t == ACL_BOOL;
}

// Kernel-name suffix of a kernel type.
inline const char* KernelSuffix(aclDataType t) {
  switch (t) {
    case ACL_FLOAT: return "f32";
    case ACL_FLOAT16: return "f16";
    case ACL_BF16: return "bf16";
    case ACL_INT8: return "i8";
    case ACL_UINT8: return "u8";
    case ACL_INT16: return "i16";
    case ACL_INT32: return "i32";
    case ACL_INT64: return "i64";
    case ACL_BOOL: return "bool";
    default: return nullptr;
  }
}

// Promotion of two kernel types; ACL_DT_UNDEFINED when either is not one.
inline aclDataType Promote(aclDataType a, aclDataType b) {
  if (!IsKernelType(a) || !IsKernelType(b)) return ACL_DT_UNDEFINED;
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  const bool fa = IsFloating(a);
  const bool fb = IsFloating(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    if (a == ACL_FLOAT || b == ACL_FLOAT) return ACL_FLOAT;
    return ACL_FLOAT;  // float16 with bfloat16
  }
  // both integral
  if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
  auto rank = [](aclDataType t) {
    switch (t) {
      case ACL_UINT8: return 1;
      case ACL_INT8: return 1;
      case ACL_INT16: return 2;
      case ACL_INT32: return 3;
      default: return 4;
    }
  };
  if (a == ACL_UINT8) return rank(b) > 1 ? b : ACL_INT16;
  if (b == ACL_UINT8) return rank(a) > 1 ? a : ACL_INT16;
  return rank(a) >= rank(b) ? a : b;
}

// Promotion of a tensor type with a scalar's type (a "wrapped number"): the
// scalar matters only when its category (bool < integer < floating) is
// higher than the tensor's, and then gives the default type of its category
// (FLOAT for floating, INT64 for integers).
inline aclDataType PromoteWithScalar(aclDataType tensor, aclDataType scalar) {
  auto cat = [](aclDataType t) { return t == ACL_BOOL ? 0 : IsFloating(t) ? 2 : 1; };
  if (!IsKernelType(tensor)) return ACL_DT_UNDEFINED;
  if (cat(scalar) <= cat(tensor)) return tensor;
  return cat(scalar) == 2 ? ACL_FLOAT : ACL_INT64;
}

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_COMMON_DTYPES_H_
