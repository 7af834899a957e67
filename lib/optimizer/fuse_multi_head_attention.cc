// Rule fuse_multi_head_attention: attention over already projected [B,S,D] queries and [B,L,D]
// keys and values, with a key/value cache (GPT-2 style, past concatenated before the new keys)
// and a causal mask (attention_mask.h), as decoders write it:
//   k = Concat(past_k, heads(K)) or heads(K), v likewise, q = heads(Q) (attention_heads.h)
//   y = merge(MatMul(Softmax(masks(MatMul(q, Transpose(k, 0,1,3,2)) * c)), v))
// becomes com.microsoft MultiHeadAttention(Q, K, V, key_padding_mask, attention_bias, past_k,
// past_v) -> y, present_k, present_v (the Concat outputs keep their names) with unidirectional
// set for a causal mask; an additive bias (T5's position bias, attention_bias.h) becomes
// attention_bias. It runs after fuse_attention, which takes the self-attention blocks it can.
#include <algorithm>

#include <fmt/format.h>

#include "lib/optimizer/attention_bias.h"
#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_mask.h"
#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/shape_reads.h"

namespace ort {
namespace {

// Keys or values: the new heads, after the past ones when a cache is concatenated.
struct CachedHeads {
  HeadSplit heads;
  std::string past;     // empty without a cache
  std::string present;  // the concatenated heads, or the new ones when the model outputs them
  std::string total;    // [B,N,T,h]: the Concat's output, or the heads themselves
  const Node* concat = nullptr;
};

std::optional<CachedHeads> MatchCachedHeads(const Graph& graph, const std::string& value) {
  CachedHeads cached;
  cached.total = value;
  const Node* concat = graph.Producer(value);
  if (IsOnnxOp(concat, "Concat") && concat->inputs().size() == 2) {
    const Attribute* axis = concat->FindAttribute("axis");
    if (axis == nullptr || (axis->i != 2 && axis->i != -2)) return std::nullopt;
    cached.concat = concat;
    cached.past = concat->inputs()[0];
    cached.present = value;
    auto heads = MatchHeadSplit(graph, concat->inputs()[1], {0, 2, 1, 3});
    if (!heads) return std::nullopt;
    cached.heads = std::move(*heads);
    return cached;
  }
  // Without a cache the heads may be read elsewhere too (the sequence length of a causal mask);
  // heads the model outputs come out of the fused node as its present output, which they are.
  auto heads = MatchHeadSplit(graph, value, {0, 2, 1, 3}, /*shared=*/true);
  if (!heads) return std::nullopt;
  cached.heads = std::move(*heads);
  if (graph.IsGraphOutput(value)) {
    cached.present = value;
    auto& kept = cached.heads.kept;
    if (!kept.empty() && kept.front()->outputs()[0] == value) {
      cached.heads.nodes.push_back(kept.front());
      kept.erase(kept.begin());
    }
  }
  return cached;
}

struct MultiHeadMatch {
  HeadSplit q;
  CachedHeads k, v;
  std::optional<KeyPaddingMask> padding;
  bool causal = false;
  std::string attention_bias;
  // The scores' Shape readers a bias takes its size from, rewritten onto the inputs.
  std::optional<ShapeReads> score_shapes;
  float scale = 1;
  HeadMerge merge;
  std::vector<const Node*> nodes;
  // Nodes others read too (the query heads a causal mask takes its length from): they stay, and
  // go once nothing reads them.
  std::vector<const Node*> kept;
};

// Dimensions equal to the sequence length of `heads`: axis 1 of the [B,L,..] values, axis 2 of
// [B,N,L,h] ones (the given ones, and the head transposes of the Reshape's output).
std::vector<DimensionOf> SequenceDimensions(const Graph& graph, const HeadSplit& heads,
                                            std::vector<std::string> head_major) {
  std::vector<DimensionOf> dims;
  for (const auto& value : heads.batch_sequence_values) dims.push_back({value, 1});
  for (const Node* reader : graph.Consumers(heads.batch_sequence_values.front())) {
    if (IsOnnxOp(reader, "Transpose") && HasPerm(*reader, {0, 2, 1, 3})) {
      head_major.push_back(reader->outputs()[0]);
    }
  }
  for (const auto& value : head_major) dims.push_back({value, 2});
  return dims;
}

std::optional<MultiHeadMatch> MatchMultiHead(const Graph& graph, const Node& softmax) {
  const auto rank = RankOf(graph, softmax.inputs()[0]);
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  if ((rank && *rank != 4) || (softmax_axis != -1 && softmax_axis != 3)) return std::nullopt;

  MultiHeadMatch match;
  std::string scores = softmax.inputs()[0];
  std::vector<const Node*> readers{&softmax};
  // The masks and the bias, in any order: a key-padding mask, a causal one, an additive bias.
  std::optional<CausalMask> causal;
  std::optional<AttentionBias> bias;
  for (int layer = 0; layer < 3; ++layer) {
    if (!match.padding) {
      if (auto padding = MatchKeyPaddingMask(graph, scores)) {
        scores = padding->scores;
        readers = padding->applied;
        match.nodes.insert(match.nodes.end(), padding->applied.begin(), padding->applied.end());
        match.padding = std::move(padding);
        continue;
      }
    }
    if (!causal && OnlyConsumer(graph, scores) != nullptr) {
      if ((causal = MatchCausalMask(graph, scores))) {
        scores = causal->scores;
        readers = causal->applied;
        match.nodes.insert(match.nodes.end(), causal->applied.begin(), causal->applied.end());
        continue;
      }
    }
    if (!bias && OnlyConsumer(graph, scores) != nullptr &&
        (bias = MatchAttentionBias(graph, scores))) {
      scores = bias->scores;
      readers = {bias->add};
      match.nodes.push_back(bias->add);
    }
  }
  std::string scaled;
  if (const Node* factor = MatchScalarFactor(graph, scores, readers, match.scale, scaled)) {
    match.nodes.push_back(factor);
    readers = {factor};
    scores = scaled;
  }
  // With a bias, the scores may have Shape readers too (the bias sized like them).
  const Node* qk =
      bias ? graph.Producer(scores) : ProducerReadOnlyBy(graph, scores, "MatMul", readers);
  if (!IsOnnxOp(qk, "MatMul") || qk->outputs()[0] != scores || qk->inputs().size() != 2) {
    return std::nullopt;
  }
  const std::string& query = qk->inputs()[0];
  auto q = MatchHeadSplit(graph, query, {0, 2, 1, 3});
  if (!q) q = MatchHeadSplit(graph, query, {0, 2, 1, 3}, /*shared=*/true);
  // Keys come as Transpose(0,1,3,2) of [B,N,T,h] heads, or, without a cache, merged into one
  // Transpose(0,2,3,1) of the Reshape.
  std::optional<CachedHeads> k;
  const Node* key_transpose = IntermediateProducer(graph, qk->inputs()[1], "Transpose");
  if (!q || key_transpose == nullptr) return std::nullopt;
  if (HasPerm(*key_transpose, {0, 1, 3, 2})) {
    k = MatchCachedHeads(graph, key_transpose->inputs()[0]);
  } else if (auto heads = MatchHeadSplit(graph, qk->inputs()[1], {0, 2, 3, 1}, true)) {
    k = CachedHeads{std::move(*heads), "", "", "", nullptr};
    key_transpose = nullptr;
  }

  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (!k || !IsOnnxOp(pv, "MatMul") || pv->inputs().size() != 2 ||
      pv->inputs()[0] != softmax.outputs()[0]) {
    return std::nullopt;
  }
  auto v = MatchCachedHeads(graph, pv->inputs()[1]);
  if (!v || v->heads.scale != 1.0f || k->past.empty() != v->past.empty()) return std::nullopt;
  const auto merge = MatchHeadMerge(graph, *pv);
  if (!merge) return std::nullopt;

  const int64_t heads = q->heads, head_size = q->head_size;
  for (const HeadSplit* h : {&k->heads, &v->heads}) {
    if (h->heads != heads || h->head_size != head_size) return std::nullopt;
  }
  // A bias needs symbolic inference; that analysis also serves the head checks (which would
  // otherwise make their own where the recorded types cannot tell).
  std::optional<SymbolicShapes> shapes;
  if (bias) shapes.emplace(graph);
  std::vector<std::string> query_same = merge->batch_sequence_values;
  query_same.insert(query_same.end(), q->batch_sequence_values.begin(),
                    q->batch_sequence_values.end());
  if (!KeepsBatchAndSequence(graph, q->leading, query_same, q->projected,
                             shapes ? &*shapes : nullptr) ||
      !merge->Keeps(graph, heads * head_size, query_same, q->projected)) {
    return std::nullopt;
  }
  for (const CachedHeads* c : {&*k, &*v}) {
    if (!KeepsBatchAndSequence(graph, c->heads.leading, c->heads.batch_sequence_values,
                               c->heads.projected, shapes ? &*shapes : nullptr)) {
      return std::nullopt;
    }
  }
  if (causal) {
    std::vector<DimensionOf> key_lengths = SequenceDimensions(graph, k->heads, {k->total});
    const auto value_lengths = SequenceDimensions(graph, v->heads, {v->total});
    key_lengths.insert(key_lengths.end(), value_lengths.begin(), value_lengths.end());
    const auto query_lengths = SequenceDimensions(graph, *q, {query});
    if (!causal->Proves(graph, key_lengths, query_lengths)) return std::nullopt;
    match.causal = true;
  }

  if (bias) {
    const std::vector<std::string> anchors{q->projected, k->heads.projected, v->heads.projected};
    if (!ProvesAttentionBiasShape(graph, *shapes, bias->bias, scores, anchors) ||
        !(match.score_shapes = PlanShapeReads(graph, *shapes, {scores}, readers, anchors))) {
      return std::nullopt;
    }
    match.attention_bias = bias->bias;
  }

  match.merge = *merge;
  match.scale *= q->scale * k->heads.scale;
  match.nodes.insert(match.nodes.end(), {qk, &softmax, pv});
  if (key_transpose != nullptr) match.nodes.push_back(key_transpose);
  match.nodes.insert(match.nodes.end(), merge->nodes.begin(), merge->nodes.end());
  for (const HeadSplit* h : {&*q, &k->heads, &v->heads}) {
    match.nodes.insert(match.nodes.end(), h->nodes.begin(), h->nodes.end());
    match.kept.insert(match.kept.end(), h->kept.begin(), h->kept.end());
  }
  for (const CachedHeads* c : {&*k, &*v}) {
    if (c->concat != nullptr) match.nodes.push_back(c->concat);
  }
  match.q = std::move(*q);
  match.k = std::move(*k);
  match.v = std::move(*v);
  return match;
}

class FuseMultiHeadAttentionRule final : public RewriteRule {
 public:
  FuseMultiHeadAttentionRule()
      : RewriteRule("fuse_multi_head_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "MultiHeadAttention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchMultiHead(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchMultiHead(graph, node);
    if (!found) return Status::OK();
    MultiHeadMatch match = std::move(*found);
    if (match.score_shapes) ApplyShapeReads(graph, *match.score_shapes);
    NodeSpec spec;
    spec.op_type = "MultiHeadAttention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {match.q.projected,
                   match.k.heads.projected,
                   match.v.heads.projected,
                   "",
                   match.padding ? CastToInt32(graph, match.padding->mask) : "",
                   match.attention_bias,
                   match.k.past,
                   match.v.past};
    while (!spec.inputs.empty() && spec.inputs.back().empty()) spec.inputs.pop_back();
    if (!match.merge.rewired.empty()) {
      match.merge.output = graph.UniqueValueName(match.merge.output);
    }
    spec.outputs = {match.merge.output, match.k.present, match.v.present};
    while (spec.outputs.back().empty()) spec.outputs.pop_back();
    spec.attributes.push_back(Attribute::Int("num_heads", match.q.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.q.head_size);
    if (match.causal) spec.attributes.push_back(Attribute::Int("unidirectional", 1));
    if (match.padding) {
      spec.attributes.push_back(Attribute::Float("mask_filter_value", match.padding->filter));
    }
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    RewireMerge(graph, match.merge);
    node_removed = true;
    if (match.padding) {
      for (const Node* chain_node : match.padding->chain) RemoveIfUnused(graph, *chain_node);
    }
    RemoveUnlessDataRead(graph, match.kept,
                         {match.q.projected, match.k.heads.projected, match.v.heads.projected});
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseMultiHeadAttentionRule() {
  return std::make_unique<FuseMultiHeadAttentionRule>();
}

}  // namespace ort
