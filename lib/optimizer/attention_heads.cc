#include "lib/optimizer/attention_heads.h"

#include <algorithm>
#include <cmath>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/head_layout.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {

const Node* ProducerReadOnlyBy(const Graph& graph, const std::string& value,
                               std::string_view op_type, const std::vector<const Node*>& readers) {
  const Node* producer = graph.Producer(value);
  if (!IsOnnxOp(producer, op_type) || producer->outputs()[0] != value ||
      graph.IsGraphOutput(value)) {
    return nullptr;
  }
  for (const Node* consumer : graph.Consumers(value)) {
    if (std::find(readers.begin(), readers.end(), consumer) == readers.end()) return nullptr;
  }
  return producer;
}

const Node* MatchScalarFactor(const Graph& graph, const std::string& value,
                              const std::vector<const Node*>& readers, float& scale,
                              std::string& input) {
  for (const char* op : {"Div", "Mul"}) {
    const Node* node = ProducerReadOnlyBy(graph, value, op, readers);
    if (node == nullptr || node->inputs().size() != 2) continue;
    const bool divide = std::string_view(op) == "Div";
    for (size_t i = divide ? 1 : 0; i < 2; ++i) {
      const auto constant = ScalarFloatConstant(graph, node->inputs()[i]);
      if (!constant || *constant == 0.0f || !std::isfinite(*constant)) continue;
      scale *= divide ? 1.0f / *constant : *constant;
      input = node->inputs()[1 - i];
      return node;
    }
  }
  return nullptr;
}

namespace {

// Follows `value` up through scalar factors read once, appending them to `nodes`.
std::string SkipScalarFactors(const Graph& graph, std::string value, float& scale,
                              std::vector<const Node*>& nodes) {
  for (int i = 0; i < 4; ++i) {
    const Node* reader = OnlyConsumer(graph, value);
    std::string input;
    const Node* factor =
        reader == nullptr ? nullptr : MatchScalarFactor(graph, value, {reader}, scale, input);
    if (factor == nullptr) break;
    nodes.push_back(factor);
    value = input;
  }
  return value;
}

// The Reshape target's elements when it is 4-D [.., .., N, h] with N and h known and positive.
std::optional<ShapeElements> HeadTarget(const Graph& graph, const Node& reshape) {
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  if (!reshape.HasInput(1) || (allowzero != nullptr && allowzero->i != 0)) return std::nullopt;
  auto target = AnalyzeShapeValue(graph, reshape.inputs()[1]);
  if (!target || target->scalar || target->elements.size() != 4) return std::nullopt;
  for (size_t i = 2; i < 4; ++i) {
    if (target->elements[i].kind != ShapeElement::Kind::kValue) return std::nullopt;
  }
  if (!PlausibleHeads(target->elements[2].value, target->elements[3].value)) return std::nullopt;
  return target;
}

}  // namespace

bool PlausibleHeads(int64_t heads, int64_t head_size) {
  constexpr int64_t kMaxHidden = int64_t{1} << 32;
  return heads > 0 && head_size > 0 && heads <= kMaxHidden / head_size;
}

std::optional<HeadSplit> MatchHeadSplit(const Graph& graph, const std::string& value,
                                        std::initializer_list<int64_t> perm, bool shared,
                                        bool chains) {
  HeadSplit split;
  if (!shared) {
    if (chains) {
      if (auto standard = MatchHeadSplit(graph, value, perm)) return standard;
      const bool keys = std::vector<int64_t>(perm) == std::vector<int64_t>{0, 2, 3, 1};
      auto chain =
          MatchHeadChain(graph, value, keys ? HeadForm::kTransposedHeads : HeadForm::kHeads);
      if (!chain) return std::nullopt;
      split.projected = chain->projected;
      split.heads = chain->heads;
      split.head_size = chain->head_size;
      split.scale = chain->scale;
      split.nodes = chain->nodes;
      split.sequence_first = chain->sequence_first;
      split.rank = chain->rank;
      const ShapeElement kept{ShapeElement::Kind::kValue, 0, {}, 0};
      split.leading = {kept, kept};
      if (!split.sequence_first) split.batch_sequence_values = {split.projected};
      return split;
    }
    std::string current = SkipScalarFactors(graph, value, split.scale, split.nodes);
    const Node* transpose = IntermediateProducer(graph, current, "Transpose");
    if (transpose == nullptr || !HasPerm(*transpose, perm)) return std::nullopt;
    split.nodes.push_back(transpose);
    current = SkipScalarFactors(graph, transpose->inputs()[0], split.scale, split.nodes);
    const Node* reshape = IntermediateProducer(graph, current, "Reshape");
    const auto target = reshape == nullptr ? std::nullopt : HeadTarget(graph, *reshape);
    if (!target) return std::nullopt;
    split.nodes.push_back(reshape);
    split.batch_sequence_values.push_back(current);
    split.heads = target->elements[2].value;
    split.head_size = target->elements[3].value;
    split.leading = {target->elements[0], target->elements[1]};
    split.projected = SkipScalarFactors(graph, reshape->inputs()[0], split.scale, split.nodes);
    split.batch_sequence_values.push_back(split.projected);
    return split;
  }
  // Steps read elsewhere stay for their other readers, and so do the steps before them.
  const Node* transpose = graph.Producer(value);
  if (!IsOnnxOp(transpose, "Transpose") || transpose->outputs()[0] != value ||
      !HasPerm(*transpose, perm)) {
    return std::nullopt;
  }
  const std::string& reshaped = transpose->inputs()[0];
  const Node* reshape = graph.Producer(reshaped);
  if (!IsOnnxOp(reshape, "Reshape") || reshape->outputs()[0] != reshaped) return std::nullopt;
  const auto target = HeadTarget(graph, *reshape);
  if (!target) return std::nullopt;
  const bool transpose_shared = OnlyConsumer(graph, value) == nullptr;
  const bool reshape_shared = transpose_shared || OnlyConsumer(graph, reshaped) == nullptr;
  (transpose_shared ? split.kept : split.nodes).push_back(transpose);
  (reshape_shared ? split.kept : split.nodes).push_back(reshape);
  split.batch_sequence_values = {reshaped, reshape->inputs()[0]};
  split.heads = target->elements[2].value;
  split.head_size = target->elements[3].value;
  split.leading = {target->elements[0], target->elements[1]};
  split.projected = reshape->inputs()[0];
  return split;
}

namespace {

// True when symbolic inference proves the dimensions equal where the recorded types do not (a
// type recorded before an earlier fusion resolved what it could not tell).
bool SymbolicallySameDimension(SymbolicShapes& shapes, const std::string& a, int64_t axis_a,
                               const std::string& b, int64_t axis_b) {
  const auto& shape_a = shapes.Facts(a).shape;
  const auto& shape_b = shapes.Facts(b).shape;
  return shape_a && shape_b && axis_a < static_cast<int64_t>(shape_a->size()) &&
         axis_b < static_cast<int64_t>(shape_b->size()) &&
         (*shape_a)[static_cast<size_t>(axis_a)] == (*shape_b)[static_cast<size_t>(axis_b)];
}

}  // namespace

bool KeepsBatchAndSequence(const Graph& graph, const std::vector<ShapeElement>& leading,
                           const std::vector<std::string>& same, const std::string& x,
                           SymbolicShapes* shapes) {
  std::optional<SymbolicShapes> own;
  const auto analysis = [&]() -> SymbolicShapes& {
    if (shapes != nullptr) return *shapes;
    if (!own) own.emplace(graph);
    return *own;
  };
  const auto kept = [&](size_t i) {
    const ShapeElement& element = leading[i];
    if (element.kind == ShapeElement::Kind::kDim) {
      const auto axis = static_cast<int64_t>(i);
      return (element.axis == axis &&
              std::find(same.begin(), same.end(), element.tensor) != same.end()) ||
             ProvablySameDimension(graph, element.tensor, element.axis, x, axis) ||
             SymbolicallySameDimension(analysis(), element.tensor, element.axis, x, axis);
    }
    if (element.kind != ShapeElement::Kind::kValue) return false;
    return element.value == 0 ||
           (RankOf(graph, x) == size_t{3} &&
            KnownDimension(graph, x, static_cast<int64_t>(i)) == element.value);
  };
  const auto inferred = [&](size_t i) {
    return leading[i].kind == ShapeElement::Kind::kValue && leading[i].value == -1;
  };
  return (kept(0) && kept(1)) || (kept(0) && inferred(1)) || (inferred(0) && kept(1));
}

bool HeadMerge::Keeps(const Graph& graph, int64_t hidden, const std::vector<std::string>& same,
                      const std::string& x) const {
  if (!rewired.empty() || proven) return true;
  const ShapeElement& last = target[2];
  const bool last_is_hidden =
      last.kind == ShapeElement::Kind::kValue && (last.value == hidden || last.value == -1);
  const std::vector<ShapeElement> leading{target[0], target[1]};
  const auto inferred = [](const ShapeElement& e) {
    return e.kind == ShapeElement::Kind::kValue && e.value == -1;
  };
  return last_is_hidden && KeepsBatchAndSequence(graph, leading, same, x) &&
         !(inferred(last) && (inferred(target[0]) || inferred(target[1])));
}

namespace {

// True when `reshape` gives the same result on [B,S,N*h] as on [B,S,N,h]: no 0 (copy the input's
// dimension) past the first two elements of its target.
bool ReshapesMergedHeadsAlike(const Graph& graph, const Node& reshape) {
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  if (allowzero != nullptr && allowzero->i != 0) return true;
  const auto target = AnalyzeShapeValue(graph, reshape.inputs()[1]);
  if (!target || target->scalar) return false;
  for (size_t i = 2; i < target->elements.size(); ++i) {
    const ShapeElement& element = target->elements[i];
    if (element.kind != ShapeElement::Kind::kValue || element.value == 0) return false;
  }
  return true;
}

// The merge a head_layout.h chain proves.
std::optional<HeadMerge> MatchMergeByChain(const Graph& graph, const Node& pv,
                                           const HeadSplit& query) {
  HeadChain heads;
  heads.projected = query.projected;
  heads.sequence_first = query.sequence_first;
  heads.rank = query.rank;
  heads.heads = query.heads;
  heads.head_size = query.head_size;
  const auto chain = MatchMergeChain(graph, pv, heads);
  if (!chain) return std::nullopt;
  HeadMerge merge;
  merge.proven = true;
  merge.sequence_first = chain->sequence_first;
  merge.nodes = chain->nodes;
  if (chain->regrouped != nullptr) {
    merge.rewired = {chain->regrouped};
    merge.output = chain->regrouped->inputs()[0] + "_heads";
  } else {
    merge.output = chain->output;
  }
  return merge;
}

}  // namespace

std::optional<HeadMerge> MatchHeadMerge(const Graph& graph, const Node& pv,
                                        const HeadSplit* query) {
  if (query != nullptr) {
    // The plain merge's [B,S] proofs are against the block's input, which a sequence-first
    // block has as [S,B].
    if (!query->sequence_first) {
      if (auto merge = MatchHeadMerge(graph, pv)) return merge;
    }
    return MatchMergeByChain(graph, pv, *query);
  }
  const Node* transpose = OnlyConsumer(graph, pv.outputs()[0]);
  if (!IsOnnxOp(transpose, "Transpose") || !HasPerm(*transpose, {0, 2, 1, 3})) return std::nullopt;
  const std::string& merged = transpose->outputs()[0];
  HeadMerge merge;
  merge.batch_sequence_values = {merged};
  if (const Node* reshape = OnlyConsumer(graph, merged)) {
    if (!IsOnnxOp(reshape, "Reshape") || reshape->inputs().size() != 2 ||
        reshape->inputs()[0] != merged) {
      return std::nullopt;
    }
    const auto target = AnalyzeShapeValue(graph, reshape->inputs()[1]);
    const Attribute* allowzero = reshape->FindAttribute("allowzero");
    if (target && !target->scalar && target->elements.size() == 3 &&
        (allowzero == nullptr || allowzero->i == 0)) {
      merge.output = reshape->outputs()[0];
      merge.nodes = {transpose, reshape};
      merge.target = target->elements;
      return merge;
    }
  }
  if (graph.IsGraphOutput(merged)) return std::nullopt;
  for (const Node* reader : graph.Consumers(merged)) {
    if (!IsOnnxOp(reader, "Reshape") || reader->inputs().size() != 2 ||
        reader->inputs()[0] != merged || reader->inputs()[1] == merged ||
        !ReshapesMergedHeadsAlike(graph, *reader)) {
      return std::nullopt;
    }
    merge.rewired.push_back(reader);
  }
  merge.output = merged + "_heads";
  merge.nodes = {transpose};
  return merge;
}

void RewireMerge(Graph& graph, const HeadMerge& merge) {
  for (const Node* reshape : merge.rewired) {
    graph.SetNodeInput(*graph.GetNode(reshape->index()), 0, merge.output);
  }
}

}  // namespace ort
