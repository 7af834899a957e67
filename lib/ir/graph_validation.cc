#include "lib/ir/graph_validation.h"

#include <fmt/ranges.h>

#include <optional>
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

// Every output names a value only this node defines: two definitions would leave readers with
// whichever one the producer index happens to hold.
Status CheckSingleDefinition(const Graph& graph, const Node& node,
                             const std::unordered_set<std::string>& inputs) {
  for (const auto& output : node.outputs()) {
    if (output.empty()) continue;
    const Node* producer = graph.Producer(output);
    std::string other;
    if (producer != &node) {
      other = producer == nullptr ? "no node (the producer index lost it)" : producer->Describe();
    } else if (inputs.count(output) > 0) {
      other = "a graph input";
    } else if (graph.GetInitializer(output) != nullptr) {
      other = "an initializer";
    }
    if (!other.empty()) {
      return Status(StatusCode::kInvalidModel,
                    fmt::format("output '{}' in {} is also defined by {}", output,
                                GraphLabel(graph), other))
          .WithNode(node.Describe());
    }
  }
  return Status::OK();
}

// What `now` lost or changed of `before`; nullopt when it only kept or refined it.
std::optional<std::string> TypeChange(const ValueType& before, const ValueType& now) {
  if (before.kind == ValueType::Kind::kUnknown) return std::nullopt;
  const auto change = [&](std::string_view what) -> std::optional<std::string> {
    return fmt::format("its {} changed: {} before, {} now", what, before.ToString(),
                       now.ToString());
  };
  if (now.kind != before.kind) return change("kind");
  if (!before.IsTensor()) return std::nullopt;
  if (before.elem_type != DataType::kUndefined && now.elem_type != before.elem_type) {
    return change("element type");
  }
  if (!before.shape) return std::nullopt;
  if (!now.shape || now.shape->size() != before.shape->size()) return change("rank");
  for (size_t i = 0; i < before.shape->size(); ++i) {
    if ((*before.shape)[i].IsKnown() && (*now.shape)[i].value != (*before.shape)[i].value) {
      return change(fmt::format("dimension {}", i));
    }
  }
  return std::nullopt;
}

ValueType TypeOf(const Graph& graph, const std::string& name) {
  const ValueInfo* info = graph.FindValueInfo(name);
  return info == nullptr ? ValueType() : info->type;
}

std::vector<std::string> Names(const std::vector<ValueInfo>& values) {
  std::vector<std::string> names;
  for (const ValueInfo& value : values) names.push_back(value.name);
  return names;
}

}  // namespace

Status ValidateGraph(const Graph& graph) {
  std::unordered_set<std::string> inputs;
  for (const auto& input : graph.inputs()) {
    if (!inputs.insert(input).second) {
      return ORT_ERROR(kInvalidModel, "{}: input '{}' is declared twice", GraphLabel(graph), input);
    }
  }
  for (const auto& [name, tensor] : graph.initializers()) {
    const ValueInfo* info = graph.FindValueInfo(name);
    if (info == nullptr || !info->type.IsTensor()) continue;
    ValueType actual = ValueType::Tensor(tensor.dtype(), SymbolicShape());
    for (int64_t dim : tensor.shape().dims()) actual.shape->push_back(Dimension::Known(dim));
    if (TypeChange(info->type, actual)) {
      return ORT_ERROR(kInvalidModel, "{}: initializer '{}' holds {} but its recorded type is {}",
                       GraphLabel(graph), name, tensor.Describe(), info->type.ToString());
    }
  }
  for (const Node* node : graph.Nodes()) {
    for (const auto& input : node->inputs()) {
      if (!input.empty() && !DefinedInScope(graph, input)) {
        return Status(StatusCode::kInvalidModel,
                      fmt::format("input '{}' is not produced by any node, initializer or graph "
                                  "input of {} or its enclosing graphs",
                                  input, GraphLabel(graph)))
            .WithNode(node->Describe());
      }
    }
    ORT_RETURN_IF_ERROR(CheckSingleDefinition(graph, *node, inputs));
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

GraphInterface CaptureInterface(const Graph& graph) {
  GraphInterface interface;
  for (const auto& input : graph.InputsWithoutInitializers()) {
    interface.inputs.push_back({input, TypeOf(graph, input), ""});
  }
  for (const auto& output : graph.outputs()) {
    interface.outputs.push_back({output, TypeOf(graph, output), ""});
  }
  return interface;
}

Status CheckInterface(const Graph& graph, const GraphInterface& before) {
  const GraphInterface now = CaptureInterface(graph);
  const auto names_changed = [&](std::string_view what, const std::vector<ValueInfo>& was,
                                 const std::vector<ValueInfo>& is) {
    return ORT_ERROR(kInvalidModel, "the {} of {} changed from [{}] to [{}]", what,
                     GraphLabel(graph), fmt::join(Names(was), ", "), fmt::join(Names(is), ", "));
  };
  if (Names(now.inputs) != Names(before.inputs)) {
    return names_changed("inputs", before.inputs, now.inputs);
  }
  if (Names(now.outputs) != Names(before.outputs)) {
    return names_changed("outputs", before.outputs, now.outputs);
  }
  for (size_t i = 0; i < before.inputs.size(); ++i) {
    if (auto change = TypeChange(before.inputs[i].type, now.inputs[i].type)) {
      return ORT_ERROR(kInvalidModel, "input '{}' of {}: {}", before.inputs[i].name,
                       GraphLabel(graph), *change);
    }
  }
  for (size_t i = 0; i < before.outputs.size(); ++i) {
    auto change = TypeChange(before.outputs[i].type, now.outputs[i].type);
    if (!change) continue;
    const std::string& name = before.outputs[i].name;
    Status status =
        ORT_ERROR(kInvalidModel, "output '{}' of {}: {}", name, GraphLabel(graph), *change);
    const Node* producer = graph.Producer(name);
    return producer == nullptr ? status : status.WithNode(producer->Describe());
  }
  return Status::OK();
}

}  // namespace ort
