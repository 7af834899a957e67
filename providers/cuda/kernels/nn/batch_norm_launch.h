// Launcher of the batch-normalization CUDA kernel (batch_norm.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// The per-channel inputs of BatchNormalization: scale and bias share one element kind, mean and
/// var another, either of which may differ from the data's (opsets 14 and 15 allow it).
struct BatchNormParams {
  const void* scale = nullptr;
  const void* bias = nullptr;
  ElementKind scale_kind = ElementKind::kFloat;
  const void* mean = nullptr;
  const void* var = nullptr;
  ElementKind stats_kind = ElementKind::kFloat;
};

/// y = (x - mean[c]) / sqrt(var[c] + epsilon) * scale[c] + bias[c] in float, with x and y viewed
/// as [batch, channels, inner] and c the channel of each element.
cudaError_t LaunchBatchNorm(ElementKind kind, const void* x, void* y, const BatchNormParams& params,
                            int64_t batch, int64_t channels, int64_t inner, float epsilon,
                            cudaStream_t stream);

}  // namespace ort::cuda
