// Launchers of the com.microsoft EmbedLayerNormalization CUDA kernels (embed_layer_norm.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// For each of `tokens` tokens t, with ids[3t..3t+2] its word, position and segment rows (already
/// in range): e = word[ids[3t]] + position[ids[3t+1]] (+ segment[ids[3t+2]] when segment is not
/// null), summed in float; output[t] = (e - mean) / sqrt(var + epsilon) * gamma + beta over the
/// `hidden` values, the statistics accumulated in double; embedding_sum[t] = e when not null.
/// Every table, gamma, beta and both outputs have `kind`.
cudaError_t LaunchEmbedLayerNorm(ElementKind kind, const int32_t* ids, const void* word,
                                 const void* position, const void* segment, const void* gamma,
                                 const void* beta, void* output, void* embedding_sum,
                                 int64_t tokens, int64_t hidden, float epsilon,
                                 cudaStream_t stream);

/// counts[b] = how many of the `sequence` values of row b of mask [batch, sequence] are 1.
cudaError_t LaunchCountMaskOnes(const int32_t* mask, int32_t* counts, int64_t batch,
                                int64_t sequence, cudaStream_t stream);

}  // namespace ort::cuda
