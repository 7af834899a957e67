// One block per softmax row (outer, inner): block-wide max and sum reductions over the axis,
// whose elements are `inner` apart, then the normalized write.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/common/reduce.cuh"
#include "providers/cuda/kernels/nn/softmax_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
__global__ void Softmax(const T* x, T* y, int64_t axis, int64_t inner, bool log) {
  __shared__ float shared[kThreads];
  const int64_t row = blockIdx.x;
  const int64_t base = (row / inner) * axis * inner + row % inner;
  float largest = -INFINITY;
  for (int64_t j = threadIdx.x; j < axis; j += blockDim.x) {
    largest = fmaxf(largest, static_cast<float>(x[base + j * inner]));
  }
  largest = BlockReduce(largest, MaxOp{}, shared);
  float sum = 0.0f;
  for (int64_t j = threadIdx.x; j < axis; j += blockDim.x) {
    sum += expf(static_cast<float>(x[base + j * inner]) - largest);
  }
  sum = BlockReduce(sum, SumOp{}, shared);
  const float log_sum = logf(sum);
  for (int64_t j = threadIdx.x; j < axis; j += blockDim.x) {
    const float shifted = static_cast<float>(x[base + j * inner]) - largest;
    y[base + j * inner] = static_cast<T>(log ? shifted - log_sum : expf(shifted) / sum);
  }
}

}  // namespace

cudaError_t LaunchSoftmax(ElementKind kind, const void* x, void* y, int64_t outer, int64_t axis,
                          int64_t inner, bool log, cudaStream_t stream) {
  const int64_t rows = outer * inner;
  if (rows == 0 || axis == 0) return cudaSuccess;
  if (rows > 2147483647) return cudaErrorInvalidConfiguration;
  if (kind == ElementKind::kFloat) {
    Softmax<float><<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
        static_cast<const float*>(x), static_cast<float*>(y), axis, inner, log);
  } else {
    Softmax<__half><<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
        static_cast<const __half*>(x), static_cast<__half*>(y), axis, inner, log);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
