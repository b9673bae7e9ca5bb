// An operator's plan: what its first phase (aclnnXxxGetWorkspaceSize) works
// out and its second phase (aclnnXxx) enqueues. A plan is a list of kernel
// launches whose pointer arguments are either caller memory (tensor data) or
// offsets into the workspace the caller passes to the second phase, plus the
// workspace size. Scalars, shapes and strides are copied into the launches'
// argument structs at planning time, so the caller's objects may be destroyed
// between the phases (the tensors' device memory of course may not).
//
// Building blocks the operators use:
//   Input(t, shape, dtype)  a contiguous buffer holding t broadcast to shape
//                           and converted to dtype: t's own memory when it
//                           already is one, else workspace filled by a copy
//   OutputBegin/End         a contiguous buffer of out's shape in the compute
//                           type: out's own memory, or workspace copied into
//                           out's view (and converted) by a final launch
#ifndef SIMNPU_ACLNN_OPAPI_PLAN_H_
#define SIMNPU_ACLNN_OPAPI_PLAN_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "common/objects.h"
#include "common/live_objects.h"
#include "common/op_args.h"

namespace simnpu {
namespace aclnn {

using Shape = std::vector<int64_t>;

// A device pointer of a launch: caller memory, or an offset into the workspace.
struct Buf {
  bool workspace = false;
  void* user = nullptr;
  uint64_t offset = 0;
};

struct Launch {
  std::string kernel;
  uint32_t blocks = 1;
  std::vector<Buf> ptrs;
  std::vector<unsigned char> args;  // the trailing struct argument
};

// Ownership: a first phase holds its plan in a std::unique_ptr from creation
// until Deliver hands it to the caller (as the executor), so a planning that
// fails half-way frees it.
struct Plan : aclOpExecutor {
  std::string op;  // "aclnnAdd"
  std::vector<Launch> launches;
  uint64_t workspace = 0;
  // A reservation did not fit in 64 bits (huge broadcast views); Deliver
  // then refuses the plan.
  bool workspace_overflow = false;

  // Workspace reservation of `elems` elements of `elemSize` bytes, 64-byte aligned.
  Buf Reserve(uint64_t elems, uint64_t elemSize);

  template <typename A>
  void Add(const std::string& kernel, uint32_t blocks, std::vector<Buf> ptrs, const A& a) {
    Launch l;
    l.kernel = kernel;
    l.blocks = blocks == 0 ? 1 : blocks;
    l.ptrs = std::move(ptrs);
    l.args.resize(sizeof(A));
    std::memcpy(l.args.data(), &a, sizeof(A));
    launches.push_back(std::move(l));
  }

  // Broadcast/strided/converting copy: src (a view of caller memory or a
  // contiguous workspace buffer) into dst.
  void Copy(const Buf& src, aclDataType srcType, const Shape& shape, const Shape& srcStrides, int64_t srcOffset,
            const Buf& dst, aclDataType dstType, const Shape& dstStrides, int64_t dstOffset);

  // A contiguous buffer of `shape` in `dtype` holding t broadcast to shape.
  Buf Input(const aclTensor* t, const Shape& shape, aclDataType dtype);
  // The buffer the compute kernels write out's values to, in `dtype`.
  Buf OutputBegin(const aclTensor* out, aclDataType dtype);
  // Copies that buffer into out (if it is not out's own memory).
  void OutputEnd(const aclTensor* out, aclDataType dtype, const Buf& b);
};

uint64_t Numel(const Shape& s);
Shape ContiguousStrides(const Shape& s);
bool IsContiguous(const aclTensor* t);
// Block count for `units` of independent work (at most the vector cores of
// an A2 part, 48).
uint32_t BlocksFor(uint64_t units);

// Broadcast of two shapes (right-aligned, 1 stretches); false if they do not broadcast.
bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out);

// Checks shared by the first phases: a live tensor in ND-like format with a
// kernel element type. Returns 0 or the status (message queued).
aclnnStatus CheckTensor(const char* api, const char* name, const aclTensor* t);

// A fresh plan (NULL when out of host memory).
std::unique_ptr<Plan> NewPlan();

// Finishes a first phase: hands the plan to the caller, or (a workspace that
// does not fit in 64 bits) frees it and fails with ACLNN_ERR_PARAM_INVALID.
aclnnStatus Deliver(const char* api, std::unique_ptr<Plan> plan, uint64_t* workspaceSize, aclOpExecutor** executor);

// The second phase of every operator.
aclnnStatus Execute(const char* api, void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                    aclrtStream stream);

std::string ShapeText(const Shape& s);

}  // namespace aclnn
}  // namespace simnpu

#endif  // SIMNPU_ACLNN_OPAPI_PLAN_H_
