// Rule eliminate_identity: Identity, and Dropout that passes its input through (in inference, or
// with a constant ratio of 0; its mask unused), are removed and their consumers read the input
// directly.
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// True when input `index` of `node` is a one-element constant equal to zero (false for bool).
bool IsZeroConstant(const Graph& graph, const Node& node, size_t index) {
  const Tensor* constant = ConstantInput(graph, node, index);
  if (constant == nullptr || constant->shape().NumElements() != 1) return false;
  switch (constant->dtype()) {
    case DataType::kBool:
      return !constant->Data<bool>()[0];
    case DataType::kFloat:
      return constant->Data<float>()[0] == 0.0f;
    case DataType::kDouble:
      return constant->Data<double>()[0] == 0.0;
    default:
      return false;
  }
}

// Dropout's output equals its input unless training_mode (opset 12+) may be true and the ratio
// (0.5 when absent) may be nonzero; exporters feed training_mode = true with ratio 0 when a
// model's dropout probability is 0, which is a pass-through as well.
bool DropoutPassesThrough(const Graph& graph, const Node& dropout) {
  if (dropout.HasOutput(1)) {
    const std::string& mask = dropout.outputs()[1];
    if (graph.IsGraphOutput(mask) || !graph.Consumers(mask).empty()) return false;
  }
  if (!dropout.HasInput(2) || IsZeroConstant(graph, dropout, 2)) return true;
  return dropout.HasInput(1) && IsZeroConstant(graph, dropout, 1);
}

class EliminateIdentity final : public RewriteRule {
 public:
  EliminateIdentity() : RewriteRule("eliminate_identity", {"Identity", "Dropout"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (node.inputs().empty() || !node.HasInput(0) || !node.HasOutput(0)) return false;
    if (node.op_type() == "Dropout" && !DropoutPassesThrough(graph, node)) return false;
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
