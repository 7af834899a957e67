// Launcher of the layer-normalization CUDA kernel (layer_norm.cu), shared by
// LayerNormalization and com.microsoft Skip(Simplified)LayerNormalization.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// One normalization over `rows` rows of `cols`: s = x + skip + residual_bias (the last two
/// optional; skip is read at (row * cols + j) % skip_size, repeating over the leading axes), then
/// y = (s - mean) / sqrt(var + epsilon) * scale + bias, or with `simplified` (RMS norm)
/// y = s / sqrt(mean(s^2) + epsilon) * scale + bias. All tensors share `kind` except the float
/// statistics; every pointer but x, scale and y may be null.
struct LayerNormArgs {
  ElementKind kind = ElementKind::kFloat;
  const void* x = nullptr;
  const void* skip = nullptr;
  int64_t skip_size = 0;
  const void* residual_bias = nullptr;
  const void* scale = nullptr;
  const void* bias = nullptr;
  void* y = nullptr;
  void* sum = nullptr;           // s, x's shape
  float* mean = nullptr;         // per row: mean of s (also in simplified mode)
  float* inv_std_dev = nullptr;  // per row
  int64_t rows = 0;
  int64_t cols = 0;
  float epsilon = 1e-5f;
  bool simplified = false;
};

cudaError_t LaunchLayerNorm(const LayerNormArgs& args, cudaStream_t stream);

}  // namespace ort::cuda
