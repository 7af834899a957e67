// Attention's device steps. Elementwise steps are grid-stride loops over 64-bit indices; the
// softmax takes one block per query row (grid-stride over rows), with block-wide max and sum in
// float, and recomputes each masked score instead of storing it so that probs may overwrite the
// scores in place.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/bert/attention_launch.h"
#include "providers/cuda/kernels/common/reduce.cuh"

namespace ort::cuda {
namespace {

template <typename T>
__global__ void AddBiasSplitHeads(const T* qkv, const T* bias, T* heads, AttentionDims dims) {
  const int64_t hidden = dims.num_heads * dims.head;
  const int64_t total = 2 * hidden + dims.num_heads * dims.v_head;
  const int64_t rows = dims.batch * dims.sequence;
  const int64_t count = rows * total;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t row = i / total, b = row / dims.sequence, s = row % dims.sequence;
    const int64_t column = i % total;
    int64_t part_column = column, width = dims.head, base = 0;
    if (column >= 2 * hidden) {
      part_column -= 2 * hidden;
      width = dims.v_head;
      base = 2 * rows * hidden;
    } else if (column >= hidden) {
      part_column -= hidden;
      base = rows * hidden;
    }
    // The column lies inside a part of num_heads * width values, so width > 0 here.
    const int64_t n = part_column / width, h = part_column % width;
    float value = static_cast<float>(qkv[i]);
    if (bias != nullptr) value += static_cast<float>(bias[column]);
    heads[base + ((b * dims.num_heads + n) * dims.sequence + s) * width + h] =
        static_cast<T>(value);
  }
}

// Whether key t of query s is masked, causally or by mask_index: the CPU kernel's IsMasked.
__device__ bool IsMasked(const AttentionMask& mask, int64_t batch, int64_t b, int64_t s, int64_t t,
                         int64_t keys) {
  return (mask.causal && t > s) || MaskIndexMasks(mask, batch, b, s, t, keys);
}

// One query row of the scores, as the CPU kernel builds it: the scaled product, plus the
// attention bias, plus the filter value once where masked.
template <typename T>
struct ScoreRow {
  const float* scores;
  const T* bias;
  AttentionMask mask;
  int64_t batch, b, s, keys;

  __device__ float operator()(int64_t t) const {
    float value = scores[t];
    if (bias != nullptr) value += static_cast<float>(bias[t]);
    if (IsMasked(mask, batch, b, s, t, keys)) value += mask.filter;
    return value;
  }
};

template <typename T>
__global__ void AttentionSoftmax(const float* scores, const T* attention_bias, int64_t bias_batch,
                                 int64_t bias_heads, AttentionMask mask, T* probs,
                                 AttentionDims dims) {
  __shared__ float shared[kThreads];
  const int64_t keys = dims.sequence;
  const int64_t rows = dims.batch * dims.num_heads * keys;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int64_t unit = row / keys, s = row % keys;
    const int64_t b = unit / dims.num_heads, n = unit % dims.num_heads;
    const T* bias = nullptr;
    if (attention_bias != nullptr) {
      const int64_t plane = (bias_batch == 1 ? 0 : b) * bias_heads + (bias_heads == 1 ? 0 : n);
      bias = attention_bias + (plane * keys + s) * keys;
    }
    const ScoreRow<T> score{scores + row * keys, bias, mask, dims.batch, b, s, keys};
    float largest = -INFINITY;
    for (int64_t t = threadIdx.x; t < keys; t += blockDim.x) largest = fmaxf(largest, score(t));
    largest = BlockReduce(largest, MaxOp{}, shared);
    float sum = 0.0f;
    for (int64_t t = threadIdx.x; t < keys; t += blockDim.x) sum += expf(score(t) - largest);
    const float inverse = 1.0f / BlockReduce(sum, SumOp{}, shared);
    // Each thread reads only the scores it writes, all reads of the reductions being done.
    T* out = probs + row * keys;
    for (int64_t t = threadIdx.x; t < keys; t += blockDim.x) {
      out[t] = static_cast<T>(expf(score(t) - largest) * inverse);
    }
  }
}

template <typename T>
__global__ void MergeHeads(const T* context, T* output, AttentionDims dims) {
  const int64_t count = dims.batch * dims.sequence * dims.num_heads * dims.v_head;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t h = i % dims.v_head;
    const int64_t n = (i / dims.v_head) % dims.num_heads;
    const int64_t row = i / (dims.v_head * dims.num_heads);
    const int64_t b = row / dims.sequence, s = row % dims.sequence;
    output[i] = context[((b * dims.num_heads + n) * dims.sequence + s) * dims.v_head + h];
  }
}

template <typename T>
cudaError_t SplitHeads(const void* qkv, const void* bias, void* heads, const AttentionDims& dims,
                       int64_t count, cudaStream_t stream) {
  AddBiasSplitHeads<T><<<Blocks(count), kThreads, 0, stream>>>(
      static_cast<const T*>(qkv), static_cast<const T*>(bias), static_cast<T*>(heads), dims);
  return cudaGetLastError();
}

template <typename T>
cudaError_t Softmax(const float* scores, const void* attention_bias, int64_t bias_batch,
                    int64_t bias_heads, const AttentionMask& mask, void* probs,
                    const AttentionDims& dims, int64_t rows, cudaStream_t stream) {
  // A power of two (the reductions halve it) near the row length: short rows waste no warps.
  int threads = 32;
  while (threads < dims.sequence && threads < kThreads) threads *= 2;
  const unsigned blocks = GridBlocks(rows);
  AttentionSoftmax<T><<<blocks, threads, 0, stream>>>(scores, static_cast<const T*>(attention_bias),
                                                      bias_batch, bias_heads, mask,
                                                      static_cast<T*>(probs), dims);
  return cudaGetLastError();
}

template <typename T>
cudaError_t Merge(const void* context, void* output, const AttentionDims& dims, int64_t count,
                  cudaStream_t stream) {
  MergeHeads<T><<<Blocks(count), kThreads, 0, stream>>>(static_cast<const T*>(context),
                                                        static_cast<T*>(output), dims);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchAddBiasSplitHeads(ElementKind kind, const void* qkv, const void* bias,
                                    void* heads, const AttentionDims& dims, cudaStream_t stream) {
  const int64_t count = dims.batch * dims.sequence * dims.num_heads * (2 * dims.head + dims.v_head);
  if (count == 0) return cudaSuccess;
  return kind == ElementKind::kFloat ? SplitHeads<float>(qkv, bias, heads, dims, count, stream)
                                     : SplitHeads<__half>(qkv, bias, heads, dims, count, stream);
}

cudaError_t LaunchAttentionSoftmax(ElementKind kind, const float* scores,
                                   const void* attention_bias, int64_t bias_batch,
                                   int64_t bias_heads, const AttentionMask& mask, void* probs,
                                   const AttentionDims& dims, cudaStream_t stream) {
  const int64_t rows = dims.batch * dims.num_heads * dims.sequence;
  if (rows == 0) return cudaSuccess;
  return kind == ElementKind::kFloat ? Softmax<float>(scores, attention_bias, bias_batch,
                                                      bias_heads, mask, probs, dims, rows, stream)
                                     : Softmax<__half>(scores, attention_bias, bias_batch,
                                                       bias_heads, mask, probs, dims, rows, stream);
}

cudaError_t LaunchMergeHeads(ElementKind kind, const void* context, void* output,
                             const AttentionDims& dims, cudaStream_t stream) {
  const int64_t count = dims.batch * dims.sequence * dims.num_heads * dims.v_head;
  if (count == 0) return cudaSuccess;
  return kind == ElementKind::kFloat ? Merge<float>(context, output, dims, count, stream)
                                     : Merge<__half>(context, output, dims, count, stream);
}

}  // namespace ort::cuda
