#include "lib/optimizer/sequence_bias.h"

#include <algorithm>
#include <cmath>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

bool IsScoresProduct(const Node* node) {
  return IsOnnxOp(node, "MatMul") ||
         (node != nullptr && node->op_type() == "FusedMatMul" && node->domain() == kMsDomain);
}

// True when `value` is written by a scores product, or by a scalar Mul/Div of its output.
bool IsScoresSide(const Graph& graph, const std::string& value) {
  const Node* producer = graph.Producer(value);
  if (IsScoresProduct(producer)) return true;
  if (!IsOnnxOp(producer, "Mul") && !IsOnnxOp(producer, "Div")) return false;
  if (producer->inputs().size() != 2) return false;
  for (size_t i = 0; i < 2; ++i) {
    if (i == 0 && producer->op_type() == "Div") continue;
    if (ScalarFloatConstant(graph, producer->inputs()[i]) &&
        IsScoresProduct(graph.Producer(producer->inputs()[1 - i]))) {
      return true;
    }
  }
  return false;
}

bool NoPositiveInfinityOrNaN(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kBool || tensor.dtype() == DataType::kInt64) return true;
  if (tensor.dtype() != DataType::kFloat) return false;
  const auto values = tensor.Span<float>();
  return std::none_of(values.begin(), values.end(),
                      [](float v) { return std::isnan(v) || v == INFINITY; });
}

}  // namespace

bool NeverPositiveInfinityOrNaN(const Graph& graph, const std::string& value) {
  if (const Tensor* constant = graph.GetConstantInitializer(value, true)) {
    return NoPositiveInfinityOrNaN(*constant);
  }
  const Node* producer = graph.Producer(value);
  if (producer == nullptr || !producer->domain().empty() || producer->inputs().empty()) {
    return false;
  }
  const std::string& op = producer->op_type();
  if (op == "Unsqueeze" || op == "Reshape" || op == "Trilu") {
    return NeverPositiveInfinityOrNaN(graph, producer->inputs()[0]);
  }
  if (op == "Where" && producer->inputs().size() == 3) {
    return NeverPositiveInfinityOrNaN(graph, producer->inputs()[1]) &&
           NeverPositiveInfinityOrNaN(graph, producer->inputs()[2]);
  }
  if (op == "ConstantOfShape") {
    const Attribute* filled = producer->FindAttribute("value");
    return filled == nullptr || NoPositiveInfinityOrNaN(filled->t);
  }
  return false;
}

std::optional<SequenceBias> MatchSequenceBias(const Graph& graph, const std::string& value,
                                              const std::vector<const Node*>& readers) {
  const Node* add = graph.Producer(value);
  if (!IsOnnxOp(add, "Add") || add->inputs().size() != 2 || graph.IsGraphOutput(value)) {
    return std::nullopt;
  }
  for (const Node* consumer : graph.Consumers(value)) {
    if (std::find(readers.begin(), readers.end(), consumer) == readers.end()) return std::nullopt;
  }
  const bool first = IsScoresSide(graph, add->inputs()[0]);
  const bool second = IsScoresSide(graph, add->inputs()[1]);
  if (first == second) return std::nullopt;
  const size_t scores = first ? 0 : 1;
  return SequenceBias{add->inputs()[1 - scores], add->inputs()[scores], add};
}

bool ProvesSequenceBias(const Graph& graph, SequenceBias& bias, const std::string& queries,
                        const std::string& keys, size_t key_axis) {
  SymbolicShapes shapes(graph);
  const auto bias_shape = shapes.Facts(bias.bias).shape;
  const auto query_shape = shapes.Facts(queries).shape;
  const auto key_shape = shapes.Facts(keys).shape;
  if (!bias_shape || !query_shape || !key_shape || query_shape->size() != 3 ||
      key_shape->size() != 3 || key_axis >= 3) {
    return false;
  }
  const std::vector<DimExpr>& dims = *bias_shape;
  if (dims.size() == 3 ? dims[0] != DimExpr::Constant(1) : dims.size() != 2) return false;
  if (dims[dims.size() - 2] != (*query_shape)[1] || dims.back() != (*key_shape)[key_axis]) {
    return false;
  }
  bias.rank = dims.size();
  return true;
}

}  // namespace ort
