// Reductions: one warp per output, its lanes striding over the reduced elements, then a
// butterfly shuffle; half values are accumulated in float.
#include <cuda_fp16.h>
#include <math_constants.h>

#include "providers/cuda/kernels/common/reduce.cuh"
#include "providers/cuda/kernels/math/reduce_launch.h"

namespace ort::cuda {
namespace {

__device__ float Identity(ReduceOp op) {
  if (op == ReduceOp::kMax) return -CUDART_INF_F;
  if (op == ReduceOp::kMin) return CUDART_INF_F;
  return 0.0f;
}

__device__ float Map(ReduceOp op, float x) {
  return op == ReduceOp::kSumSquare || op == ReduceOp::kL2 ? x * x : x;
}

// NaN sticks, as with numpy.max and the CPU kernel.
__device__ float Combine(ReduceOp op, float a, float b) {
  if (op == ReduceOp::kMax) return b > a || isnan(b) ? b : a;
  if (op == ReduceOp::kMin) return b < a || isnan(b) ? b : a;
  return a + b;
}

__device__ float Finalize(ReduceOp op, float acc, int64_t count) {
  if (op == ReduceOp::kMean) return count == 0 ? CUDART_NAN_F : acc / static_cast<float>(count);
  if (op == ReduceOp::kL2) return sqrtf(acc);
  return acc;
}

template <typename T>
__global__ void Reduce(ReduceOp op, const T* x, T* y, int64_t outputs, int64_t count,
                       ReduceLayout layout) {
  const int lane = threadIdx.x % kWarp;
  const int64_t warps = int64_t{gridDim.x} * (blockDim.x / kWarp);
  // Every lane of a warp shares `o`, so whole warps leave the loop together and may shuffle.
  for (int64_t o = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / kWarp; o < outputs;
       o += warps) {
    int64_t base = 0;
    int64_t rest = o;
    for (int d = layout.kept_rank - 1; d >= 0; --d) {
      base += rest % layout.kept_dims[d] * layout.kept_strides[d];
      rest /= layout.kept_dims[d];
    }
    float acc = Identity(op);
    for (int64_t r = lane; r < count; r += kWarp) {
      int64_t offset = base;
      rest = r;
      for (int d = layout.reduced_rank - 1; d >= 0; --d) {
        offset += rest % layout.reduced_dims[d] * layout.reduced_strides[d];
        rest /= layout.reduced_dims[d];
      }
      acc = Combine(op, acc, Map(op, static_cast<float>(x[offset])));
    }
    acc = WarpReduce(acc, [op](float a, float b) { return Combine(op, a, b); });
    if (lane == 0) y[o] = static_cast<T>(Finalize(op, acc, count));
  }
}

}  // namespace

cudaError_t LaunchReduce(ReduceOp op, ElementKind kind, const void* x, void* y, int64_t outputs,
                         int64_t reduce_count, const ReduceLayout& layout, cudaStream_t stream) {
  if (outputs == 0) return cudaSuccess;
  constexpr int kWarpsPerBlock = kThreads / kWarp;
  const int64_t needed = (outputs + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const unsigned blocks = GridBlocks(needed);
  if (kind == ElementKind::kFloat) {
    Reduce<float><<<blocks, kThreads, 0, stream>>>(
        op, static_cast<const float*>(x), static_cast<float*>(y), outputs, reduce_count, layout);
  } else {
    Reduce<__half><<<blocks, kThreads, 0, stream>>>(
        op, static_cast<const __half*>(x), static_cast<__half*>(y), outputs, reduce_count, layout);
  }
  return cudaGetLastError();
}

}  // namespace ort::cuda
