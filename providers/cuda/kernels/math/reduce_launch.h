// Launcher of the reduction CUDA kernel (reduce.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

enum class ReduceOp { kSum, kMean, kMax, kMin, kSumSquare, kL2 };

inline constexpr int kMaxReduceRank = 8;

/// Where the inputs of each output lie: an output index, split row-major over `kept_dims`, gives
/// a base offset through `kept_strides`; a reduced index, split over `reduced_dims`, gives the
/// offset from that base through `reduced_strides`.
struct ReduceLayout {
  int kept_rank = 0;
  int64_t kept_dims[kMaxReduceRank] = {};
  int64_t kept_strides[kMaxReduceRank] = {};
  int reduced_rank = 0;
  int64_t reduced_dims[kMaxReduceRank] = {};
  int64_t reduced_strides[kMaxReduceRank] = {};
};

/// Reduces the `reduce_count` inputs of each of `outputs` outputs (laid out by `layout`) in
/// float. Reducing nothing gives 0 (Sum, SumSquare, L2), NaN (Mean), -inf (Max) or +inf (Min);
/// a NaN input makes Max and Min NaN.
cudaError_t LaunchReduce(ReduceOp op, ElementKind kind, const void* x, void* y, int64_t outputs,
                         int64_t reduce_count, const ReduceLayout& layout, cudaStream_t stream);

}  // namespace ort::cuda
