// Rule fuse_attention: the multi-head self-attention block BERT-family exporters write,
//   q = Transpose(Reshape(MatMul(x, Wq) [+ bq], [B,S,N,h]), perm 0,2,1,3)
//   k = Transpose(Reshape(MatMul(x, Wk) [+ bk], [B,S,N,h]), perm 0,2,3,1)
//   v = Transpose(Reshape(MatMul(x, Wv) [+ bv], [B,S,N,h]), perm 0,2,1,3)
//   y = Reshape(Transpose(MatMul(Softmax(mask(MatMul(q, k) * c)), v), perm 0,2,1,3), [B,S,N*h])
// becomes com.microsoft Attention(x, [Wq|Wk|Wv], [bq|bk|bv], int32(m)) with num_heads N and the
// product of the scalar factors (written as Mul or Div by a constant on the scores, or on q or k
// anywhere along their projection) as scale. [B,S] in the Reshape targets is 0, x's static size,
// or x's own dimension read through Shape. The optional key-padding mask m is one of the forms
// attention_mask.h lists; the mask chain, which every layer may share, goes once the last reader
// is fused. Other head layouts (torch.bmm's [B*N,S,h], nn.MultiheadAttention's sequence-first
// [S,B,D] with Slices of one packed projection) are taken as head_layout.h proves them, with
// batched_key_mask.h's [B*N,1,S] mask or sequence_bias.h's [1,S,T] attn_mask (as attention_bias);
// Attention then reads and writes [B,S,D] through Transposes. The raw 2-D mask keeps the exact
// semantics of any 0/1 mask, where onnxruntime's mask lengths assume right padding.
#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/attention_projections.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

Tensor MergedWeights(const AttentionMatch& match) {
  const int64_t hidden = match.q.heads * match.q.head_size;
  std::vector<ColumnRange> parts;
  for (const Projection* p : {&match.q, &match.k, &match.v}) {
    parts.push_back({p->weight, p->column_begin, hidden});
  }
  return ConcatColumns(parts);
}

// [bq|bk|bv], zeros standing in for a missing bias. Always given, even when no projection has
// one: ONNX Runtime 1.30's CPU Attention crashes on a model that omits it.
Tensor MergedBias(const AttentionMatch& match) {
  const std::vector<const Projection*> projections{&match.q, &match.k, &match.v};
  const int64_t hidden = match.q.heads * match.q.head_size;
  const Tensor zeros =
      Tensor::FromVector<float>({hidden}, std::vector<float>(static_cast<size_t>(hidden), 0.0f));
  std::vector<ColumnRange> parts;
  for (const Projection* p : projections) {
    parts.push_back(p->bias != nullptr ? ColumnRange{p->bias, p->column_begin, hidden}
                                       : ColumnRange{&zeros, 0, hidden});
  }
  return ConcatColumns(parts);
}

class FuseAttentionRule final : public RewriteRule {
 public:
  FuseAttentionRule()
      : RewriteRule("fuse_attention", {"Softmax"}, "", {{std::string(kMsDomain), "Attention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const auto match = MatchAttention(graph, node);
    return match && !match->cross;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchAttention(graph, node);
    if (!found || found->cross) return Status::OK();
    AttentionMatch match = std::move(*found);
    const std::string weights = graph.UniqueValueName(fmt::format("{}_qkv", match.q.weight_name));
    graph.AddInitializer(weights, MergedWeights(match));
    const std::string bias = graph.UniqueValueName(fmt::format("{}_qkv_bias", match.q.weight_name));
    graph.AddInitializer(bias, MergedBias(match));

    NodeSpec spec;
    spec.op_type = "Attention";
    spec.domain = std::string(kMsDomain);
    // Attention reads and writes [B,S,D]; sequence-first ends are transposed.
    const Node* input_transpose = nullptr;
    std::string input = match.q.x;
    if (match.q.sequence_first) {
      input_transpose = graph.Producer(input);
      if (IsOnnxOp(input_transpose, "Transpose") && HasPerm(*input_transpose, {1, 0, 2})) {
        input = input_transpose->inputs()[0];
      } else {
        input_transpose = nullptr;
        input = SwapLeadingAxes(graph, input, "batch_first");
      }
    }
    spec.inputs = {input, weights, bias};
    const std::string output = FusedOutput(graph, match.merge);
    spec.outputs = {output};
    spec.attributes.push_back(Attribute::Int("num_heads", match.q.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.q.head_size);
    if (match.mask) {
      spec.inputs.push_back(CastToInt32(graph, match.mask->mask));
      spec.attributes.push_back(Attribute::Float("mask_filter_value", match.mask->filter));
    }
    if (match.bias) {
      spec.inputs.resize(5);
      spec.inputs.push_back(AttentionBias4d(graph, *match.bias));
    }
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    FinishMerge(graph, output, match.merge);
    node_removed = true;
    if (input_transpose != nullptr) RemoveIfUnused(graph, *input_transpose);
    if (match.mask) {
      for (const Node* chain_node : match.mask->chain) RemoveIfUnused(graph, *chain_node);
    }
    for (const Projection* p : {&match.q, &match.k, &match.v}) {
      RemoveInitializerIfUnused(graph, p->weight_name);
      if (p->bias != nullptr) RemoveInitializerIfUnused(graph, p->bias_name);
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseAttentionRule() {
  return std::make_unique<FuseAttentionRule>();
}

}  // namespace ort
