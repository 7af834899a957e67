// The `axis` of Softmax, LogSoftmax and Hardmax, shared by the CPU and CUDA kernels: before opset
// 13 the input is flattened to 2-D at the axis (default 1); from 13 the op runs along that one
// axis (default -1).
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"

namespace ort {

/// The input seen as [outer, length, inner]: the op runs along `length` for each of the outer x
/// inner positions.
struct SoftmaxBlocks {
  int64_t outer = 1;
  int64_t length = 1;
  int64_t inner = 1;
};

struct SoftmaxAxis {
  bool flatten = false;
  int64_t axis = -1;

  /// Reads `axis` and the opset's form.
  Status Parse(const KernelInfo& info);
  /// The blocks of an input of `shape`; a scalar is one element (rank 0 is not valid ONNX, but
  /// harmless). Errors name the axis.
  Result<SoftmaxBlocks> Resolve(const KernelContext& context, const TensorShape& shape) const;
};

}  // namespace ort
