// The float attention of every (batch, head) pair over strided heads, with ONNX Runtime's CPU
// masking, shared by the com.microsoft Attention, QAttention and MultiHeadAttention kernels.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"
#include "providers/common/bert/attention_common.h"
#include "providers/common/bert/attention_mask.h"
#include "providers/cpu/kernels/common/head_view.h"

namespace ort {

/// One call's operands. Q is [B, N, S, H], K [B, N, T, H], V [B, N, T, Hv] and the output
/// [B, N, S, Hv], each read or written through its view (batch and heads equal in all four).
struct AttentionHeads {
  const float* q = nullptr;
  const float* k = nullptr;
  const float* v = nullptr;
  float* out = nullptr;
  HeadView q_view, k_view, v_view, out_view;
  /// The factor of Q K^T.
  float scale = 1.0f;
  /// Added to the scores: [bias_batch, bias_heads, S, T] with bias_batch 1 or B and bias_heads 1
  /// or N (broadcast when 1); null for none.
  const float* attention_bias = nullptr;
  int64_t bias_batch = 1, bias_heads = 1;
  /// Keys this mask hides get mask_filter_value added to their scores.
  AttentionMaskIndex mask;
  float mask_filter_value = -10000.0f;
  /// Query s hides the keys after causal_offset + s (their scores get the lowest float added).
  bool causal = false;
  int64_t causal_offset = 0;
  /// Where the scores go before the softmax, [B, N, S, T]; null when not wanted.
  float* scores_out = nullptr;
};

/// out = softmax(scale * Q K^T + attention_bias + mask) V per (batch, head), the softmax over
/// the T keys. As ONNX Runtime, causal masking applies only with more than one query and leaves
/// the last query's keys alone (it assumes T - causal_offset == S), and since padding adds a
/// finite value, a row whose every key is padding is the softmax of its scores shifted alike.
Status ComputeAttentionHeads(KernelContext& context, const AttentionHeads& heads);

/// What Attention and QAttention compute once their projection is done: `qkv` holds the B*S rows
/// of sizes.total values (Q, K and V side by side, bias added), `output` receives [B, S, v_hidden].
/// With `past` [2, B, N, P, head] the keys and values are the past followed by this call's, which
/// `present` [2, B, N, P + S, head] must then receive (null when not wanted, without past).
/// `attention_bias` is null or [bias_batch, bias_heads, S, T] as `sizes` says.
Status ComputeProjectedAttention(KernelContext& context, const HeadAttentionAttributes& attributes,
                                 const AttentionSizes& sizes, const float* qkv,
                                 const float* attention_bias, const float* past, float* present,
                                 float* output);

}  // namespace ort
