// Rule eliminate_unsqueeze_squeeze: Squeeze(Unsqueeze(x, axes), axes) is x.
#include <algorithm>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// The axes of an Unsqueeze or Squeeze (an attribute before opset 13, an input since), made
// non-negative against `rank` when known; nullopt when not constant or not normalizable.
std::optional<std::vector<int64_t>> Axes(const Graph& graph, const Node& node,
                                         std::optional<size_t> rank) {
  std::optional<std::vector<int64_t>> axes;
  if (graph.OpsetVersion("") < 13) {
    if (const Attribute* attribute = node.FindAttribute("axes")) axes = attribute->ints;
  } else {
    axes = ConstantInts(graph, node, 1);
  }
  if (!axes || axes->empty()) return std::nullopt;
  for (int64_t& axis : *axes) {
    if (axis >= 0) continue;
    if (!rank) return std::nullopt;
    axis += static_cast<int64_t>(*rank);
  }
  std::sort(axes->begin(), axes->end());
  return axes;
}

class EliminateUnsqueezeSqueeze final : public RewriteRule {
 public:
  EliminateUnsqueezeSqueeze() : RewriteRule("eliminate_unsqueeze_squeeze", {"Squeeze"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (!node.HasInput(0) || !node.HasOutput(0) || graph.IsGraphOutput(node.outputs()[0])) {
      return false;
    }
    const Node* unsqueeze = graph.Producer(node.inputs()[0]);
    if (unsqueeze == nullptr || unsqueeze->op_type() != "Unsqueeze" ||
        !unsqueeze->domain().empty() || !unsqueeze->HasInput(0)) {
      return false;
    }
    // Both sets of axes index the unsqueezed tensor.
    std::optional<size_t> rank;
    const ValueType* type = graph.FindTypeInScope(node.inputs()[0]);
    if (type != nullptr && type->IsTensor() && type->shape) rank = type->shape->size();
    const auto added = Axes(graph, *unsqueeze, rank);
    const auto removed = Axes(graph, node, rank);
    return added && removed && *added == *removed;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const std::string source = graph.Producer(node.inputs()[0])->inputs()[0];
    graph.ReplaceAllUses(node.outputs()[0], source);
    graph.RemoveNode(node.index());
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateEliminateUnsqueezeSqueezeRule() {
  return std::make_unique<EliminateUnsqueezeSqueeze>();
}

}  // namespace ort
