// Rule fuse_attention: the multi-head self-attention block BERT exporters write,
//   q = Transpose(Reshape(Add(MatMul(x, Wq), bq), [0,0,N,h]), perm 0,2,1,3)
//   k = Transpose(Reshape(Add(MatMul(x, Wk), bk), [0,0,N,h]), perm 0,2,3,1)
//   v = Transpose(Reshape(Add(MatMul(x, Wv), bv), [0,0,N,h]), perm 0,2,1,3)
//   y = Reshape(Transpose(MatMul(Softmax(MatMul(q, k) / c [+ mask]), v), perm 0,2,1,3), [0,0,N*h])
// with the optional additive mask (1 - Cast(Unsqueeze(Unsqueeze(m, 1), 2))) * filter of a 2-D
// [B,S] 0/1 mask m, becomes com.microsoft Attention(x, [Wq|Wk|Wv], [bq|bk|bv], Cast(m, int32))
// with num_heads N, scale 1/c and mask_filter_value filter (onnxruntime's AttentionFusion; the
// raw 2-D mask keeps the exact semantics of any 0/1 mask, where onnxruntime's mask lengths assume
// right padding). The mask chain, which every layer shares, goes once the last reader is fused.
#include <cmath>

#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// One projection x -> MatMul -> Add -> Reshape [0,0,N,h] -> Transpose(perm).
struct Projection {
  std::string x;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
  std::string weight_name, bias_name;
  int64_t heads = 0, head_size = 0;
  std::vector<int64_t> leading;  // the Reshape's first two elements, checked against x
  std::vector<const Node*> nodes;
};

// The additive mask term (1 - float(mask[:, None, None, :])) * filter.
struct MaskTerm {
  std::string mask;  // the 2-D [B,S] mask
  float filter = 0;
  std::vector<const Node*> chain;  // Mul, Sub, Cast?, Unsqueeze(s): bottom-up
};

struct AttentionMatch {
  Projection q, k, v;
  std::optional<MaskTerm> mask;
  float scale = 1;
  std::string output;
  std::vector<const Node*> nodes;  // every node replaced, projections included
};

std::optional<Projection> MatchProjection(const Graph& graph, const std::string& value,
                                          std::initializer_list<int64_t> perm) {
  const Node* transpose = IntermediateProducer(graph, value, "Transpose");
  if (transpose == nullptr || !HasPerm(*transpose, perm)) return std::nullopt;
  const Node* reshape = IntermediateProducer(graph, transpose->inputs()[0], "Reshape");
  if (reshape == nullptr) return std::nullopt;
  const auto shape = ConstantInts(graph, *reshape, 1);
  if (!shape || shape->size() != 4 || (*shape)[2] <= 0 || (*shape)[3] <= 0) {
    return std::nullopt;
  }
  const Node* add = IntermediateProducer(graph, reshape->inputs()[0], "Add");
  if (add == nullptr) return std::nullopt;
  Projection projection;
  projection.heads = (*shape)[2];
  projection.head_size = (*shape)[3];
  projection.leading = {(*shape)[0], (*shape)[1]};
  const int64_t hidden = projection.heads * projection.head_size;
  for (size_t i = 0; i < 2 && projection.nodes.empty(); ++i) {
    const Node* matmul = IntermediateProducer(graph, add->inputs()[1 - i], "MatMul");
    const Tensor* bias = ConstantInput(graph, *add, i);
    if (matmul == nullptr || !IsFloatTensor(bias, std::vector<int64_t>{hidden})) continue;
    const Tensor* weight = ConstantInput(graph, *matmul, 1);
    if (!IsFloatTensor(weight) || weight->shape().rank() != 2 || weight->shape()[1] != hidden) {
      continue;
    }
    projection.x = matmul->inputs()[0];
    projection.weight = weight;
    projection.bias = bias;
    projection.weight_name = matmul->inputs()[1];
    projection.bias_name = add->inputs()[i];
    projection.nodes = {transpose, reshape, add, matmul};
  }
  if (projection.nodes.empty()) return std::nullopt;
  return projection;
}

// Unsqueeze(Unsqueeze(m, [1]), [2]) or Unsqueeze(m, [1, 2]) of a 2-D m: the mask and the nodes.
std::optional<std::string> MatchMaskUnsqueeze(const Graph& graph, const std::string& value,
                                              std::vector<const Node*>& chain) {
  const Node* outer = graph.Producer(value);
  if (!IsOnnxOp(outer, "Unsqueeze")) return std::nullopt;
  const auto outer_axes = UnsqueezeAxes(graph, *outer);
  std::string mask;
  if (outer_axes == std::vector<int64_t>{1, 2}) {
    chain.push_back(outer);
    mask = outer->inputs()[0];
  } else if (outer_axes == std::vector<int64_t>{2}) {
    const Node* inner = graph.Producer(outer->inputs()[0]);
    if (!IsOnnxOp(inner, "Unsqueeze") || UnsqueezeAxes(graph, *inner) != std::vector<int64_t>{1} ||
        !OnlyConsumer(graph, inner->outputs()[0])) {
      return std::nullopt;
    }
    chain.push_back(outer);
    chain.push_back(inner);
    mask = inner->inputs()[0];
  } else {
    return std::nullopt;
  }
  const auto type = ElementTypeOf(graph, mask);
  if (RankOf(graph, mask) != 2u || !type ||
      (*type != DataType::kInt64 && *type != DataType::kInt32 && *type != DataType::kBool)) {
    return std::nullopt;
  }
  return mask;
}

std::optional<MaskTerm> MatchMaskTerm(const Graph& graph, const std::string& value) {
  MaskTerm term;
  const Node* mul = graph.Producer(value);
  if (!IsOnnxOp(mul, "Mul") || mul->outputs()[0] != value) return std::nullopt;
  const Node* sub = nullptr;
  for (size_t i = 0; i < 2 && sub == nullptr; ++i) {
    const auto filter = ScalarFloatConstant(graph, mul->inputs()[i]);
    const Node* producer = graph.Producer(mul->inputs()[1 - i]);
    if (!filter || !IsOnnxOp(producer, "Sub")) continue;
    term.filter = *filter;
    sub = producer;
  }
  if (sub == nullptr || !OnlyConsumer(graph, sub->outputs()[0]) ||
      !IsScalarConstant(graph, sub->inputs()[0], 1.0f)) {
    return std::nullopt;
  }
  term.chain = {mul, sub};
  std::string unsqueezed = sub->inputs()[1];
  // The mask is an integer or bool tensor cast to float (a float mask could hold fractions).
  const Node* cast = graph.Producer(unsqueezed);
  const Attribute* to = IsOnnxOp(cast, "Cast") ? cast->FindAttribute("to") : nullptr;
  if (to == nullptr || to->i != static_cast<int64_t>(DataType::kFloat) ||
      !OnlyConsumer(graph, cast->outputs()[0])) {
    return std::nullopt;
  }
  term.chain.push_back(cast);
  unsqueezed = cast->inputs()[0];
  auto mask = MatchMaskUnsqueeze(graph, unsqueezed, term.chain);
  if (!mask) return std::nullopt;
  term.mask = *mask;
  return term;
}

// True when a Reshape's leading elements keep x's batch and sequence dimensions: 0 (copy), or
// the static dimension itself.
bool KeepsBatchAndSequence(const Graph& graph, const std::string& x,
                           const std::vector<int64_t>& leading) {
  const auto shape = StaticShapeOf(graph, x);
  for (size_t i = 0; i < 2; ++i) {
    if (leading[i] != 0 && !(shape && shape->rank() == 3 && (*shape)[i] == leading[i])) {
      return false;
    }
  }
  return true;
}

// scores / c or scores * c, c a scalar constant: the producer of `value` and the scale.
const Node* MatchScale(const Graph& graph, const std::string& value, float& scale) {
  for (const char* op : {"Div", "Mul"}) {
    const Node* node = IntermediateProducer(graph, value, op);
    if (node == nullptr) continue;
    const auto constant = ScalarFloatConstant(graph, node->inputs()[1]);
    if (!constant || *constant == 0.0f) return nullptr;
    scale = std::string_view(op) == "Div" ? 1.0f / *constant : *constant;
    return node;
  }
  return nullptr;
}

std::optional<AttentionMatch> MatchAttention(const Graph& graph, const Node& softmax) {
  const auto rank = RankOf(graph, softmax.inputs()[0]);
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  // The scores are 4-D by construction (Reshapes to [0,0,N,h]), whatever inference knows.
  if ((rank && *rank != 4) || (softmax_axis != -1 && softmax_axis != 3)) return std::nullopt;

  AttentionMatch match;
  // Upward: [mask Add] <- scale <- MatMul(q, k).
  std::string scores = softmax.inputs()[0];
  if (const Node* mask_add = IntermediateProducer(graph, scores, "Add")) {
    for (size_t i = 0; i < 2 && !match.mask; ++i) {
      float scale = 1;
      if (MatchScale(graph, mask_add->inputs()[i], scale) == nullptr) continue;
      match.mask = MatchMaskTerm(graph, mask_add->inputs()[1 - i]);
      if (match.mask) scores = mask_add->inputs()[i];
    }
    if (!match.mask) return std::nullopt;
    match.nodes.push_back(mask_add);
  }
  const Node* scale_node = MatchScale(graph, scores, match.scale);
  if (scale_node == nullptr) return std::nullopt;
  const Node* qk = IntermediateProducer(graph, scale_node->inputs()[0], "MatMul");
  if (qk == nullptr) return std::nullopt;
  auto q = MatchProjection(graph, qk->inputs()[0], {0, 2, 1, 3});
  auto k = MatchProjection(graph, qk->inputs()[1], {0, 2, 3, 1});
  if (!q || !k) return std::nullopt;

  // Downward: MatMul(probs, v) -> Transpose(0,2,1,3) -> Reshape [0,0,N*h].
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (!IsOnnxOp(pv, "MatMul") || pv->inputs()[0] != softmax.outputs()[0]) return std::nullopt;
  auto v = MatchProjection(graph, pv->inputs()[1], {0, 2, 1, 3});
  if (!v) return std::nullopt;
  const Node* transpose = OnlyConsumer(graph, pv->outputs()[0]);
  if (!IsOnnxOp(transpose, "Transpose") || !HasPerm(*transpose, {0, 2, 1, 3})) return std::nullopt;
  const Node* reshape = OnlyConsumer(graph, transpose->outputs()[0]);
  if (!IsOnnxOp(reshape, "Reshape") || reshape->inputs()[0] != transpose->outputs()[0]) {
    return std::nullopt;
  }

  const int64_t heads = q->heads, head_size = q->head_size;
  const int64_t hidden = heads * head_size;
  const auto out_shape = ConstantInts(graph, *reshape, 1);
  if (!out_shape || out_shape->size() != 3 ||
      !KeepsBatchAndSequence(graph, q->x, {(*out_shape)[0], (*out_shape)[1]}) ||
      ((*out_shape)[2] != hidden && (*out_shape)[2] != -1)) {
    return std::nullopt;
  }
  // One input, one head layout, one input width for the three projections.
  const int64_t width = q->weight->shape()[0];
  for (const Projection* p : {&*k, &*v}) {
    if (p->x != q->x || p->heads != heads || p->head_size != head_size ||
        p->weight->shape()[0] != width) {
      return std::nullopt;
    }
  }
  for (const Projection* p : {&*q, &*k, &*v}) {
    if (!KeepsBatchAndSequence(graph, q->x, p->leading)) {
      return std::nullopt;
    }
  }
  const auto x_rank = RankOf(graph, q->x);
  if (x_rank && *x_rank != 3) return std::nullopt;

  match.output = reshape->outputs()[0];
  match.nodes.insert(match.nodes.end(), {scale_node, qk, &softmax, pv, transpose, reshape});
  for (const Projection* p : {&*q, &*k, &*v}) {
    match.nodes.insert(match.nodes.end(), p->nodes.begin(), p->nodes.end());
  }
  match.q = std::move(*q);
  match.k = std::move(*k);
  match.v = std::move(*v);
  return match;
}

class FuseAttentionRule final : public RewriteRule {
 public:
  FuseAttentionRule()
      : RewriteRule("fuse_attention", {"Softmax"}, "", {{std::string(kMsDomain), "Attention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchAttention(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchAttention(graph, node);
    if (!found) return Status::OK();
    AttentionMatch match = std::move(*found);
    const std::string weights = graph.UniqueValueName(fmt::format("{}_qkv", match.q.weight_name));
    graph.AddInitializer(weights, ConcatColumns({match.q.weight, match.k.weight, match.v.weight}));
    const std::string bias = graph.UniqueValueName(fmt::format("{}_qkv", match.q.bias_name));
    graph.AddInitializer(bias, ConcatColumns({match.q.bias, match.k.bias, match.v.bias}));

    NodeSpec spec;
    spec.op_type = "Attention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {match.q.x, weights, bias};
    spec.outputs = {match.output};
    spec.attributes.push_back(Attribute::Int("num_heads", match.q.heads));
    // The kernel's default scale is 1/sqrt(head_size); any other one is written out.
    const float default_scale = 1.0f / std::sqrt(static_cast<float>(match.q.head_size));
    if (match.scale != default_scale)
      spec.attributes.push_back(Attribute::Float("scale", match.scale));
    if (match.mask) {
      spec.inputs.push_back(CastToInt32(graph, match.mask->mask));
      spec.attributes.push_back(Attribute::Float("mask_filter_value", match.mask->filter));
    }
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    node_removed = true;
    if (match.mask) {
      for (const Node* chain_node : match.mask->chain) RemoveIfUnused(graph, *chain_node);
    }
    for (const Projection* p : {&match.q, &match.k, &match.v}) {
      RemoveInitializerIfUnused(graph, p->weight_name);
      RemoveInitializerIfUnused(graph, p->bias_name);
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseAttentionRule() {
  return std::make_unique<FuseAttentionRule>();
}

}  // namespace ort
