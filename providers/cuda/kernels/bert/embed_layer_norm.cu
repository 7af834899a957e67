// One block per token (grid-stride over tokens). The embeddings are re-read in each of the three
// passes (mean, variance of the centered values, output) rather than kept: a token's rows are few
// and cached, and no scratch memory is needed. Sums are in double, as on the CPU.
#include <cuda_fp16.h>

#include "providers/cuda/kernels/bert/embed_layer_norm_launch.h"
#include "providers/cuda/kernels/common/reduce.cuh"

namespace ort::cuda {
namespace {

// Value i of one token's embedding sum, added in the CPU kernel's order.
template <typename T>
struct TokenEmbedding {
  const T* word;
  const T* position;
  const T* segment;

  __device__ float operator()(int64_t i) const {
    float value = static_cast<float>(word[i]) + static_cast<float>(position[i]);
    if (segment != nullptr) value += static_cast<float>(segment[i]);
    return value;
  }
};

template <typename T>
__global__ void EmbedLayerNorm(const int32_t* ids, const T* word, const T* position,
                               const T* segment, const T* gamma, const T* beta, T* output,
                               T* embedding_sum, int64_t tokens, int64_t hidden, float epsilon) {
  __shared__ double shared[kThreads];
  for (int64_t token = blockIdx.x; token < tokens; token += gridDim.x) {
    const int32_t* id = ids + 3 * token;
    const TokenEmbedding<T> embedding{
        word + int64_t{id[0]} * hidden, position + int64_t{id[1]} * hidden,
        segment != nullptr ? segment + int64_t{id[2]} * hidden : nullptr};
    double total = 0.0;
    for (int64_t i = threadIdx.x; i < hidden; i += blockDim.x) {
      const float value = embedding(i);
      total += value;
      if (embedding_sum != nullptr) embedding_sum[token * hidden + i] = static_cast<T>(value);
    }
    const float mean =
        static_cast<float>(BlockReduce(total, SumOp{}, shared) / static_cast<double>(hidden));
    double squares = 0.0;
    for (int64_t i = threadIdx.x; i < hidden; i += blockDim.x) {
      const float centered = embedding(i) - mean;
      squares += static_cast<double>(centered) * centered;
    }
    const float variance =
        static_cast<float>(BlockReduce(squares, SumOp{}, shared) / static_cast<double>(hidden));
    const float inverse = 1.0f / sqrtf(variance + epsilon);
    T* out = output + token * hidden;
    for (int64_t i = threadIdx.x; i < hidden; i += blockDim.x) {
      out[i] = static_cast<T>((embedding(i) - mean) * inverse * static_cast<float>(gamma[i]) +
                              static_cast<float>(beta[i]));
    }
  }
}

__global__ void CountMaskOnes(const int32_t* mask, int32_t* counts, int64_t batch,
                              int64_t sequence) {
  for (int64_t b = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; b < batch;
       b += int64_t{gridDim.x} * blockDim.x) {
    const int32_t* row = mask + b * sequence;
    int32_t count = 0;
    for (int64_t s = 0; s < sequence; ++s) count += row[s] == 1 ? 1 : 0;
    counts[b] = count;
  }
}

template <typename T>
cudaError_t Launch(const int32_t* ids, const void* word, const void* position, const void* segment,
                   const void* gamma, const void* beta, void* output, void* embedding_sum,
                   int64_t tokens, int64_t hidden, float epsilon, cudaStream_t stream) {
  const unsigned blocks = GridBlocks(tokens);
  EmbedLayerNorm<T><<<blocks, kThreads, 0, stream>>>(
      ids, static_cast<const T*>(word), static_cast<const T*>(position),
      static_cast<const T*>(segment), static_cast<const T*>(gamma), static_cast<const T*>(beta),
      static_cast<T*>(output), static_cast<T*>(embedding_sum), tokens, hidden, epsilon);
  return cudaGetLastError();
}

}  // namespace

cudaError_t LaunchEmbedLayerNorm(ElementKind kind, const int32_t* ids, const void* word,
                                 const void* position, const void* segment, const void* gamma,
                                 const void* beta, void* output, void* embedding_sum,
                                 int64_t tokens, int64_t hidden, float epsilon,
                                 cudaStream_t stream) {
  if (tokens == 0 || hidden == 0) return cudaSuccess;
  return kind == ElementKind::kFloat
             ? Launch<float>(ids, word, position, segment, gamma, beta, output, embedding_sum,
                             tokens, hidden, epsilon, stream)
             : Launch<__half>(ids, word, position, segment, gamma, beta, output, embedding_sum,
                              tokens, hidden, epsilon, stream);
}

cudaError_t LaunchCountMaskOnes(const int32_t* mask, int32_t* counts, int64_t batch,
                                int64_t sequence, cudaStream_t stream) {
  if (batch == 0) return cudaSuccess;
  CountMaskOnes<<<Blocks(batch), kThreads, 0, stream>>>(mask, counts, batch, sequence);
  return cudaGetLastError();
}

}  // namespace ort::cuda
