// Rules fuse_conv_add and fuse_conv_mul: a per-channel constant added to (or multiplying) a
// Conv's output moves into its bias (or its weights and bias).
#include "lib/optimizer/conv_fusion.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class FuseConvElementwise final : public RewriteRule {
 public:
  enum class Kind { kAdd, kMul };

  explicit FuseConvElementwise(Kind kind)
      : RewriteRule(kind == Kind::kAdd ? "fuse_conv_add" : "fuse_conv_mul",
                    {kind == Kind::kAdd ? "Add" : "Mul"}),
        kind_(kind) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return Find(graph, node).conv != nullptr;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const Match match = Find(graph, node);
    Node& conv = *graph.GetNode(match.conv->index());
    ConvParameters parameters = CopyConvParameters(graph, conv);
    const auto channels = static_cast<size_t>(parameters.channels);
    const std::vector<float> ones(channels, 1.0f), zeros(channels, 0.0f);
    if (kind_ == Kind::kAdd) {
      ScaleAndShift(parameters, ones, match.values);
    } else {
      ScaleAndShift(parameters, match.values, zeros);
    }
    SetConvParameters(graph, conv, std::move(parameters.weight), std::move(parameters.bias));
    AbsorbConsumer(graph, conv, node);
    node_removed = true;
    return Status::OK();
  }

 private:
  struct Match {
    const Node* conv = nullptr;
    std::vector<float> values;  // per output channel
  };

  // Either operand may be the Conv; the other must be a per-channel constant.
  static Match Find(const Graph& graph, const Node& node) {
    for (size_t i = 0; i < 2; ++i) {
      const Node* conv = SoleProducer(graph, node, i, "Conv");
      const Tensor* constant = ConstantInput(graph, node, 1 - i);
      if (conv == nullptr || constant == nullptr || !HasConstantFloatWeights(graph, *conv)) {
        continue;
      }
      const Tensor& weight = *ConstantInput(graph, *conv, 1);
      // The Conv's output has the weights' rank: [N, M, spatial...] against [M, C, kernel...].
      auto values = PerChannelValues(*constant, weight.shape()[0], weight.shape().rank());
      if (values) return {conv, std::move(*values)};
    }
    return {};
  }

  Kind kind_;
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseConvAddRule() {
  return std::make_unique<FuseConvElementwise>(FuseConvElementwise::Kind::kAdd);
}

std::unique_ptr<RewriteRule> CreateFuseConvMulRule() {
  return std::make_unique<FuseConvElementwise>(FuseConvElementwise::Kind::kMul);
}

}  // namespace ort
