#include "providers/common/bert/attention_common.h"

#include <cmath>
#include <string_view>

namespace ort {
namespace {

// mask_index's form from its shape (int32, checked) for `keys` keys; kNone when `mask` is null or
// ONNX Runtime's dummy [B,1] / [1,1] (a mask broadcast from one value hides nothing). The error is
// a plain message for the caller to prefix.
Result<AttentionMaskIndex> ClassifyAttentionMask(const Tensor* mask, int64_t batch,
                                                 int64_t sequence, int64_t keys) {
  AttentionMaskIndex view;
  if (mask == nullptr) return view;
  view.data = mask->Data<int32_t>();
  const auto& dims = mask->shape().dims();
  if (dims.size() == 1 && dims[0] == batch) {
    view.kind = AttentionMaskKind::kKeyLengths;
  } else if (dims.size() == 1 && dims[0] == 2 * batch) {
    view.kind = AttentionMaskKind::kEndStart;
  } else if (dims.size() == 2 && dims[0] == batch && dims[1] == keys) {
    view.kind = AttentionMaskKind::kRaw2D;
  } else if (dims.size() == 2 && (dims[0] == batch || dims[0] == 1) && dims[1] == 1) {
    view = AttentionMaskIndex{};
  } else if (dims.size() == 3 && dims[0] == batch && dims[1] == sequence && dims[2] == keys) {
    view.kind = AttentionMaskKind::kRaw3D;
    view.queries = sequence;
  } else if (dims.size() == 4 && dims[0] == batch && dims[1] == 1 && dims[2] == dims[3] &&
             dims[2] >= keys) {
    view.kind = AttentionMaskKind::kRaw4D;
    view.max_sequence = dims[2];
  } else {
    return ORT_ERROR(kInvalidArgument,
                     "mask_index shape {} does not fit batch {}, sequence {} and {} keys",
                     mask->shape().ToString(), batch, sequence, keys);
  }
  return view;
}

// do_rotary and past_present_share_buffer, which neither Attention kernel supports.
Status RejectRotaryAndSharedBuffer(const KernelInfo& info, std::string_view op) {
  ORT_ASSIGN_OR_RETURN(const int64_t rotary, info.GetAttributeOr<int64_t>("do_rotary", 0));
  ORT_ASSIGN_OR_RETURN(const int64_t shared,
                       info.GetAttributeOr<int64_t>("past_present_share_buffer", 0));
  if (rotary != 0 || shared != 0) {
    return ORT_ERROR(kNotImplemented,
                     "{}: do_rotary and past_present_share_buffer are not supported", op);
  }
  return Status::OK();
}

}  // namespace

Status HeadAttentionAttributes::ParseShared(const KernelInfo& info) {
  ORT_ASSIGN_OR_RETURN(num_heads, info.GetAttribute<int64_t>("num_heads"));
  if (num_heads <= 0) return ORT_ERROR(kInvalidArgument, "num_heads must be positive");
  ORT_ASSIGN_OR_RETURN(mask_filter_value,
                       info.GetAttributeOr<float>("mask_filter_value", -10000.0f));
  ORT_ASSIGN_OR_RETURN(scale, info.GetAttributeOr<float>("scale", 0.0f));
  ORT_ASSIGN_OR_RETURN(const int64_t causal, info.GetAttributeOr<int64_t>("unidirectional", 0));
  unidirectional = causal != 0;
  return Status::OK();
}

Status AttentionAttributes::Parse(const KernelInfo& info) {
  ORT_RETURN_IF_ERROR(ParseShared(info));
  ORT_RETURN_IF_ERROR(RejectRotaryAndSharedBuffer(info, "Attention"));
  ORT_ASSIGN_OR_RETURN(qkv_hidden_sizes, info.GetAttributeOr<std::vector<int64_t>>(
                                             "qkv_hidden_sizes", std::vector<int64_t>{}));
  if (!qkv_hidden_sizes.empty() &&
      (qkv_hidden_sizes.size() != 3 || qkv_hidden_sizes[0] != qkv_hidden_sizes[1])) {
    return ORT_ERROR(kInvalidArgument,
                     "Attention: qkv_hidden_sizes must hold 3 sizes with Q and K equal");
  }
  if (info.InputCount() > 4 && info.node().HasInput(4)) {
    return ORT_ERROR(kNotImplemented, "Attention: the past input is not supported");
  }
  if (info.OutputCount() > 1 && info.node().HasOutput(1)) {
    return ORT_ERROR(kNotImplemented, "Attention: the present output is not supported");
  }
  return Status::OK();
}

Status AttentionAttributes::ParseQuantized(const KernelInfo& info) {
  ORT_RETURN_IF_ERROR(ParseShared(info));
  return RejectRotaryAndSharedBuffer(info, "QAttention");
}

Result<AttentionSizes> CheckAttentionInputs(const KernelContext& context,
                                            const AttentionAttributes& attributes,
                                            const AttentionInputs& inputs) {
  const DataType type = inputs.input->dtype();
  for (const Tensor* tensor : {inputs.weights, inputs.bias, inputs.attention_bias}) {
    if (tensor != nullptr && tensor->dtype() != type) {
      return context.Error("weights, bias and attention_bias ({}) must have input's type {}",
                           tensor->Describe(), DataTypeName(type));
    }
  }
  if (inputs.mask != nullptr && inputs.mask->dtype() != DataType::kInt32) {
    return context.Error("mask_index {} must be int32", inputs.mask->Describe());
  }
  return CheckAttentionShapes(context, attributes, inputs);
}

Result<AttentionSizes> CheckAttentionShapes(const KernelContext& context,
                                            const AttentionAttributes& attributes,
                                            const AttentionInputs& inputs) {
  const auto& in = inputs.input->shape().dims();
  const auto& w = inputs.weights_shape.dims();
  if (in.size() != 3 || w.size() != 2 || w[0] != in[2]) {
    return context.Error("input {} and weights {} must be [B,S,D] and [D, 3 hidden]",
                         inputs.input->shape().ToString(), inputs.weights_shape.ToString());
  }
  const int64_t num_heads = attributes.num_heads;
  const std::vector<int64_t>& qkv = attributes.qkv_hidden_sizes;
  AttentionSizes sizes;
  sizes.batch = in[0];
  sizes.sequence = in[1];
  sizes.input_hidden = in[2];
  sizes.total = w[1];
  sizes.hidden = qkv.empty() ? sizes.total / 3 : qkv[0];
  sizes.v_hidden = qkv.empty() ? sizes.total / 3 : qkv[2];
  if (2 * sizes.hidden + sizes.v_hidden != sizes.total || sizes.hidden % num_heads != 0 ||
      sizes.v_hidden % num_heads != 0) {
    return context.Error("weights {} do not split into Q, K and V of {} heads",
                         inputs.weights_shape.ToString(), num_heads);
  }
  if (inputs.bias != nullptr && inputs.bias->shape() != TensorShape({sizes.total})) {
    return context.Error("bias {} must be [{}]", inputs.bias->shape().ToString(), sizes.total);
  }
  sizes.head = sizes.hidden / num_heads;
  sizes.v_head = sizes.v_hidden / num_heads;
  if (inputs.past != nullptr) {
    const auto& p = inputs.past->shape().dims();
    if (sizes.hidden != sizes.v_hidden || p.size() != 5 || p[0] != 2 || p[1] != sizes.batch ||
        p[2] != num_heads || p[4] != sizes.head) {
      return context.Error("past {} must be [2, {}, {}, P, {}] (Q, K and V of one size)",
                           inputs.past->shape().ToString(), sizes.batch, num_heads, sizes.head);
    }
    sizes.past = p[3];
  }
  sizes.keys = sizes.past + sizes.sequence;
  auto mask = ClassifyAttentionMask(inputs.mask, sizes.batch, sizes.sequence, sizes.keys);
  if (!mask.ok()) return context.Error("{}", mask.status().message());
  sizes.mask = *mask;
  if (inputs.attention_bias != nullptr) {
    const auto& d = inputs.attention_bias->shape().dims();
    if (d.size() != 4 || (d[0] != 1 && d[0] != sizes.batch) || (d[1] != 1 && d[1] != num_heads) ||
        d[2] != sizes.sequence || d[3] != sizes.keys) {
      return context.Error("attention_bias {} must be [B or 1, N or 1, S, T]",
                           inputs.attention_bias->shape().ToString());
    }
    sizes.bias_batch = d[0];
    sizes.bias_heads = d[1];
  }
  sizes.scale = attributes.scale == 0.0f ? 1.0f / std::sqrt(static_cast<float>(sizes.head))
                                         : attributes.scale;
  sizes.causal = attributes.unidirectional && sizes.sequence > 1;
  return sizes;
}

}  // namespace ort
