// The GELU family in one grid-stride loop; half values are computed in float.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/activation/gelu_launch.h"
#include "providers/cuda/kernels/common/launch_config.cuh"

namespace ort::cuda {
namespace {

__device__ float Gelu(GeluForm form, float x, float alpha) {
  switch (form) {
    case GeluForm::kErf:
      return 0.5f * x * (1.0f + erff(x * 0.7071067811865476f));
    case GeluForm::kTanh:
      return 0.5f * x * (1.0f + tanhf(x * (0.035677408136300125f * x * x + 0.7978845608028654f)));
    case GeluForm::kQuick:
      return x / (1.0f + expf(-alpha * x));
  }
  return x;
}

template <typename T>
__global__ void GeluKernel(GeluForm form, const T* x, const T* bias, T* y, int64_t count,
                           int64_t width, float alpha) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    float value = static_cast<float>(x[i]);
    if (bias != nullptr) value += static_cast<float>(bias[i % width]);
    y[i] = static_cast<T>(Gelu(form, value, alpha));
  }
}

template <typename T>
cudaError_t GeluOf(GeluForm form, const void* x, const void* bias, void* y, int64_t count,
                   int64_t width, float alpha, cudaStream_t stream) {
  GeluKernel<T><<<Blocks(count), kThreads, 0, stream>>>(form, static_cast<const T*>(x),
                                                        static_cast<const T*>(bias),
                                                        static_cast<T*>(y), count, width, alpha);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchGelu(GeluForm form, ElementKind kind, const void* x, const void* bias, void* y,
                       int64_t count, int64_t width, float alpha, cudaStream_t stream) {
  if (count == 0) return cudaSuccess;
  return kind == ElementKind::kFloat
             ? GeluOf<float>(form, x, bias, y, count, width, alpha, stream)
             : GeluOf<__half>(form, x, bias, y, count, width, alpha, stream);
}

}  // namespace ort::cuda
