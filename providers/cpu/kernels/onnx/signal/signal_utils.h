// Helpers shared by the signal kernels.
#pragma once

#include <string_view>

#include "lib/framework/op_kernel.h"

namespace ort {

/// Reads a one-element int32/int64 input (a length, a size, a step).
inline Result<int64_t> ReadScalarInteger(const KernelContext& context, const Tensor& tensor,
                                         std::string_view what) {
  if (tensor.NumElements() != 1) {
    return context.Error("{} must be a scalar, got {}", what, tensor.Describe());
  }
  auto values = ReadInt64Values(tensor);
  if (!values.ok()) return context.Error("{}: {}", what, values.status().message());
  return (*values)[0];
}

}  // namespace ort
