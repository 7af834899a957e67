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

#include "providers/common/bert/attention_common.h"
#include "providers/cpu/kernels/common/gemm.h"
#include "providers/cpu/kernels/common/row_reduce.h"
#include "providers/cpu/kernels/common/vectorize.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

// True when key `t` of query row `s` in batch `b` is masked out (padding, or causal future).
bool IsMasked(const AttentionMaskIndex& mask, bool causal, int64_t batch, int64_t b, int64_t s,
              int64_t t, int64_t keys) {
  return (causal && t > s) || MaskIndexMasks(mask, batch, b, s, t, keys);
}

// True when the mask of a query row does not depend on the row: then one additive row per batch
// serves every query.
bool MaskIsPerKey(const AttentionMaskIndex& mask, bool causal) {
  return !causal &&
         (mask.kind == AttentionMaskKind::kKeyLengths ||
          mask.kind == AttentionMaskKind::kEndStart || mask.kind == AttentionMaskKind::kRaw2D);
}

// Adds mask_filter_value once to every masked score of query row `s` of batch `b` (the mask is a
// set of positions: padding and causal masking together still add it once, as ONNX Runtime does).
void ApplyMask(const AttentionMaskIndex& mask, bool causal, float filter, int64_t batch, int64_t b,
               int64_t s, int64_t keys, float* scores) {
  if (mask.kind == AttentionMaskKind::kNone && !causal) return;
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
    ORT_RETURN_IF_ERROR(attributes_.Parse(info));
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
    const AttentionInputs inputs{input,
                                 weights,
                                 weights != nullptr
                                     ? weights->shape()
                                     : TensorShape({packed_weights_->k(), packed_weights_->n()}),
                                 context.Input(2),
                                 context.Input(3),
                                 context.Input(5)};
    ORT_ASSIGN_OR_RETURN(const AttentionSizes sizes,
                         CheckAttentionInputs(context, attributes_, inputs));
    const int64_t batch = sizes.batch, sequence = sizes.sequence;
    const int64_t input_hidden = sizes.input_hidden, total = sizes.total;
    const int64_t hidden = sizes.hidden, v_hidden = sizes.v_hidden;
    const int64_t head = sizes.head, v_head = sizes.v_head, num_heads = attributes_.num_heads;
    const float scale = sizes.scale, filter = attributes_.mask_filter_value;
    const Tensor* bias = inputs.bias;
    const Tensor* attention_bias = inputs.attention_bias;
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

    const int64_t units = batch * num_heads;
    ORT_ASSIGN_OR_RETURN(
        Tensor scores,
        context.AllocateTemp(DataType::kFloat, TensorShape({units, sequence, sequence})));
    float* scores_data = scores.MutableData<float>();
    const float* bias_data = attention_bias != nullptr ? attention_bias->Data<float>() : nullptr;
    const bool causal = sizes.causal;
    float* out = output->MutableData<float>();
    const AttentionMaskIndex& view = sizes.mask;
    // Masks that only depend on the key become one additive row per batch.
    const bool per_key_mask = MaskIsPerKey(view, causal);
    std::vector<float> key_mask(per_key_mask ? static_cast<size_t>(batch * sequence) : 0, 0.0f);
    for (int64_t b = 0; per_key_mask && b < batch; ++b) {
      ApplyMask(view, false, filter, batch, b, 0, sequence, key_mask.data() + b * sequence);
    }
    const double cost = 2.0 * static_cast<double>(sequence) * sequence * (head + v_head);
    VectorizedParallelFor(context.thread_pool(), units, cost, [&](int64_t begin, int64_t end) {
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t b = unit / num_heads, n = unit % num_heads;
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
            ApplyMask(view, causal, filter, batch, b, s, sequence, row);
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
  AttentionAttributes attributes_;
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
