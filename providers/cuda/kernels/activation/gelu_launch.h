// Launcher of the GELU-family CUDA kernel (gelu.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// kErf: x/2 (1 + erf(x / sqrt 2)); kTanh: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)));
/// kQuick: x sigmoid(alpha x).
enum class GeluForm { kErf, kTanh, kQuick };

/// y = gelu(x + bias) for `count` values, `bias` (may be null) repeating every `width` values.
cudaError_t LaunchGelu(GeluForm form, ElementKind kind, const void* x, const void* bias, void* y,
                       int64_t count, int64_t width, float alpha, cudaStream_t stream);

}  // namespace ort::cuda
