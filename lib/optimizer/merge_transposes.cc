// Rule merge_transposes: Transpose(Transpose(x, p1), p2) becomes one Transpose(x, p1 then p2),
// or nothing when the composition is the identity.
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class MergeTransposes final : public RewriteRule {
 public:
  MergeTransposes() : RewriteRule("merge_transposes", {"Transpose"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (!node.HasInput(0) || node.FindAttribute("perm") == nullptr) return false;
    const Node* first = graph.Producer(node.inputs()[0]);
    return first != nullptr && first->op_type() == "Transpose" && first->domain().empty() &&
           first->FindAttribute("perm") != nullptr &&
           first->FindAttribute("perm")->ints.size() == node.FindAttribute("perm")->ints.size();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    Node& first = *graph.Producer(node.inputs()[0]);
    const std::vector<int64_t>& inner = first.FindAttribute("perm")->ints;
    const std::vector<int64_t>& outer = node.FindAttribute("perm")->ints;
    // Output axis i of the pair is axis outer[i] of the first's output, i.e. inner[outer[i]].
    std::vector<int64_t> combined(outer.size());
    bool identity = true;
    for (size_t i = 0; i < outer.size(); ++i) {
      if (outer[i] < 0 || outer[i] >= static_cast<int64_t>(inner.size())) {
        return ORT_ERROR(kInvalidModel, "perm {} is out of range", outer[i])
            .WithNode(node.Describe());
      }
      combined[i] = inner[static_cast<size_t>(outer[i])];
      identity = identity && combined[i] == static_cast<int64_t>(i);
    }
    const std::string source = first.inputs()[0];
    graph.SetNodeInput(node, 0, source);
    node.SetAttribute(Attribute::Ints("perm", combined));
    // The first Transpose may still feed others; dead-node elimination removes it otherwise.
    if (identity && !graph.IsGraphOutput(node.outputs()[0])) {
      BypassNode(graph, node);
      node_removed = true;
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateMergeTransposesRule() {
  return std::make_unique<MergeTransposes>();
}

}  // namespace ort
