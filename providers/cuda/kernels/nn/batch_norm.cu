// Batch normalization with running statistics: one thread per element in a grid-stride loop, the
// channel's four parameters read (and converted) per element, since they stay in cache.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/common/launch_config.cuh"
#include "providers/cuda/kernels/nn/batch_norm_launch.h"

namespace ort::cuda {
namespace {

__device__ float LoadParam(const void* values, ElementKind kind, int64_t i) {
  if (kind == ElementKind::kFloat) return static_cast<const float*>(values)[i];
  return __half2float(static_cast<const __half*>(values)[i]);
}

template <typename T>
__global__ void BatchNorm(const T* x, T* y, BatchNormParams p, int64_t channels, int64_t inner,
                          int64_t count, float epsilon) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t c = i / inner % channels;
    const float a =
        LoadParam(p.scale, p.scale_kind, c) * rsqrtf(LoadParam(p.var, p.stats_kind, c) + epsilon);
    const float centered = static_cast<float>(x[i]) - LoadParam(p.mean, p.stats_kind, c);
    y[i] = static_cast<T>(centered * a + LoadParam(p.bias, p.scale_kind, c));
  }
}

}  // namespace

cudaError_t LaunchBatchNorm(ElementKind kind, const void* x, void* y, const BatchNormParams& params,
                            int64_t batch, int64_t channels, int64_t inner, float epsilon,
                            cudaStream_t stream) {
  const int64_t count = batch * channels * inner;
  if (count == 0) return cudaSuccess;
  if (kind == ElementKind::kFloat) {
    BatchNorm<float><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const float*>(x),
                                                             static_cast<float*>(y), params,
                                                             channels, inner, count, epsilon);
  } else {
    BatchNorm<__half><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const __half*>(x),
                                                              static_cast<__half*>(y), params,
                                                              channels, inner, count, epsilon);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
