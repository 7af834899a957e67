#include "lib/quantization/graph_edits.h"

#include <algorithm>
#include <map>

namespace ort {

std::string FreshValueName(Graph& graph, const std::string& wanted) {
  const bool taken = graph.DefinesValue(wanted) || !graph.Consumers(wanted).empty() ||
                     graph.FindValueInfo(wanted) != nullptr || graph.IsGraphOutput(wanted);
  return taken ? graph.UniqueValueName(wanted) : wanted;
}

std::string AddDequantizedInitializer(Graph& graph, const std::string& base,
                                      const QuantizedInitializer& quantized, bool with_zero_point) {
  const std::string data = FreshValueName(graph, base + "_quantized");
  graph.AddInitializer(data, quantized.data);
  const std::string scale = FreshValueName(graph, base + "_scale");
  graph.AddInitializer(scale, quantized.scale);
  NodeSpec spec;
  spec.name = graph.UniqueNodeName(base + "_DequantizeLinear");
  spec.op_type = "DequantizeLinear";
  spec.inputs = {data, scale};
  if (with_zero_point) {
    const std::string zero_point = FreshValueName(graph, base + "_zero_point");
    graph.AddInitializer(zero_point, quantized.zero_point);
    spec.inputs.push_back(zero_point);
  }
  const std::string output = FreshValueName(graph, base + "_dequantized");
  spec.outputs = {output};
  if (quantized.axis) spec.attributes.push_back(Attribute::Int("axis", *quantized.axis));
  graph.AddNode(std::move(spec));
  return output;
}

void RemoveUnusedInitializers(Graph& graph, const std::set<std::string>& names) {
  const std::vector<std::string>& inputs = graph.inputs();
  for (const std::string& name : names) {
    if (!graph.Consumers(name).empty() || graph.IsGraphOutput(name) ||
        std::find(inputs.begin(), inputs.end(), name) != inputs.end()) {
      continue;
    }
    graph.RemoveInitializer(name);
    graph.RemoveValueInfo(name);
  }
}

const Tensor* FloatConstant(const Graph& graph, const std::string& name) {
  if (name.empty()) return nullptr;
  const Tensor* tensor = graph.GetConstantInitializer(name, /*search_outer_scope=*/false);
  return tensor != nullptr && tensor->dtype() == DataType::kFloat ? tensor : nullptr;
}

Status CheckExcludedNodes(const Graph& graph, const QuantizeOptions& options) {
  for (const std::string& name : options.excluded_nodes) {
    const auto nodes = graph.Nodes();
    const bool found = std::any_of(nodes.begin(), nodes.end(),
                                   [&](const Node* node) { return node->name() == name; });
    if (!found) {
      return ORT_ERROR(kInvalidArgument,
                       "--exclude-nodes: the model has no node '{}' (after basic optimization)",
                       name);
    }
  }
  return Status::OK();
}

bool Selected(const Node& node, const QuantizeOptions& options) {
  return node.domain().empty() && options.op_types.count(node.op_type()) &&
         !options.excluded_nodes.count(node.name());
}

std::vector<OpTypeCount> CountQuantized(const Graph& graph, const std::set<NodeIndex>& quantized) {
  std::map<std::string, OpTypeCount> counts;
  for (const Node* node : graph.Nodes()) {
    const std::string op_type =
        node->domain().empty() ? node->op_type() : node->domain() + ":" + node->op_type();
    OpTypeCount& count = counts[op_type];
    count.op_type = op_type;
    ++(quantized.count(node->index()) ? count.quantized : count.left_float);
  }
  std::vector<OpTypeCount> sorted;
  for (auto& [op_type, count] : counts) sorted.push_back(std::move(count));
  return sorted;
}

Status CheckOpset(const Graph& graph, int64_t minimum, std::string_view feature) {
  const int64_t opset = graph.OpsetVersion(kOnnxDomain);
  if (opset >= minimum) return Status::OK();
  return ORT_ERROR(kInvalidModel, "{} needs ai.onnx opset {} or newer; the model imports opset {}",
                   feature, minimum, opset);
}

}  // namespace ort
