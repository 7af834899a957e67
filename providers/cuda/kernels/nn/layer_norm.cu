// One block per row: the mean first, then the variance of the centered values (more accurate than
// E[x^2] - E[x]^2), both block-wide sums in float. The row's input s (x plus the optional skip
// and residual bias) is recomputed on each pass rather than staged: rows are short.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/common/reduce.cuh"
#include "providers/cuda/kernels/nn/layer_norm_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
struct RowInput {
  const T* x;
  const T* skip;
  int64_t skip_size;
  const T* residual_bias;
  int64_t offset;  // of the row's first element

  __device__ float operator()(int64_t j) const {
    float value = static_cast<float>(x[offset + j]);
    if (skip != nullptr) value += static_cast<float>(skip[(offset + j) % skip_size]);
    if (residual_bias != nullptr) value += static_cast<float>(residual_bias[j]);
    return value;
  }
};

template <typename T>
__global__ void LayerNorm(LayerNormArgs a) {
  __shared__ float shared[kThreads];
  const int64_t cols = a.cols;
  const RowInput<T> s{static_cast<const T*>(a.x), static_cast<const T*>(a.skip), a.skip_size,
                      static_cast<const T*>(a.residual_bias), blockIdx.x * cols};
  const auto* scale = static_cast<const T*>(a.scale);
  const auto* bias = static_cast<const T*>(a.bias);
  T* out = static_cast<T*>(a.y) + s.offset;
  T* sum_out = a.sum != nullptr ? static_cast<T*>(a.sum) + s.offset : nullptr;
  float sum = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const float value = s(j);
    sum += value;
    if (sum_out != nullptr) sum_out[j] = static_cast<T>(value);
  }
  const float mean = BlockReduce(sum, SumOp{}, shared) / static_cast<float>(cols);
  const float center = a.simplified ? 0.0f : mean;
  float squares = 0.0f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const float centered = s(j) - center;
    squares += centered * centered;
  }
  const float inverse =
      rsqrtf(BlockReduce(squares, SumOp{}, shared) / static_cast<float>(cols) + a.epsilon);
  if (threadIdx.x == 0 && a.mean != nullptr) a.mean[blockIdx.x] = mean;
  if (threadIdx.x == 0 && a.inv_std_dev != nullptr) a.inv_std_dev[blockIdx.x] = inverse;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    float value = (s(j) - center) * inverse * static_cast<float>(scale[j]);
    if (bias != nullptr) value += static_cast<float>(bias[j]);
    out[j] = static_cast<T>(value);
  }
}

}  // namespace

cudaError_t LaunchLayerNorm(const LayerNormArgs& args, cudaStream_t stream) {
  if (args.rows == 0 || args.cols == 0) return cudaSuccess;
  if (args.rows > 2147483647) return cudaErrorInvalidConfiguration;
  const auto blocks = static_cast<unsigned>(args.rows);
  if (args.kind == ElementKind::kFloat) {
    LayerNorm<float><<<blocks, kThreads, 0, stream>>>(args);
  } else {
    LayerNorm<__half><<<blocks, kThreads, 0, stream>>>(args);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
