// Removes Identity nodes, and Dropout nodes (inference: an identity whose mask output is unused),
// by making their consumers read the input directly.
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

class EliminateIdentity final : public GraphTransformer {
 public:
  EliminateIdentity() : GraphTransformer("eliminate_identity", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    for (Node* node : graph.Nodes()) {
      if (!IsRemovable(graph, *node)) continue;
      graph.ReplaceAllUses(node->outputs()[0], node->inputs()[0]);
      graph.RemoveNode(node->index());
      changed = true;
    }
    return ApplyToSubgraphs(graph, context, changed);
  }

 private:
  static bool IsRemovable(const Graph& graph, const Node& node) {
    if (!node.domain().empty() || node.inputs().empty() || !node.HasInput(0)) return false;
    if (node.op_type() == "Dropout") {
      // The mask output must be unused, and training_mode (opset 12+) must not be fed.
      if (node.HasOutput(1) || node.HasInput(2)) return false;
    } else if (node.op_type() != "Identity") {
      return false;
    }
    if (!node.HasOutput(0)) return false;
    // A graph output keeps its name: the node stays when it defines one.
    return !graph.IsGraphOutput(node.outputs()[0]);
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateEliminateIdentity() {
  return std::make_unique<EliminateIdentity>();
}

}  // namespace ort
