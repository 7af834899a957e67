// Launcher of Where (where.cu): plain types only, so that the host code calling it needs no CUDA
// compiler.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// The broadcast of Where's three inputs to its output: per output dimension, the element stride
/// of each input (0 where it broadcasts). `rank` is at least 1.
struct SelectStrides {
  int rank = 0;
  int64_t output_dims[kMaxBroadcastRank] = {};
  int64_t condition_strides[kMaxBroadcastRank] = {};
  int64_t x_strides[kMaxBroadcastRank] = {};
  int64_t y_strides[kMaxBroadcastRank] = {};
};

/// out[i] = condition[...] ? x[...] : y[...] for `count` outputs of any element type of 1, 2, 4
/// or 8 bytes.
cudaError_t LaunchWhere(size_t element_size, const bool* condition, const void* x, const void* y,
                        void* out, int64_t count, const SelectStrides& strides,
                        cudaStream_t stream);

}  // namespace ort::cuda
