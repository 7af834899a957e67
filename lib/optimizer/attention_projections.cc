#include "lib/optimizer/attention_projections.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/batched_key_mask.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/shape_elements.h"

namespace ort {
namespace {

// The sizes of a Split's parts along its axis (attribute before opset 13, input from 13, equal
// parts of `length` when neither gives them); nullopt when they are not constant.
std::optional<std::vector<int64_t>> SplitSizes(const Graph& graph, const Node& split,
                                               std::optional<int64_t> length) {
  if (const Attribute* sizes = split.FindAttribute("split")) return sizes->ints;
  if (split.HasInput(1)) return ConstantInts(graph, split, 1);
  const auto parts = static_cast<int64_t>(split.outputs().size());
  if (!length || parts == 0 || *length % parts != 0) return std::nullopt;
  return std::vector<int64_t>(static_cast<size_t>(parts), *length / parts);
}

// As MatchSplitPart, for a part sliced off the last axis with constant bounds (torch's chunk of
// nn.MultiheadAttention's packed in_proj): [begin, begin + hidden) within the packed width.
bool MatchSlicePart(const Graph& graph, const Node& slice, int64_t hidden, Projection& projection,
                    int64_t& columns) {
  const std::string& packed = slice.inputs()[0];
  const auto width = LastDimension(graph, packed);
  if (graph.OpsetVersion("") < 10 || !width) return false;
  const auto starts = ConstantInts(graph, slice, 1), ends = ConstantInts(graph, slice, 2);
  const auto axes = slice.HasInput(3) ? ConstantInts(graph, slice, 3) : std::nullopt;
  const auto steps = slice.HasInput(4) ? ConstantInts(graph, slice, 4) : std::nullopt;
  const bool last_axis =
      axes && axes->size() == 1 &&
      ((*axes)[0] == -1 || ((*axes)[0] == 2 && RankOf(graph, packed) == size_t{3}));
  if (!starts || !ends || starts->size() != 1 || ends->size() != 1 || !last_axis ||
      (slice.HasInput(4) && (!steps || *steps != std::vector<int64_t>{1}))) {
    return false;
  }
  const int64_t begin = (*starts)[0], end = std::min((*ends)[0], *width);
  if (begin < 0 || end - begin != hidden) return false;
  projection.column_begin = begin;
  projection.split = &slice;
  projection.split_output = slice.outputs()[0];
  projection.nodes.push_back(&slice);
  columns = *width;
  return true;
}

// When `value` is a part of a Split along the last axis of a rank-3 packed projection (GPT-2's
// c_attn): records the Split and the part's first column in `projection`, sets `columns` to the
// packed width, and returns true. Returns true with nothing recorded for any other producer, and
// false for a Split that cannot be a packed projection.
bool MatchSplitPart(const Graph& graph, const std::string& value, int64_t hidden,
                    Projection& projection, int64_t& columns) {
  const Node* split = graph.Producer(value);
  if (IsOnnxOp(split, "Slice")) return MatchSlicePart(graph, *split, hidden, projection, columns);
  if (!IsOnnxOp(split, "Split")) return true;
  const Attribute* axis = split->FindAttribute("axis");
  const std::string& packed = split->inputs()[0];
  const bool last_axis =
      axis != nullptr && (axis->i == -1 || (axis->i == 2 && RankOf(graph, packed) == size_t{3}));
  if (!last_axis || OnlyConsumer(graph, value) == nullptr) return false;
  const auto sizes = SplitSizes(graph, *split, LastDimension(graph, packed));
  if (!sizes || sizes->size() != split->outputs().size()) return false;
  int64_t begin = 0;
  for (size_t i = 0; i < sizes->size(); ++i) {
    if (split->outputs()[i] == value) {
      if ((*sizes)[i] != hidden) return false;
      projection.column_begin = begin;
    }
    begin += (*sizes)[i];
  }
  projection.split = split;
  projection.split_output = value;
  projection.nodes.push_back(split);
  columns = begin;
  return true;
}

std::optional<Projection> MatchProjection(const Graph& graph, const std::string& value,
                                          std::initializer_list<int64_t> perm) {
  auto heads = MatchHeadSplit(graph, value, perm, false, /*chains=*/true);
  if (!heads) return std::nullopt;
  Projection projection;
  static_cast<HeadSplit&>(projection) = std::move(*heads);
  projection.head_nodes = projection.nodes.size();
  const int64_t hidden = projection.heads * projection.head_size;
  std::string current = projection.projected;
  int64_t columns = hidden;
  if (!MatchSplitPart(graph, current, hidden, projection, columns)) return std::nullopt;
  // Packed parts sliced off read the packed value beside each other (MatchAttention checks that
  // they are q, k and v); a Split is its only reader.
  const bool sliced = IsOnnxOp(projection.split, "Slice");
  if (projection.split != nullptr) current = projection.split->inputs()[0];
  const auto producer = [&](const std::string& value, std::string_view op) -> const Node* {
    if (!sliced || value != projection.split->inputs()[0]) {
      return IntermediateProducer(graph, value, op);
    }
    const Node* node = graph.Producer(value);
    return IsOnnxOp(node, op) && node->outputs()[0] == value && !graph.IsGraphOutput(value)
               ? node
               : nullptr;
  };
  const Node* matmul = nullptr;
  if (const Node* add = producer(current, "Add")) {
    for (size_t i = 0; i < 2 && matmul == nullptr; ++i) {
      const Tensor* bias = ConstantInput(graph, *add, i);
      if (!IsFloatTensor(bias, std::vector<int64_t>{columns})) continue;
      matmul = IntermediateProducer(graph, add->inputs()[1 - i], "MatMul");
      projection.bias = bias;
      projection.bias_name = add->inputs()[i];
    }
    if (matmul == nullptr) return std::nullopt;
    projection.nodes.push_back(add);
    if (!projection.sequence_first) projection.batch_sequence_values.push_back(current);
  } else {
    matmul = producer(current, "MatMul");
  }
  if (matmul == nullptr || matmul->inputs().size() != 2) return std::nullopt;
  const Tensor* weight = ConstantInput(graph, *matmul, 1);
  if (!IsFloatTensor(weight) || weight->shape().rank() != 2 || weight->shape()[1] != columns) {
    return std::nullopt;
  }
  projection.nodes.push_back(matmul);
  projection.x = matmul->inputs()[0];
  projection.weight = weight;
  projection.weight_name = matmul->inputs()[1];
  if (!projection.sequence_first) {
    projection.batch_sequence_values.insert(projection.batch_sequence_values.end(),
                                            {matmul->outputs()[0], projection.x});
  }
  return projection;
}

}  // namespace

std::optional<AttentionMatch> MatchAttention(const Graph& graph, const Node& softmax) {
  const auto rank = RankOf(graph, softmax.inputs()[0]);
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  // The scores are [B,N,S,S] or [B*N,S,S], as the matched heads prove, whatever inference knows.
  if ((rank && *rank != 4 && *rank != 3) ||
      (softmax_axis != -1 && softmax_axis != 3 && !(softmax_axis == 2 && rank == size_t{3}))) {
    return std::nullopt;
  }

  AttentionMatch match;
  // Upward: [mask] <- [scalar factor] <- MatMul(q, k).
  std::string scores = softmax.inputs()[0];
  std::vector<const Node*> readers{&softmax};
  match.mask = MatchKeyPaddingMask(graph, scores);
  std::optional<BatchedKeyMask> batched;
  if (!match.mask && (batched = MatchBatchedKeyMask(graph, scores))) {
    match.mask = batched->mask;
    if (!batched->attn_mask.empty()) match.bias = SequenceBias{batched->attn_mask, scores, nullptr};
  }
  if (match.mask) {
    scores = match.mask->scores;
    readers = match.mask->applied;
    match.nodes = match.mask->applied;
  } else if ((match.bias = MatchSequenceBias(graph, scores, readers))) {
    scores = match.bias->scores;
    readers = {match.bias->add};
    match.nodes = {match.bias->add};
  }
  std::string scaled;
  if (const Node* factor = MatchScalarFactor(graph, scores, readers, match.scale, scaled)) {
    match.nodes.push_back(factor);
    readers = {factor};
    scores = scaled;
  }
  bool keys_transposed = false;
  const Node* qk = ProducerReadOnlyBy(graph, scores, "MatMul", readers);
  if (qk == nullptr)
    qk = MatchScoresFusedMatMul(graph, scores, readers, match.scale, keys_transposed);
  if (qk == nullptr || qk->inputs().size() != 2) return std::nullopt;
  auto q = MatchProjection(graph, qk->inputs()[0], {0, 2, 1, 3});
  auto k = MatchProjection(graph, qk->inputs()[1],
                           keys_transposed ? std::initializer_list<int64_t>{0, 2, 1, 3}
                                           : std::initializer_list<int64_t>{0, 2, 3, 1});
  if (!q || !k) return std::nullopt;

  // Downward: MatMul(probs, v) -> Transpose(0,2,1,3) -> Reshape [B,S,N*h].
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (!IsOnnxOp(pv, "MatMul") || pv->inputs().size() != 2 ||
      pv->inputs()[0] != softmax.outputs()[0]) {
    return std::nullopt;
  }
  auto v = MatchProjection(graph, pv->inputs()[1], {0, 2, 1, 3});
  if (!v || v->scale != 1.0f) return std::nullopt;
  // One head layout for the three: batched alike, projections alike.
  for (const Projection* p : {&*k, &*v}) {
    if (p->rank != q->rank || p->sequence_first != q->sequence_first) return std::nullopt;
  }
  if ((rank && *rank != q->rank) || (softmax_axis == 3 && q->rank != 4)) return std::nullopt;
  const auto merge = MatchHeadMerge(graph, *pv, &*q);
  if (!merge) return std::nullopt;

  const int64_t heads = q->heads, head_size = q->head_size;
  const int64_t hidden = heads * head_size;
  for (const Projection* p : {&*k, &*v}) {
    if (p->heads != heads || p->head_size != head_size) return std::nullopt;
  }
  // Self-attention: one input, one input width, packed alike for the three projections.
  // Cross-attention: keys and values of one other input.
  match.cross = k->x == v->x && k->x != q->x;
  const int64_t width = q->weight->shape()[0];
  for (const Projection* p : {&*k, &*v}) {
    if (!match.cross && (p->x != q->x || p->weight->shape()[0] != width ||
                         (p->split == nullptr) != (q->split == nullptr))) {
      return std::nullopt;
    }
  }
  // A packed projection's Split (or Slices) goes with a self-attention block: every part must be
  // one of q, k, v.
  for (const Projection* p : {&*q, &*k, &*v}) {
    if (p->split == nullptr || match.cross) continue;
    std::vector<std::string> parts = p->split->outputs();
    if (IsOnnxOp(p->split, "Slice")) {
      if (graph.IsGraphOutput(p->split->inputs()[0]) ||
          OnlyConsumer(graph, p->split_output) == nullptr) {
        return std::nullopt;
      }
      parts.clear();
      for (const Node* reader : graph.Consumers(p->split->inputs()[0])) {
        parts.push_back(reader->outputs()[0]);
      }
    }
    for (const auto& part : parts) {
      if (part != q->split_output && part != k->split_output && part != v->split_output) {
        return std::nullopt;
      }
    }
  }
  for (const Projection* p : {&*q, &*k}) {
    const auto x_rank = RankOf(graph, p->x);
    if (x_rank && *x_rank != 3) return std::nullopt;
  }
  // The key padding masks attention_mask.h knows are [B,1,1,S], for [B,N,S,S] scores only;
  // batched_key_mask.h's are [B*N,1,S], for [B*N,S,S] scores.
  if (match.mask && q->rank != (batched ? 3 : 4)) return std::nullopt;
  if (batched && !batched->Proves(graph, k->projected, k->sequence_first, k->heads)) {
    return std::nullopt;
  }
  // sequence_bias.h's [1,S,T] attn_mask broadcasts over [B*N,S,T] scores only.
  if (match.bias &&
      (q->rank != 3 || !ProvesSequenceBias(graph, *match.bias, qk->inputs()[0], qk->inputs()[1],
                                           keys_transposed ? 1 : 2))) {
    return std::nullopt;
  }
  // Beside a key padding mask, ORT adds the filter to the bias where torch fills it in: alike
  // only for a -inf filter and a bias without +inf or NaN.
  if (match.bias && match.mask &&
      (match.mask->filter != -INFINITY || !NeverPositiveInfinityOrNaN(graph, match.bias->bias))) {
    return std::nullopt;
  }
  // [B,S] of the queries and the merge; [B,T] of the keys and values, the same in self-attention.
  std::vector<std::string> same = merge->batch_sequence_values, key_same;
  for (const Projection* p : {&*q, &*k, &*v}) {
    auto& values = match.cross && p != &*q ? key_same : same;
    values.insert(values.end(), p->batch_sequence_values.begin(), p->batch_sequence_values.end());
  }
  for (const Projection* p : {&*q, &*k, &*v}) {
    const bool keys = match.cross && p != &*q;
    if (!KeepsBatchAndSequence(graph, p->leading, keys ? key_same : same, keys ? k->x : q->x)) {
      return std::nullopt;
    }
  }
  if (!merge->Keeps(graph, hidden, same, q->x)) return std::nullopt;

  match.merge = *merge;
  match.scale *= q->scale * k->scale;
  match.nodes.insert(match.nodes.end(), {qk, &softmax, pv});
  match.nodes.insert(match.nodes.end(), merge->nodes.begin(), merge->nodes.end());
  for (const Projection* p : {&*q, &*k, &*v}) {
    const auto end =
        match.cross ? p->nodes.begin() + static_cast<ptrdiff_t>(p->head_nodes) : p->nodes.end();
    match.nodes.insert(match.nodes.end(), p->nodes.begin(), end);
  }
  match.q = std::move(*q);
  match.k = std::move(*k);
  match.v = std::move(*v);
  return match;
}

// [Wq|Wk|Wv] from the projections' columns.

void AddTranspose(Graph& graph, const std::string& input, const std::string& output) {
  NodeSpec transpose;
  transpose.name = graph.UniqueNodeName(fmt::format("{}_transpose", output));
  transpose.op_type = "Transpose";
  transpose.inputs = {input};
  transpose.outputs = {output};
  transpose.attributes.push_back(Attribute::Ints("perm", {1, 0, 2}));
  graph.AddNode(std::move(transpose));
}

std::string SwapLeadingAxes(Graph& graph, const std::string& value, std::string_view suffix) {
  const std::string output = graph.UniqueValueName(fmt::format("{}_{}", value, suffix));
  graph.SetValueType(output, ValueType::Tensor(DataType::kFloat, std::nullopt));
  AddTranspose(graph, value, output);
  return output;
}

std::string AttentionBias4d(Graph& graph, const SequenceBias& sequence_bias) {
  const std::string& bias = sequence_bias.bias;
  const std::vector<int64_t> axes =
      sequence_bias.rank == 2 ? std::vector<int64_t>{0, 1} : std::vector<int64_t>{0};
  NodeSpec unsqueeze;
  unsqueeze.name = graph.UniqueNodeName(fmt::format("{}_attention_bias", bias));
  unsqueeze.op_type = "Unsqueeze";
  unsqueeze.inputs = {bias};
  if (graph.OpsetVersion("") >= 13) {
    const std::string name = graph.UniqueValueName(fmt::format("{}_axes", bias));
    graph.AddInitializer(name,
                         Tensor::FromVector<int64_t>({static_cast<int64_t>(axes.size())}, axes));
    unsqueeze.inputs.push_back(name);
  } else {
    unsqueeze.attributes.push_back(Attribute::Ints("axes", axes));
  }
  const std::string output = graph.UniqueValueName(fmt::format("{}_4d", bias));
  graph.SetValueType(output, ValueType::Tensor(DataType::kFloat, std::nullopt));
  unsqueeze.outputs = {output};
  graph.AddNode(std::move(unsqueeze));
  return output;
}

std::string FusedOutput(Graph& graph, HeadMerge& merge) {
  if (!merge.rewired.empty()) merge.output = graph.UniqueValueName(merge.output);
  if (!merge.sequence_first) return merge.output;
  const std::string output = graph.UniqueValueName(fmt::format("{}_batch_first", merge.output));
  graph.SetValueType(output, ValueType::Tensor(DataType::kFloat, std::nullopt));
  return output;
}

void FinishMerge(Graph& graph, const std::string& output, const HeadMerge& merge) {
  if (merge.sequence_first) AddTranspose(graph, output, merge.output);
  RewireMerge(graph, merge);
}

}  // namespace ort
