// Operators with their own planning: Cast (one converting copy), Softmax and
// ReduceSum (an axis view [outer, len, inner] of a contiguous copy), Matmul
// (torch.matmul shape rules over contiguous [batch, m, k] x [batch, k, n]).
#include <algorithm>
#include <memory>
#include <new>
#include <utility>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"
#include "common/dtypes.h"
#include "common/report.h"
#include "opapi/plan.h"

using namespace simnpu::aclnn;

namespace {

bool FloatKernelType(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16; }

aclnnStatus CheckOut(const char* api, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (workspaceSize == nullptr || executor == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "workspaceSize and executor must not be NULL");
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnCast";
  if (aclnnStatus s = CheckOut(api, workspaceSize, executor); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "self", self); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  if (!IsKernelType(dtype)) return Fail(ACLNN_ERR_PARAM_INVALID, api, "dtype %d is not supported", static_cast<int>(dtype));
  if (out->dtype != dtype)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has data type %s but dtype is %s", DTypeName(out->dtype),
                DTypeName(dtype));
  if (out->view != self->view)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has shape %s but self has shape %s", ShapeText(out->view).c_str(),
                ShapeText(self->view).c_str());
  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  Buf src;
  src.user = self->data;
  Buf dst;
  dst.user = out->data;
  plan->Copy(src, self->dtype, self->view, self->strides, self->offset, dst, out->dtype, out->strides, out->offset);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}
aclnnStatus aclnnCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return Execute("aclnnCast", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  const char* api = "aclnnSoftmax";
  if (aclnnStatus s = CheckOut(api, workspaceSize, executor); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "self", self); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  if (!FloatKernelType(self->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "self has data type %s; FLOAT, FLOAT16 and BFLOAT16 are supported",
                DTypeName(self->dtype));
  if (!FloatKernelType(out->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has data type %s; FLOAT, FLOAT16 and BFLOAT16 are supported",
                DTypeName(out->dtype));
  if (out->view != self->view)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has shape %s but self has shape %s", ShapeText(out->view).c_str(),
                ShapeText(self->view).c_str());
  const int64_t nd = static_cast<int64_t>(self->view.size());
  const int64_t lim = nd == 0 ? 1 : nd;
  if (dim < -lim || dim >= lim)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "dim %lld is out of range [%lld, %lld]", static_cast<long long>(dim),
                static_cast<long long>(-lim), static_cast<long long>(lim - 1));
  if (dim < 0) dim += lim;
  AxisArgs a{};
  a.outer = 1;
  a.inner = 1;
  a.len = 1;
  for (int64_t i = 0; i < nd; ++i) {
    const uint64_t d = static_cast<uint64_t>(self->view[i]);
    if (i < dim) a.outer *= d;
    else if (i == dim) a.len = d;
    else a.inner *= d;
  }
  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  const aclDataType ct = self->dtype;
  const Buf x = plan->Input(self, self->view, ct);
  const Buf z = plan->OutputBegin(out, ct);
  if (a.outer * a.len * a.inner > 0)
    plan->Add(std::string("aclnn_softmax_") + KernelSuffix(ct), BlocksFor(a.outer * a.inner), {x, z}, a);
  plan->OutputEnd(out, ct, z);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}
aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return Execute("aclnnSoftmax", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                           aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  const char* api = "aclnnReduceSum";
  if (aclnnStatus s = CheckOut(api, workspaceSize, executor); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "self", self); s != ACLNN_SUCCESS) return s;
  if (dims == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "dims must not be NULL");
  if (!IsLive(dims, kAclnnIntArrayMagic)) return Fail(ACLNN_ERR_PARAM_INVALID, api, "dims is not a live aclIntArray");
  if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  if (!IsKernelType(dtype)) return Fail(ACLNN_ERR_PARAM_INVALID, api, "dtype %d is not supported", static_cast<int>(dtype));
  if (out->dtype != dtype)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has data type %s but dtype is %s", DTypeName(out->dtype),
                DTypeName(dtype));
  const int64_t nd = static_cast<int64_t>(self->view.size());
  const int64_t lim = nd == 0 ? 1 : nd;
  std::vector<bool> reduced(static_cast<size_t>(lim), false);
  for (int64_t d : dims->values) {
    if (d < -lim || d >= lim)
      return Fail(ACLNN_ERR_PARAM_INVALID, api, "dim %lld is out of range [%lld, %lld]", static_cast<long long>(d),
                  static_cast<long long>(-lim), static_cast<long long>(lim - 1));
    const int64_t k = d < 0 ? d + lim : d;
    if (reduced[static_cast<size_t>(k)])
      return Fail(ACLNN_ERR_PARAM_INVALID, api, "dim %lld appears more than once", static_cast<long long>(d));
    reduced[static_cast<size_t>(k)] = true;
  }
  if (dims->values.empty()) std::fill(reduced.begin(), reduced.end(), true);  // no dims: all of them
  // permuted view: kept dims first, reduced dims last
  Shape keptShape, redShape, outShape, perm;
  for (int64_t i = 0; i < nd; ++i) {
    if (reduced[static_cast<size_t>(i)]) {
      redShape.push_back(self->view[i]);
      if (keepDims) outShape.push_back(1);
    } else {
      keptShape.push_back(self->view[i]);
      outShape.push_back(self->view[i]);
    }
  }
  if (out->view != outShape)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has shape %s but the reduced shape is %s",
                ShapeText(out->view).c_str(), ShapeText(outShape).c_str());
  for (int pass = 0; pass < 2; ++pass)
    for (int64_t i = 0; i < nd; ++i)
      if (reduced[static_cast<size_t>(i)] == (pass == 1)) perm.push_back(i);
  Shape pshape, pstrides;
  for (int64_t i : perm) {
    pshape.push_back(self->view[static_cast<size_t>(i)]);
    pstrides.push_back(self->strides[static_cast<size_t>(i)]);
  }
  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  const aclDataType ct = dtype;
  AxisArgs a{};
  a.outer = Numel(keptShape);
  a.len = Numel(redShape);
  a.inner = 1;
  Buf x;
  if (nd == 0) {
    x = plan->Input(self, self->view, ct);
  } else {
    Buf src;
    src.user = self->data;
    x = plan->Reserve(Numel(pshape), DTypeSize(ct));
    plan->Copy(src, self->dtype, pshape, pstrides, self->offset, x, ct, ContiguousStrides(pshape), 0);
  }
  const Buf z = plan->OutputBegin(out, ct);
  if (a.outer > 0)
    plan->Add(std::string("aclnn_reduce_sum_") + KernelSuffix(ct), BlocksFor(a.outer), {x, z}, a);
  plan->OutputEnd(out, ct, z);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}
aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return Execute("aclnnReduceSum", workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const char* api = "aclnnMatmul";
  if (aclnnStatus s = CheckOut(api, workspaceSize, executor); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "self", self); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "mat2", mat2); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = CheckTensor(api, "out", out); s != ACLNN_SUCCESS) return s;
  if (cubeMathType < 0 || cubeMathType > 3)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "cubeMathType %d is not one of 0 (KEEP_DTYPE) .. 3 (USE_HF32)",
                static_cast<int>(cubeMathType));
  const aclDataType ct = Promote(self->dtype, mat2->dtype);
  if (!FloatKernelType(ct))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "inputs %s and %s: FLOAT, FLOAT16 and BFLOAT16 are supported",
                DTypeName(self->dtype), DTypeName(mat2->dtype));
  if (!FloatKernelType(out->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has data type %s; FLOAT, FLOAT16 and BFLOAT16 are supported",
                DTypeName(out->dtype));
  if (self->view.empty() || mat2->view.empty())
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "self and mat2 must have at least one dimension");
  // torch.matmul: 1-D operands get a dimension of 1 (removed from the result)
  Shape a = self->view;
  Shape b = mat2->view;
  const bool aVec = a.size() == 1;
  const bool bVec = b.size() == 1;
  if (aVec) a.insert(a.begin(), 1);
  if (bVec) b.push_back(1);
  const int64_t m = a[a.size() - 2];
  const int64_t k = a[a.size() - 1];
  const int64_t k2 = b[b.size() - 2];
  const int64_t n = b[b.size() - 1];
  if (k != k2)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the reduce dimensions differ: self %s, mat2 %s",
                ShapeText(self->view).c_str(), ShapeText(mat2->view).c_str());
  Shape batch;
  if (!BroadcastShapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2), &batch))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "the batch dimensions of %s and %s do not broadcast",
                ShapeText(self->view).c_str(), ShapeText(mat2->view).c_str());
  Shape outShape = batch;
  if (!aVec) outShape.push_back(m);
  if (!bVec) outShape.push_back(n);
  if (out->view != outShape)
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "out has shape %s but the product has shape %s",
                ShapeText(out->view).c_str(), ShapeText(outShape).c_str());
  Shape aFull = batch, bFull = batch;
  aFull.push_back(m);
  aFull.push_back(k);
  bFull.push_back(k);
  bFull.push_back(n);
  // views of self/mat2 with the inserted 1-dims, broadcast to aFull/bFull
  auto view = [](const aclTensor* t, bool vec, bool front) {
    aclTensor v;  // shape/strides only
    v.dtype = t->dtype;
    v.data = t->data;
    v.offset = t->offset;
    v.view = t->view;
    v.strides = t->strides;
    if (vec) {
      if (front) {
        v.view.insert(v.view.begin(), 1);
        v.strides.insert(v.strides.begin(), 0);
      } else {
        v.view.push_back(1);
        v.strides.push_back(0);
      }
    }
    return v;
  };
  const aclTensor av = view(self, aVec, true);
  const aclTensor bv = view(mat2, bVec, false);
  std::unique_ptr<Plan> plan = NewPlan();
  if (plan == nullptr) return Fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, api, "out of host memory");
  const Buf x = plan->Input(&av, aFull, ct);
  const Buf y = plan->Input(&bv, bFull, ct);
  const Buf z = plan->OutputBegin(out, ct);
  MatmulArgs ma{};
  ma.batch = Numel(batch);
  ma.m = static_cast<uint64_t>(m);
  ma.k = static_cast<uint64_t>(k);
  ma.n = static_cast<uint64_t>(n);
  if (ma.batch * ma.m * ma.n > 0) {
    // k == 0 is an empty sum: the kernel writes zeros
    plan->Add(std::string("aclnn_matmul_") + KernelSuffix(ct), BlocksFor(ma.batch * ma.m), {x, y, z}, ma);
  }
  plan->OutputEnd(out, ct, z);
  return Deliver(api, std::move(plan), workspaceSize, executor);
}
aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  return Execute("aclnnMatmul", workspace, workspaceSize, executor, stream);
}

}  // extern "C"
