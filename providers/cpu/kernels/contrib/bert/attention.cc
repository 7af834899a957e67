// com.microsoft Attention (opset 1), float, with ONNX Runtime's CPU semantics: one GEMM projects
// input [B,S,D] by the merged weights [D, Hq+Hk+Hv] (+ bias) into Q, K and V; each of the
// num_heads heads computes softmax(scale * Q K^T + mask + attention_bias) V, written back to
// [B,S,Hv]. Masks (0 = masked, replaced by mask_filter_value in the scores): raw [B,T], [B,S,T],
// [B,1,M,M] (Megatron), key lengths [B] (right padding) and end/start positions [2B].
// unidirectional masks every key after the query's position. past/present are not supported.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

// Which form mask_index takes; fixed per Compute from its shape.
enum class MaskKind { kNone, kKeyLengths, kEndStart, kRaw2D, kRaw3D, kRaw4D };

struct MaskView {
  MaskKind kind = MaskKind::kNone;
  const int32_t* data = nullptr;
  int64_t max_sequence = 0;  // M of the 4-D form
};

Result<MaskView> ClassifyMask(const Tensor* mask, int64_t batch, int64_t sequence) {
  MaskView view;
  if (mask == nullptr) return view;
  view.data = mask->Data<int32_t>();
  const auto& dims = mask->shape().dims();
  if (dims.size() == 1 && dims[0] == batch) {
    view.kind = MaskKind::kKeyLengths;
  } else if (dims.size() == 1 && dims[0] == 2 * batch) {
    view.kind = MaskKind::kEndStart;
  } else if (dims.size() == 2 && dims[0] == batch && dims[1] == sequence) {
    view.kind = MaskKind::kRaw2D;
  } else if (dims.size() == 3 && dims[0] == batch && dims[1] == sequence && dims[2] == sequence) {
    view.kind = MaskKind::kRaw3D;
  } else if (dims.size() == 4 && dims[0] == batch && dims[1] == 1 && dims[2] == dims[3] &&
             dims[2] >= sequence) {
    view.kind = MaskKind::kRaw4D;
    view.max_sequence = dims[2];
  } else {
    return ORT_ERROR(kInvalidArgument, "mask_index shape {} does not fit batch {} and sequence {}",
                     mask->shape().ToString(), batch, sequence);
  }
  return view;
}

// True when key `t` of query row `s` in batch `b` is masked out (padding, or causal future).
bool IsMasked(const MaskView& mask, bool causal, int64_t batch, int64_t b, int64_t s, int64_t t,
              int64_t keys) {
  if (causal && t > s) return true;
  switch (mask.kind) {
    case MaskKind::kNone:
      return false;
    case MaskKind::kKeyLengths:
      return t >= mask.data[b];
    case MaskKind::kEndStart:
      return t >= mask.data[b] || t < std::min<int64_t>(mask.data[batch + b], keys);
    case MaskKind::kRaw2D:
      return mask.data[b * keys + t] <= 0;
    case MaskKind::kRaw3D:
      return mask.data[(b * keys + s) * keys + t] <= 0;
    case MaskKind::kRaw4D:
      return mask.data[(b * mask.max_sequence + s) * mask.max_sequence + t] <= 0;
  }
  return false;
}

// True when the mask of a query row does not depend on the row: then one additive row per batch
// serves every query.
bool MaskIsPerKey(const MaskView& mask, bool causal) {
  return !causal && (mask.kind == MaskKind::kKeyLengths || mask.kind == MaskKind::kEndStart ||
                     mask.kind == MaskKind::kRaw2D);
}

// Adds mask_filter_value once to every masked score of query row `s` of batch `b` (the mask is a
// set of positions: padding and causal masking together still add it once, as ONNX Runtime does).
void ApplyMask(const MaskView& mask, bool causal, float filter, int64_t batch, int64_t b, int64_t s,
               int64_t keys, float* scores) {
  if (mask.kind == MaskKind::kNone && !causal) return;
  for (int64_t t = 0; t < keys; ++t) {
    if (IsMasked(mask, causal, batch, b, s, t, keys)) scores[t] += filter;
  }
}

// Softmax of one row in place, accumulated in float; a row of equal (all masked) scores becomes
// uniform.
void SoftmaxRow(float* row, int64_t n) {
  const float max = RowMax(row, n);
  for (int64_t i = 0; i < n; ++i) row[i] = FastExp(row[i] - max);
  const float inverse = 1.0f / RowSum(row, n);
  for (int64_t i = 0; i < n; ++i) row[i] *= inverse;
}

class Attention final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(num_heads_, info.GetAttribute<int64_t>("num_heads"));
    if (num_heads_ <= 0) return ORT_ERROR(kInvalidArgument, "num_heads must be positive");
    ORT_ASSIGN_OR_RETURN(mask_filter_value_,
                         info.GetAttributeOr<float>("mask_filter_value", -10000.0f));
    ORT_ASSIGN_OR_RETURN(scale_, info.GetAttributeOr<float>("scale", 0.0f));
    ORT_ASSIGN_OR_RETURN(const int64_t unidirectional,
                         info.GetAttributeOr<int64_t>("unidirectional", 0));
    unidirectional_ = unidirectional != 0;
    ORT_ASSIGN_OR_RETURN(const int64_t rotary, info.GetAttributeOr<int64_t>("do_rotary", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t shared,
                         info.GetAttributeOr<int64_t>("past_present_share_buffer", 0));
    if (rotary != 0 || shared != 0) {
      return ORT_ERROR(kNotImplemented,
                       "Attention: do_rotary and past_present_share_buffer are not supported");
    }
    ORT_ASSIGN_OR_RETURN(qkv_hidden_sizes_, info.GetAttributeOr<std::vector<int64_t>>(
                                                "qkv_hidden_sizes", std::vector<int64_t>{}));
    if (!qkv_hidden_sizes_.empty() &&
        (qkv_hidden_sizes_.size() != 3 || qkv_hidden_sizes_[0] != qkv_hidden_sizes_[1])) {
      return ORT_ERROR(kInvalidArgument,
                       "Attention: qkv_hidden_sizes must hold 3 sizes with Q and K equal");
    }
    if (info.InputCount() > 4 && info.node().HasInput(4)) {
      return ORT_ERROR(kNotImplemented, "Attention: the past input is not supported");
    }
    if (info.OutputCount() > 1 && info.node().HasOutput(1)) {
      return ORT_ERROR(kNotImplemented, "Attention: the present output is not supported");
    }
    packed_weights_ = PackConstantB(info, 1, false);
    return Status::OK();
  }

  bool PrePackedInput(size_t index) const override {
    return index == 1 && packed_weights_ != nullptr;
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* input, context.RequiredInput(0));
    // Packed constant weights are never read again (the session may have freed them).
    const Tensor* weights = nullptr;
    if (packed_weights_ == nullptr) {
      ORT_ASSIGN_OR_RETURN(weights, context.RequiredInput(1));
    }
    const TensorShape weights_shape =
        weights != nullptr ? weights->shape()
                           : TensorShape({packed_weights_->k(), packed_weights_->n()});
    const Tensor* bias = context.Input(2);
    const Tensor* mask = context.Input(3);
    const Tensor* attention_bias = context.Input(5);
    const auto& in = input->shape().dims();
    const auto& w = weights_shape.dims();
    if (in.size() != 3 || w.size() != 2 || w[0] != in[2]) {
      return context.Error("input {} and weights {} must be [B,S,D] and [D, 3 hidden]",
                           input->shape().ToString(), weights_shape.ToString());
    }
    const int64_t batch = in[0], sequence = in[1], input_hidden = in[2], total = w[1];
    const int64_t hidden = qkv_hidden_sizes_.empty() ? total / 3 : qkv_hidden_sizes_[0];
    const int64_t v_hidden = qkv_hidden_sizes_.empty() ? total / 3 : qkv_hidden_sizes_[2];
    if (2 * hidden + v_hidden != total || hidden % num_heads_ != 0 || v_hidden % num_heads_ != 0) {
      return context.Error("weights {} do not split into Q, K and V of {} heads",
                           weights_shape.ToString(), num_heads_);
    }
    if (bias != nullptr && bias->shape() != TensorShape({total})) {
      return context.Error("bias {} must be [{}]", bias->shape().ToString(), total);
    }
    auto mask_view = ClassifyMask(mask, batch, sequence);
    if (!mask_view.ok()) return context.Error("{}", mask_view.status().message());
    if (attention_bias != nullptr) {
      const auto& d = attention_bias->shape().dims();
      if (d.size() != 4 || (d[0] != 1 && d[0] != batch) || (d[1] != 1 && d[1] != num_heads_) ||
          d[2] != sequence || d[3] != sequence) {
        return context.Error("attention_bias {} must be [B or 1, N or 1, S, S]",
                             attention_bias->shape().ToString());
      }
    }
    const int64_t head = hidden / num_heads_, v_head = v_hidden / num_heads_;
    const float scale = scale_ == 0.0f ? 1.0f / std::sqrt(static_cast<float>(head)) : scale_;
    ORT_ASSIGN_OR_RETURN(Tensor * output, context.Output(0, DataType::kFloat,
                                                         TensorShape({batch, sequence, v_hidden})));
    const int64_t rows = batch * sequence;
    if (rows == 0) return Status::OK();

    // QKV [B*S, total]: bias rows, then the projection accumulated onto them.
    ORT_ASSIGN_OR_RETURN(Tensor qkv,
                         context.AllocateTemp(DataType::kFloat, TensorShape({rows, total})));
    float* qkv_data = qkv.MutableData<float>();
    if (bias != nullptr) {
      for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(qkv_data + r * total, bias->Data<float>(), sizeof(float) * total);
      }
    }
    if (packed_weights_ != nullptr) {
      SgemmPackedB(false, rows, 1.0f, input->Data<float>(), input_hidden, *packed_weights_,
                   bias != nullptr ? 1.0f : 0.0f, qkv_data, total, context.thread_pool());
    } else {
      Sgemm(false, false, rows, total, input_hidden, 1.0f, input->Data<float>(), input_hidden,
            weights->Data<float>(), total, bias != nullptr ? 1.0f : 0.0f, qkv_data, total,
            context.thread_pool());
    }

    const int64_t units = batch * num_heads_;
    ORT_ASSIGN_OR_RETURN(
        Tensor scores,
        context.AllocateTemp(DataType::kFloat, TensorShape({units, sequence, sequence})));
    float* scores_data = scores.MutableData<float>();
    const float* bias_data = attention_bias != nullptr ? attention_bias->Data<float>() : nullptr;
    const bool causal = unidirectional_ && sequence > 1;
    float* out = output->MutableData<float>();
    const MaskView view = *mask_view;
    // Masks that only depend on the key become one additive row per batch.
    const bool per_key_mask = MaskIsPerKey(view, causal);
    std::vector<float> key_mask(per_key_mask ? static_cast<size_t>(batch * sequence) : 0, 0.0f);
    for (int64_t b = 0; per_key_mask && b < batch; ++b) {
      ApplyMask(view, false, mask_filter_value_, batch, b, 0, sequence,
                key_mask.data() + b * sequence);
    }
    const double cost = 2.0 * static_cast<double>(sequence) * sequence * (head + v_head);
    VectorizedParallelFor(context.thread_pool(), units, cost, [&](int64_t begin, int64_t end) {
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t b = unit / num_heads_, n = unit % num_heads_;
        const float* q = qkv_data + b * sequence * total + n * head;
        const float* k = q + hidden;
        const float* v = qkv_data + b * sequence * total + 2 * hidden + n * v_head;
        float* probs = scores_data + unit * sequence * sequence;
        Sgemm(false, true, sequence, sequence, head, scale, q, total, k, total, 0.0f, probs,
              sequence, nullptr);
        for (int64_t s = 0; s < sequence; ++s) {
          float* row = probs + s * sequence;
          if (bias_data != nullptr) {
            const auto& d = attention_bias->shape().dims();
            const int64_t offset =
                ((d[0] == 1 ? 0 : b) * d[1] + (d[1] == 1 ? 0 : n)) * sequence * sequence;
            const float* add = bias_data + offset + s * sequence;
            for (int64_t t = 0; t < sequence; ++t) row[t] += add[t];
          }
          if (per_key_mask) {
            const float* add = key_mask.data() + b * sequence;
            for (int64_t t = 0; t < sequence; ++t) row[t] += add[t];
          } else {
            ApplyMask(view, causal, mask_filter_value_, batch, b, s, sequence, row);
          }
          SoftmaxRow(row, sequence);
        }
        Sgemm(false, false, sequence, v_head, sequence, 1.0f, probs, sequence, v, total, 0.0f,
              out + b * sequence * v_hidden + n * v_head, v_hidden, nullptr);
      }
    });
    return Status::OK();
  }

 private:
  int64_t num_heads_ = 0;
  float mask_filter_value_ = -10000.0f;
  float scale_ = 0.0f;
  bool unidirectional_ = false;
  std::vector<int64_t> qkv_hidden_sizes_;
  /// Constant QKV weights, packed at creation.
  std::unique_ptr<PackedSgemmB> packed_weights_;
};

}  // namespace

void RegisterAttentionKernels(KernelRegistry& registry) {
  registry.Add<Attention>(KernelDef("Attention", std::string(kMsDomain))
                              .Versions(1)
                              .Input(0, {DataType::kFloat})
                              .Input(3, {DataType::kInt32}));
}

}  // namespace ort
