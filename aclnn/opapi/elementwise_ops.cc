// The element-wise operators: binary (Add, Sub, Mul, Div with their scalar
// and in-place forms) and unary (Abs, Neg, Exp, Relu, Sigmoid, in-place
// forms where the API has them). Each operator is one row of a table below
// naming its kernel file (aclnn/kernels/<kernel>.asc) and the element types
// that kernel has; the shared planner does broadcasting, type promotion, the
// alpha scalar, non-contiguous views and the output conversion.
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sub.h"
#include "common/dtypes.h"
#include "common/report.h"
#include "opapi/plan.h"

namespace simnpu {
namespace aclnn {
namespace {

// Type sets of the kernels (bit per aclDataType value).
constexpr uint64_t Bit(aclDataType t) { return 1ull << static_cast<int>(t); }
constexpr uint64_t kFloats = Bit(ACL_FLOAT) | Bit(ACL_FLOAT16) | Bit(ACL_BF16);
constexpr uint64_t kSignedInts = Bit(ACL_INT8) | Bit(ACL_INT16) | Bit(ACL_INT32) | Bit(ACL_INT64);
constexpr uint64_t kInts = kSignedInts | Bit(ACL_UINT8);
constexpr uint64_t kAll = kFloats | kInts | Bit(ACL_BOOL);

bool In(uint64_t set, aclDataType t) { return static_cast<int>(t) >= 0 && static_cast<int>(t) < 64 && (set & Bit(t)); }

// torch.can_cast: no floating -> integral/bool, no non-bool -> bool.
bool CanCast(aclDataType from, aclDataType to) {
  if (IsFloating(from) && !IsFloating(to)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

struct BinaryOp {
  const char* kernel;  // aclnn/kernels/<kernel>.asc, entries aclnn_<kernel>_<suffix>
  uint64_t types;      // element types the kernel has
  bool alpha;          // takes an alpha scalar (out = self op alpha * other)
  bool to_float;       // integral/bool compute types become FLOAT (true division)
};

// ---- the binary operator table
constexpr BinaryOp kAdd{"add", kAll, true, false};
constexpr BinaryOp kSub{"sub", kFloats | kInts, true, false};
constexpr BinaryOp kMul{"mul", kAll, false, false};
constexpr BinaryOp kDiv{"div", kFloats, false, true};

const aclScalar* LiveScalar(const aclScalar* s) { return IsLive(s, kAclnnScalarMagic) ? s : nullptr; }

// One binary planning: self (tensor), other (tensor or scalar), alpha (may be
// NULL when the operator has none), out (tensor; == self for in-place).
aclnnStatus PlanBinary(const char* api, const BinaryOp& op, const aclTensor* self, const aclTensor* other,
                       const aclScalar* otherScalar, const aclScalar* alpha, const aclTensor* out, bool inplace,
                       uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (workspaceSize == nullptr || executor == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "workspaceSize and executor must not be NULL");
  if (aclnnStatus s = CheckTensor(api, inplace ? "selfRef" : "self", self); s != ACLNN_SUCCESS) return s;
  const bool scalarOther = other == nullptr;
  if (!scalarOther) {
    if (aclnnStatus s = CheckTensor(api, "other", other); s != ACLNN_SUCCESS) return s;
  } else if (otherScalar == nullptr) {
    return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "other must not be NULL");
  } else if (LiveScalar(otherScalar) == nullptr) {
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "other is not a live aclScalar");
  }
  if (op.alpha) {
    if (alpha == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "alpha must not be NULL");
    if (LiveScalar(alpha) == nullptr) return Fail(ACLNN_ERR_PARAM_INVALID, api, "alpha is not a live aclScalar");
  }
  if (!inplace) {
    if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  }
  // result type
  aclDataType ct = scalarOther ? PromoteWithScalar(self->dtype, otherScalar->dtype) : Promote(self->dtype, other->dtype);
  if (ct == ACL_DT_UNDEFINED)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "no common type for %s and %s", DTypeName(self->dtype),
                DTypeName(scalarOther ? otherScalar->dtype : other->dtype));
  if (op.to_float && !IsFloating(ct)) ct = ACL_FLOAT;
  if (!In(op.types, ct))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the computation type %s is not supported (inputs %s and %s)",
                DTypeName(ct), DTypeName(self->dtype), DTypeName(scalarOther ? otherScalar->dtype : other->dtype));
  if (!CanCast(ct, out->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the result type %s cannot be cast to the %s type %s", DTypeName(ct),
                inplace ? "selfRef" : "out", DTypeName(out->dtype));
  if (op.alpha && !IsFloating(ct) && alpha->is_float && alpha->f != std::trunc(alpha->f))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "alpha must not be a fractional number for %s inputs", DTypeName(ct));
  if (op.alpha && ct == ACL_BOOL && (alpha->is_float ? alpha->f : static_cast<double>(alpha->i)) != 1.0 &&
      (alpha->is_float ? alpha->f : static_cast<double>(alpha->i)) != 0.0)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "alpha must be a boolean value for BOOL inputs");
  // shape
  Shape shape = self->view;
  if (!scalarOther && !BroadcastShapes(self->view, other->view, &shape))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the shapes %s and %s do not broadcast", ShapeText(self->view).c_str(),
                ShapeText(other->view).c_str());
  if (shape.size() > static_cast<size_t>(kMaxDims))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "at most 8 dimensions are supported");
  if (out->view != shape)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "%s has shape %s but the broadcast shape is %s",
                inplace ? "selfRef" : "out", ShapeText(out->view).c_str(), ShapeText(shape).c_str());

  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  EwArgs a{};
  a.n = Numel(shape);
  const bool ctFloat = IsFloating(ct);
  auto asF = [](const aclScalar* s) { return s->is_float ? s->f : static_cast<double>(s->i); };
  auto asI = [](const aclScalar* s) { return s->is_float ? static_cast<int64_t>(std::trunc(s->f)) : s->i; };
  if (op.alpha) {
    a.alpha_f = asF(alpha);
    a.alpha_i = asI(alpha);
  } else {
    a.alpha_f = 1.0;
    a.alpha_i = 1;
  }
  (void)ctFloat;
  const Buf x = plan->Input(self, shape, ct);
  Buf y;
  if (scalarOther) {
    a.y_is_scalar = 1;
    // the scalar in the computation type (torch: the wrapped number is
    // converted to the result type first)
    a.scalar_f = IsFloating(ct) ? asF(otherScalar) : static_cast<double>(asI(otherScalar));
    a.scalar_i = asI(otherScalar);
    if (ct == ACL_BOOL) a.scalar_i = a.scalar_i != 0 ? 1 : 0;
    if (ct == ACL_FLOAT16 || ct == ACL_BF16 || ct == ACL_FLOAT)
      a.scalar_f = static_cast<double>(static_cast<float>(a.scalar_f));
    y = x;  // unused by the kernel
  } else {
    y = plan->Input(other, shape, ct);
  }
  const Buf z = plan->OutputBegin(out, ct);
  if (a.n > 0) {
    const uint64_t tiles = (a.n * DTypeSize(ct) + 16383) / 16384;
    plan->Add(std::string("aclnn_") + op.kernel + "_" + KernelSuffix(ct), BlocksFor(tiles), {x, y, z}, a);
  }
  plan->OutputEnd(out, ct, z);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}

struct UnaryOp {
  const char* kernel;
  uint64_t types;
  bool int_to_float;  // integral/bool inputs compute in FLOAT (else they are refused)
};

// ---- the unary operator table
constexpr UnaryOp kAbs{"abs", kFloats | kInts, false};
constexpr UnaryOp kNeg{"neg", kFloats | kSignedInts, false};
constexpr UnaryOp kExp{"exp", kFloats, true};
constexpr UnaryOp kRelu{"relu", kFloats | kInts, false};
constexpr UnaryOp kSigmoid{"sigmoid", kFloats, false};

aclnnStatus PlanUnary(const char* api, const UnaryOp& op, const aclTensor* self, const aclTensor* out, bool inplace,
                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (workspaceSize == nullptr || executor == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "workspaceSize and executor must not be NULL");
  if (aclnnStatus s = CheckTensor(api, inplace ? "selfRef" : "self", self); s != ACLNN_SUCCESS) return s;
  if (!inplace) {
    if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  }
  aclDataType ct = self->dtype;
  if (!In(op.types, ct)) {
    if (op.int_to_float && (IsIntegral(ct) || ct == ACL_BOOL)) {
      ct = ACL_FLOAT;
    } else {
      return Fail(ACLNN_ERR_PARAM_INVALID, api, "self has data type %s, which this operator does not support",
                  DTypeName(self->dtype));
    }
  }
  if (!CanCast(ct, out->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the result type %s cannot be cast to the %s type %s", DTypeName(ct),
                inplace ? "selfRef" : "out", DTypeName(out->dtype));
  if (out->view != self->view)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has shape %s but self has shape %s", ShapeText(out->view).c_str(),
                ShapeText(self->view).c_str());
  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  EwArgs a{};
  a.n = Numel(self->view);
  const Buf x = plan->Input(self, self->view, ct);
  const Buf z = plan->OutputBegin(out, ct);
  if (a.n > 0) {
    const uint64_t tiles = (a.n * DTypeSize(ct) + 16383) / 16384;
    plan->Add(std::string("aclnn_") + op.kernel + "_" + KernelSuffix(ct), BlocksFor(tiles), {x, z}, a);
  }
  plan->OutputEnd(out, ct, z);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}

}  // namespace
}  // namespace aclnn
}  // namespace simnpu

using namespace simnpu::aclnn;

#define SIMNPU_ACLNN_RUN(Name)                                                                         \
  aclnnStatus Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) { \
    return Execute(#Name, workspace, workspaceSize, executor, stream);                                 \
  }

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnAdd", "other must not be NULL");
  return PlanBinary("aclnnAdd", kAdd, self, other, nullptr, alpha, out, false, workspaceSize, executor);
}
aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnAdds", kAdd, self, nullptr, other, alpha, out, false, workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnInplaceAdd", "other must not be NULL");
  return PlanBinary("aclnnInplaceAdd", kAdd, selfRef, other, nullptr, alpha, selfRef, true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceAddsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnInplaceAdds", kAdd, selfRef, nullptr, other, alpha, selfRef, true, workspaceSize, executor);
}
SIMNPU_ACLNN_RUN(aclnnAdd)
SIMNPU_ACLNN_RUN(aclnnAdds)
SIMNPU_ACLNN_RUN(aclnnInplaceAdd)
SIMNPU_ACLNN_RUN(aclnnInplaceAdds)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnSub", "other must not be NULL");
  return PlanBinary("aclnnSub", kSub, self, other, nullptr, alpha, out, false, workspaceSize, executor);
}
aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnSubs", kSub, self, nullptr, other, alpha, out, false, workspaceSize, executor);
}
aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnInplaceSub", "other must not be NULL");
  return PlanBinary("aclnnInplaceSub", kSub, selfRef, other, nullptr, alpha, selfRef, true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnInplaceSubs", kSub, selfRef, nullptr, other, alpha, selfRef, true, workspaceSize, executor);
}
SIMNPU_ACLNN_RUN(aclnnSub)
SIMNPU_ACLNN_RUN(aclnnSubs)
SIMNPU_ACLNN_RUN(aclnnInplaceSub)
SIMNPU_ACLNN_RUN(aclnnInplaceSubs)

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnMul", "other must not be NULL");
  return PlanBinary("aclnnMul", kMul, self, other, nullptr, nullptr, out, false, workspaceSize, executor);
}
aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnMuls", kMul, self, nullptr, other, nullptr, out, false, workspaceSize, executor);
}
aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnInplaceMul", "other must not be NULL");
  return PlanBinary("aclnnInplaceMul", kMul, selfRef, other, nullptr, nullptr, selfRef, true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PlanBinary("aclnnInplaceMuls", kMul, selfRef, nullptr, other, nullptr, selfRef, true, workspaceSize,
                    executor);
}
SIMNPU_ACLNN_RUN(aclnnMul)
SIMNPU_ACLNN_RUN(aclnnMuls)
SIMNPU_ACLNN_RUN(aclnnInplaceMul)
SIMNPU_ACLNN_RUN(aclnnInplaceMuls)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnDiv", "other must not be NULL");
  return PlanBinary("aclnnDiv", kDiv, self, other, nullptr, nullptr, out, false, workspaceSize, executor);
}
aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  return PlanBinary("aclnnDivs", kDiv, self, nullptr, other, nullptr, out, false, workspaceSize, executor);
}
aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  if (other == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, "aclnnInplaceDiv", "other must not be NULL");
  return PlanBinary("aclnnInplaceDiv", kDiv, selfRef, other, nullptr, nullptr, selfRef, true, workspaceSize, executor);
}
aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  return PlanBinary("aclnnInplaceDivs", kDiv, selfRef, nullptr, other, nullptr, selfRef, true, workspaceSize,
                    executor);
}
SIMNPU_ACLNN_RUN(aclnnDiv)
SIMNPU_ACLNN_RUN(aclnnDivs)
SIMNPU_ACLNN_RUN(aclnnInplaceDiv)
SIMNPU_ACLNN_RUN(aclnnInplaceDivs)

aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                     aclOpExecutor** executor) {
  return PlanUnary("aclnnAbs", kAbs, self, out, false, workspaceSize, executor);
}
SIMNPU_ACLNN_RUN(aclnnAbs)

#define SIMNPU_ACLNN_UNARY_PAIR(Name, table)                                                            \
  aclnnStatus aclnn##Name##GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, \
                                            aclOpExecutor** executor) {                                 \
    return PlanUnary("aclnn" #Name, table, self, out, false, workspaceSize, executor);                  \
  }                                                                                                     \
  aclnnStatus aclnnInplace##Name##GetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,         \
                                                   aclOpExecutor** executor) {                          \
    return PlanUnary("aclnnInplace" #Name, table, selfRef, selfRef, true, workspaceSize, executor);     \
  }                                                                                                     \
  SIMNPU_ACLNN_RUN(aclnn##Name)                                                                         \
  SIMNPU_ACLNN_RUN(aclnnInplace##Name)

SIMNPU_ACLNN_UNARY_PAIR(Neg, kNeg)
SIMNPU_ACLNN_UNARY_PAIR(Exp, kExp)
SIMNPU_ACLNN_UNARY_PAIR(Relu, kRelu)
SIMNPU_ACLNN_UNARY_PAIR(Sigmoid, kSigmoid)

}  // extern "C"
