// Rule fuse_kv_heads_attention: attention whose keys and values are already [B,N,T,h] heads
// (a cache concatenated and repeated for grouped-query attention, LLaMA style) and whose scores
// get an additive mask of any making:
//   y = merge(MatMul(Softmax(MatMul(heads(Q), Transpose(K, 0,1,3,2)) * c + M), V))
// becomes com.microsoft MultiHeadAttention(Q, K, V, attention_bias = M) -> y, the key/value heads
// given 4-D. The mask is added as written, so any causal, padding or cache mask keeps its meaning.
// It runs after fuse_multi_head_attention, which takes the blocks whose heads it can split.

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

struct KvHeadsMatch {
  HeadSplit q;
  std::string key, value, bias;
  float scale = 1;
  HeadMerge merge;
  std::vector<const Node*> nodes;
  std::vector<const Node*> kept;
};

// True when `dim` is `expected` or, where the op broadcasts, 1.
bool SameOrOne(const DimExpr& dim, const DimExpr& expected) {
  return dim == expected || dim.AsConstant() == 1;
}

// The shape of key or value heads. A Reshape whose target element may be 0 (a symbol) gets an
// unknown dimension from shape inference, since 0 would copy the input's; repeat_kv's Reshape to
// [B, N, T, h] writes T so. Its element is taken here: were it 0 at run time, the dimension would
// differ from T, and the kernel, checking key, value and attention_bias against one another,
// would refuse the inputs rather than compute anything.
std::optional<std::vector<DimExpr>> HeadsShape(const Graph& graph, SymbolicShapes& shapes,
                                               const std::string& value) {
  auto shape = shapes.Facts(value).shape;
  const Node* reshape = graph.Producer(value);
  if (!shape || !IsOnnxOp(reshape, "Reshape") || reshape->inputs().size() != 2) return shape;
  const auto& target = shapes.Facts(reshape->inputs()[1]).values;
  if (!target || target->size() != shape->size()) return shape;
  for (size_t i = 0; i < shape->size(); ++i) {
    const auto element = (*target)[i].AsConstant();
    if (!element) (*shape)[i] = (*target)[i];
  }
  return shape;
}

// True when the mask's query or key length `dim` is `expected`, or a length shape inference could
// not tie to anything: a padding mask input with its own length symbol, added to a causal mask
// of the cache's length. The kernels check it against S and T when they run and refuse a
// mismatch; only a length-1 mask, which the Add would have broadcast, is refused so.
bool Admits(const DimExpr& dim, const DimExpr& expected) {
  return dim == expected || !dim.AsConstant();
}

std::optional<KvHeadsMatch> MatchKvHeads(const Graph& graph, const Node& softmax) {
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  if (RankOf(graph, softmax.inputs()[0]) != 4u || (softmax_axis != -1 && softmax_axis != 3) ||
      !IsFloatValue(graph, softmax.inputs()[0])) {
    return std::nullopt;
  }
  KvHeadsMatch match;
  // The product MatMul(q, k^T) below `scores`, read by `readers`, through a scalar factor.
  auto product_below = [&](std::string scores, std::vector<const Node*> readers,
                           std::vector<const Node*>& factor) -> const Node* {
    std::string scaled;
    float scale = 1;
    factor.clear();
    if (const Node* node = MatchScalarFactor(graph, scores, readers, scale, scaled)) {
      factor = {node};
      readers = {node};
      scores = scaled;
    }
    const Node* matmul = ProducerReadOnlyBy(graph, scores, "MatMul", readers);
    if (matmul == nullptr || matmul->inputs().size() != 2) return nullptr;
    match.scale = scale;
    return matmul;
  };
  std::vector<const Node*> factor;
  const Node* qk = product_below(softmax.inputs()[0], {&softmax}, factor);
  // Else the mask: the operand of an Add beside the (scaled) product.
  const Node* add = ProducerReadOnlyBy(graph, softmax.inputs()[0], "Add", {&softmax});
  for (int side = 0; qk == nullptr && add != nullptr && side < 2; ++side) {
    if ((qk = product_below(add->inputs()[side], {add}, factor))) {
      match.bias = add->inputs()[1 - side];
      match.nodes.push_back(add);
    }
  }
  if (qk == nullptr || (!match.bias.empty() && !IsFloatValue(graph, match.bias))) {
    return std::nullopt;
  }
  match.nodes.insert(match.nodes.end(), factor.begin(), factor.end());
  auto q = MatchHeadSplit(graph, qk->inputs()[0], {0, 2, 1, 3});
  if (!q) q = MatchHeadSplit(graph, qk->inputs()[0], {0, 2, 1, 3}, /*shared=*/true);
  const Node* key_transpose = IntermediateProducer(graph, qk->inputs()[1], "Transpose");
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (!q || key_transpose == nullptr || !HasPerm(*key_transpose, {0, 1, 3, 2}) ||
      !IsOnnxOp(pv, "MatMul") || pv->inputs().size() != 2 ||
      pv->inputs()[0] != softmax.outputs()[0]) {
    return std::nullopt;
  }
  auto merge = MatchHeadMerge(graph, *pv);
  if (!merge) return std::nullopt;
  match.key = key_transpose->inputs()[0];
  match.value = pv->inputs()[1];

  // Shapes: q [B,S,N*h]; key and value [B,N,T,h]; scores [B,N,S,T]; the mask [B|1,N|1,S,T].
  SymbolicShapes shapes(graph);
  const auto& query = shapes.Facts(q->projected).shape;
  const auto key = HeadsShape(graph, shapes, match.key);
  const auto value = HeadsShape(graph, shapes, match.value);
  const auto& product = shapes.Facts(qk->outputs()[0]).shape;
  if (!query || !key || !value || !product || query->size() != 3 || key->size() != 4 ||
      value->size() != 4 || product->size() != 4) {
    return std::nullopt;
  }
  const DimExpr heads = DimExpr::Constant(q->heads), head_size = DimExpr::Constant(q->head_size);
  const DimExpr& batch = (*query)[0];
  const DimExpr& total = (*key)[2];
  for (const auto* kv : {&*key, &*value}) {
    if ((*kv)[0] != batch || (*kv)[1] != heads || (*kv)[2] != total || (*kv)[3] != head_size) {
      return std::nullopt;
    }
  }
  // The scores follow from q and k; only the query's [B,S,N,h] split needs checking.
  if ((*product)[0] != batch || (*product)[1] != heads || (*product)[2] != (*query)[1]) {
    return std::nullopt;
  }
  if (!match.bias.empty()) {
    const auto& bias = shapes.Facts(match.bias).shape;
    if (!bias || bias->size() != 4 || !SameOrOne((*bias)[0], batch) ||
        !SameOrOne((*bias)[1], heads) || !Admits((*bias)[2], (*query)[1]) ||
        !Admits((*bias)[3], total)) {
      return std::nullopt;
    }
  }
  std::vector<std::string> query_same = merge->batch_sequence_values;
  query_same.insert(query_same.end(), q->batch_sequence_values.begin(),
                    q->batch_sequence_values.end());
  if (!KeepsBatchAndSequence(graph, q->leading, query_same, q->projected) ||
      !merge->Keeps(graph, q->heads * q->head_size, query_same, q->projected)) {
    return std::nullopt;
  }

  match.scale *= q->scale;
  match.nodes.insert(match.nodes.end(), {qk, &softmax, pv, key_transpose});
  match.nodes.insert(match.nodes.end(), merge->nodes.begin(), merge->nodes.end());
  match.nodes.insert(match.nodes.end(), q->nodes.begin(), q->nodes.end());
  match.kept = q->kept;
  match.merge = std::move(*merge);
  match.q = std::move(*q);
  return match;
}

class FuseKvHeadsAttentionRule final : public RewriteRule {
 public:
  FuseKvHeadsAttentionRule()
      : RewriteRule("fuse_kv_heads_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "MultiHeadAttention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchKvHeads(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchKvHeads(graph, node);
    if (!found) return Status::OK();
    KvHeadsMatch match = std::move(*found);
    NodeSpec spec;
    spec.op_type = "MultiHeadAttention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {match.q.projected, match.key, match.value, "", "", match.bias};
    while (spec.inputs.back().empty()) spec.inputs.pop_back();
    if (!match.merge.rewired.empty()) {
      match.merge.output = graph.UniqueValueName(match.merge.output);
    }
    spec.outputs = {match.merge.output};
    spec.attributes.push_back(Attribute::Int("num_heads", match.q.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.q.head_size);
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    RewireMerge(graph, match.merge);
    node_removed = true;
    for (const Node* kept : match.kept) RemoveIfUnused(graph, *kept);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseKvHeadsAttentionRule() {
  return std::make_unique<FuseKvHeadsAttentionRule>();
}

}  // namespace ort
