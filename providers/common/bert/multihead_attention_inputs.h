// What a com.microsoft MultiHeadAttention kernel checks before computing, with ONNX Runtime's
// rules: its attributes, and the shapes and layouts of one call's inputs.
#pragma once

#include <cstdint>

#include "lib/framework/op_kernel.h"
#include "providers/common/bert/attention_common.h"
#include "providers/common/bert/attention_mask.h"

namespace ort {

/// MultiHeadAttention's attributes, parsed once at kernel creation.
struct MultiHeadAttentionAttributes : HeadAttentionAttributes {
  /// This engine's extension, made only by the session-only fuse_grouped_kv_heads (onnxruntime
  /// has no such attribute): head-major key and value hold kv_num_heads heads, each read by
  /// num_heads / kv_num_heads consecutive query heads (grouped-query attention). 0: num_heads.
  int64_t kv_num_heads = 0;

  /// Reads and checks the attributes; the past_sequence_length (buffer sharing) and
  /// cache_indirection (beam search) inputs are not supported.
  Status Parse(const KernelInfo& info);
};

/// One call's inputs, checked. B is the batch, N num_heads, S the query length, L the new keys'
/// length, P the past's and T = P + L; H and Hv are the head sizes of Q/K and of V.
struct MultiHeadAttentionInputs {
  /// [B, S, N*H].
  const Tensor* query = nullptr;
  /// [B, L, N*H] and [B, L, N*Hv], or already projected heads [B, N, L, H] both ([B, Nkv, L, H]
  /// with kv_num_heads).
  const Tensor* key = nullptr;
  const Tensor* value = nullptr;
  bool kv_head_major = false;
  /// Nkv: the heads key and value hold (N unless grouped).
  int64_t kv_heads = 0;
  /// [N*H + N*H + N*Hv] (Q, K, V parts) or null. With head-major key and value only the Q part
  /// is added (ONNX Runtime takes their bias as already applied).
  const Tensor* bias = nullptr;
  /// key_padding_mask's form: key lengths [B] (or [3B + 2], whose first B values ONNX Runtime's
  /// CPU kernel reads as lengths), raw [B, T] or [B, S, T].
  AttentionMaskIndex mask;
  /// [B or 1, N or 1, S, T] or null.
  const Tensor* attention_bias = nullptr;
  int64_t bias_batch = 1, bias_heads = 1;
  /// [B, N, P, H] and [B, N, P, Hv], both or neither.
  const Tensor* past_key = nullptr;
  const Tensor* past_value = nullptr;
  int64_t batch = 0, sequence = 0, kv_sequence = 0, past = 0, total = 0;
  int64_t num_heads = 0, head = 0, v_head = 0;
  /// The factor of Q K^T.
  float scale = 1.0f;
};

/// Reads and checks the inputs' types (float, key_padding_mask int32) and shapes; errors name
/// the node and the offending tensor.
Result<MultiHeadAttentionInputs> ReadMultiHeadAttentionInputs(
    const KernelContext& context, const MultiHeadAttentionAttributes& attributes);

}  // namespace ort
