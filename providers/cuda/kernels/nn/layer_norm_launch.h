// Launcher of the layer-normalization CUDA kernel (layer_norm.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// y = (x - mean) / sqrt(var + epsilon) * scale + bias over the last `cols` elements of each of
/// `rows` rows, in float; x, scale, bias (may be null) and y share `kind`. Each row's mean and
/// 1 / sqrt(var + epsilon) go to `mean` and `inv_std_dev` (float, either may be null).
cudaError_t LaunchLayerNorm(ElementKind kind, const void* x, const void* scale, const void* bias,
                            void* y, float* mean, float* inv_std_dev, int64_t rows, int64_t cols,
                            float epsilon, cudaStream_t stream);

}  // namespace ort::cuda
