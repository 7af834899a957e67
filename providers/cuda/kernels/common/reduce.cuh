// Block- and warp-wide reductions shared by the CUDA kernels' .cu files (device code only).
#pragma once

#include "providers/cuda/kernels/common/launch_config.cuh"

namespace ort::cuda {

/// a + b.
struct SumOp {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

/// fmaxf(a, b).
struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

/// Every thread's `value` combined by `op` over the block (a tree: op(lower, upper) halves),
/// returned to every thread. blockDim.x must be a power of two, `shared` must hold blockDim.x
/// values, and every thread of the block must call it; `shared` may be reused on return.
template <typename T, typename Op>
__device__ T BlockReduce(T value, Op op, T* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      shared[threadIdx.x] = op(shared[threadIdx.x], shared[threadIdx.x + half]);
    }
    __syncthreads();
  }
  const T result = shared[0];
  __syncthreads();
  return result;
}

/// `value` combined by `op` over the kWarp lanes of a full warp (a butterfly of shuffles),
/// returned to every lane. Every lane of the warp must call it.
template <typename Op>
__device__ float WarpReduce(float value, Op op) {
  for (int width = kWarp / 2; width > 0; width /= 2) {
    value = op(value, __shfl_xor_sync(0xffffffffu, value, width));
  }
  return value;
}

}  // namespace ort::cuda
