// Pass shape_value_sharing: small integer tensors that symbolic shape inference proves equal
// element by element are one value, so the readers of each later copy read the first one, and
// the nodes computing the copies go: the sequence length read through Shape of a projection's
// slice (nn.MultiheadAttention's k.shape[0]) is the one read through Shape of its input, and the
// slice is no longer kept alive only to have its shape read. Values whose elements are all
// numbers are constant folding's. It runs after the attention fusions, whose mask matchers want
// each layer's own mask chain (Expand to Shape(its scores)), and the level's next iteration
// gives them the blocks it freed.
#include <algorithm>
#include <map>
#include <tuple>

#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// Element type, shape and elements: equal keys are equal values (DimExpr's order is on canonical
// forms, so it compares the expressions themselves, not their spellings).
using SharingKey = std::tuple<DataType, std::vector<DimExpr>, std::vector<DimExpr>>;

// The key of a value whose elements are all known, some of them symbolic; nullopt otherwise.
std::optional<SharingKey> KeyOf(const TensorFacts& facts) {
  if (!facts.values || !facts.shape ||
      std::all_of(facts.values->begin(), facts.values->end(),
                  [](const DimExpr& element) { return element.AsConstant().has_value(); })) {
    return std::nullopt;
  }
  return SharingKey{facts.value_type, *facts.shape, *facts.values};
}

// Removes node `index` when nothing reads its outputs, then the producers that leaves unread.
void RemoveUnused(Graph& graph, NodeIndex index) {
  std::vector<NodeIndex> pending{index};
  while (!pending.empty()) {
    const Node* node = graph.GetNode(pending.back());
    pending.pop_back();
    if (node == nullptr || !node->Subgraphs().empty()) continue;
    const bool unread = std::all_of(
        node->outputs().begin(), node->outputs().end(), [&graph](const std::string& output) {
          return output.empty() ||
                 (!graph.IsGraphOutput(output) && graph.Consumers(output).empty());
        });
    if (!unread) continue;
    const std::vector<std::string> inputs = node->inputs();
    graph.RemoveNode(node->index());
    for (const std::string& input : inputs) {
      if (const Node* producer = input.empty() ? nullptr : graph.Producer(input)) {
        pending.push_back(producer->index());
      }
    }
  }
}

class ShapeValueSharing final : public GraphTransformer {
 public:
  ShapeValueSharing() : GraphTransformer("shape_value_sharing", OptimizationLevel::kExtended) {}

  Status Apply(Graph& graph, const OptimizerContext&, bool& changed) const override {
    // Rewiring a reader to an equal value keeps every value's content: one analysis serves, and
    // its analyses of the subgraphs serve theirs (as in constant folding).
    SymbolicShapes shapes(graph);
    return Share(graph, shapes, changed);
  }

 private:
  static Status Share(Graph& graph, SymbolicShapes& shapes, bool& changed) {
    ORT_ASSIGN_OR_RETURN(const std::vector<NodeIndex> order, graph.TopologicalOrder());
    // The first value in topological order with each key: a reader of a later copy cannot be
    // one of its producers (it comes after the copy, which comes after the first).
    std::map<SharingKey, std::string> first;
    std::vector<NodeIndex> copies;
    for (NodeIndex index : order) {
      const Node& node = *graph.GetNode(index);
      for (const std::string& output : node.outputs()) {
        if (output.empty()) continue;
        auto key = KeyOf(shapes.Facts(output));
        if (!key) continue;
        const auto [it, inserted] = first.emplace(std::move(*key), output);
        if (inserted || graph.IsGraphOutput(output) || graph.Consumers(output).empty()) continue;
        graph.ReplaceAllUses(output, it->second);
        copies.push_back(index);
        changed = true;
      }
    }
    // Only now: a first value whose readers all went to another key's first would be gone.
    for (NodeIndex index : copies) RemoveUnused(graph, index);
    for (Node* node : graph.Nodes()) {
      for (Graph* subgraph : node->Subgraphs()) {
        ORT_RETURN_IF_ERROR(Share(*subgraph, shapes.Subgraph(*subgraph), changed));
      }
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateShapeValueSharing() {
  return std::make_unique<ShapeValueSharing>();
}

}  // namespace ort
