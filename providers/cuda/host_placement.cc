#include "providers/cuda/host_placement.h"

namespace ort {
namespace {

bool IsIntegerValue(const Graph& graph, const std::string& value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type == nullptr || !type->IsTensor() || type->elem_type == DataType::kInt64 ||
         type->elem_type == DataType::kInt32 || type->elem_type == DataType::kUndefined;
}

// True when every reader of `value` reads it on the host, and there is at least one.
bool ReadOnlyOnHost(const Graph& graph, const KernelRegistry& registry,
                    const std::set<NodeIndex>& device, const std::string& value) {
  const std::vector<const Node*> readers = graph.Consumers(value);
  if (readers.empty()) return false;
  for (const Node* reader : readers) {
    if (device.count(reader->index()) == 0) continue;
    const KernelEntry* entry = registry.Find(*reader);
    if (entry == nullptr) return false;
    const auto& inputs = reader->inputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const int index = static_cast<int>(i);
      if (inputs[i] == value && !entry->def.IsHostInput(index) &&
          !entry->def.IsShapeOnlyInput(index)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::set<NodeIndex> ShapeArithmeticNodes(const Graph& graph) {
  std::set<std::string> shape_values;
  std::set<NodeIndex> host_nodes;
  auto order = graph.TopologicalOrder();
  if (!order.ok()) return host_nodes;
  for (NodeIndex index : *order) {
    const Node& node = *graph.GetNode(index);
    bool shape_arithmetic =
        node.domain().empty() && (node.op_type() == "Shape" || node.op_type() == "Size");
    if (!shape_arithmetic) {
      bool reads_shape = false, only_shapes = true;
      for (const auto& input : node.inputs()) {
        if (input.empty()) continue;
        const bool shape = shape_values.count(input) > 0;
        const bool constant =
            graph.GetConstantInitializer(input, true) != nullptr && IsIntegerValue(graph, input);
        reads_shape = reads_shape || shape;
        only_shapes = only_shapes && (shape || constant);
      }
      shape_arithmetic = reads_shape && only_shapes && node.Subgraphs().empty();
      for (const auto& output : node.outputs()) {
        shape_arithmetic = shape_arithmetic && (output.empty() || IsIntegerValue(graph, output));
      }
    }
    if (!shape_arithmetic) continue;
    host_nodes.insert(index);
    for (const auto& output : node.outputs()) {
      if (!output.empty()) shape_values.insert(output);
    }
  }
  return host_nodes;
}

void KeepHostOnlyNodesOnHost(const Graph& graph, const KernelRegistry& registry,
                             std::set<NodeIndex>& device) {
  bool moved = true;
  while (moved) {
    moved = false;
    for (auto it = device.begin(); it != device.end();) {
      const Node& node = *graph.GetNode(*it);
      bool host = node.Subgraphs().empty();
      for (const auto& input : node.inputs()) {
        const Node* producer = input.empty() ? nullptr : graph.Producer(input);
        host = host && (producer == nullptr || device.count(producer->index()) == 0);
      }
      for (const auto& output : node.outputs()) {
        host = host && (output.empty() || ReadOnlyOnHost(graph, registry, device, output));
      }
      if (host) {
        it = device.erase(it);
        moved = true;
      } else {
        ++it;
      }
    }
  }
}

}  // namespace ort
