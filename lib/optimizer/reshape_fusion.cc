// Pass reshape_fusion: a Reshape whose shape is computed at run time (Shape, Gather, Slice,
// Unsqueeze, Concat, arithmetic: what exporters write for x.view(x.size(0), x.size(1), 12, 64) or
// for sizes taken from another input) gets a constant shape instead, when symbolic shape inference
// proves it gives the same result: the number where an output dimension is known, 0 (copy the
// input's dimension) where it provably equals the input's dimension at that position, and -1 for
// a single other one (ONNX Runtime's ReshapeFusion). Constant shapes are put in the same form, so
// view(b, -1, heads, size) reads [0, 0, heads, size] like every other exporter's. The shape chain
// is left to dead-node removal.
#include <fmt/format.h>

#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// The constant shape equivalent to the Reshape's target, or nullopt.
std::optional<std::vector<int64_t>> ConstantShape(SymbolicShapes& shapes, const Node& reshape) {
  const TensorFacts& target = shapes.Facts(reshape.inputs()[1]);
  const std::optional<std::vector<DimExpr>>& output = shapes.Facts(reshape.outputs()[0]).shape;
  if (!target.values || !output || output->size() != target.values->size()) return std::nullopt;
  const std::optional<std::vector<DimExpr>>& data = shapes.Facts(reshape.inputs()[0]).shape;
  // With allowzero set a 0 is a literal size, so nothing can be copied from the input.
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  const bool may_copy = allowzero == nullptr || allowzero->i == 0;
  std::vector<int64_t> shape;
  // Entries that are provably not 0 at run time.
  std::vector<bool> nonzero;
  std::optional<size_t> unknown;
  bool introduced_unknown = false;
  for (size_t i = 0; i < output->size(); ++i) {
    const DimExpr& dim = (*output)[i];
    const auto size = dim.AsConstant();
    const auto element = (*target.values)[i].AsConstant();
    if (size && (*size > 0 || (*size == 0 && !may_copy))) {
      shape.push_back(*size);
      nonzero.push_back(*size > 0);
    } else if (may_copy && data && i < data->size() && dim == (*data)[i]) {
      shape.push_back(0);
      nonzero.push_back(dim.IsPositive());
    } else if (element && *element >= -1 && !(*element == 0 && !may_copy) && !unknown) {
      // A given -1, or a given 0 copying a dimension inference does not know.
      if (*element == -1) unknown = i;
      shape.push_back(*element);
      nonzero.push_back(*element != 0);
    } else if (unknown) {
      return std::nullopt;
    } else {
      unknown = i;
      introduced_unknown = true;
      shape.push_back(-1);
      nonzero.push_back(true);
    }
  }
  // A -1 put in for an element recovers it from the element count only when no other output
  // dimension can be 0 (a -1 already there meant the same before).
  if (introduced_unknown) {
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!nonzero[i]) return std::nullopt;
    }
  }
  return shape;
}

// True when `name` is a constant holding exactly `shape`.
bool HoldsShape(const Graph& graph, const std::string& name, const std::vector<int64_t>& shape) {
  const Tensor* tensor = graph.GetConstantInitializer(name, true);
  if (tensor == nullptr) return false;
  const auto values = ReadInt64Values(*tensor);
  return values.ok() && *values == shape;
}

class ReshapeFusion final : public GraphTransformer {
 public:
  ReshapeFusion() : GraphTransformer("reshape_fusion", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    if (graph.OpsetVersion("") >= 5) {
      // Rewiring a Reshape to an equal constant keeps every value's content, so one analysis
      // serves the whole sweep.
      SymbolicShapes shapes(graph);
      for (Node* node : graph.Nodes()) {
        if (node->op_type() != "Reshape" || !node->domain().empty() || !node->HasInput(0) ||
            !node->HasInput(1) || !node->HasOutput(0)) {
          continue;
        }
        const auto shape = ConstantShape(shapes, *node);
        if (!shape || HoldsShape(graph, node->inputs()[1], *shape)) continue;
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
