// Attributes and output geometry shared by the sliding-window ops: Conv, ConvTranspose,
// ConvInteger, QLinearConv and the pools (auto_pad, kernel_shape, strides, pads, dilations,
// group).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/framework/op_kernel.h"

namespace ort {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

/// Attributes as written on the node; empty lists take their defaults once the spatial rank is
/// known (in ResolveWindow).
struct WindowAttributes {
  AutoPad auto_pad = AutoPad::kNotSet;
  std::vector<int64_t> kernel_shape;
  std::vector<int64_t> strides;
  std::vector<int64_t> pads;
  std::vector<int64_t> dilations;
  int64_t group = 1;

  /// Reads the attributes; `kernel_shape` is required for pools (conv infers it from W).
  Status Parse(const KernelInfo& info, bool require_kernel_shape);
};

/// The resolved geometry of one call, per spatial axis.
struct WindowGeometry {
  std::vector<int64_t> input;   // spatial input dims
  std::vector<int64_t> kernel;  // kernel dims
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pads;    // [begin..., end...]
  std::vector<int64_t> output;  // spatial output dims

  size_t rank() const { return input.size(); }
  int64_t InputSize() const;
  int64_t KernelSize() const;
  int64_t OutputSize() const;
  /// True for a 1x1... kernel with unit strides and no padding: the image is its own im2col.
  bool IsPointwise() const;
};

/// Fills defaults, validates attribute sizes and values and computes the output dims of a
/// forward window (conv, pool): floor((in + pads - dilated_kernel) / stride) + 1, or ceil with
/// `ceil_mode` (a last window starting in the end padding is dropped). Errors are plain messages
/// for the caller to prefix with the node.
Result<WindowGeometry> ResolveWindow(const WindowAttributes& attributes,
                                     std::span<const int64_t> input_spatial,
                                     std::span<const int64_t> kernel, bool ceil_mode);

/// Reads an `auto_pad` string.
Result<AutoPad> ParseAutoPad(const std::string& text);

}  // namespace ort
