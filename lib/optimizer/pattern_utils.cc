#include "lib/optimizer/pattern_utils.h"

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

}  // namespace ort
