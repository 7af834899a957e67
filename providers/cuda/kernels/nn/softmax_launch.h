// Launcher of the softmax CUDA kernel (softmax.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// Softmax (or log-softmax) over the middle axis of x viewed as [outer, axis, inner], in float.
cudaError_t LaunchSoftmax(ElementKind kind, const void* x, void* y, int64_t outer, int64_t axis,
                          int64_t inner, bool log, cudaStream_t stream);

}  // namespace ort::cuda
