// Gather's indices and output shape, shared by the CPU and CUDA kernels: indices are checked and
// made non-negative on the host before anything is copied, so an index out of range is an error
// naming it rather than a wrong read.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

/// data seen as [outer, dim, inner] around the axis, and where each index reads along it.
struct GatherPlan {
  size_t axis = 0;
  int64_t outer = 1;
  int64_t dim = 0;
  int64_t inner = 1;
  std::vector<int64_t> positions;  // one per index, in [0, dim)
  std::vector<int64_t> output_dims;
};

/// Plans Gather(data, indices) along `axis` (may be negative).
Result<GatherPlan> PlanGather(const KernelContext& context, const Tensor& data,
                              const Tensor& indices, int64_t axis);

}  // namespace ort
