// What the CPU and CUDA com.microsoft Attention kernels (and the CPU QAttention) share: their
// attributes, and the checks of one call's inputs that give its sizes and mask form.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/framework/op_kernel.h"
#include "providers/common/bert/attention_mask.h"

namespace ort {

/// The attributes com.microsoft Attention and MultiHeadAttention share.
struct HeadAttentionAttributes {
  int64_t num_heads = 0;
  /// Added once to every masked score.
  float mask_filter_value = -10000.0f;
  /// 0 means 1 / sqrt(head size).
  float scale = 0.0f;
  /// Masks every key after the query's position (past keys stay visible).
  bool unidirectional = false;

  /// Reads and checks num_heads, mask_filter_value, scale and unidirectional.
  Status ParseShared(const KernelInfo& info);
};

/// Attention's attributes, parsed once at kernel creation.
struct AttentionAttributes : HeadAttentionAttributes {
  /// Q, K and V hidden sizes (Q and K equal); empty splits the weights in three equal parts.
  std::vector<int64_t> qkv_hidden_sizes;

  /// Reads and checks the attributes; do_rotary, past_present_share_buffer, the past input and
  /// the present output are not supported.
  Status Parse(const KernelInfo& info);

  /// Reads and checks QAttention's attributes (it has no qkv_hidden_sizes); its past input and
  /// present output are supported, do_rotary and past_present_share_buffer are not.
  Status ParseQuantized(const KernelInfo& info);
};

/// Attention's inputs as Compute sees them. `weights` is null when the kernel packed constant
/// weights at creation; `weights_shape` describes them either way.
struct AttentionInputs {
  const Tensor* input = nullptr;
  const Tensor* weights = nullptr;
  TensorShape weights_shape;
  const Tensor* bias = nullptr;
  const Tensor* mask = nullptr;
  const Tensor* attention_bias = nullptr;
  /// QAttention's past keys and values [2, B, N, P, head]; null for none.
  const Tensor* past = nullptr;
};

/// The sizes of one Attention call, from input [B,S,D] and weights [D, total].
struct AttentionSizes {
  /// input is [batch, sequence, input_hidden].
  int64_t batch = 0, sequence = 0, input_hidden = 0;
  /// The projection's width `total` = 2 * hidden (Q and K) + v_hidden (V).
  int64_t total = 0, hidden = 0, v_hidden = 0;
  /// Per-head sizes of Q and K, and of V.
  int64_t head = 0, v_head = 0;
  /// Past keys (P, 0 without past) and all keys (T = P + sequence).
  int64_t past = 0, keys = 0;
  /// The factor of Q K^T.
  float scale = 1.0f;
  /// Unidirectional with more than one token.
  bool causal = false;
  AttentionMaskIndex mask;
  /// attention_bias's first two dims (1 or batch, 1 or num_heads); 1 without it.
  int64_t bias_batch = 1, bias_heads = 1;
};

/// Checks the inputs' types (weights, bias, attention_bias of input's type, mask_index int32)
/// and shapes against `attributes`, and returns the call's sizes, with mask_index classified by
/// its shape (its values stay where they are); errors name the node.
Result<AttentionSizes> CheckAttentionInputs(const KernelContext& context,
                                            const AttentionAttributes& attributes,
                                            const AttentionInputs& inputs);

/// The shape checks of CheckAttentionInputs alone, for kernels whose operands have other types
/// (QAttention's 8-bit input and weights): input [B,S,D], weights [D, total], bias [total],
/// mask_index (any of ONNX Runtime's forms over T = P + S keys; [B,1] or [1,1] where T != 1
/// masks nothing), attention_bias and past [2, B, N, P, head].
Result<AttentionSizes> CheckAttentionShapes(const KernelContext& context,
                                            const AttentionAttributes& attributes,
                                            const AttentionInputs& inputs);

}  // namespace ort
