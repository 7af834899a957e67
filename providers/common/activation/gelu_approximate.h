// ONNX Gelu's `approximate` attribute, shared by the CPU (activations.cc) and CUDA kernels.
#pragma once

#include "lib/framework/op_kernel.h"

namespace ort {

/// True when `approximate` is "tanh", false for "none" (the default); any other value is an
/// error naming the node.
Result<bool> ParseGeluTanhApproximation(const KernelInfo& info);

}  // namespace ort
