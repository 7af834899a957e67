// Rule fuse_gelu: the erf form of Gelu, 0.5 * x * (1 + Erf(x / sqrt(2))) with the division written
// as Div by sqrt(2) or Mul by 1/sqrt(2), becomes com.microsoft Gelu(x).
#include <cmath>
#include <numbers>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// BERT exports write sqrt(2) with this float approximation; the tolerance admits it too, but
// onnxruntime checks it by name, so it is kept explicit.
constexpr float kApproximateSqrt2 = 1.4142099618911743f;

struct GeluMatch {
  std::string x;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
};

// x where `scaled` is x / sqrt(2) computed by a node read only by the Erf; else "".
std::string ErfArgument(const Graph& graph, std::string_view scaled,
                        std::vector<const Node*>& nodes) {
  const auto sqrt2 = static_cast<float>(std::numbers::sqrt2);
  if (const Node* div = IntermediateProducer(graph, scaled, "Div")) {
    const auto& inputs = div->inputs();
    if (inputs.size() != 2 || (!IsScalarConstant(graph, inputs[1], sqrt2) &&
                               !IsScalarConstant(graph, inputs[1], kApproximateSqrt2))) {
      return {};
    }
    nodes.push_back(div);
    return inputs[0];
  }
  if (const Node* mul = IntermediateProducer(graph, scaled, "Mul")) {
    for (size_t i = 0; i < 2 && mul->inputs().size() == 2; ++i) {
      if (IsScalarConstant(graph, mul->inputs()[i], 1.0f / sqrt2)) {
        nodes.push_back(mul);
        return mul->inputs()[1 - i];
      }
    }
  }
  return {};
}

std::optional<GeluMatch> FindGelu(const Graph& graph, const Node& erf) {
  GeluMatch match;
  if (!erf.HasInput(0)) return std::nullopt;
  match.x = ErfArgument(graph, erf.inputs()[0], match.nodes);
  if (match.x.empty() || !IsFloatValue(graph, match.x)) return std::nullopt;
  match.nodes.push_back(&erf);
  const Node* add = OnlyConsumer(graph, erf.outputs()[0]);
  if (!IsOnnxOp(add, "Add") || !IsScalarConstant(graph, OtherInput(*add, erf.outputs()[0]), 1.0f)) {
    return std::nullopt;
  }
  match.nodes.push_back(add);
  match.last = MatchHalfXTimes(graph, *add, match.x, match.nodes);
  if (match.last == nullptr) return std::nullopt;
  return match;
}

class FuseGelu final : public RewriteRule {
 public:
  FuseGelu() : RewriteRule("fuse_gelu", {"Erf"}, "", {{std::string(kMsDomain), "Gelu"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindGelu(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const GeluMatch match = *FindGelu(graph, node);
    ReplaceByFusedNode(
        graph, match.nodes,
        {"Gelu", "Gelu", std::string(kMsDomain), {match.x}, {match.last->outputs()[0]}, {}});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseGeluRule() { return std::make_unique<FuseGelu>(); }

}  // namespace ort
