#include "lib/optimizer/shape_elements.h"

#include <algorithm>

#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// Exported shape chains nest a few levels; deeper producers count as unknown.
constexpr int kMaxDepth = 16;

std::optional<ShapeElements> Analyze(const Graph& graph, const std::string& value, int depth);

// Elements of a value nothing is known about except its type.
std::optional<ShapeElements> UnknownElements(const Graph& graph, const std::string& value) {
  const auto type = ElementTypeOf(graph, value);
  const auto shape = StaticShapeOf(graph, value);
  if (!type || *type != DataType::kInt64 || !shape || shape->rank() > 1) return std::nullopt;
  ShapeElements result;
  result.scalar = shape->rank() == 0;
  result.elements.resize(static_cast<size_t>(shape->NumElements()));
  return result;
}

std::optional<ShapeElements> ConstantElements(const Tensor& tensor) {
  if (tensor.dtype() != DataType::kInt64 || tensor.shape().rank() > 1) return std::nullopt;
  ShapeElements result;
  result.scalar = tensor.shape().rank() == 0;
  for (int64_t v : tensor.Span<int64_t>()) {
    result.elements.push_back({ShapeElement::Kind::kValue, v, {}, 0});
  }
  return result;
}

// The single axis an Unsqueeze, Squeeze or Slice acts on, when it is axis 0 of a 1-D tensor
// (given as 0 or -1, or left out).
bool IsFirstAxisOnly(const std::optional<std::vector<int64_t>>& axes, bool may_be_absent) {
  if (!axes) return may_be_absent;
  return axes->size() == 1 && ((*axes)[0] == 0 || (*axes)[0] == -1);
}

std::optional<std::vector<int64_t>> AttributeInts(const Node& node, std::string_view name) {
  const Attribute* attribute = node.FindAttribute(name);
  if (attribute == nullptr) return std::nullopt;
  return attribute->ints;
}

// Axes of Unsqueeze/Squeeze: an attribute before opset 13, input 1 since. `known` is false when
// the input is there but not constant.
std::optional<std::vector<int64_t>> SqueezeAxes(const Graph& graph, const Node& node, bool& known) {
  known = true;
  if (graph.OpsetVersion("") < 13) return AttributeInts(node, "axes");
  if (!node.HasInput(1)) return std::nullopt;
  auto axes = ConstantInts(graph, node, 1);
  known = axes.has_value();
  return axes;
}

std::optional<ShapeElements> AnalyzeShape(const Graph& graph, const Node& node) {
  const ValueType* type = graph.FindTypeInScope(node.inputs()[0]);
  if (type == nullptr || !type->IsTensor() || !type->shape) return std::nullopt;
  const SymbolicShape& dims = *type->shape;
  const auto rank = static_cast<int64_t>(dims.size());
  const auto clamp = [rank](int64_t axis) {
    return std::clamp<int64_t>(axis < 0 ? axis + rank : axis, 0, rank);
  };
  const Attribute* start_attribute = node.FindAttribute("start");
  const Attribute* end_attribute = node.FindAttribute("end");
  const int64_t start = start_attribute != nullptr ? clamp(start_attribute->i) : 0;
  const int64_t end = end_attribute != nullptr ? clamp(end_attribute->i) : rank;
  ShapeElements result;
  for (int64_t axis = start; axis < end; ++axis) {
    const Dimension& dim = dims[static_cast<size_t>(axis)];
    if (dim.IsKnown()) {
      result.elements.push_back({ShapeElement::Kind::kValue, dim.value, {}, 0});
    } else {
      result.elements.push_back({ShapeElement::Kind::kDim, 0, node.inputs()[0], axis});
    }
  }
  return result;
}

std::optional<ShapeElements> AnalyzeGather(const Graph& graph, const Node& node, int depth) {
  const Attribute* axis = node.FindAttribute("axis");
  if ((axis != nullptr && axis->i != 0 && axis->i != -1) || !node.HasInput(1)) return std::nullopt;
  const Tensor* indices = ConstantInput(graph, node, 1);
  if (indices == nullptr || indices->shape().rank() > 1) return std::nullopt;
  const auto index_values = ReadInt64Values(*indices);
  if (!index_values.ok()) return std::nullopt;
  ShapeElements result;
  result.scalar = indices->shape().rank() == 0;
  auto data = Analyze(graph, node.inputs()[0], depth + 1);
  if (!data) {
    // Shape(x)[i] names dimension i of x even when x's rank is unknown.
    const Node* shape = graph.Producer(node.inputs()[0]);
    if (shape == nullptr || shape->op_type() != "Shape" || !shape->domain().empty() ||
        !shape->HasInput(0)) {
      return std::nullopt;
    }
    const Attribute* start = shape->FindAttribute("start");
    const Attribute* end = shape->FindAttribute("end");
    if ((start != nullptr && start->i < 0) || (end != nullptr && end->i < 0)) return std::nullopt;
    for (int64_t index : *index_values) {
      if (index < 0 || (end != nullptr && index + (start != nullptr ? start->i : 0) >= end->i)) {
        return std::nullopt;
      }
      result.elements.push_back({ShapeElement::Kind::kDim, 0, shape->inputs()[0],
                                 index + (start != nullptr ? start->i : 0)});
    }
    return result;
  }
  if (data->scalar) return std::nullopt;
  const auto count = static_cast<int64_t>(data->elements.size());
  for (int64_t index : *index_values) {
    if (index < -count || index >= count) return std::nullopt;
    result.elements.push_back(
        data->elements[static_cast<size_t>(index < 0 ? index + count : index)]);
  }
  return result;
}

std::optional<ShapeElements> AnalyzeSlice(const Graph& graph, const Node& node, int depth) {
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (graph.OpsetVersion("") < 10) {
    starts = AttributeInts(node, "starts");
    ends = AttributeInts(node, "ends");
    axes = AttributeInts(node, "axes");
  } else {
    starts = ConstantInts(graph, node, 1);
    ends = ConstantInts(graph, node, 2);
    if (node.HasInput(3) && !(axes = ConstantInts(graph, node, 3))) return std::nullopt;
    if (node.HasInput(4) && !(steps = ConstantInts(graph, node, 4))) return std::nullopt;
  }
  if (!starts || !ends || starts->size() != 1 || ends->size() != 1 ||
      !IsFirstAxisOnly(axes, true) || (steps && *steps != std::vector<int64_t>{1})) {
    return std::nullopt;
  }
  auto data = Analyze(graph, node.inputs()[0], depth + 1);
  if (!data || data->scalar) return std::nullopt;
  const auto count = static_cast<int64_t>(data->elements.size());
  const auto clamp = [count](int64_t i) {
    return std::clamp<int64_t>(i < 0 ? i + count : i, 0, count);
  };
  const int64_t start = clamp((*starts)[0]);
  const int64_t end = std::max(start, clamp((*ends)[0]));
  data->elements =
      std::vector<ShapeElement>(data->elements.begin() + start, data->elements.begin() + end);
  return data;
}

std::optional<ShapeElements> AnalyzeNode(const Graph& graph, const Node& node, int depth) {
  const std::string& op = node.op_type();
  if (!node.domain().empty() || !node.HasInput(0)) return std::nullopt;
  if (op == "Shape") return AnalyzeShape(graph, node);
  if (op == "Gather") return AnalyzeGather(graph, node, depth);
  if (op == "Slice") return AnalyzeSlice(graph, node, depth);
  if (op == "Unsqueeze" || op == "Squeeze") {
    const bool unsqueeze = op == "Unsqueeze";
    bool known = false;
    const auto axes = SqueezeAxes(graph, node, known);
    if (!known || !IsFirstAxisOnly(axes, !unsqueeze)) return std::nullopt;
    auto input = Analyze(graph, node.inputs()[0], depth + 1);
    // Unsqueeze makes a scalar a 1-element vector; Squeeze the reverse.
    if (!input || input->scalar != unsqueeze || (!unsqueeze && input->elements.size() != 1)) {
      return std::nullopt;
    }
    input->scalar = !unsqueeze;
    return input;
  }
  if (op == "Concat") {
    const Attribute* axis = node.FindAttribute("axis");
    if (axis == nullptr || (axis->i != 0 && axis->i != -1)) return std::nullopt;
    ShapeElements result;
    for (const auto& input : node.inputs()) {
      if (input.empty()) return std::nullopt;
      auto piece = Analyze(graph, input, depth + 1);
      if (!piece || piece->scalar) return std::nullopt;
      result.elements.insert(result.elements.end(), piece->elements.begin(), piece->elements.end());
    }
    return result;
  }
  return std::nullopt;
}

std::optional<ShapeElements> Analyze(const Graph& graph, const std::string& value, int depth) {
  if (const Tensor* tensor = graph.GetConstantInitializer(value, true)) {
    return ConstantElements(*tensor);
  }
  const Node* node = graph.Producer(value);
  if (depth < kMaxDepth && node != nullptr && node->outputs()[0] == value) {
    if (auto result = AnalyzeNode(graph, *node, depth)) return result;
  }
  return UnknownElements(graph, value);
}

}  // namespace

std::optional<ShapeElements> AnalyzeShapeValue(const Graph& graph, std::string_view value) {
  return Analyze(graph, std::string(value), 0);
}

}  // namespace ort
