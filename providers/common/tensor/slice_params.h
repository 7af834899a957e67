// Slice's parameters and how they select the input, shared by the CPU and CUDA kernels: starts,
// ends and axes are attributes in Slice before opset 10; from then on (and in DynamicSlice)
// starts, ends, axes and steps are inputs 1 to 4, read on the host. Bounds are clamped as the
// spec describes, so the result is always one strided view of the input.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

/// What one call selects, as a strided view of the contiguous input: the output dims, the
/// element index of the first selected element and, per axis, the input elements between
/// neighbours along the output (negative for negative steps). Axes the node does not slice keep
/// their dim and stride. An empty selection has offset and strides 0.
struct SliceView {
  std::vector<int64_t> output_dims;
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

/// The attributes of one Slice / DynamicSlice node, read once at kernel creation.
struct SliceAttributes {
  /// True for Slice before opset 10: starts, ends and axes come from the attributes below.
  bool from_attributes = false;
  bool has_axes = false;
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> axes;

  /// Reads starts, ends (both required) and axes for Slice before opset 10; nothing otherwise.
  Status Parse(const KernelInfo& info);

  /// Reads this call's starts, ends, axes and steps (from the attributes or inputs 1 to 4),
  /// validates them against `data` and clamps them. Errors name the node (through `context`).
  Result<SliceView> Resolve(const KernelContext& context, const Tensor& data) const;
};

}  // namespace ort
