// Attention (opset 23): softmax(softcap(Q K^T * scale) + mask) V per head, with grouped KV
// heads (query head h reads KV head h / (q_heads / kv_heads)), a KV cache (present = past
// followed by this step's K, V), a boolean (true attends) or additive mask broadcast to
// [B, q_heads, S_q, total] whose last axis may be shorter (the rest is masked), and is_causal
// (query i sees keys up to past_length + i). Inputs are [B, heads, S, head_size], or 3-D
// [B, S, heads * head_size] with q_num_heads and kv_num_heads. qk_matmul_output follows ONNX
// Runtime's stages, which the spec revisions describe differently: mode 0 the scaled Q K^T,
// 1 after softcap, 2 after the mask (and causal masking), 3 the softmax. Rows whose every key
// is masked come out NaN, as the spec's reference computes them. Opset 24 adds nonpad_kv_seqlen
// for caches updated outside the op (K and V are the whole cache): keys from a sample's length
// on are hidden, and is_causal aligns the queries to the end of the valid keys, as ONNX Runtime
// does. Opset 25 adds sliding windows (a query at absolute position p = offset + i sees keys
// p - left_window_size through p + right_window_size; -1 leaves a side open) and makes a row
// whose every key is hidden a zero row instead of NaN.
#include <cmath>
#include <limits>

#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/head_view.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class Attention final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t causal, info.GetAttributeOr<int64_t>("is_causal", 0));
    is_causal_ = causal != 0;
    ORT_ASSIGN_OR_RETURN(q_num_heads_, info.GetAttributeOr<int64_t>("q_num_heads", 0));
    ORT_ASSIGN_OR_RETURN(kv_num_heads_, info.GetAttributeOr<int64_t>("kv_num_heads", 0));
    ORT_ASSIGN_OR_RETURN(qk_mode_, info.GetAttributeOr<int64_t>("qk_matmul_output_mode", 0));
    has_scale_ = info.HasAttribute("scale");
    ORT_ASSIGN_OR_RETURN(scale_, info.GetAttributeOr<float>("scale", 1.0f));
    ORT_ASSIGN_OR_RETURN(softcap_, info.GetAttributeOr<float>("softcap", 0.0f));
    if (info.node().graph().OpsetVersion("") >= 25) {
      zero_masked_rows_ = true;
      ORT_ASSIGN_OR_RETURN(left_window_, info.GetAttributeOr<int64_t>("left_window_size", -1));
      ORT_ASSIGN_OR_RETURN(right_window_, info.GetAttributeOr<int64_t>("right_window_size", -1));
      if (left_window_ < -1 || right_window_ < -1) {
        return ORT_ERROR(kInvalidModel,
                         "left_window_size and right_window_size must be -1 or more, got {} and {}",
                         left_window_, right_window_)
            .WithNode(info.node().Describe());
      }
    }
    if (qk_mode_ < 0 || qk_mode_ > 3) {
      return ORT_ERROR(kInvalidModel, "qk_matmul_output_mode must be 0 to 3, got {}", qk_mode_)
          .WithNode(info.node().Describe());
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* q, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* k, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* v, context.RequiredInput(2));
    const Tensor* mask = context.Input(3);
    const Tensor* past_key = context.Input(4);
    const Tensor* past_value = context.Input(5);
    const Tensor* nonpad_lengths = context.Input(6);
    if (q->shape().rank() != k->shape().rank() || q->shape().rank() != v->shape().rank()) {
      return context.Error("Q, K and V must have one rank, got {}, {} and {}", q->Describe(),
                           k->Describe(), v->Describe());
    }
    auto qv = ViewHeads(q->shape(), q_num_heads_);
    auto kv = ViewHeads(k->shape(), kv_num_heads_);
    auto vv = ViewHeads(v->shape(), kv_num_heads_);
    if (!qv.ok()) return context.Error("Q: {}", qv.status().message());
    if (!kv.ok()) return context.Error("K: {}", kv.status().message());
    if (!vv.ok()) return context.Error("V: {}", vv.status().message());
    const int64_t batch = qv->batch, q_heads = qv->heads, kv_heads = kv->heads;
    const int64_t q_len = qv->tokens, head_size = qv->head_size, v_size = vv->head_size;
    if (kv->batch != batch || vv->batch != batch || vv->heads != kv_heads ||
        vv->tokens != kv->tokens || kv->head_size != head_size || q_heads % kv_heads != 0) {
      return context.Error(
          "Q {}, K {} and V {} do not fit one attention (query heads must be a "
          "multiple of KV heads)",
          q->Describe(), k->Describe(), v->Describe());
    }
    if (k->dtype() != q->dtype() || v->dtype() != q->dtype()) {
      return context.Error("Q, K and V must have one type");
    }
    const int64_t past = past_key != nullptr ? past_key->shape()[2] : 0;
    if ((past_key == nullptr) != (past_value == nullptr) ||
        (past_key != nullptr &&
         (past_key->shape() != TensorShape({batch, kv_heads, past, head_size}) ||
          past_value->shape() != TensorShape({batch, kv_heads, past, v_size})))) {
      return context.Error(
          "past_key and past_value must come together as [B, kv_heads, past, "
          "head_size] and [B, kv_heads, past, v_head_size]");
    }
    const int64_t total = past + kv->tokens;
    // Per sample, the keys a query may see and where causality puts query 0's last key.
    std::vector<int64_t> valid_keys(static_cast<size_t>(batch), total);
    std::vector<int64_t> causal_offset(static_cast<size_t>(batch), past);
    if (nonpad_lengths != nullptr) {
      if (past_key != nullptr || context.IsOutputUsed(1) || context.IsOutputUsed(2)) {
        return context.Error("nonpad_kv_seqlen cannot be used with past or present key/value");
      }
      auto lengths = ReadInt64Values(*nonpad_lengths);
      if (!lengths.ok() || nonpad_lengths->shape() != TensorShape({batch})) {
        return context.Error("nonpad_kv_seqlen must be int64 [{}], got {}", batch,
                             nonpad_lengths->Describe());
      }
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t length = (*lengths)[static_cast<size_t>(b)];
        if (length < 0 || length > total) {
          return context.Error("nonpad_kv_seqlen[{}] = {} is outside [0, {}]", b, length, total);
        }
        valid_keys[static_cast<size_t>(b)] = length;
        causal_offset[static_cast<size_t>(b)] = length - q_len;
      }
    }
    // Mask strides over [B, q_heads, S_q, its last axis], right-aligned; 0 where broadcast.
    int64_t mask_strides[4] = {0, 0, 0, 0};
    int64_t mask_length = 0;
    if (mask != nullptr) {
      const TensorShape& ms = mask->shape();
      const int64_t target[4] = {batch, q_heads, q_len, -1};
      bool fits = ms.rank() >= 2 && ms.rank() <= 4;
      int64_t stride = 1;
      for (size_t i = 0; fits && i < ms.rank(); ++i) {
        const size_t d = 3 - i;
        const int64_t dim = ms[ms.rank() - 1 - i];
        if (d == 3) {
          mask_length = dim;
          fits = dim <= total;
        } else {
          fits = dim == 1 || dim == target[d];
        }
        if (dim != 1 || d == 3) mask_strides[d] = stride;
        stride *= dim;
      }
      if (!fits || (mask->dtype() != DataType::kBool && mask->dtype() != q->dtype())) {
        return context.Error(
            "attn_mask {} must be bool or Q's type and broadcast to [{}, {}, {}, "
            "<= {}]",
            mask->Describe(), batch, q_heads, q_len, total);
      }
    }
    std::vector<int64_t> y_dims = q->shape().rank() == 4
                                      ? std::vector<int64_t>{batch, q_heads, q_len, v_size}
                                      : std::vector<int64_t>{batch, q_len, q_heads * v_size};
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, q->dtype(), TensorShape(y_dims)));
    // The cache this step extends, [B, kv_heads, total, D]; also the present outputs.
    auto present = [&](size_t index, int64_t size) -> Result<Tensor> {
      const TensorShape shape({batch, kv_heads, total, size});
      if (context.IsOutputUsed(index)) {
        ORT_ASSIGN_OR_RETURN(Tensor * out, context.Output(index, q->dtype(), shape));
        return *out;
      }
      return context.AllocateTemp(q->dtype(), shape);
    };
    ORT_ASSIGN_OR_RETURN(Tensor keys, present(1, head_size));
    ORT_ASSIGN_OR_RETURN(Tensor values, present(2, v_size));
    Tensor* scores_out = nullptr;
    if (context.IsOutputUsed(3)) {
      ORT_ASSIGN_OR_RETURN(
          scores_out, context.Output(3, q->dtype(), TensorShape({batch, q_heads, q_len, total})));
    }
    const float scale = has_scale_ ? scale_ : 1.0f / std::sqrt(static_cast<float>(head_size));
    return DispatchByType<FloatTypes>(q->dtype(), "Attention", [&]<typename T>() {
      using C = ComputeType<T>;
      // Fill the caches: past rows, then this step's.
      const auto fill = [&](Tensor& cache, const Tensor* past_part, const Tensor& step,
                            const HeadView& view) {
        T* dst = cache.MutableData<T>();
        const T* from = step.Data<T>();
        const int64_t size = view.head_size;
        for (int64_t b = 0; b < batch; ++b) {
          for (int64_t h = 0; h < kv_heads; ++h) {
            T* rows = dst + (b * kv_heads + h) * total * size;
            if (past_part != nullptr) {
              const T* old = past_part->Data<T>() + (b * kv_heads + h) * past * size;
              std::copy(old, old + past * size, rows);
            }
            for (int64_t s = 0; s < view.tokens; ++s) {
              const T* row = from + view.Offset(b, h, s);
              std::copy(row, row + size, rows + (past + s) * size);
            }
          }
        }
      };
      fill(keys, past_key, *k, *kv);
      fill(values, past_value, *v, *vv);
      const T* qd = q->Data<T>();
      const T* kd = keys.Data<T>();
      const T* vd = values.Data<T>();
      T* out = y->MutableData<T>();
      const int64_t group = q_heads / kv_heads;
      const auto* mask_bytes =
          mask != nullptr ? static_cast<const char*>(mask->RawData()) : nullptr;
      ThreadPool::TryParallelFor(
          context.thread_pool(), batch * q_heads * q_len,
          4.0 * static_cast<double>(total * (head_size + v_size)), [&](int64_t begin, int64_t end) {
            std::vector<C> scores(static_cast<size_t>(total));
            for (int64_t unit = begin; unit < end; ++unit) {
              const int64_t b = unit / (q_heads * q_len), h = unit / q_len % q_heads;
              const int64_t i = unit % q_len;
              const T* query = qd + qv->Offset(b, h, i);
              const int64_t cache = (b * kv_heads + h / group) * total;
              C largest = -std::numeric_limits<C>::infinity();
              for (int64_t j = 0; j < total; ++j) {
                const T* key = kd + (cache + j) * head_size;
                C dot = 0;
                for (int64_t d = 0; d < head_size; ++d) dot += C(query[d]) * C(key[d]);
                C score = dot * C(scale);
                if (scores_out != nullptr && qk_mode_ == 0) {
                  scores_out->MutableData<T>()[unit * total + j] = static_cast<T>(score);
                }
                if (softcap_ > 0) score = C(softcap_) * std::tanh(score / C(softcap_));
                if (scores_out != nullptr && qk_mode_ == 1) {
                  scores_out->MutableData<T>()[unit * total + j] = static_cast<T>(score);
                }
                // Keys hidden by padding, a boolean mask, the mask's length, causality or the
                // window.
                const int64_t position = causal_offset[static_cast<size_t>(b)] + i;
                bool hidden = j >= valid_keys[static_cast<size_t>(b)] ||
                              (is_causal_ && j > position) ||
                              (left_window_ >= 0 && j < position - left_window_) ||
                              (right_window_ >= 0 && j > position + right_window_);
                if (mask != nullptr) {
                  if (j >= mask_length) {
                    hidden = true;
                  } else {
                    const int64_t at = b * mask_strides[0] + h * mask_strides[1] +
                                       i * mask_strides[2] + j * mask_strides[3];
                    if (mask->dtype() == DataType::kBool) {
                      hidden = hidden || !reinterpret_cast<const bool*>(mask_bytes)[at];
                    } else {
                      score += C(reinterpret_cast<const T*>(mask_bytes)[at]);
                    }
                  }
                }
                if (scores_out != nullptr && qk_mode_ == 2) {
                  // ONNX Runtime reports hidden keys as the lowest finite value.
                  scores_out->MutableData<T>()[unit * total + j] =
                      static_cast<T>(hidden ? std::numeric_limits<C>::lowest() : score);
                }
                if (hidden) score = -std::numeric_limits<C>::infinity();
                scores[j] = score;
                largest = std::max(largest, score);
              }
              if (zero_masked_rows_ && largest == -std::numeric_limits<C>::infinity()) {
                std::fill(scores.begin(), scores.end(), C(0));
              } else {
                C sum = 0;
                for (int64_t j = 0; j < total; ++j) {
                  scores[j] = std::exp(scores[j] - largest);
                  sum += scores[j];
                }
                for (int64_t j = 0; j < total; ++j) scores[j] /= sum;
              }
              if (scores_out != nullptr && qk_mode_ == 3) {
                for (int64_t j = 0; j < total; ++j) {
                  scores_out->MutableData<T>()[unit * total + j] = static_cast<T>(scores[j]);
                }
              }
              T* row = out + (q->shape().rank() == 4 ? unit * v_size
                                                     : ((b * q_len + i) * q_heads + h) * v_size);
              for (int64_t d = 0; d < v_size; ++d) {
                C acc = 0;
                for (int64_t j = 0; j < total; ++j)
                  acc += scores[j] * C(vd[(cache + j) * v_size + d]);
                row[d] = static_cast<T>(acc);
              }
            }
          });
      return Status::OK();
    });
  }

 private:
  bool is_causal_ = false;
  int64_t q_num_heads_ = 0;
  int64_t kv_num_heads_ = 0;
  int64_t qk_mode_ = 0;
  bool has_scale_ = false;
  float scale_ = 1.0f;
  float softcap_ = 0.0f;
  int64_t left_window_ = -1;
  int64_t right_window_ = -1;
  bool zero_masked_rows_ = false;
};

}  // namespace

void RegisterOnnxAttentionKernels(KernelRegistry& registry) {
  const auto types = FloatTypes::DataTypes();
  registry.Add<Attention>(KernelDef("Attention").Versions(23, 23).Input(0, types));
  registry.Add<Attention>(KernelDef("Attention").Versions(24, 24).Input(0, types).HostInput(6));
  registry.Add<Attention>(KernelDef("Attention").Versions(25).Input(0, types).HostInput(6));
}

}  // namespace ort
