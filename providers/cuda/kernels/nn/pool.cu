// Pooling CUDA kernels, computing half values in float: one thread per output window for MaxPool
// and AveragePool (windows are small), one block per plane for the global pools (planes are
// large), folding a strided share per thread, then across warps.
#include <cuda_fp16.h>
#include <math_constants.h>

#include <cfloat>

#include "providers/cuda/kernels/common/reduce.cuh"
#include "providers/cuda/kernels/nn/pool_launch.h"

namespace ort::cuda {
namespace {

template <typename T>
__global__ void Pool(PoolKind pool, bool count_include_pad, const T* x, T* y, int64_t total,
                     PoolGeometry g) {
  const int64_t in_size = g.in[0] * g.in[1] * g.in[2];
  const int64_t out_size = g.out[0] * g.out[1] * g.out[2];
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = i % out_size;
    const int64_t ow = o % g.out[2];
    const int64_t oh = o / g.out[2] % g.out[1];
    const int64_t od = o / g.out[2] / g.out[1];
    const int64_t start_d = od * g.stride[0] - g.pad_begin[0];
    const int64_t start_h = oh * g.stride[1] - g.pad_begin[1];
    const int64_t start_w = ow * g.stride[2] - g.pad_begin[2];
    const T* plane = x + i / out_size * in_size;
    // The CPU kernel's semantics: the first value seen wins unless a later one is larger (a
    // leading NaN sticks), and a window over padding alone gives the lowest float.
    float best = -FLT_MAX;
    bool found = false;
    float sum = 0.0f;
    int64_t count = 0;
    int64_t padded_count = 0;
    for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
      const int64_t id = start_d + kd * g.dilation[0];
      const bool d_padded = id < g.in[0] + g.pad_end[0];
      for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
        const int64_t ih = start_h + kh * g.dilation[1];
        const bool h_padded = ih < g.in[1] + g.pad_end[1];
        for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
          const int64_t iw = start_w + kw * g.dilation[2];
          // Windows start at or after -pad_begin, so only the end of the padded extent is tested.
          padded_count += d_padded && h_padded && iw < g.in[2] + g.pad_end[2];
          if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1] || iw < 0 || iw >= g.in[2]) {
            continue;
          }
          const float value = static_cast<float>(plane[(id * g.in[1] + ih) * g.in[2] + iw]);
          if (!found || value > best) best = value;
          found = true;
          sum += value;
          ++count;
        }
      }
    }
    if (pool == PoolKind::kMax) {
      y[i] = static_cast<T>(best);
    } else {
      const int64_t divisor = count_include_pad ? padded_count : count;
      y[i] = static_cast<T>(divisor == 0 ? 0.0f : sum / static_cast<float>(divisor));
    }
  }
}

// NaN wins, as in the Reduce kernels.
__device__ float Combine(PoolKind pool, float a, float b) {
  if (pool == PoolKind::kAverage) return a + b;
  return b > a || isnan(b) ? b : a;
}

template <typename T>
__global__ void GlobalPool(PoolKind pool, const T* x, T* y, int64_t planes, int64_t size) {
  __shared__ float partial[kThreads / kWarp];
  const float identity = pool == PoolKind::kMax ? -CUDART_INF_F : 0.0f;
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  const auto combine = [pool](float a, float b) { return Combine(pool, a, b); };
  for (int64_t p = blockIdx.x; p < planes; p += gridDim.x) {
    const T* values = x + p * size;
    float acc = identity;
    for (int64_t j = threadIdx.x; j < size; j += blockDim.x) {
      acc = Combine(pool, acc, static_cast<float>(values[j]));
    }
    acc = WarpReduce(acc, combine);
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = WarpReduce(lane < kThreads / kWarp ? partial[lane] : identity, combine);
      if (lane == 0) {
        const float mean_or_max = pool == PoolKind::kMax ? acc : acc / static_cast<float>(size);
        y[p] = static_cast<T>(size == 0 ? 0.0f : mean_or_max);
      }
    }
    // The next plane overwrites `partial`.
    __syncthreads();
  }
}

}  // namespace

cudaError_t LaunchPool(PoolKind pool, ElementKind kind, const void* x, void* y, int64_t planes,
                       const PoolGeometry& geometry, bool count_include_pad, cudaStream_t stream) {
  const int64_t total = planes * geometry.out[0] * geometry.out[1] * geometry.out[2];
  if (total == 0) return cudaSuccess;
  if (kind == ElementKind::kFloat) {
    Pool<float><<<Blocks(total), kThreads, 0, stream>>>(pool, count_include_pad,
                                                        static_cast<const float*>(x),
                                                        static_cast<float*>(y), total, geometry);
  } else {
    Pool<__half><<<Blocks(total), kThreads, 0, stream>>>(pool, count_include_pad,
                                                         static_cast<const __half*>(x),
                                                         static_cast<__half*>(y), total, geometry);
  }
  return cudaGetLastError();
}

cudaError_t LaunchGlobalPool(PoolKind pool, ElementKind kind, const void* x, void* y,
                             int64_t planes, int64_t size, cudaStream_t stream) {
  if (planes == 0) return cudaSuccess;
  const unsigned blocks = GridBlocks(planes);
  if (kind == ElementKind::kFloat) {
    GlobalPool<float><<<blocks, kThreads, 0, stream>>>(pool, static_cast<const float*>(x),
                                                       static_cast<float*>(y), planes, size);
  } else {
    GlobalPool<__half><<<blocks, kThreads, 0, stream>>>(pool, static_cast<const __half*>(x),
                                                        static_cast<__half*>(y), planes, size);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
