#include "lib/optimizer/batched_key_mask.h"

#include <algorithm>
#include <cmath>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// The producer of `value` when it is the ai.onnx `op_type` writing it as output 0.
const Node* ProducerOp(const Graph& graph, const std::string& value, std::string_view op_type) {
  const Node* node = graph.Producer(value);
  return IsOnnxOp(node, op_type) && node->outputs()[0] == value ? node : nullptr;
}

// True when `value` is all zeros: a float constant of zeros (zeros_like folded at a static
// shape), or ConstantOfShape of value 0.
bool IsZeros(const Graph& graph, const std::string& value, std::vector<const Node*>& chain) {
  if (const Tensor* constant = graph.GetConstantInitializer(value, true)) {
    if (constant->dtype() != DataType::kFloat) return false;
    const auto values = constant->Span<float>();
    return std::all_of(values.begin(), values.end(), [](float v) { return v == 0.0f; });
  }
  const Node* fill = ProducerOp(graph, value, "ConstantOfShape");
  if (fill == nullptr) return false;
  const Attribute* filled = fill->FindAttribute("value");
  if (filled != nullptr) {
    const Tensor& tensor = filled->t;
    if (tensor.dtype() != DataType::kFloat || tensor.NumElements() != 1 ||
        tensor.Data<float>()[0] != 0.0f) {
      return false;
    }
  } else if (ElementTypeOf(graph, value) != DataType::kFloat) {
    return false;
  }
  chain.push_back(fill);
  if (const Node* shape = ProducerOp(graph, fill->inputs()[0], "Shape")) chain.push_back(shape);
  return true;
}

// True when the Reshape, Unsqueeze or Expand `node` turns `input` dims into `output` dims: by the
// shape inferred for it, else (a Reshape's target built from sizes the rule cannot take at face
// value, as they might be 0 at run time) by its target's elements, 0 copying the input's, one -1
// standing for what the others leave, or Expand's elements each 1 or the output's.
bool Turns(SymbolicShapes& shapes, const Node& node, const std::vector<DimExpr>& input,
           const std::vector<DimExpr>& output) {
  const auto& inferred = shapes.Facts(node.outputs()[0]).shape;
  if (inferred && *inferred == output) return true;
  if (node.inputs().size() != 2 || node.op_type() == "Unsqueeze") return false;
  const auto& elements = shapes.Facts(node.inputs()[1]).values;
  if (!elements || elements->size() != output.size()) return false;
  const bool expand = node.op_type() == "Expand";
  const Attribute* allowzero = node.FindAttribute("allowzero");
  const bool copies = !expand && (allowzero == nullptr || allowzero->i == 0);
  bool inferred_one = false;
  for (size_t i = 0; i < output.size(); ++i) {
    const DimExpr& element = (*elements)[i];
    const auto constant = element.AsConstant();
    if (expand) {
      // Broadcasting against the input's own (right-aligned) dimension.
      const size_t offset = output.size() - input.size();
      const DimExpr& own = i >= offset ? input[i - offset] : DimExpr::Constant(1);
      if (!((constant == 1 && own == output[i]) ||
            (element == output[i] && (own == output[i] || own.AsConstant() == 1)))) {
        return false;
      }
    } else if (constant == -1 && !inferred_one) {
      // What the others leave is the output's dimension when the element counts agree.
      const auto in = Product(input), out = Product(output);
      if (!in || !out || !(*in == *out)) return false;
      inferred_one = true;
    } else if (!(element == output[i] ||
                 (copies && constant == 0 && i < input.size() && input[i] == output[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<BatchedKeyMask> MatchBatchedKeyMask(const Graph& graph, const std::string& value) {
  const Node* add = ProducerOp(graph, value, "Add");
  if (add == nullptr || add->inputs().size() != 2 || OnlyConsumer(graph, value) == nullptr) {
    return std::nullopt;
  }
  for (size_t i = 0; i < 2; ++i) {
    BatchedKeyMask match;
    match.mask.scores = add->inputs()[1 - i];
    match.mask.applied = {add};
    std::string term = add->inputs()[i];
    float beta = 1;
    if (const Node* mul = ProducerOp(graph, term, "Mul")) {
      std::string input;
      if (MatchScalarFactor(graph, term, graph.Consumers(term), beta, input) != mul || beta <= 0) {
        continue;
      }
      match.mask.chain.push_back(mul);
      term = input;
    }
    const Node* where = ProducerOp(graph, term, "Where");
    if (where == nullptr || where->inputs().size() != 3) continue;
    const auto fill = ScalarFloatConstant(graph, where->inputs()[1]);
    if (!fill || !(*fill < 0.0f)) continue;
    match.mask.chain.push_back(where);
    if (IsZeros(graph, where->inputs()[2], match.mask.chain)) {
      match.zeros = where->inputs()[2];
    } else if (beta == 1.0f) {
      match.attn_mask = where->inputs()[2];
    } else {
      continue;
    }
    match.batched = where->inputs()[0];
    const Node* batch = ProducerOp(graph, match.batched, "Reshape");
    const Node* expand =
        batch != nullptr ? ProducerOp(graph, batch->inputs()[0], "Expand") : nullptr;
    if (expand == nullptr) continue;
    match.expanded = expand->outputs()[0];
    match.viewed = expand->inputs()[0];
    const Node* view = ProducerOp(graph, match.viewed, "Reshape");
    if (view == nullptr) view = ProducerOp(graph, match.viewed, "Unsqueeze");
    if (view == nullptr) continue;
    match.mask.chain.insert(match.mask.chain.end(), {batch, expand, view});
    const auto mask = MatchMaskIndicator(graph, view->inputs()[0], false, match.mask.chain);
    if (!mask) continue;
    match.mask.mask = *mask;
    match.mask.filter = beta * *fill;
    return match;
  }
  return std::nullopt;
}

bool BatchedKeyMask::Proves(const Graph& graph, const std::string& projected, bool sequence_first,
                            int64_t heads) const {
  SymbolicShapes shapes(graph);
  const auto& shape = shapes.Facts(projected).shape;
  if (!shape || shape->size() != 3) return false;
  const DimExpr& batch_size = (*shape)[sequence_first ? 1 : 0];
  const DimExpr& keys = (*shape)[sequence_first ? 0 : 1];
  const DimExpr one = DimExpr::Constant(1), n = DimExpr::Constant(heads);
  const auto batch_heads = Mul(batch_size, n);
  // Reshapes and an Expand are fixed by their input's and output's shapes: m[b, t] lands at
  // [b*N + n, 0, t] for every head n.
  const Node* view = graph.Producer(viewed);
  const Node* expand = graph.Producer(expanded);
  const Node* batch = graph.Producer(batched);
  const std::vector<DimExpr> masked{batch_size, keys}, unit{batch_size, one, one, keys},
      broadcast{batch_size, n, one, keys};
  const auto& mask_shape = shapes.Facts(mask.mask).shape;
  if (!batch_heads) return false;
  const std::vector<DimExpr> mask_dims{*batch_heads, one, keys};
  // The zeros broadcast to the mask's shape, not beyond: zeros_like(mask), or dims of 1 or the
  // mask's.
  const Node* fill = ProducerOp(graph, zeros, "ConstantOfShape");
  const Node* fill_shape =
      fill != nullptr ? ProducerOp(graph, fill->inputs()[0], "Shape") : nullptr;
  const bool zeros_like = fill_shape != nullptr && fill_shape->inputs()[0] == batched &&
                          fill_shape->attributes().empty();
  const auto& zeros_shape = shapes.Facts(zeros).shape;
  if (!zeros_like && attn_mask.empty()) {
    if (!zeros_shape || zeros_shape->size() > 3) return false;
    for (size_t i = 0; i < zeros_shape->size(); ++i) {
      const DimExpr& dim = (*zeros_shape)[zeros_shape->size() - 1 - i];
      if (!(dim == one || dim == mask_dims[2 - i])) return false;
    }
  }
  return mask_shape && *mask_shape == masked && view && expand && batch &&
         Turns(shapes, *view, masked, unit) && Turns(shapes, *expand, unit, broadcast) &&
         Turns(shapes, *batch, broadcast, mask_dims);
}

}  // namespace ort
