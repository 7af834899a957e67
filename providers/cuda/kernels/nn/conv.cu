// Zero padding and the bias + activation epilogue of the CUDA convolution; half values are
// computed in float.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/common/launch_config.cuh"
#include "providers/cuda/kernels/nn/conv_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
__global__ void PadSpatial(const T* x, T* y, int64_t total, PadGeometry g) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    int64_t rest = i, offset = 0, stride = 1;
    bool inside = true;
    for (int d = g.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % g.output[d] - g.begin[d];
      rest /= g.output[d];
      inside = inside && coordinate >= 0 && coordinate < g.input[d];
      offset += coordinate * stride;
      stride *= g.input[d];
    }
    // `rest` is now the plane index.
    y[i] = inside ? x[rest * stride + offset] : T(0.0f);
  }
}

__device__ float Activate(ConvActivation activation, float v, float alpha, float beta) {
  switch (activation) {
    case ConvActivation::kNone:
      return v;
    case ConvActivation::kRelu:
      return v < 0.0f ? 0.0f : v;
    case ConvActivation::kLeakyRelu:
      return v < 0.0f ? alpha * v : v;
    case ConvActivation::kTanh:
      return tanhf(v);
    case ConvActivation::kSigmoid:
      return 1.0f / (1.0f + expf(-v));
    case ConvActivation::kHardSigmoid:
      return fminf(fmaxf(alpha * v + beta, 0.0f), 1.0f);
    case ConvActivation::kClip:
      return fminf(fmaxf(v, alpha), beta);
  }
  return v;
}

template <typename T>
__global__ void Epilogue(T* y, const T* bias, int64_t channels, int64_t spatial, int64_t total,
                         ConvActivation activation, float alpha, float beta) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    float v = static_cast<float>(y[i]);
    if (bias != nullptr) v += static_cast<float>(bias[i / spatial % channels]);
    y[i] = static_cast<T>(Activate(activation, v, alpha, beta));
  }
}

template <typename T>
cudaError_t PadOf(const void* x, void* y, int64_t planes, const PadGeometry& g,
                  cudaStream_t stream) {
  int64_t total = planes;
  for (int d = 0; d < g.rank; ++d) total *= g.output[d];
  if (total == 0) return cudaSuccess;
  PadSpatial<T><<<Blocks(total), kThreads, 0, stream>>>(static_cast<const T*>(x),
                                                        static_cast<T*>(y), total, g);
  return cudaGetLastError();
}

template <typename T>
cudaError_t EpilogueOf(void* y, const void* bias, int64_t batch, int64_t channels, int64_t spatial,
                       ConvActivation activation, float alpha, float beta, cudaStream_t stream) {
  const int64_t total = batch * channels * spatial;
  if (total == 0) return cudaSuccess;
  Epilogue<T><<<Blocks(total), kThreads, 0, stream>>>(static_cast<T*>(y),
                                                      static_cast<const T*>(bias), channels,
                                                      spatial, total, activation, alpha, beta);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchPadSpatial(ElementKind kind, const void* x, void* y, int64_t planes,
                             const PadGeometry& geometry, cudaStream_t stream) {
  return kind == ElementKind::kFloat ? PadOf<float>(x, y, planes, geometry, stream)
                                     : PadOf<__half>(x, y, planes, geometry, stream);
}

cudaError_t LaunchConvEpilogue(ElementKind kind, void* y, const void* bias, int64_t batch,
                               int64_t channels, int64_t spatial, ConvActivation activation,
                               float alpha, float beta, cudaStream_t stream) {
  return kind == ElementKind::kFloat
             ? EpilogueOf<float>(y, bias, batch, channels, spatial, activation, alpha, beta, stream)
             : EpilogueOf<__half>(y, bias, batch, channels, spatial, activation, alpha, beta,
                                  stream);
}

}  // namespace ort::cuda
