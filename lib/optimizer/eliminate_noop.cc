// Rule eliminate_noop: removes Cast to the input's own type, and Reshape, Expand, Transpose
// (identity permutation) and Slice (unit steps) whose static output shape equals the input's.
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class EliminateNoop final : public RewriteRule {
 public:
  EliminateNoop()
      : RewriteRule("eliminate_noop", {"Cast", "Reshape", "Expand", "Transpose", "Slice"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (!node.HasInput(0) || !node.HasOutput(0) || graph.IsGraphOutput(node.outputs()[0])) {
      return false;
    }
    const std::string& op = node.op_type();
    const std::string& input = node.inputs()[0];
    if (op == "Cast") {
      const Attribute* to = node.FindAttribute("to");
      const auto type = ElementTypeOf(graph, input);
      return to != nullptr && type && static_cast<int64_t>(*type) == to->i;
    }
    const auto in_shape = StaticShapeOf(graph, input);
    const auto out_shape = StaticShapeOf(graph, node.outputs()[0]);
    if (!in_shape || !out_shape || !(*in_shape == *out_shape)) return false;
    if (op == "Transpose") {
      // Equal shapes do not make a permutation the identity ([2,2] swapped is still [2,2]).
      const Attribute* perm = node.FindAttribute("perm");
      if (perm == nullptr) return in_shape->rank() <= 1;
      for (size_t i = 0; i < perm->ints.size(); ++i) {
        if (perm->ints[i] != static_cast<int64_t>(i)) return false;
      }
      return true;
    }
    if (op == "Slice") {
      // Same shape with unit steps selects everything; steps of -1 would reverse it.
      if (graph.OpsetVersion("") < 10) return true;
      if (!node.HasInput(4)) return true;
      const auto steps = ConstantInts(graph, node, 4);
      if (!steps) return false;
      for (int64_t step : *steps) {
        if (step != 1) return false;
      }
      return true;
    }
    return true;  // Reshape, Expand: same shape, same elements in the same order
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    BypassNode(graph, node);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateEliminateNoopRule() { return std::make_unique<EliminateNoop>(); }

}  // namespace ort
