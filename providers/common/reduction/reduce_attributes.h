// The axes of the Reduce* ops, shared by the CPU and CUDA kernels: an `axes` attribute up to the
// opset in which the op moved it to the optional input 1 (ReduceSum 13, the others 18), from then
// on that input with `noop_with_empty_axes`; plus `keepdims`.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

/// The first opset in which `op_type` (ReduceSum, ReduceMean, ...) takes its axes as input 1.
int ReduceAxesInputSince(std::string_view op_type);

/// The attributes of one Reduce* node, read once at kernel creation.
struct ReduceAttributes {
  bool keepdims = true;
  /// True from ReduceAxesInputSince(op) on: axes come from input 1 (read on the host).
  bool axes_from_input = false;
  bool noop_with_empty_axes = false;
  /// The `axes` attribute (empty when absent or when axes come from the input).
  std::vector<int64_t> axes;

  /// Reads keepdims and, depending on the node's opset and op type, `axes` or
  /// `noop_with_empty_axes`.
  Status Parse(const KernelInfo& info);

  /// The axes one call reduces for an input of `x_shape`, normalized to [0, rank) (duplicates
  /// kept): the attribute or input 1; none given reduces every axis, or none with
  /// noop_with_empty_axes. Errors name the node (through `context`).
  Result<std::vector<size_t>> ResolveAxes(const KernelContext& context,
                                          const TensorShape& x_shape) const;
};

}  // namespace ort
