// com.microsoft MultiHeadAttention (opset 1), float, with ONNX Runtime's CPU semantics: attention
// of already projected query [B,S,D], key and value ([B,L,D] and [B,L,Dv] plus their parts of
// bias, or heads [B,N,L,H] as a cross-attention cache holds them) over N heads, into [B,S,Dv].
// With past_key/past_value [B,N,P,H] the keys are the past followed by this step's, T = P + L;
// present_key/present_value return them ([B,N,T,H]) and qk the scores before the softmax
// [B,N,S,T]. key_padding_mask and attention_bias as in multihead_attention_inputs.h;
// unidirectional hides the keys after P + s from query s (attention_core.h). This engine's
// kv_num_heads attribute lets head-major key and value hold fewer heads, each shared by a group
// of query heads (grouped-query attention, without repeating them).
#include <algorithm>
#include <vector>

#include "providers/common/bert/multihead_attention_inputs.h"
#include "providers/cpu/kernels/contrib/bert/attention_core.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

// Heads of `from` into `to` (same batch, heads, tokens and head size), plus bias[h * head_size +
// i] on channel i of head h when `bias` is not null.
void CopyHeads(const float* from, const HeadView& from_view, const float* bias, float* to,
               const HeadView& to_view, ThreadPool* pool) {
  const int64_t heads = from_view.heads, tokens = from_view.tokens, size = from_view.head_size;
  ThreadPool::TryParallelFor(pool, from_view.batch * heads * tokens,
                             2.0 * static_cast<double>(size), [&](int64_t begin, int64_t end) {
                               for (int64_t row = begin; row < end; ++row) {
                                 const int64_t b = row / (heads * tokens), h = row / tokens % heads,
                                               s = row % tokens;
                                 const float* src = from + from_view.Offset(b, h, s);
                                 float* dst = to + to_view.Offset(b, h, s);
                                 if (bias == nullptr) {
                                   std::copy(src, src + size, dst);
                                 } else {
                                   const float* add = bias + h * size;
                                   for (int64_t i = 0; i < size; ++i) dst[i] = src[i] + add[i];
                                 }
                               }
                             });
}

// Where the heads of one operand (query, key or value) are read from: the input itself, or a
// buffer holding them with their bias added, or the past followed by them.
struct HeadSource {
  const float* data = nullptr;
  HeadView view;
};

class MultiHeadAttention final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override { return attributes_.Parse(info); }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const MultiHeadAttentionInputs in,
                         ReadMultiHeadAttentionInputs(context, attributes_));
    const int64_t batch = in.batch, num_heads = in.num_heads, sequence = in.sequence;
    const int64_t head = in.head, v_head = in.v_head, hidden = num_heads * head;
    const int64_t total = in.total;
    ThreadPool* pool = context.thread_pool();
    ORT_ASSIGN_OR_RETURN(
        Tensor * output,
        context.Output(0, DataType::kFloat, TensorShape({batch, sequence, num_heads * v_head})));
    float* scores_out = nullptr;
    if (context.IsOutputUsed(3)) {
      ORT_ASSIGN_OR_RETURN(
          Tensor * qk,
          context.Output(3, DataType::kFloat, TensorShape({batch, num_heads, sequence, total})));
      scores_out = qk->MutableData<float>();
    }
    const float* bias = in.bias != nullptr ? in.bias->Data<float>() : nullptr;
    // Temporaries that hold heads live until the attention is computed.
    std::vector<Tensor> buffers;
    const auto allocate = [&](std::vector<int64_t> dims) -> Result<float*> {
      ORT_ASSIGN_OR_RETURN(Tensor buffer,
                           context.AllocateTemp(DataType::kFloat, TensorShape(std::move(dims))));
      buffers.push_back(std::move(buffer));
      return buffers.back().MutableData<float>();
    };

    HeadSource query{in.query->Data<float>(),
                     TokenMajorHeads(batch, sequence, num_heads, head, hidden)};
    if (bias != nullptr) {
      ORT_ASSIGN_OR_RETURN(float* biased, allocate({batch, sequence, hidden}));
      CopyHeads(query.data, query.view, bias, biased, query.view, pool);
      query.data = biased;
    }
    // The key (bias part 1) or value (bias part 2) heads the attention reads.
    const auto heads_of = [&](const Tensor& step, const Tensor* past, size_t present_index,
                              int64_t size, int64_t part) -> Result<HeadSource> {
      const int64_t width = num_heads * size;
      HeadSource fresh{step.Data<float>(),
                       in.kv_head_major
                           ? HeadMajorHeads(batch, in.kv_heads, in.kv_sequence, size)
                           : TokenMajorHeads(batch, in.kv_sequence, num_heads, size, width)};
      fresh.view.group = num_heads / in.kv_heads;
      const float* part_bias =
          bias != nullptr && !in.kv_head_major ? bias + part * hidden : nullptr;
      const bool present = context.IsOutputUsed(present_index);
      if (present && fresh.view.group != 1) {
        return context.Error("present_key and present_value need kv_num_heads = num_heads");
      }
      if (past == nullptr && !present) {
        if (part_bias == nullptr) return fresh;
        ORT_ASSIGN_OR_RETURN(float* biased, allocate({batch, in.kv_sequence, width}));
        CopyHeads(fresh.data, fresh.view, part_bias, biased, fresh.view, pool);
        return HeadSource{biased, fresh.view};
      }
      const std::vector<int64_t> dims{batch, num_heads, total, size};
      float* cache = nullptr;
      if (present) {
        ORT_ASSIGN_OR_RETURN(Tensor * out,
                             context.Output(present_index, DataType::kFloat, TensorShape(dims)));
        cache = out->MutableData<float>();
      } else {
        ORT_ASSIGN_OR_RETURN(cache, allocate(dims));
      }
      const HeadView cache_view = HeadMajorHeads(batch, num_heads, total, size);
      // Rows [0, P) of each head hold the past, rows [P, T) this step's keys.
      HeadView rows = cache_view;
      if (past != nullptr) {
        rows.tokens = in.past;
        CopyHeads(past->Data<float>(), HeadMajorHeads(batch, num_heads, in.past, size), nullptr,
                  cache, rows, pool);
      }
      rows.tokens = in.kv_sequence;
      CopyHeads(fresh.data, fresh.view, part_bias, cache + in.past * size, rows, pool);
      return HeadSource{cache, cache_view};
    };
    ORT_ASSIGN_OR_RETURN(const HeadSource keys, heads_of(*in.key, in.past_key, 1, head, 1));
    ORT_ASSIGN_OR_RETURN(const HeadSource values, heads_of(*in.value, in.past_value, 2, v_head, 2));

    AttentionHeads heads;
    heads.q = query.data;
    heads.k = keys.data;
    heads.v = values.data;
    heads.out = output->MutableData<float>();
    heads.q_view = query.view;
    heads.k_view = keys.view;
    heads.v_view = values.view;
    heads.out_view = TokenMajorHeads(batch, sequence, num_heads, v_head, num_heads * v_head);
    heads.scale = in.scale;
    if (in.attention_bias != nullptr) {
      heads.attention_bias = in.attention_bias->Data<float>();
      heads.bias_batch = in.bias_batch;
      heads.bias_heads = in.bias_heads;
    }
    heads.mask = in.mask;
    heads.mask_filter_value = attributes_.mask_filter_value;
    heads.causal = attributes_.unidirectional;
    heads.causal_offset = in.past;
    heads.scores_out = scores_out;
    return ComputeAttentionHeads(context, heads);
  }

 private:
  MultiHeadAttentionAttributes attributes_;
};

}  // namespace

void RegisterMultiHeadAttentionKernels(KernelRegistry& registry) {
  registry.Add<MultiHeadAttention>(KernelDef("MultiHeadAttention", std::string(kMsDomain))
                                       .Versions(1)
                                       .Input(0, {DataType::kFloat})
                                       .Input(4, {DataType::kInt32})
                                       .Output(3, {DataType::kFloat}));
}

}  // namespace ort
