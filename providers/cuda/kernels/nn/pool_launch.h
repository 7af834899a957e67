// Launchers of the pooling CUDA kernels (pool.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

enum class PoolKind { kMax, kAverage };

inline constexpr int kMaxPoolRank = 3;

/// The window of one pooling call as three spatial axes (depth, height, width); lower ranks get
/// leading unit axes (size 1, kernel 1, stride 1, no padding).
struct PoolGeometry {
  int64_t in[kMaxPoolRank] = {1, 1, 1};
  int64_t out[kMaxPoolRank] = {1, 1, 1};
  int64_t kernel[kMaxPoolRank] = {1, 1, 1};
  int64_t stride[kMaxPoolRank] = {1, 1, 1};
  int64_t dilation[kMaxPoolRank] = {1, 1, 1};
  int64_t pad_begin[kMaxPoolRank] = {};
  int64_t pad_end[kMaxPoolRank] = {};
};

/// Pools each of `planes` [in] planes of x into an [out] plane of y, in float. MaxPool keeps the
/// largest value in the window (the lowest float when the window only covers padding);
/// AveragePool divides by the input positions in the window, or with `count_include_pad` by the
/// positions inside the padded extent (0 when the divisor is 0).
cudaError_t LaunchPool(PoolKind pool, ElementKind kind, const void* x, void* y, int64_t planes,
                       const PoolGeometry& geometry, bool count_include_pad, cudaStream_t stream);

/// y[p] = max or mean of the `size` values of plane p of x, for `planes` planes (0 when `size` is
/// 0); a NaN in a plane gives NaN for max.
cudaError_t LaunchGlobalPool(PoolKind pool, ElementKind kind, const void* x, void* y,
                             int64_t planes, int64_t size, cudaStream_t stream);

}  // namespace ort::cuda
