// RotaryEmbedding (opset 23): rotates the first rotary_embedding_dim channels of each head
// (all of them when 0) by the angles of the token's position. X is [B, heads, S, head_size] or
// [B, S, heads * head_size] (num_heads given); cos/sin caches are [B, S, rot / 2], or
// [max_position, rot / 2] rows picked by position_ids[B, S]. Pairs are (i, i + rot / 2), or
// (2i, 2i + 1) when interleaved: (x1, x2) -> (cos x1 - sin x2, sin x1 + cos x2).
#include "providers/cpu/kernels/common/elementwise.h"
#include "providers/cpu/kernels/common/head_view.h"
#include "providers/cpu/kernels/common/rotary.h"
#include "providers/cpu/kernels/onnx/nn/nn_kernels.h"

namespace ort {
namespace {

class RotaryEmbedding final : public OpKernel {
 public:
  Status Init(const KernelInfo& info) override {
    ORT_ASSIGN_OR_RETURN(const int64_t interleaved, info.GetAttributeOr<int64_t>("interleaved", 0));
    interleaved_ = interleaved != 0;
    ORT_ASSIGN_OR_RETURN(rotary_dim_, info.GetAttributeOr<int64_t>("rotary_embedding_dim", 0));
    ORT_ASSIGN_OR_RETURN(num_heads_, info.GetAttributeOr<int64_t>("num_heads", 0));
    return Status::OK();
  }

  Status Compute(KernelContext& context) const override {
    ORT_ASSIGN_OR_RETURN(const Tensor* x, context.RequiredInput(0));
    ORT_ASSIGN_OR_RETURN(const Tensor* cos, context.RequiredInput(1));
    ORT_ASSIGN_OR_RETURN(const Tensor* sin, context.RequiredInput(2));
    const Tensor* positions = context.Input(3);
    const TensorShape& xs = x->shape();
    auto view = ViewHeads(xs, num_heads_);
    if (!view.ok()) return context.Error("X: {}", view.status().message());
    const int64_t batch = view->batch, tokens = view->tokens;
    const int64_t head_size = view->head_size;
    const int64_t rot = rotary_dim_ == 0 ? head_size : rotary_dim_;
    if (rot % 2 != 0 || rot > head_size) {
      return context.Error("rotary_embedding_dim {} must be even and at most head_size {}", rot,
                           head_size);
    }
    const int64_t half = rot / 2;
    const bool cache_by_position = positions != nullptr;
    const TensorShape& cs = cos->shape();
    const bool cache_ok =
        cs == sin->shape() && cs.rank() > 0 && cs[cs.rank() - 1] == half &&
        (cache_by_position ? cs.rank() == 2 : cs.rank() == 3 && cs[0] == batch && cs[1] == tokens);
    if (!cache_ok) {
      return context.Error(
          "cos {} and sin {} must be {} with last axis rotary_embedding_dim / 2 "
          "= {}",
          cos->Describe(), sin->Describe(),
          cache_by_position ? "[max_position, rot / 2]" : "[B, S, rot / 2]", half);
    }
    std::vector<int64_t> rows(static_cast<size_t>(batch * tokens));
    for (int64_t i = 0; i < batch * tokens; ++i) rows[i] = i;
    if (cache_by_position) {
      if (positions->shape() != TensorShape({batch, tokens})) {
        return context.Error("position_ids {} must be [{}, {}]", positions->Describe(), batch,
                             tokens);
      }
      auto read = ReadInt64Values(*positions);
      if (!read.ok()) return context.Error("position_ids: {}", read.status().message());
      rows = std::move(read).value();
      for (int64_t row : rows) {
        if (row < 0 || row >= cs[0]) {
          return context.Error("position id {} is outside the cache of {} rows", row, cs[0]);
        }
      }
    }
    if (cos->dtype() != x->dtype() || sin->dtype() != x->dtype()) {
      return context.Error("cos and sin must have X's type {}", DataTypeName(x->dtype()));
    }
    ORT_ASSIGN_OR_RETURN(Tensor * y, context.Output(0, x->dtype(), xs));
    return DispatchByType<FloatTypes>(x->dtype(), "RotaryEmbedding", [&]<typename T>() {
      RotateHeads<ComputeType<T>>(context.thread_pool(), *view, x->Data<T>(), y->MutableData<T>(),
                                  cos->Data<T>(), sin->Data<T>(), rows, half, rot, interleaved_);
      return Status::OK();
    });
  }

 private:
  bool interleaved_ = false;
  int64_t rotary_dim_ = 0;
  int64_t num_heads_ = 0;
};

}  // namespace

void RegisterRotaryEmbeddingKernels(KernelRegistry& registry) {
  registry.Add<RotaryEmbedding>(KernelDef("RotaryEmbedding")
                                    .Versions(23)
                                    .Input(0, FloatTypes::DataTypes())
                                    .Input(3, {DataType::kInt64})
                                    .HostInput(3));
}

}  // namespace ort
