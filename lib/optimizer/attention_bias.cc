#include "lib/optimizer/attention_bias.h"

#include <algorithm>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/shape_reads.h"

namespace ort {
namespace {

// True when `value` is written by a MatMul, or by a scalar Mul/Div of a MatMul's output.
bool IsScoresSide(const Graph& graph, const std::string& value) {
  const Node* producer = graph.Producer(value);
  if (IsOnnxOp(producer, "MatMul")) return true;
  if (!IsOnnxOp(producer, "Mul") && !IsOnnxOp(producer, "Div")) return false;
  if (producer->inputs().size() != 2) return false;
  for (size_t i = 0; i < 2; ++i) {
    if (i == 0 && producer->op_type() == "Div") continue;
    if (ScalarFloatConstant(graph, producer->inputs()[i]) &&
        IsOnnxOp(graph.Producer(producer->inputs()[1 - i]), "MatMul")) {
      return true;
    }
  }
  return false;
}

// A dimension of the bias: `dim`, or with `or_one` either 1 or `dim`.
struct BiasDim {
  DimExpr dim;
  bool or_one = false;
};

std::optional<std::vector<BiasDim>> Broadcast(std::vector<BiasDim> a, std::vector<BiasDim> b) {
  if (a.size() < b.size()) std::swap(a, b);
  b.insert(b.begin(), a.size() - b.size(), BiasDim{DimExpr::Constant(1), false});
  const DimExpr one = DimExpr::Constant(1);
  for (size_t i = 0; i < a.size(); ++i) {
    if (b[i].dim == one && !b[i].or_one) continue;
    if (a[i].dim == one && !a[i].or_one) {
      a[i] = b[i];
    } else if (a[i].dim == b[i].dim) {
      a[i].or_one = a[i].or_one && b[i].or_one;
    } else {
      return std::nullopt;
    }
  }
  return a;
}

// The elements of the 1-D int64 `value` (a shape), followed through Shape (shape_reads.h: a
// Slice [0, 1) of d is d or 1), Concat and Min(d, 1) where inference does not know them.
std::optional<std::vector<BiasDim>> ElementsOf(const Graph& graph, SymbolicShapes& shapes,
                                               const std::string& value,
                                               const std::vector<std::string>& anchors, int depth) {
  const Node* producer = graph.Producer(value);
  if (depth > 0 && IsOnnxOp(producer, "Shape") && producer->FindAttribute("start") == nullptr &&
      producer->FindAttribute("end") == nullptr) {
    if (const auto sources = ShapeSources(graph, shapes, producer->inputs()[0], anchors)) {
      std::vector<BiasDim> dims;
      for (const ShapeElementSource& source : *sources) {
        if (source.bound && *source.bound != 1) return std::nullopt;
        dims.push_back({source.dim, source.bound.has_value()});
      }
      return dims;
    }
  }
  const Attribute* axis = producer != nullptr ? producer->FindAttribute("axis") : nullptr;
  if (depth > 0 && IsOnnxOp(producer, "Concat") && axis != nullptr && axis->i == 0) {
    std::vector<BiasDim> dims;
    for (const auto& input : producer->inputs()) {
      const auto part = ElementsOf(graph, shapes, input, anchors, depth - 1);
      if (!part) return std::nullopt;
      dims.insert(dims.end(), part->begin(), part->end());
    }
    return dims;
  }
  if (depth > 0 && IsOnnxOp(producer, "Min") && producer->inputs().size() == 2) {
    for (size_t i = 0; i < 2; ++i) {
      const auto bound = ConstantInts(graph, *producer, i);
      const auto dim = ElementsOf(graph, shapes, producer->inputs()[1 - i], anchors, depth - 1);
      if (bound == std::vector<int64_t>{1} && dim && dim->size() == 1 && !dim->front().or_one) {
        return std::vector<BiasDim>{{dim->front().dim, true}};
      }
    }
  }
  const TensorFacts& facts = shapes.Facts(value);
  if (!facts.values || !facts.shape || facts.shape->size() != 1) return std::nullopt;
  std::vector<BiasDim> dims;
  for (const DimExpr& element : *facts.values) dims.push_back({element, false});
  return dims;
}

std::optional<std::vector<BiasDim>> DimsOf(const Graph& graph, SymbolicShapes& shapes,
                                           const std::string& value,
                                           const std::vector<std::string>& anchors, int depth) {
  std::optional<std::vector<BiasDim>> known;
  if (const auto& facts = shapes.Facts(value).shape) {
    known.emplace();
    for (const DimExpr& dim : *facts) known->push_back({dim, false});
  }
  const Node* producer = graph.Producer(value);
  if (depth == 0 || producer == nullptr) return known;
  std::optional<std::vector<BiasDim>> derived;
  const bool broadcasting = IsOnnxOp(producer, "Add") || IsOnnxOp(producer, "Sub") ||
                            IsOnnxOp(producer, "Mul") || IsOnnxOp(producer, "Div");
  if (broadcasting && producer->inputs().size() == 2) {
    auto a = DimsOf(graph, shapes, producer->inputs()[0], anchors, depth - 1);
    auto b = DimsOf(graph, shapes, producer->inputs()[1], anchors, depth - 1);
    if (a && b) derived = Broadcast(std::move(*a), std::move(*b));
  } else if (IsOnnxOp(producer, "ConstantOfShape") && producer->HasInput(0)) {
    derived = ElementsOf(graph, shapes, producer->inputs()[0], anchors, depth - 1);
  }
  return derived ? derived : known;
}

}  // namespace

std::optional<AttentionBias> MatchAttentionBias(const Graph& graph, const std::string& value) {
  const Node* add = graph.Producer(value);
  if (!IsOnnxOp(add, "Add") || add->inputs().size() != 2 || add->outputs()[0] != value) {
    return std::nullopt;
  }
  const bool first = IsScoresSide(graph, add->inputs()[0]);
  const bool second = IsScoresSide(graph, add->inputs()[1]);
  if (first == second || add->inputs()[0] == add->inputs()[1]) return std::nullopt;
  const size_t scores = first ? 0 : 1;
  return AttentionBias{add->inputs()[1 - scores], add->inputs()[scores], add};
}

bool ProvesAttentionBiasShape(const Graph& graph, SymbolicShapes& shapes, const std::string& bias,
                              const std::string& scores, const std::vector<std::string>& anchors) {
  const auto& scores_shape = shapes.Facts(scores).shape;
  if (!scores_shape || scores_shape->size() != 4) return false;
  const DimExpr one = DimExpr::Constant(1);
  const auto fits = [&](const std::optional<std::vector<BiasDim>>& dims) {
    if (!dims || dims->size() != 4) return false;
    for (size_t axis = 0; axis < 4; ++axis) {
      const BiasDim& dim = (*dims)[axis];
      const DimExpr& full = (*scores_shape)[axis];
      // Batch and heads broadcast from 1; the query and key axes are the scores' own.
      const bool fit = axis < 2 ? (dim.dim == one && !dim.or_one) || dim.dim == full
                                : !dim.or_one && dim.dim == full;
      if (!fit) return false;
    }
    return true;
  };
  // Inference alone, else the derivation through the bias's own nodes (which may know a
  // dimension inference left to a symbol of its own).
  return fits(DimsOf(graph, shapes, bias, anchors, 0)) ||
         fits(DimsOf(graph, shapes, bias, anchors, 4));
}

}  // namespace ort
