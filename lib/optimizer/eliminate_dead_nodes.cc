// Pass eliminate_dead_nodes: removes nodes none of whose outputs reach a graph output (ONNX ops
// have no side effects), then initializers nothing reads.
#include <algorithm>
#include <unordered_set>

#include "lib/optimizer/passes.h"

namespace ort {
namespace {

class EliminateDeadNodes final : public GraphTransformer {
 public:
  EliminateDeadNodes() : GraphTransformer("eliminate_dead_nodes", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    ORT_ASSIGN_OR_RETURN(std::vector<NodeIndex> order, graph.TopologicalOrder());
    // Consumers come after producers, so one backward sweep sees every dead chain.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Node* node = graph.GetNode(*it);
      if (node == nullptr || IsLive(graph, *node)) continue;
      graph.RemoveNode(node->index());
      changed = true;
    }
    std::unordered_set<std::string> read;
    for (const Node* node : graph.Nodes()) {
      read.insert(node->inputs().begin(), node->inputs().end());
      read.insert(node->implicit_inputs().begin(), node->implicit_inputs().end());
    }
    read.insert(graph.outputs().begin(), graph.outputs().end());
    std::vector<std::string> unused;
    for (const auto& [name, tensor] : graph.initializers()) {
      if (!read.count(name) && !IsGraphInput(graph, name)) unused.push_back(name);
    }
    for (const auto& name : unused) {
      graph.RemoveInitializer(name);
      changed = true;
    }
    return ApplyToSubgraphs(graph, context, changed);
  }

 private:
  static bool IsLive(const Graph& graph, const Node& node) {
    for (const auto& output : node.outputs()) {
      if (output.empty()) continue;
      if (graph.IsGraphOutput(output) || !graph.Consumers(output).empty()) return true;
    }
    return false;
  }

  // An initializer that is also a graph input is an overridable default the caller may feed.
  static bool IsGraphInput(const Graph& graph, const std::string& name) {
    const auto& inputs = graph.inputs();
    return std::find(inputs.begin(), inputs.end(), name) != inputs.end();
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateEliminateDeadNodes() {
  return std::make_unique<EliminateDeadNodes>();
}

}  // namespace ort
