#include "providers/common/bert/multihead_attention_inputs.h"

#include <cmath>

namespace ort {
namespace {

// key_padding_mask's form from its shape (int32, checked by the caller).
Result<AttentionMaskIndex> ClassifyKeyPaddingMask(const KernelContext& context, const Tensor& mask,
                                                  int64_t batch, int64_t sequence, int64_t total) {
  AttentionMaskIndex view;
  view.data = mask.Data<int32_t>();
  const TensorShape& shape = mask.shape();
  if (shape.rank() == 1 && (shape[0] == batch || shape[0] == 3 * batch + 2)) {
    view.kind = AttentionMaskKind::kKeyLengths;
  } else if (shape == TensorShape({batch, total})) {
    view.kind = AttentionMaskKind::kRaw2D;
  } else if (shape == TensorShape({batch, sequence, total})) {
    view.kind = AttentionMaskKind::kRaw3D;
    view.queries = sequence;
  } else {
    return context.Error(
        "key_padding_mask {} must be [B] or [3B + 2] (key lengths), [B, T] or [B, S, T] with B "
        "{}, S {}, T {}",
        mask.Describe(), batch, sequence, total);
  }
  return view;
}

}  // namespace

Status MultiHeadAttentionAttributes::Parse(const KernelInfo& info) {
  ORT_RETURN_IF_ERROR(ParseShared(info));
  ORT_ASSIGN_OR_RETURN(kv_num_heads, info.GetAttributeOr<int64_t>("kv_num_heads", num_heads));
  if (kv_num_heads <= 0 || num_heads % kv_num_heads != 0) {
    return ORT_ERROR(kInvalidArgument,
                     "MultiHeadAttention: kv_num_heads {} does not divide num_heads {}",
                     kv_num_heads, num_heads);
  }
  if (info.InputCount() > 8 && info.node().HasInput(8)) {
    return ORT_ERROR(kNotImplemented,
                     "MultiHeadAttention: the past_sequence_length input (past and present "
                     "sharing one buffer) is not supported");
  }
  if (info.InputCount() > 9 && info.node().HasInput(9)) {
    return ORT_ERROR(kNotImplemented,
                     "MultiHeadAttention: the cache_indirection input (beam search) is not "
                     "supported");
  }
  return Status::OK();
}

Result<MultiHeadAttentionInputs> ReadMultiHeadAttentionInputs(
    const KernelContext& context, const MultiHeadAttentionAttributes& attributes) {
  MultiHeadAttentionInputs in;
  ORT_ASSIGN_OR_RETURN(in.query, context.RequiredInput(0));
  in.key = context.Input(1);
  in.value = context.Input(2);
  in.bias = context.Input(3);
  const Tensor* mask = context.Input(4);
  in.attention_bias = context.Input(5);
  in.past_key = context.Input(6);
  in.past_value = context.Input(7);
  for (const Tensor* tensor :
       {in.query, in.key, in.value, in.bias, in.attention_bias, in.past_key, in.past_value}) {
    if (tensor != nullptr && tensor->dtype() != DataType::kFloat) {
      return context.Error(
          "{} must be float: query, key, value, bias, attention_bias and the "
          "past share one type",
          tensor->Describe());
    }
  }
  const int64_t num_heads = attributes.num_heads;
  in.num_heads = num_heads;
  const TensorShape& qs = in.query->shape();
  if (qs.rank() == 5) {
    return context.Error("packed QKV query {} is not supported on the CPU", in.query->Describe());
  }
  if (qs.rank() != 3 || qs[2] % num_heads != 0) {
    return context.Error("query {} must be [B, S, hidden] with num_heads {} dividing hidden",
                         in.query->Describe(), num_heads);
  }
  in.batch = qs[0];
  in.sequence = qs[1];
  const int64_t batch = in.batch, hidden = qs[2];
  in.head = hidden / num_heads;
  if (in.key == nullptr || in.value == nullptr) {
    if (in.key != nullptr && in.key->shape().rank() == 5) {
      return context.Error("packed KV key {} is not supported on the CPU", in.key->Describe());
    }
    return context.Error("key and value are required (packed QKV is not supported on the CPU)");
  }
  const TensorShape& ks = in.key->shape();
  const TensorShape& vs = in.value->shape();
  in.kv_heads = attributes.kv_num_heads;
  const bool grouped = in.kv_heads != num_heads;
  if (grouped && (ks.rank() != 4 || in.past_key != nullptr || in.past_value != nullptr)) {
    return context.Error(
        "with kv_num_heads {} (of num_heads {}), key {} must be [B, kv_num_heads, L, head_size] "
        "heads and no past may be given",
        in.kv_heads, num_heads, in.key->Describe());
  }
  if (ks.rank() == 3) {
    in.kv_sequence = ks[1];
    const bool fits = ks == TensorShape({batch, in.kv_sequence, hidden}) && vs.rank() == 3 &&
                      vs[0] == batch && vs[1] == in.kv_sequence && vs[2] % num_heads == 0;
    if (!fits) {
      return context.Error(
          "key {} and value {} must be [B, L, hidden] and [B, L, v_hidden] with B {}, hidden {} "
          "and num_heads {} dividing v_hidden",
          in.key->Describe(), in.value->Describe(), batch, hidden, num_heads);
    }
    in.v_head = vs[2] / num_heads;
  } else if (ks.rank() == 4) {
    in.kv_head_major = true;
    in.kv_sequence = ks[2];
    if (ks != TensorShape({batch, in.kv_heads, in.kv_sequence, in.head}) || vs != ks) {
      return context.Error(
          "key {} and value {} must both be [B, {}, L, head_size] = [{}, {}, L, {}]",
          in.key->Describe(), in.value->Describe(), grouped ? "kv_num_heads" : "num_heads", batch,
          in.kv_heads, in.head);
    }
    in.v_head = in.head;
  } else {
    return context.Error("key {} must be [B, L, hidden] or [B, num_heads, L, head_size]{}",
                         in.key->Describe(),
                         ks.rank() == 5 ? " (packed KV is not supported on the CPU)" : "");
  }
  if ((in.past_key == nullptr) != (in.past_value == nullptr)) {
    return context.Error("past_key and past_value must be given together");
  }
  if (in.past_key != nullptr) {
    const bool rank4 = in.past_key->shape().rank() == 4;
    in.past = rank4 ? in.past_key->shape()[2] : 0;
    if (!rank4 || in.past_key->shape() != TensorShape({batch, num_heads, in.past, in.head}) ||
        in.past_value->shape() != TensorShape({batch, num_heads, in.past, in.v_head})) {
      return context.Error(
          "past_key {} and past_value {} must be [B, num_heads, P, head_size] = [{}, {}, P, {}] "
          "and [{}, {}, P, {}]",
          in.past_key->Describe(), in.past_value->Describe(), batch, num_heads, in.head, batch,
          num_heads, in.v_head);
    }
  }
  in.total = in.past + in.kv_sequence;
  const int64_t bias_size = 2 * hidden + num_heads * in.v_head;
  if (in.bias != nullptr && in.bias->shape() != TensorShape({bias_size})) {
    return context.Error("bias {} must be [{}] (Q, K and V parts)", in.bias->Describe(), bias_size);
  }
  if (mask != nullptr) {
    if (mask->dtype() != DataType::kInt32) {
      return context.Error("key_padding_mask {} must be int32", mask->Describe());
    }
    ORT_ASSIGN_OR_RETURN(in.mask,
                         ClassifyKeyPaddingMask(context, *mask, batch, in.sequence, in.total));
  }
  if (in.attention_bias != nullptr) {
    const TensorShape& bs = in.attention_bias->shape();
    if (bs.rank() != 4 || (bs[0] != 1 && bs[0] != batch) || (bs[1] != 1 && bs[1] != num_heads) ||
        bs[2] != in.sequence || bs[3] != in.total) {
      return context.Error(
          "attention_bias {} must be [B or 1, num_heads or 1, S, T] with B {}, "
          "num_heads {}, S {}, T {}",
          in.attention_bias->Describe(), batch, num_heads, in.sequence, in.total);
    }
    in.bias_batch = bs[0];
    in.bias_heads = bs[1];
  }
  in.scale =
      attributes.scale == 0.0f ? 1.0f / std::sqrt(static_cast<float>(in.head)) : attributes.scale;
  return in;
}

}  // namespace ort
