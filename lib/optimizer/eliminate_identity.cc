// Rule eliminate_identity: Identity, and Dropout in inference (its mask unused), are removed and
// their consumers read the input directly.
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

class EliminateIdentity final : public RewriteRule {
 public:
  EliminateIdentity() : RewriteRule("eliminate_identity", {"Identity", "Dropout"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (node.inputs().empty() || !node.HasInput(0) || !node.HasOutput(0)) return false;
    // The mask output must be unused, and training_mode (opset 12+) must not be fed.
    if (node.op_type() == "Dropout" && (node.HasOutput(1) || node.HasInput(2))) return false;
    // A graph output keeps its name: the node stays when it defines one.
    return !graph.IsGraphOutput(node.outputs()[0]);
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    graph.ReplaceAllUses(node.outputs()[0], node.inputs()[0]);
    graph.RemoveNode(node.index());
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateEliminateIdentityRule() {
  return std::make_unique<EliminateIdentity>();
}

}  // namespace ort
