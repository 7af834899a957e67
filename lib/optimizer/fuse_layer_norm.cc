// Rule fuse_layer_norm: (x - ReduceMean(x)) / Sqrt(ReduceMean((x - mean)^2) + eps) * gamma + beta,
// both means over the last axis, becomes LayerNormalization(x, gamma, beta) with axis -1. It is
// written in ai.onnx, where onnxruntime also serves it below opset 17 as a contrib op.
#include <algorithm>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

struct LayerNormMatch {
  std::string x, scale, bias;
  float epsilon = 0;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
};

std::optional<LayerNormMatch> FindLayerNorm(const Graph& graph, const Node& mean) {
  LayerNormMatch match;
  if (!mean.HasInput(0)) return std::nullopt;
  match.x = mean.inputs()[0];
  // The rank may be unknown (shapes computed at run time); a mean over axis -1 still fuses.
  const auto rank = RankOf(graph, match.x);
  if (!IsFloatValue(graph, match.x) || rank == size_t{0} ||
      !ReducesLastAxisKept(graph, mean, rank)) {
    return std::nullopt;
  }
  const std::string& centre = mean.outputs()[0];
  if (graph.IsGraphOutput(centre)) return std::nullopt;
  match.nodes.push_back(&mean);

  // Older PyTorch exports compute x - mean twice, once for the variance and once for the Div.
  const Node* pow = nullptr;
  const Node* div = nullptr;
  const std::vector<const Node*> subs = graph.Consumers(centre);
  if (subs.empty() || subs.size() > 2) return std::nullopt;
  for (const Node* sub : subs) {
    if (!IsOnnxOp(sub, "Sub") || sub->inputs().size() != 2 || sub->inputs()[0] != match.x ||
        sub->inputs()[1] != centre || graph.IsGraphOutput(sub->outputs()[0])) {
      return std::nullopt;
    }
    for (const Node* reader : graph.Consumers(sub->outputs()[0])) {
      if (IsOnnxOp(reader, "Pow") && pow == nullptr && reader->inputs()[0] == sub->outputs()[0]) {
        pow = reader;
      } else if (IsOnnxOp(reader, "Div") && div == nullptr &&
                 reader->inputs()[0] == sub->outputs()[0]) {
        div = reader;
      } else {
        return std::nullopt;
      }
    }
    match.nodes.push_back(sub);
  }
  if (pow == nullptr || div == nullptr || pow->inputs().size() != 2 ||
      !IsScalarConstant(graph, pow->inputs()[1], 2.0f)) {
    return std::nullopt;
  }
  const Node* variance = OnlyReaderOp(graph, pow->outputs()[0], "ReduceMean");
  if (variance == nullptr || !ReducesLastAxisKept(graph, *variance, rank)) return std::nullopt;
  const Node* add_epsilon = OnlyReaderOp(graph, variance->outputs()[0], "Add");
  if (add_epsilon == nullptr) return std::nullopt;
  const auto epsilon = ScalarFloatConstant(graph, OtherInput(*add_epsilon, variance->outputs()[0]));
  const Node* sqrt = OnlyReaderOp(graph, add_epsilon->outputs()[0], "Sqrt");
  if (!epsilon || sqrt == nullptr || OnlyConsumer(graph, sqrt->outputs()[0]) != div ||
      div->inputs()[1] != sqrt->outputs()[0] || graph.IsGraphOutput(div->outputs()[0])) {
    return std::nullopt;
  }
  match.epsilon = *epsilon;
  const Node* mul = OnlyReaderOp(graph, div->outputs()[0], "Mul");
  const Node* add = mul == nullptr ? nullptr : OnlyReaderOp(graph, mul->outputs()[0], "Add");
  if (add == nullptr) return std::nullopt;
  match.scale = OtherInput(*mul, div->outputs()[0]);
  match.bias = OtherInput(*add, mul->outputs()[0]);
  const auto scale_length = NormParameterLength(graph, match.scale);
  const auto bias_length = NormParameterLength(graph, match.bias);
  if (!scale_length || scale_length != bias_length) return std::nullopt;
  const ValueType* x_type = graph.FindTypeInScope(match.x);
  if (x_type->shape && x_type->shape->back().IsKnown() &&
      x_type->shape->back().value != *scale_length) {
    return std::nullopt;
  }
  match.nodes.insert(match.nodes.end(), {pow, variance, add_epsilon, sqrt, div, mul, add});
  match.last = add;
  return match;
}

class FuseLayerNorm final : public RewriteRule {
 public:
  FuseLayerNorm()
      : RewriteRule("fuse_layer_norm", {"ReduceMean"}, "", {{"", "LayerNormalization"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindLayerNorm(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const LayerNormMatch match = *FindLayerNorm(graph, node);
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("axis", -1));
    attributes.push_back(Attribute::Float("epsilon", match.epsilon));
    ReplaceByFusedNode(graph, match.nodes,
                       {"LayerNormalization",
                        "LayerNormalization",
                        "",
                        {match.x, match.scale, match.bias},
                        {match.last->outputs()[0]},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseLayerNormRule() { return std::make_unique<FuseLayerNorm>(); }

}  // namespace ort
