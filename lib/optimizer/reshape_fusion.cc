// Pass reshape_fusion: a Reshape whose shape is computed at run time from Shape, Gather, Slice,
// Unsqueeze and Concat (what exporters write for x.view(x.size(0), x.size(1), 12, 64)) gets a
// constant shape instead, when one provably gives the same result: 0 (copy the input's
// dimension) where the element is the input's own dimension at that position, the value where
// it is known, and -1 for a single unknown element (ONNX Runtime's ReshapeFusion). The shape
// chain is left to dead-node removal.
#include <algorithm>

#include <fmt/format.h>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/shape_elements.h"

namespace ort {
namespace {

// The symbol naming dimension `axis` of `value`, or "" when it has none.
std::string DimSymbol(const Graph& graph, const std::string& value, int64_t axis) {
  const ValueType* type = graph.FindTypeInScope(value);
  if (type == nullptr || !type->IsTensor() || !type->shape) return {};
  const auto index = static_cast<size_t>(axis);
  return index < type->shape->size() ? (*type->shape)[index].param : std::string();
}

// True when element `position` of the shape is the data input's dimension at that position: the
// same tensor and axis, or a dimension with the same symbol (ONNX gives equal symbols equal
// values).
bool IsOwnDim(const Graph& graph, const ShapeElement& element, const std::string& data,
              size_t position) {
  const auto axis = static_cast<int64_t>(position);
  if (element.tensor == data && element.axis == axis) return true;
  const std::string symbol = DimSymbol(graph, element.tensor, element.axis);
  return !symbol.empty() && symbol == DimSymbol(graph, data, axis);
}

// The constant shape equivalent to the Reshape's computed one, or nullopt.
std::optional<std::vector<int64_t>> ConstantShape(const Graph& graph, const Node& reshape) {
  const auto elements = AnalyzeShapeValue(graph, reshape.inputs()[1]);
  if (!elements || elements->scalar) return std::nullopt;
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  // With allowzero set a 0 is a literal size, so nothing can be copied from the input.
  const bool may_copy = allowzero == nullptr || allowzero->i == 0;
  std::vector<int64_t> shape;
  std::optional<size_t> unknown;
  for (size_t i = 0; i < elements->elements.size(); ++i) {
    const ShapeElement& element = elements->elements[i];
    if (element.kind == ShapeElement::Kind::kValue) {
      shape.push_back(element.value);
    } else if (element.kind == ShapeElement::Kind::kDim && may_copy &&
               IsOwnDim(graph, element, reshape.inputs()[0], i)) {
      shape.push_back(0);
    } else if (unknown) {
      return std::nullopt;
    } else {
      unknown = i;
      shape.push_back(-1);
    }
  }
  if (!unknown) return shape;
  // -1 recovers the element from the element count only when every other output dimension is
  // a known non-zero number; a copied dimension or a 0 may be 0 and leave it undetermined.
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i != *unknown && shape[i] <= 0) return std::nullopt;
  }
  return shape;
}

class ReshapeFusion final : public GraphTransformer {
 public:
  ReshapeFusion() : GraphTransformer("reshape_fusion", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    if (graph.OpsetVersion("") >= 5) {
      for (Node* node : graph.Nodes()) {
        if (node->op_type() != "Reshape" || !node->domain().empty() || !node->HasInput(0) ||
            !node->HasInput(1) || graph.Producer(node->inputs()[1]) == nullptr) {
          continue;
        }
        const auto shape = ConstantShape(graph, *node);
        if (!shape) continue;
        const std::string name =
            graph.UniqueValueName(fmt::format("{}_constant", node->inputs()[1]));
        graph.AddInitializer(
            name, Tensor::FromVector<int64_t>({static_cast<int64_t>(shape->size())}, *shape));
        graph.SetNodeInput(*node, 1, name);
        changed = true;
      }
    }
    return ApplyToSubgraphs(graph, context, changed);
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateReshapeFusion() {
  return std::make_unique<ReshapeFusion>();
}

}  // namespace ort
