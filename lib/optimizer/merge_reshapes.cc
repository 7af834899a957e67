// Rule merge_reshapes: Reshape(Reshape(x, s1), s2) reads x directly when s2 is a constant that
// does not copy dimensions from its input (no 0 entries).
#include <algorithm>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class MergeReshapes final : public RewriteRule {
 public:
  MergeReshapes() : RewriteRule("merge_reshapes", {"Reshape"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (!node.HasInput(0) || graph.OpsetVersion("") < 5) return false;
    const Node* first = graph.Producer(node.inputs()[0]);
    if (first == nullptr || first->op_type() != "Reshape" || !first->domain().empty()) {
      return false;
    }
    const auto shape = ConstantInts(graph, node, 1);
    return shape && std::find(shape->begin(), shape->end(), 0) == shape->end();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    (void)node_removed;
    const Node& first = *graph.Producer(node.inputs()[0]);
    // The first Reshape may still feed others; dead-node elimination removes it otherwise.
    graph.SetNodeInput(node, 0, first.inputs()[0]);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateMergeReshapesRule() { return std::make_unique<MergeReshapes>(); }

}  // namespace ort
