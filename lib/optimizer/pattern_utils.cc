#include "lib/optimizer/pattern_utils.h"

#include <fmt/format.h>

namespace ort {

std::optional<TensorShape> StaticShapeOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type == nullptr || !type->IsTensor() || !type->shape) return std::nullopt;
  return ToConcreteShape(*type->shape);
}

std::optional<DataType> ElementTypeOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type == nullptr || !type->IsTensor() || type->elem_type == DataType::kUndefined) {
    return std::nullopt;
  }
  return type->elem_type;
}

std::optional<std::vector<int64_t>> ConstantInts(const Graph& graph, const Node& node,
                                                 size_t index) {
  if (!node.HasInput(index)) return std::nullopt;
  const Tensor* tensor = graph.GetConstantInitializer(node.inputs()[index], true);
  if (tensor == nullptr) return std::nullopt;
  auto values = ReadInt64Values(*tensor);
  if (!values.ok()) return std::nullopt;
  return std::move(values).value();
}

bool HasSingleConsumer(const Graph& graph, std::string_view value) {
  return !graph.IsGraphOutput(value) && graph.Consumers(value).size() == 1;
}

void BypassNode(Graph& graph, Node& node) {
  graph.ReplaceAllUses(node.outputs()[0], node.inputs()[0]);
  graph.RemoveNode(node.index());
}

const Tensor* ConstantInput(const Graph& graph, const Node& node, size_t index) {
  if (!node.HasInput(index)) return nullptr;
  return graph.GetConstantInitializer(node.inputs()[index], true);
}

const Node* SoleProducer(const Graph& graph, const Node& node, size_t index,
                         std::string_view op_type) {
  if (!node.HasInput(index)) return nullptr;
  const Node* producer = graph.Producer(node.inputs()[index]);
  if (producer == nullptr || producer->op_type() != op_type || !producer->domain().empty()) {
    return nullptr;
  }
  const std::string& value = node.inputs()[index];
  if (!HasSingleConsumer(graph, value) || producer->outputs()[0] != value) return nullptr;
  // Reading the value twice (Add(x, x)) leaves no single other operand to fold.
  int reads = 0;
  for (const auto& input : node.inputs()) reads += input == value ? 1 : 0;
  return reads == 1 ? producer : nullptr;
}

void AbsorbConsumer(Graph& graph, Node& producer, Node& consumer) {
  const std::string output = consumer.outputs()[0];
  graph.RemoveNode(consumer.index());
  graph.SetNodeOutput(producer, 0, output);
}

std::vector<int64_t> IntsAttributeOr(const Node& node, std::string_view name,
                                     std::vector<int64_t> fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr ? attribute->ints : fallback;
}

float FloatAttribute(const Node& node, std::string_view name, float fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr ? attribute->f : fallback;
}

bool HasConstantFloatWeights(const Graph& graph, const Node& conv) {
  const Tensor* weight = ConstantInput(graph, conv, 1);
  if (weight == nullptr || weight->dtype() != DataType::kFloat || weight->shape().rank() < 3) {
    return false;
  }
  if (!conv.HasInput(2)) return true;
  const Tensor* bias = ConstantInput(graph, conv, 2);
  return bias != nullptr && bias->dtype() == DataType::kFloat &&
         bias->NumElements() == weight->shape()[0];
}

std::optional<std::vector<float>> PerChannelValues(const Tensor& constant, int64_t channels,
                                                   size_t rank) {
  if (constant.dtype() != DataType::kFloat || constant.shape().rank() > rank) return std::nullopt;
  const auto& dims = constant.shape().dims();
  const size_t offset = rank - dims.size();  // numpy aligns shapes on the right
  for (size_t j = 0; j < dims.size(); ++j) {
    const bool channel_axis = j + offset == 1;
    if (dims[j] != 1 && !(channel_axis && dims[j] == channels)) return std::nullopt;
  }
  const float* data = constant.Data<float>();
  if (constant.NumElements() == 1)
    return std::vector<float>(static_cast<size_t>(channels), data[0]);
  return std::vector<float>(data, data + channels);
}

void SetConvParameters(Graph& graph, Node& conv, Tensor weight, Tensor bias) {
  const std::string base = conv.inputs()[1];
  const std::string weight_name = graph.UniqueValueName(fmt::format("{}_fused", base));
  graph.AddInitializer(weight_name, std::move(weight));
  const std::string bias_name = graph.UniqueValueName(fmt::format("{}_fused_bias", base));
  graph.AddInitializer(bias_name, std::move(bias));
  graph.SetNodeInput(conv, 1, weight_name);
  graph.SetNodeInput(conv, 2, bias_name);
}

}  // namespace ort
