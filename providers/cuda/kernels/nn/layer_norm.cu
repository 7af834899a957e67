// One block per row: the mean first, then the variance of the centered values (more accurate than
// E[x^2] - E[x]^2), both block-wide sums in float.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/nn/layer_norm_launch.h"

namespace ort::cuda {
namespace {

constexpr int kThreads = 256;

__device__ float BlockSum(float value, float* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) shared[threadIdx.x] += shared[threadIdx.x + half];
    __syncthreads();
  }
  const float result = shared[0];
  __syncthreads();
  return result;
}

template <typename T>
__global__ void LayerNorm(const T* x, const T* scale, const T* bias, T* y, float* mean_out,
                          float* inv_std_dev_out, int64_t cols, float epsilon) {
  __shared__ float shared[kThreads];
  const T* row = x + blockIdx.x * cols;
  T* out = y + blockIdx.x * cols;
  float sum = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) sum += static_cast<float>(row[j]);
  const float mean = BlockSum(sum, shared) / static_cast<float>(cols);
  float squares = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const float centered = static_cast<float>(row[j]) - mean;
    squares += centered * centered;
  }
  const float inverse = rsqrtf(BlockSum(squares, shared) / static_cast<float>(cols) + epsilon);
  if (threadIdx.x == 0 && mean_out != nullptr) mean_out[blockIdx.x] = mean;
  if (threadIdx.x == 0 && inv_std_dev_out != nullptr) inv_std_dev_out[blockIdx.x] = inverse;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    float value = (static_cast<float>(row[j]) - mean) * inverse * static_cast<float>(scale[j]);
    if (bias != nullptr) value += static_cast<float>(bias[j]);
    out[j] = static_cast<T>(value);
  }
}

}  // namespace

cudaError_t LaunchLayerNorm(ElementKind kind, const void* x, const void* scale, const void* bias,
                            void* y, float* mean, float* inv_std_dev, int64_t rows, int64_t cols,
                            float epsilon, cudaStream_t stream) {
  if (rows == 0 || cols == 0) return cudaSuccess;
  if (rows > 2147483647) return cudaErrorInvalidConfiguration;
  const auto blocks = static_cast<unsigned>(rows);
  if (kind == ElementKind::kFloat) {
    LayerNorm<float><<<blocks, kThreads, 0, stream>>>(
        static_cast<const float*>(x), static_cast<const float*>(scale),
        static_cast<const float*>(bias), static_cast<float*>(y), mean, inv_std_dev, cols, epsilon);
  } else {
    LayerNorm<__half><<<blocks, kThreads, 0, stream>>>(
        static_cast<const __half*>(x), static_cast<const __half*>(scale),
        static_cast<const __half*>(bias), static_cast<__half*>(y), mean, inv_std_dev, cols,
        epsilon);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
