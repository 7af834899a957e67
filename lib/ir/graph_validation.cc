#include "lib/ir/graph_validation.h"

#include <unordered_set>

namespace ort {
namespace {

bool DefinedInScope(const Graph& graph, const std::string& value) {
  for (const Graph* scope = &graph; scope != nullptr; scope = scope->parent_graph()) {
    if (scope->DefinesValue(value)) return true;
  }
  return false;
}

std::string GraphLabel(const Graph& graph) {
  if (graph.parent_node() == nullptr) return "graph '" + graph.name() + "'";
  return "subgraph '" + graph.name() + "' of " + graph.parent_node()->Describe();
}

}  // namespace

Status ValidateGraph(const Graph& graph) {
  std::unordered_set<std::string> inputs;
  for (const auto& input : graph.inputs()) {
    if (!inputs.insert(input).second) {
      return ORT_ERROR(kInvalidModel, "{}: input '{}' is declared twice", GraphLabel(graph), input);
    }
  }
  for (const Node* node : graph.Nodes()) {
    for (const auto& input : node->inputs()) {
      if (!input.empty() && !DefinedInScope(graph, input)) {
        return ORT_ERROR(kInvalidModel,
                         "{} in {}: input '{}' is not produced by any node, initializer or graph "
                         "input",
                         node->Describe(), GraphLabel(graph), input);
      }
    }
    for (const Graph* subgraph : node->Subgraphs()) ORT_RETURN_IF_ERROR(ValidateGraph(*subgraph));
  }
  for (const auto& output : graph.outputs()) {
    if (output.empty() || !DefinedInScope(graph, output)) {
      return ORT_ERROR(kInvalidModel, "{}: output '{}' is not produced by any node",
                       GraphLabel(graph), output);
    }
  }
  auto order = graph.TopologicalOrder();
  if (!order.ok()) return order.status().WithContext(GraphLabel(graph));
  return Status::OK();
}

}  // namespace ort
