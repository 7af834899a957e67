#include "providers/cpu/kernels/onnx/nn/conv_plan.h"

#include <algorithm>

#include "providers/cpu/kernels/common/im2col.h"

namespace ort {

TensorShape ConvProblem::OutputShape() const {
  std::vector<int64_t> dims = {batch, filters};
  dims.insert(dims.end(), geometry.output.begin(), geometry.output.end());
  return TensorShape(dims);
}

Result<ConvProblem> PlanConv(const WindowAttributes& attributes, const TensorShape& x,
                             const TensorShape& w) {
  if (x.rank() < 3 || x.rank() - 2 > kMaxSpatialRank) {
    return ORT_ERROR(kInvalidArgument,
                     "X must be [N, C, spatial...] with 1 to {} spatial dims, got {}",
                     kMaxSpatialRank, x.ToString());
  }
  if (w.rank() != x.rank()) {
    return ORT_ERROR(kInvalidArgument, "W {} must have the rank of X {}", w.ToString(),
                     x.ToString());
  }
  ConvProblem problem;
  problem.batch = x[0];
  problem.channels = x[1];
  problem.filters = w[0];
  problem.group = attributes.group;
  if (problem.channels != w[1] * problem.group || problem.filters % problem.group != 0) {
    return ORT_ERROR(kInvalidArgument,
                     "X {} and W {} do not fit group {}: need C = W[1] * group and M divisible "
                     "by group",
                     x.ToString(), w.ToString(), problem.group);
  }
  const std::span<const int64_t> kernel(w.dims().begin() + 2, w.dims().end());
  if (!attributes.kernel_shape.empty() &&
      !std::equal(kernel.begin(), kernel.end(), attributes.kernel_shape.begin(),
                  attributes.kernel_shape.end())) {
    return ORT_ERROR(kInvalidArgument, "kernel_shape does not match W {}", w.ToString());
  }
  const std::span<const int64_t> spatial(x.dims().begin() + 2, x.dims().end());
  ORT_ASSIGN_OR_RETURN(problem.geometry, ResolveWindow(attributes, spatial, kernel, false));
  return problem;
}

}  // namespace ort
