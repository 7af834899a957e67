// Rule fuse_embed_layer_norm: BERT's embedding layer,
//   LayerNormalization(Gather(W, ids) + Gather(P, positions) [+ Gather(T, segment_ids)])
// with positions 0..S-1 for every sequence (a Slice of a constant arange position_ids up to
// input_ids' sequence length, a Range(0, S), a constant arange, or the position rows constant
// folding already gathered for a static S), becomes com.microsoft EmbedLayerNormalization(int32
// ids, int32 segment_ids, W, P, T, gamma, beta) with the LayerNormalization's epsilon
// (onnxruntime's EmbedLayerNormFusion). It runs after the LayerNormalization fusion and before
// SkipLayerNormalization would take the last Add.
#include <algorithm>

#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// A Gather of embedding rows, or (gather null) a constant [S,H] / [B,S,H] sum of the position
// rows that constant folding computed for a static sequence length.
struct Lookup {
  const Node* gather = nullptr;
  std::string table, indices;
  int64_t rows = 0;
};

struct EmbedMatch {
  Lookup word, position;
  std::optional<Lookup> segment;
  std::vector<const Node*> nodes;  // Adds, Gathers, LayerNormalization
};

// A Gather on axis 0 of a constant float [rows, hidden] table, read only by the embedding sum.
std::optional<Lookup> MatchLookup(const Graph& graph, const std::string& value, int64_t hidden) {
  const Node* gather = IntermediateProducer(graph, value, "Gather");
  if (gather == nullptr) return std::nullopt;
  const Attribute* axis = gather->FindAttribute("axis");
  const Tensor* table = ConstantInput(graph, *gather, 0);
  if ((axis != nullptr && axis->i != 0) || !IsFloatTensor(table) || table->shape().rank() != 2 ||
      table->shape()[1] != hidden) {
    return std::nullopt;
  }
  return Lookup{gather, gather->inputs()[0], gather->inputs()[1], table->shape()[0]};
}

// The leaves of the Add tree under `value` (two levels at most), with the Adds themselves.
void CollectAddends(const Graph& graph, const std::string& value, int depth,
                    std::vector<std::string>& leaves, std::vector<const Node*>& adds) {
  const Node* add = depth < 2 ? IntermediateProducer(graph, value, "Add") : nullptr;
  if (add == nullptr || add->inputs().size() != 2) {
    leaves.push_back(value);
    return;
  }
  adds.push_back(add);
  for (const auto& input : add->inputs()) CollectAddends(graph, input, depth + 1, leaves, adds);
}

bool IsArange(const Tensor& tensor, int64_t length) {
  auto values = ReadInt64Values(tensor);
  if (!values.ok() || static_cast<int64_t>(values->size()) < length) return false;
  for (int64_t i = 0; i < length; ++i) {
    if ((*values)[static_cast<size_t>(i)] != i) return false;
  }
  return true;
}

// True when `ends` is input_ids' sequence length (dimension 1, or the constant it is known to be).
bool IsSequenceLength(const Graph& graph, const std::string& ends, const std::string& input_ids) {
  SymbolicShapes shapes(graph);
  const TensorFacts& end = shapes.Facts(ends);
  const std::optional<std::vector<DimExpr>>& ids = shapes.Facts(input_ids).shape;
  return end.values && end.values->size() == 1 && ids && ids->size() == 2 &&
         (*end.values)[0] == (*ids)[1];
}

// True when `indices` is Range(0, S, 1) of input_ids' sequence length S, possibly unsqueezed to
// [1,S] (torch.arange(ids.size(1)).unsqueeze(0)).
bool MatchRangePositions(const Graph& graph, const std::string& indices,
                         const std::string& input_ids) {
  std::string range_output = indices;
  if (const Node* unsqueeze = IntermediateProducer(graph, indices, "Unsqueeze")) {
    if (UnsqueezeAxes(graph, *unsqueeze) != std::vector<int64_t>{0}) return false;
    range_output = unsqueeze->inputs()[0];
  }
  const Node* range = IntermediateProducer(graph, range_output, "Range");
  if (range == nullptr || range->inputs().size() != 3) return false;
  const auto start = ConstantInts(graph, *range, 0);
  const auto delta = ConstantInts(graph, *range, 2);
  return start == std::vector<int64_t>{0} && delta == std::vector<int64_t>{1} &&
         IsSequenceLength(graph, range->inputs()[1], input_ids);
}

// True when the position lookup's indices are 0..S-1 for every sequence of input_ids: a constant
// [1,S] arange, a Range (see MatchRangePositions), or a Slice [0, S) of a constant [1,P] arange
// along its last axis.
bool MatchPositions(const Graph& graph, const Lookup& position, const std::string& input_ids) {
  const auto ids_shape = StaticShapeOf(graph, input_ids);
  if (const Tensor* constant = graph.GetConstantInitializer(position.indices, true)) {
    return ids_shape && ids_shape->rank() == 2 &&
           constant->shape() == TensorShape({1, (*ids_shape)[1]}) &&
           IsArange(*constant, (*ids_shape)[1]);
  }
  if (MatchRangePositions(graph, position.indices, input_ids)) return true;
  const Node* slice = IntermediateProducer(graph, position.indices, "Slice");
  if (slice == nullptr || slice->inputs().size() < 4) return false;
  const Tensor* ids = ConstantInput(graph, *slice, 0);
  const auto starts = ConstantInts(graph, *slice, 1);
  const auto axes = ConstantInts(graph, *slice, 3);
  const auto steps = slice->HasInput(4)
                         ? ConstantInts(graph, *slice, 4)
                         : std::optional<std::vector<int64_t>>(std::vector<int64_t>{1});
  if (ids == nullptr || ids->shape().rank() != 2 || ids->shape()[0] != 1 ||
      !IsArange(*ids, ids->shape()[1]) || starts != std::vector<int64_t>{0} ||
      (axes != std::vector<int64_t>{1} && axes != std::vector<int64_t>{-1}) ||
      steps != std::vector<int64_t>{1}) {
    return false;
  }
  return IsSequenceLength(graph, slice->inputs()[2], input_ids);
}

// True when the constant `value` holds the position rows 0..S-1 of input_ids' static sequence
// length S, the same for every sequence: [S,H], or [B,S,H] with equal batches.
bool IsFoldedPositions(const Graph& graph, const std::string& value, const std::string& input_ids) {
  const Tensor* folded = graph.GetConstantInitializer(value, true);
  const auto ids_shape = StaticShapeOf(graph, input_ids);
  if (folded == nullptr || !ids_shape || ids_shape->rank() != 2) return false;
  const auto& dims = folded->shape().dims();
  if (dims.size() != 2 && (dims.size() != 3 || (dims[0] != 1 && dims[0] != (*ids_shape)[0]))) {
    return false;
  }
  if (dims.rbegin()[1] != (*ids_shape)[1]) return false;
  const float* data = folded->Data<float>();
  const int64_t rows = dims.rbegin()[1] * dims.back();
  for (int64_t i = rows; i < folded->NumElements(); ++i) {
    if (data[i] != data[i % rows]) return false;
  }
  return true;
}

bool IsIdTensor(const Graph& graph, const std::string& value) {
  const auto type = ElementTypeOf(graph, value);
  return RankOf(graph, value) == 2u && type &&
         (*type == DataType::kInt64 || *type == DataType::kInt32);
}

std::optional<EmbedMatch> MatchEmbedLayerNorm(const Graph& graph, const Node& norm) {
  const Attribute* axis = norm.FindAttribute("axis");
  if ((axis != nullptr && axis->i != -1 && axis->i != 2) || norm.inputs().size() < 3 ||
      !norm.HasInput(2) || norm.HasOutput(1) || norm.HasOutput(2)) {
    return std::nullopt;
  }
  const auto gamma = StaticShapeOf(graph, norm.inputs()[1]);
  const auto beta = StaticShapeOf(graph, norm.inputs()[2]);
  if (!gamma || gamma->rank() != 1 || !beta || *beta != *gamma) return std::nullopt;
  const int64_t hidden = (*gamma)[0];

  EmbedMatch match;
  std::vector<std::string> leaves;
  CollectAddends(graph, norm.inputs()[0], 0, leaves, match.nodes);
  if (match.nodes.empty() || (leaves.size() != 2 && leaves.size() != 3)) return std::nullopt;
  std::vector<Lookup> lookups;
  for (const auto& leaf : leaves) {
    auto lookup = MatchLookup(graph, leaf, hidden);
    const Tensor* folded = graph.GetConstantInitializer(leaf, true);
    if (!lookup && IsFloatTensor(folded) && folded->shape().rank() >= 2 &&
        folded->shape().dims().back() == hidden) {
      lookup = Lookup{nullptr, leaf, "", folded->shape().dims().rbegin()[1]};
    }
    if (!lookup) return std::nullopt;
    lookups.push_back(*lookup);
  }
  // The position lookup is the one whose indices are positions; of the others, the word table is
  // the larger one (segment tables hold a few rows).
  for (size_t i = 0; i < lookups.size() && match.position.gather == nullptr; ++i) {
    std::vector<Lookup> others = lookups;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    std::sort(others.begin(), others.end(),
              [](const Lookup& a, const Lookup& b) { return a.rows > b.rows; });
    if (others[0].gather == nullptr || (others.size() > 1 && others[1].gather == nullptr) ||
        !IsIdTensor(graph, others[0].indices) ||
        !(lookups[i].gather == nullptr
              ? IsFoldedPositions(graph, lookups[i].table, others[0].indices)
              : MatchPositions(graph, lookups[i], others[0].indices))) {
      continue;
    }
    match.position = lookups[i];
    match.word = others[0];
    if (others.size() > 1) match.segment = others[1];
  }
  if (match.word.gather == nullptr) return std::nullopt;
  if (match.segment && (!IsIdTensor(graph, match.segment->indices) ||
                        graph.FindTypeInScope(match.word.indices)->shape !=
                            graph.FindTypeInScope(match.segment->indices)->shape)) {
    return std::nullopt;
  }
  match.nodes.push_back(match.word.gather);
  if (match.position.gather != nullptr) match.nodes.push_back(match.position.gather);
  if (match.segment) match.nodes.push_back(match.segment->gather);
  match.nodes.push_back(&norm);
  return match;
}

// Removes the producers of `values` that nothing reads any more, and their unused producers in
// turn, with the initializers only they read.
void RemoveDeadProducers(Graph& graph, std::vector<std::string> values) {
  while (!values.empty()) {
    const std::string value = values.back();
    values.pop_back();
    RemoveInitializerIfUnused(graph, value);
    const Node* producer = graph.Producer(value);
    if (producer == nullptr) continue;
    const bool used = std::any_of(
        producer->outputs().begin(), producer->outputs().end(), [&](const std::string& output) {
          return !output.empty() &&
                 (graph.IsGraphOutput(output) || !graph.Consumers(output).empty());
        });
    if (used || !producer->Subgraphs().empty()) continue;
    const std::vector<std::string> inputs = producer->inputs();
    graph.RemoveNode(producer->index());
    for (const auto& input : inputs) {
      if (!input.empty()) values.push_back(input);
    }
  }
}

class FuseEmbedLayerNormRule final : public RewriteRule {
 public:
  FuseEmbedLayerNormRule()
      : RewriteRule("fuse_embed_layer_norm", {"LayerNormalization"}, "",
                    {{std::string(kMsDomain), "EmbedLayerNormalization"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchEmbedLayerNorm(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchEmbedLayerNorm(graph, node);
    if (!found) return Status::OK();
    const EmbedMatch match = std::move(*found);
    const Attribute* epsilon = node.FindAttribute("epsilon");
    const float epsilon_value = epsilon != nullptr ? epsilon->f : 1e-5f;
    const std::string output = node.outputs()[0];
    const std::string gamma = node.inputs()[1], beta = node.inputs()[2];

    std::string position_table = match.position.table;
    if (match.position.gather == nullptr) {
      const Tensor& folded = *graph.GetConstantInitializer(position_table, true);
      const int64_t rows = folded.shape().dims().rbegin()[1], width = folded.shape().dims().back();
      position_table = graph.UniqueValueName(fmt::format("{}_rows", match.position.table));
      graph.AddInitializer(
          position_table,
          Tensor::FromVector<float>(
              TensorShape({rows, width}),
              std::span<const float>(folded.Data<float>(), static_cast<size_t>(rows * width))));
    }
    NodeSpec spec;
    spec.op_type = "EmbedLayerNormalization";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {CastToInt32(graph, match.word.indices),
                   match.segment ? CastToInt32(graph, match.segment->indices) : std::string(),
                   match.word.table,
                   position_table,
                   match.segment ? match.segment->table : std::string(),
                   gamma,
                   beta};
    // onnxruntime's kernel always writes mask_index, so the node names it.
    const std::string mask_index = graph.UniqueValueName(fmt::format("{}_mask_index", output));
    spec.outputs = {output, mask_index};
    spec.attributes.push_back(Attribute::Float("epsilon", epsilon_value));
    const std::string positions =
        match.position.gather != nullptr ? match.position.indices : match.position.table;
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    node_removed = true;
    const ValueType* ids_type = graph.FindTypeInScope(match.word.indices);
    std::optional<SymbolicShape> batch;
    if (ids_type != nullptr && ids_type->shape) batch = SymbolicShape{(*ids_type->shape)[0]};
    graph.SetValueType(mask_index, ValueType::Tensor(DataType::kInt32, batch));
    RemoveDeadProducers(graph, {positions});
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseEmbedLayerNormRule() {
  return std::make_unique<FuseEmbedLayerNormRule>();
}

}  // namespace ort
