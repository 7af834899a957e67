#include "lib/optimizer/fusion_patterns.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lib/optimizer/pattern_utils.h"

namespace ort {

bool IsFloatValue(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->IsTensor() && type->elem_type == DataType::kFloat;
}

std::optional<float> ScalarFloatConstant(const Graph& graph, std::string_view value) {
  if (value.empty()) return std::nullopt;
  const Tensor* tensor = graph.GetConstantInitializer(value, true);
  if (tensor == nullptr || tensor->dtype() != DataType::kFloat || tensor->NumElements() != 1 ||
      tensor->shape().rank() > 1) {
    return std::nullopt;
  }
  return tensor->Data<float>()[0];
}

bool IsScalarConstant(const Graph& graph, std::string_view value, float expected) {
  const std::optional<float> actual = ScalarFloatConstant(graph, value);
  return actual && std::abs(*actual - expected) <= 1e-8f + 1e-5f * std::abs(expected);
}

bool IsOnnxOp(const Node* node, std::string_view op_type) {
  return node != nullptr && node->op_type() == op_type && node->domain().empty();
}

std::string OtherInput(const Node& node, std::string_view value) {
  const auto& inputs = node.inputs();
  if (inputs.size() != 2 || inputs[0].empty() || inputs[1].empty()) return {};
  if (inputs[0] == value && inputs[1] != value) return inputs[1];
  if (inputs[1] == value && inputs[0] != value) return inputs[0];
  return {};
}

const Node* OnlyConsumer(const Graph& graph, std::string_view value) {
  if (graph.IsGraphOutput(value)) return nullptr;
  const std::vector<const Node*> consumers = graph.Consumers(value);
  if (consumers.size() != 1) return nullptr;
  int reads = 0;
  for (const auto& input : consumers[0]->inputs()) reads += input == value ? 1 : 0;
  return reads == 1 ? consumers[0] : nullptr;
}

const Node* IntermediateProducer(const Graph& graph, std::string_view value,
                                 std::string_view op_type) {
  const Node* producer = graph.Producer(value);
  if (!IsOnnxOp(producer, op_type) || producer->outputs()[0] != value) return nullptr;
  return OnlyConsumer(graph, value) != nullptr ? producer : nullptr;
}

const Node* OnlyReaderOp(const Graph& graph, std::string_view value, std::string_view op_type) {
  const Node* next = OnlyConsumer(graph, value);
  return IsOnnxOp(next, op_type) ? next : nullptr;
}

bool ReducesLastAxisKept(const Graph& graph, const Node& mean, std::optional<size_t> rank) {
  const Attribute* keepdims = mean.FindAttribute("keepdims");
  if (keepdims != nullptr && keepdims->i == 0) return false;
  std::optional<std::vector<int64_t>> axes;
  if (graph.OpsetVersion("") < 18) {
    if (const Attribute* attribute = mean.FindAttribute("axes")) axes = attribute->ints;
  } else {
    axes = ConstantInts(graph, mean, 1);
  }
  if (!axes || axes->size() != 1) return false;
  return (*axes)[0] == -1 || (rank && (*axes)[0] == static_cast<int64_t>(*rank) - 1);
}

std::optional<int64_t> NormParameterLength(const Graph& graph, std::string_view value) {
  if (value.empty() || !IsFloatValue(graph, value)) return std::nullopt;
  const auto shape = StaticShapeOf(graph, value);
  if (!shape || shape->rank() != 1) return std::nullopt;
  const auto& inputs = graph.inputs();
  if (graph.GetConstantInitializer(value, true) == nullptr &&
      std::find(inputs.begin(), inputs.end(), value) == inputs.end()) {
    return std::nullopt;
  }
  return (*shape)[0];
}

std::optional<size_t> RankOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type == nullptr || !type->IsTensor() || !type->shape) return std::nullopt;
  return type->shape->size();
}

std::optional<int64_t> LastDimension(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type != nullptr && type->IsTensor() && type->shape && !type->shape->empty()) {
    const Dimension& last = type->shape->back();
    if (last.IsKnown()) return last.value;
  }
  const Node* matmul = graph.Producer(value);
  if (!IsOnnxOp(matmul, "MatMul") || matmul->inputs().size() != 2) return std::nullopt;
  const Tensor* weight = graph.GetConstantInitializer(matmul->inputs()[1], true);
  if (weight == nullptr || weight->shape().rank() < 2) return std::nullopt;
  return weight->shape().dims().back();
}

namespace {

bool SameDimension(const Dimension& a, const Dimension& b) {
  if (a.IsKnown() || b.IsKnown()) return a.value == b.value;
  return !a.param.empty() && a.param == b.param;
}

const SymbolicShape* TensorShapeOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->IsTensor() && type->shape ? &*type->shape : nullptr;
}

}  // namespace

bool ProvablySameShape(const Graph& graph, std::string_view a, std::string_view b) {
  const SymbolicShape* shape_a = TensorShapeOf(graph, a);
  const SymbolicShape* shape_b = TensorShapeOf(graph, b);
  if (shape_a == nullptr || shape_b == nullptr || shape_a->size() != shape_b->size()) return false;
  for (size_t i = 0; i < shape_a->size(); ++i) {
    if (!SameDimension((*shape_a)[i], (*shape_b)[i])) return false;
  }
  return true;
}

std::optional<int64_t> KnownDimension(const Graph& graph, std::string_view value, int64_t axis) {
  const SymbolicShape* shape = TensorShapeOf(graph, value);
  if (shape == nullptr || axis < 0 || axis >= static_cast<int64_t>(shape->size())) {
    return std::nullopt;
  }
  const Dimension& dim = (*shape)[static_cast<size_t>(axis)];
  return dim.IsKnown() ? std::optional<int64_t>(dim.value) : std::nullopt;
}

bool ProvablySameDimension(const Graph& graph, std::string_view a, int64_t axis_a,
                           std::string_view b, int64_t axis_b) {
  const SymbolicShape* shape_a = TensorShapeOf(graph, a);
  const SymbolicShape* shape_b = TensorShapeOf(graph, b);
  const auto in_range = [](const SymbolicShape* shape, int64_t axis) {
    return shape != nullptr && axis >= 0 && axis < static_cast<int64_t>(shape->size());
  };
  return in_range(shape_a, axis_a) && in_range(shape_b, axis_b) &&
         SameDimension((*shape_a)[static_cast<size_t>(axis_a)],
                       (*shape_b)[static_cast<size_t>(axis_b)]);
}

const Node* MatchHalfXTimes(const Graph& graph, const Node& one_plus, std::string_view x,
                            std::vector<const Node*>& nodes) {
  const std::string& sum = one_plus.outputs()[0];
  const Node* mul = OnlyConsumer(graph, sum);
  if (!IsOnnxOp(mul, "Mul")) return nullptr;
  const std::string other = OtherInput(*mul, sum);
  if (other.empty()) return nullptr;
  const std::string& product = mul->outputs()[0];
  if (other == x || IsScalarConstant(graph, other, 0.5f)) {
    // The remaining factor (0.5 or x) comes in a second Mul.
    const Node* last = OnlyConsumer(graph, product);
    if (!IsOnnxOp(last, "Mul")) return nullptr;
    const std::string factor = OtherInput(*last, product);
    if (other == x ? !IsScalarConstant(graph, factor, 0.5f) : factor != x) return nullptr;
    nodes.push_back(mul);
    nodes.push_back(last);
    return last;
  }
  const Node* half = IntermediateProducer(graph, other, "Mul");
  if (half == nullptr || !IsScalarConstant(graph, OtherInput(*half, x), 0.5f)) return nullptr;
  nodes.push_back(half);
  nodes.push_back(mul);
  return mul;
}

namespace {

// Clip's bounds when they are attributes (before opset 11), absent or float constants.
std::optional<std::vector<float>> ClipBounds(const Graph& graph, const Node& clip) {
  std::vector<float> bounds{std::numeric_limits<float>::lowest(),
                            std::numeric_limits<float>::max()};
  if (graph.OpsetVersion("") < 11) {
    return std::vector<float>{FloatAttribute(clip, "min", bounds[0]),
                              FloatAttribute(clip, "max", bounds[1])};
  }
  for (size_t i = 1; i <= 2; ++i) {
    if (!clip.HasInput(i)) continue;
    const auto bound = ScalarFloatConstant(graph, clip.inputs()[i]);
    if (!bound) return std::nullopt;
    bounds[i - 1] = *bound;
  }
  return bounds;
}

}  // namespace

std::optional<std::vector<float>> FusedConvActivationParams(const Graph& graph,
                                                            const Node& activation) {
  if (!activation.domain().empty()) return std::nullopt;
  const std::string& op = activation.op_type();
  // onnxruntime fuses the versions its kernels share: LeakyRelu 6 and HardSigmoid 6.
  const int64_t opset = graph.OpsetVersion("");
  if (op == "Relu" || op == "Sigmoid" || op == "Tanh") return std::vector<float>{};
  if (op == "LeakyRelu" && opset < 16)
    return std::vector<float>{FloatAttribute(activation, "alpha", 0.01f)};
  if (op == "HardSigmoid" && opset < 22) {
    return std::vector<float>{FloatAttribute(activation, "alpha", 0.2f),
                              FloatAttribute(activation, "beta", 0.5f)};
  }
  if (op == "Clip") return ClipBounds(graph, activation);
  return std::nullopt;
}

Attribute CopyPlainAttribute(const Attribute& attribute, std::string name) {
  Attribute copy;
  copy.name = std::move(name);
  copy.type = attribute.type;
  copy.f = attribute.f;
  copy.i = attribute.i;
  copy.s = attribute.s;
  copy.floats = attribute.floats;
  copy.ints = attribute.ints;
  copy.strings = attribute.strings;
  return copy;
}

Node& ReplaceByFusedNode(Graph& graph, const std::vector<const Node*>& nodes, NodeSpec fused) {
  if (!fused.domain.empty()) graph.mutable_opsets().try_emplace(fused.domain, 1);
  fused.name = graph.UniqueNodeName(fused.name.empty() ? fused.op_type : fused.name);
  // A pattern may list a node in two roles (a packed projection's Split feeds q, k and v): each
  // goes once, and none is read after the first removal.
  std::vector<NodeIndex> indices;
  for (const Node* node : nodes) indices.push_back(node->index());
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  for (NodeIndex index : indices) graph.RemoveNode(index);
  return graph.AddNode(std::move(fused));
}

void RemoveIfUnused(Graph& graph, const Node& node) {
  for (const auto& output : node.outputs()) {
    if (output.empty()) continue;
    if (graph.IsGraphOutput(output) || !graph.Consumers(output).empty()) return;
  }
  graph.RemoveNode(node.index());
}

}  // namespace ort
