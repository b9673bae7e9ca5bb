// simnpu: ge::Shape (graph/tensor.h), the shape type of the host tiling
// functions (GetSoftMaxMaxTmpSize(const ge::Shape&, ...) and the like).
// Header-only; libgraph_base exists for link lines that name it.
#ifndef SIMNPU_GRAPH_TENSOR_H_
#define SIMNPU_GRAPH_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/types.h"

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}

  size_t GetDimNum() const { return dims_.size(); }
  // 0 for an index past the last dimension
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  graphStatus SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return GRAPH_FAILED;
    dims_[idx] = value;
    return GRAPH_SUCCESS;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  // The number of elements: the product of the dimensions; 0 for a shape
  // without dimensions, -1 when a dimension is negative (unknown).
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) {
      if (d < 0) return -1;
      n *= d;
    }
    return n;
  }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge

#endif  // SIMNPU_GRAPH_TENSOR_H_
