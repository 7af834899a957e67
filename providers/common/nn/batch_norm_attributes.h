// BatchNormalization's attributes and the view of X it normalizes, shared by the CPU and CUDA
// kernels, so that both decide training and spatial mode alike for every opset.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"

namespace ort {

/// The attributes of one BatchNormalization node that decide what it computes, read once at
/// kernel creation (momentum, used by training only, stays with the CPU kernel).
struct BatchNormAttributes {
  float epsilon = 1e-5f;
  /// False (opsets before 9 only) normalizes every activation as a feature of its own.
  bool spatial = true;
  /// Batch statistics: training_mode from opset 14; before that, naming a statistics output
  /// (outputs 1 and up) with is_test = 0 (is_test exists before opset 7 only).
  bool training = false;

  /// Reads epsilon and the attributes of the node's opset that select spatial and training.
  Status Parse(const KernelInfo& info);
};

/// X viewed as [batch, features, inner]: `features` channels of `inner` values each, or (spatial
/// = 0) every activation a feature of its own with inner = 1.
struct BatchNormLayout {
  int64_t batch = 0;
  int64_t features = 0;
  int64_t inner = 0;
};

/// The layout of X ([N, C, ...], rank >= 2). Errors name the node (through `context`).
Result<BatchNormLayout> MakeBatchNormLayout(const KernelContext& context, const TensorShape& x,
                                            bool spatial);

}  // namespace ort
