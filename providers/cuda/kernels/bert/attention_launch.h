// Launchers of the com.microsoft Attention CUDA kernels (attention.cu): the steps around the
// cuBLAS products, with heads laid out [batch, num_heads, sequence, head size] so that each
// (batch, head) pair is one strided-batched GEMM operand.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "providers/common/bert/attention_mask.h"
#include "providers/cuda/kernels/math/elementwise_launch.h"

namespace ort::cuda {

/// What masks a score: mask_index (kind and device memory, classified by CheckAttentionInputs in
/// attention_common.h), the causal triangle, and the value added once to a masked score.
struct AttentionMask : AttentionMaskIndex {
  /// Key t of query s is masked when t > s.
  bool causal = false;
  float filter = -10000.0f;
};

/// The sizes of one Attention call: Q and K heads have `head` values, V heads `v_head`.
struct AttentionDims {
  int64_t batch = 0;
  int64_t sequence = 0;
  int64_t num_heads = 0;
  int64_t head = 0;
  int64_t v_head = 0;
};

/// qkv [batch * sequence, Q | K | V hidden] plus `bias` (one value per column, may be null) into
/// `heads`: Q [batch, num_heads, sequence, head], then K of the same shape, then V
/// [batch, num_heads, sequence, v_head]; qkv, bias and heads share `kind`.
cudaError_t LaunchAddBiasSplitHeads(ElementKind kind, const void* qkv, const void* bias,
                                    void* heads, const AttentionDims& dims, cudaStream_t stream);

/// probs[u, s, :] = softmax(scores[u, s, :] + attention_bias + mask) for every (batch, head) unit
/// u and query s, over the `sequence` keys, in float. attention_bias (may be null, of `kind`) is
/// [bias_batch, bias_heads, sequence, sequence] with bias_batch 1 or batch and bias_heads 1 or
/// num_heads (broadcast when 1). probs (of `kind`) may be `scores` itself when kind is kFloat.
cudaError_t LaunchAttentionSoftmax(ElementKind kind, const float* scores,
                                   const void* attention_bias, int64_t bias_batch,
                                   int64_t bias_heads, const AttentionMask& mask, void* probs,
                                   const AttentionDims& dims, cudaStream_t stream);

/// context [batch, num_heads, sequence, v_head] to output [batch, sequence, num_heads * v_head].
cudaError_t LaunchMergeHeads(ElementKind kind, const void* context, void* output,
                             const AttentionDims& dims, cudaStream_t stream);

}  // namespace ort::cuda
