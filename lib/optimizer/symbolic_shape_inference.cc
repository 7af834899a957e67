// Pass symbolic_shape_inference: records in the value types of node outputs (graph and subgraphs)
// what symbolic shape inference (lib/shape) proves: ranks and dimensions onnx's inference left
// unknown, and symbols in place of its unrelated unk__ names, a dimension computed from others
// spelled canonically ("2*seq", "floor((seq+1)/2)") so that equal dimensions carry equal
// dim_params for every later pass and for the memory planner.
#include <algorithm>

#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// onnx's shape inference names the dimensions it cannot tell "unk__<n>" (ONNX Runtime's
// symbolic_shape_infer.py treats them as unknown too).
bool IsOnnxPlaceholder(const std::string& param) {
  return param.size() > 5 && param.compare(0, 5, "unk__") == 0 &&
         std::all_of(param.begin() + 5, param.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `recorded` with the dimensions `inferred` proves; a known number is never replaced, and a graph
// output keeps the dim_params the model declares for it.
SymbolicShape Merge(const std::optional<SymbolicShape>& recorded,
                    const std::vector<DimExpr>& inferred, bool graph_output,
                    const SymbolTable& symbols) {
  SymbolicShape shape = recorded.value_or(SymbolicShape(inferred.size()));
  for (size_t i = 0; i < shape.size(); ++i) {
    Dimension& dim = shape[i];
    if (dim.IsKnown() || (graph_output && !dim.param.empty() && !IsOnnxPlaceholder(dim.param))) {
      continue;
    }
    if (auto proven = ToDimension(inferred[i], symbols)) dim = std::move(*proven);
  }
  return shape;
}

void Record(Graph& graph, SymbolicShapes& shapes, bool& changed) {
  // Types change only after the whole graph is analysed: the analysis reads them.
  std::vector<std::pair<std::string, ValueType>> updates;
  for (Node* node : graph.Nodes()) {
    for (const auto& output : node->outputs()) {
      const ValueInfo* info = output.empty() ? nullptr : graph.FindValueInfo(output);
      if (info == nullptr || !info->type.IsTensor()) continue;
      const TensorFacts& facts = shapes.Facts(output);
      if (!facts.shape || (info->type.shape && info->type.shape->size() != facts.shape->size())) {
        continue;
      }
      SymbolicShape shape =
          Merge(info->type.shape, *facts.shape, graph.IsGraphOutput(output), shapes.symbols());
      if (info->type.shape == shape) continue;
      updates.emplace_back(output, ValueType::Tensor(info->type.elem_type, std::move(shape)));
    }
    for (Graph* subgraph : node->Subgraphs())
      Record(*subgraph, shapes.Subgraph(*subgraph), changed);
  }
  for (auto& [name, type] : updates) graph.SetValueType(name, std::move(type));
  changed = changed || !updates.empty();
}

class SymbolicShapeInference final : public GraphTransformer {
 public:
  SymbolicShapeInference()
      : GraphTransformer("symbolic_shape_inference", OptimizationLevel::kBasic) {}

  Status Apply(Graph& graph, const OptimizerContext&, bool& changed) const override {
    SymbolicShapes shapes(graph);
    Record(graph, shapes, changed);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateSymbolicShapeInference() {
  return std::make_unique<SymbolicShapeInference>();
}

}  // namespace ort
