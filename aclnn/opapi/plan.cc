#include "opapi/plan.h"

#include <algorithm>
#include <new>

#include "common/dtypes.h"
#include "common/report.h"
#include "opapi/kernel_registry.h"

namespace simnpu {
namespace aclnn {

namespace {
constexpr uint32_t kMaxBlocks = 48;

unsigned char* TensorBase(const aclTensor* t) { return static_cast<unsigned char*>(t->data); }
}  // namespace

uint64_t Numel(const Shape& s) {
  uint64_t n = 1;
  for (int64_t d : s) n *= static_cast<uint64_t>(d);
  return n;
}

Shape ContiguousStrides(const Shape& s) {
  Shape st(s.size(), 1);
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i] > 0 ? s[i] : 1;
  }
  return st;
}

bool IsContiguous(const aclTensor* t) {
  int64_t acc = 1;
  for (size_t i = t->view.size(); i-- > 0;) {
    if (t->view[i] != 1 && t->strides[i] != acc) return false;
    acc *= t->view[i];
  }
  return true;
}

uint32_t BlocksFor(uint64_t units) { return static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(units, kMaxBlocks))); }

bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out) {
  const size_t n = std::max(a.size(), b.size());
  Shape r(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    r[i] = da == 1 ? db : da;
  }
  *out = r;
  return true;
}

std::string ShapeText(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

Buf Plan::Reserve(uint64_t elems, uint64_t elemSize) {
  Buf b;
  b.workspace = true;
  b.offset = workspace;
  uint64_t bytes = 0;
  uint64_t end = 0;
  if (__builtin_mul_overflow(elems, elemSize, &bytes) || __builtin_add_overflow(bytes, uint64_t{63}, &bytes) ||
      __builtin_add_overflow(workspace, bytes / 64 * 64, &end)) {
    workspace_overflow = true;
    return b;
  }
  workspace = end;
  return b;
}

void Plan::Copy(const Buf& src, aclDataType srcType, const Shape& shape, const Shape& srcStrides, int64_t srcOffset,
                const Buf& dst, aclDataType dstType, const Shape& dstStrides, int64_t dstOffset) {
  CopyArgs a{};
  a.src_dtype = srcType;
  a.dst_dtype = dstType;
  a.total = Numel(shape);
  if (a.total == 0) return;
  a.src_offset = srcOffset;
  a.dst_offset = dstOffset;
  // merge nothing; a 0-d copy is a 1-d copy of one element
  if (shape.empty()) {
    a.ndim = 1;
    a.shape[0] = 1;
    a.src_stride[0] = 1;
    a.dst_stride[0] = 1;
  } else {
    a.ndim = static_cast<int32_t>(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) {
      a.shape[i] = shape[i];
      a.src_stride[i] = srcStrides[i];
      a.dst_stride[i] = dstStrides[i];
    }
  }
  const uint64_t rows = a.total / static_cast<uint64_t>(a.shape[a.ndim - 1]);
  Add("aclnn_strided_copy", BlocksFor(rows), {src, dst}, a);
}

Buf Plan::Input(const aclTensor* t, const Shape& shape, aclDataType dtype) {
  if (t->dtype == dtype && t->view == shape && IsContiguous(t)) {
    Buf b;
    b.user = TensorBase(t) + static_cast<uint64_t>(t->offset) * DTypeSize(t->dtype);
    return b;
  }
  // strides of t seen through the broadcast to `shape` (right-aligned; a
  // stretched dimension reads with stride 0)
  Shape st(shape.size(), 0);
  const size_t lead = shape.size() - t->view.size();
  for (size_t i = 0; i < t->view.size(); ++i) st[lead + i] = t->view[i] == 1 ? 0 : t->strides[i];
  Buf src;
  src.user = TensorBase(t);
  Buf dst = Reserve(Numel(shape), DTypeSize(dtype));
  Copy(src, t->dtype, shape, st, t->offset, dst, dtype, ContiguousStrides(shape), 0);
  return dst;
}

Buf Plan::OutputBegin(const aclTensor* out, aclDataType dtype) {
  if (out->dtype == dtype && IsContiguous(out)) {
    Buf b;
    b.user = TensorBase(out) + static_cast<uint64_t>(out->offset) * DTypeSize(out->dtype);
    return b;
  }
  return Reserve(Numel(out->view), DTypeSize(dtype));
}

void Plan::OutputEnd(const aclTensor* out, aclDataType dtype, const Buf& b) {
  if (!b.workspace) return;
  Buf dst;
  dst.user = TensorBase(out);
  Copy(b, dtype, out->view, ContiguousStrides(out->view), 0, dst, out->dtype, out->strides, out->offset);
}

aclnnStatus CheckTensor(const char* api, const char* name, const aclTensor* t) {
  if (t == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "%s must not be NULL", name);
  if (!IsLive(t, kAclnnTensorMagic)) return Fail(ACLNN_ERR_PARAM_INVALID, api, "%s is not a live aclTensor", name);
  if (!IsKernelType(t->dtype))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "%s has data type %s, which this operator does not support", name,
                DTypeName(t->dtype));
  if (Numel(t->view) > 0 && t->data == nullptr)
    return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "%s has no device memory (tensorData is NULL)", name);
  return ACLNN_SUCCESS;
}

std::unique_ptr<Plan> NewPlan() { return std::unique_ptr<Plan>(new (std::nothrow) Plan()); }

aclnnStatus Deliver(const char* api, std::unique_ptr<Plan> plan, uint64_t* workspaceSize, aclOpExecutor** executor) {
  if (plan->workspace_overflow)
    return Fail(ACLNN_ERR_PARAM_INVALID, api,
                "the operator would need a workspace of more than 2^64 bytes (the tensors' views are too large)");
  plan->op = api;
  LiveAdd(static_cast<const aclOpExecutor*>(plan.get()));
  *workspaceSize = plan->workspace;
  *executor = plan.release();  // the caller's now; aclnnXxx or aclDestroyAclOpExecutor frees it
  return ACLNN_SUCCESS;
}

aclnnStatus Execute(const char* api, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                    aclrtStream stream) {
  if (executor == nullptr) return Fail(ACLNN_ERR_PARAM_NULLPTR, api, "executor must not be NULL");
  if (!IsLive(static_cast<const aclOpExecutor*>(executor), kAclnnExecutorMagic))
    return Fail(ACLNN_ERR_PARAM_INVALID, api, "executor is not a live executor (already consumed?)");
  Plan* plan = static_cast<Plan*>(executor);
  if (plan->workspace > 0 && (workspace == nullptr || workspaceSize < plan->workspace)) {
    return Fail(ACLNN_ERR_PARAM_INVALID, api,
                "the operator needs a workspace of %llu bytes (got %llu bytes at %p)",
                static_cast<unsigned long long>(plan->workspace), static_cast<unsigned long long>(workspaceSize),
                workspace);
  }
  aclnnStatus status = ACLNN_SUCCESS;
  std::vector<unsigned char> blob;
  for (const Launch& l : plan->launches) {
    // pointers first, 8 bytes each, then the struct at the next multiple of 8
    blob.assign(l.ptrs.size() * 8 + l.args.size(), 0);
    for (size_t i = 0; i < l.ptrs.size(); ++i) {
      void* p = l.ptrs[i].workspace ? static_cast<unsigned char*>(workspace) + l.ptrs[i].offset : l.ptrs[i].user;
      std::memcpy(blob.data() + i * 8, &p, sizeof p);
    }
    if (!l.args.empty()) std::memcpy(blob.data() + l.ptrs.size() * 8, l.args.data(), l.args.size());
    aclError rc = ACL_SUCCESS;
    for (int attempt = 0; attempt < 2; ++attempt) {
      aclrtFuncHandle f = nullptr;
      status = FindKernel(l.kernel, attempt > 0, &f);
      if (status != ACLNN_SUCCESS) break;
      rc = aclrtLaunchKernelWithHostArgs(f, l.blocks, stream, nullptr, blob.data(), blob.size(), nullptr, 0);
      if (rc != 107017) break;  // ACL_ERROR_RT_INVALID_HANDLE: an image of an earlier aclInit
    }
    if (status != ACLNN_SUCCESS) break;
    if (rc != ACL_SUCCESS) {
      status = Fail(ACLNN_ERR_RUNTIME_ERROR, api, "launching kernel %s failed (runtime error %d)", l.kernel.c_str(),
                    static_cast<int>(rc));
      break;
    }
  }
  if (!plan->repeatable) Drop(static_cast<aclOpExecutor*>(plan));
  return status;
}

}  // namespace aclnn
}  // namespace simnpu
