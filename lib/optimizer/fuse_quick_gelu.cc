// Rule fuse_quick_gelu: x * Sigmoid(alpha * x), alpha a scalar constant (SiLU / Swish when
// absent, CLIP's QuickGELU with 1.702), in either operand order, becomes com.microsoft
// QuickGelu(x, alpha): one pass over the tensor instead of two or three (onnxruntime's
// QuickGeluFusion).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

struct QuickGeluMatch {
  std::string x;
  float alpha = 1.0f;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
};

std::optional<QuickGeluMatch> FindQuickGelu(const Graph& graph, const Node& sigmoid) {
  if (!sigmoid.HasInput(0) || sigmoid.outputs().size() != 1) return std::nullopt;
  QuickGeluMatch match;
  match.x = sigmoid.inputs()[0];
  // Sigmoid(alpha * x): the Mul is read by the Sigmoid only.
  if (const Node* scale = IntermediateProducer(graph, match.x, "Mul")) {
    for (size_t i = 0; i < 2 && match.nodes.empty() && scale->inputs().size() == 2; ++i) {
      const auto alpha = ScalarFloatConstant(graph, scale->inputs()[i]);
      if (!alpha) continue;
      match.alpha = *alpha;
      match.x = scale->inputs()[1 - i];
      match.nodes.push_back(scale);
    }
  }
  const Node* product = OnlyConsumer(graph, sigmoid.outputs()[0]);
  if (!IsOnnxOp(product, "Mul") || OtherInput(*product, sigmoid.outputs()[0]) != match.x ||
      !IsFloatValue(graph, match.x)) {
    return std::nullopt;
  }
  match.nodes.insert(match.nodes.end(), {&sigmoid, product});
  match.last = product;
  return match;
}

class FuseQuickGelu final : public RewriteRule {
 public:
  FuseQuickGelu()
      : RewriteRule("fuse_quick_gelu", {"Sigmoid"}, "", {{std::string(kMsDomain), "QuickGelu"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindQuickGelu(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const QuickGeluMatch match = *FindQuickGelu(graph, node);
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Float("alpha", match.alpha));
    ReplaceByFusedNode(graph, match.nodes,
                       {"QuickGelu",
                        "QuickGelu",
                        std::string(kMsDomain),
                        {match.x},
                        {match.last->outputs()[0]},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQuickGeluRule() { return std::make_unique<FuseQuickGelu>(); }

}  // namespace ort
