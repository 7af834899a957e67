// com.microsoft RotaryEmbedding (opset 1), float, with ONNX Runtime's CPU semantics: rotates the
// first rotary_embedding_dim channels (the whole head when 0) of each head of input [B,S,N*H] or
// [B,N,S,H] by the angles of its token's position (common/rotary.h). cos_cache and sin_cache are
// [max_position, W] with W = H / 2 or rotary_embedding_dim / 2; a token's row is
// position_ids[b, s] ([B,S]), or position_ids + s for a single offset. The head size is the
// input's (4-D), hidden / num_heads when rotary_embedding_dim is set, else 2 W (3-D). The scale
// attribute only matters to kernels that build the caches, and is_packed_batching only lifts the
// limit of S to the caches' rows, as on ONNX Runtime's CPU.
#include <vector>

#include "providers/cpu/kernels/common/head_view.h"
#include "providers/cpu/kernels/common/rotary.h"
#include "providers/cpu/kernels/contrib/bert/contrib_bert_kernels.h"

namespace ort {
namespace {

class RotaryEmbedding final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t interleaved, info.GetAttributeOr<int64_t>("interleaved", 0));
    interleaved_ = interleaved != 0;
    ORT_ASSIGN_OR_RETURN(rotary_dim_, info.GetAttributeOr<int64_t>("rotary_embedding_dim", 0));
    ORT_ASSIGN_OR_RETURN(num_heads_, info.GetAttributeOr<int64_t>("num_heads", 0));
    ORT_ASSIGN_OR_RETURN(const int64_t packed,
                         info.GetAttributeOr<int64_t>("is_packed_batching", 0));
    packed_batching_ = packed != 0;
    if (rotary_dim_ < 0 || num_heads_ < 0 || (rotary_dim_ > 0 && num_heads_ == 0)) {
      return ORT_ERROR(kInvalidArgument,
                       "rotary_embedding_dim ({}) and num_heads ({}) must not be negative, and "
                       "rotary_embedding_dim needs num_heads",
                       rotary_dim_, num_heads_);
    }
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* positions, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* cos, context.RequiredInput(2));
    ORT_ASSIGN_OR_RETURN(const Tensor* sin, context.RequiredInput(3));
    const TensorShape& xs = x->shape();
    const TensorShape& cs = cos->shape();
    if (x->dtype() != DataType::kFloat || cos->dtype() != DataType::kFloat ||
        sin->dtype() != DataType::kFloat) {
      return context.Error("input {}, cos_cache {} and sin_cache {} must be float", x->Describe(),
                           cos->Describe(), sin->Describe());
    }
    if (cs.rank() != 2 || sin->shape() != cs) {
      return context.Error("cos_cache {} and sin_cache {} must be one [max_position, W] shape",
                           cos->Describe(), sin->Describe());
    }
    const int64_t rows = cs[0], width = cs[1];
    // The head size: the input's own (4-D), or from the attributes or the caches (3-D).
    int64_t head_size = 0, heads = 0;
    if (xs.rank() == 4) {
      head_size = xs[3];
      heads = xs[1];
    } else if (xs.rank() == 3) {
      head_size = rotary_dim_ > 0 ? (xs[2] % num_heads_ == 0 ? xs[2] / num_heads_ : 0) : 2 * width;
      heads = head_size > 0 && xs[2] % head_size == 0 ? xs[2] / head_size : 0;
    }
    if (heads == 0 || (xs.rank() == 3 && num_heads_ > 0 && heads != num_heads_)) {
      return context.Error(
          "input {} must be [B, N, S, head_size], or [B, S, hidden] split into num_heads ({}) "
          "heads of rotary_embedding_dim > 0 ? hidden / num_heads : 2 * cos_cache width ({})",
          x->Describe(), num_heads_, width);
    }
    const int64_t rotary = rotary_dim_ > 0 ? rotary_dim_ : head_size;
    if (rotary % 2 != 0 || rotary > head_size || (width != head_size / 2 && width != rotary / 2)) {
      return context.Error(
          "rotary_embedding_dim {} must be even and at most head_size {}, and the caches' width "
          "{} head_size / 2 or rotary_embedding_dim / 2",
          rotary, head_size, width);
    }
    auto view = ViewHeads(xs, heads);
    if (!view.ok()) return context.Error("input: {}", view.status().message());
    const int64_t batch = view->batch, tokens = view->tokens;
    if (tokens > rows && !packed_batching_) {
      return context.Error("sequence length {} exceeds the caches' {} rows", tokens, rows);
    }
    ORT_ASSIGN_OR_RETURN(const std::vector<int64_t> ids,
                         Positions(context, *positions, batch, tokens, rows));
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, DataType::kFloat, xs));
    RotateHeads<float>(context.thread_pool(), *view, x->Data<float>(), y->MutableData<float>(),
                       cos->Data<float>(), sin->Data<float>(), ids, width, rotary, interleaved_);
    return Status::OK();
  }

 private:
  // The cache row of every token, [B * S]: position_ids [B, S], or one offset (a scalar or one
  // value) followed by the next S - 1 positions; each must be a row of the caches.
  static Result<std::vector<int64_t>> Positions(const KernelContext& context,
                                                const Tensor& positions, int64_t batch,
                                                int64_t tokens, int64_t rows) {
    const TensorShape& ps = positions.shape();
    const bool offset = ps.NumElements() == 1 && ps.rank() <= 1;
    if (positions.dtype() != DataType::kInt64 || (!offset && ps != TensorShape({batch, tokens}))) {
      return context.Error("position_ids {} must be int64 [{}, {}], or one int64 offset",
                           positions.Describe(), batch, tokens);
    }
    const int64_t* data = positions.Data<int64_t>();
    if (offset && (data[0] < 0 || data[0] > rows - tokens)) {
      return context.Error("position offset {} puts the {} tokens outside the caches' {} rows",
                           data[0], tokens, rows);
    }
    std::vector<int64_t> ids(static_cast<size_t>(batch * tokens));
    for (int64_t i = 0; i < batch * tokens; ++i) {
      const int64_t id = offset ? data[0] + i % tokens : data[i];
      if (id < 0 || id >= rows) {
        return context.Error("position {} (of position_ids {}) is outside the caches' {} rows", id,
                             positions.Describe(), rows);
      }
      ids[static_cast<size_t>(i)] = id;
    }
    return ids;
  }

  bool interleaved_ = false;
  bool packed_batching_ = false;
  int64_t rotary_dim_ = 0;
  int64_t num_heads_ = 0;
};

}  // namespace

void RegisterContribRotaryEmbeddingKernels(KernelRegistry& registry) {
  registry.Add<RotaryEmbedding>(KernelDef("RotaryEmbedding", std::string(kMsDomain))
                                    .Versions(1)
                                    .Input(0, {DataType::kFloat})
                                    .Input(1, {DataType::kInt64})
                                    .HostInput(1));
}

}  // namespace ort
