// Rule fuse_cross_attention: fuse_attention's blocks (attention_projections.h) with keys and
// values projected from another input than the queries (nn.TransformerDecoder's memory), as
// com.microsoft MultiHeadAttention(Q, K, V, key_padding_mask, attention_bias) over the projections'
// outputs, which stay (batch-first through Transposes where the block is sequence-first).
#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/attention_projections.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

class FuseCrossAttentionRule final : public RewriteRule {
 public:
  FuseCrossAttentionRule()
      : RewriteRule("fuse_cross_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "MultiHeadAttention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const auto match = MatchAttention(graph, node);
    return match && match->cross;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchAttention(graph, node);
    if (!found || !found->cross) return Status::OK();
    AttentionMatch& match = *found;
    NodeSpec spec;
    spec.op_type = "MultiHeadAttention";
    spec.domain = std::string(kMsDomain);
    for (const Projection* p : {&match.q, &match.k, &match.v}) {
      spec.inputs.push_back(p->sequence_first ? SwapLeadingAxes(graph, p->projected, "batch_first")
                                              : p->projected);
    }
    spec.inputs.resize(6);
    if (match.mask) {
      spec.inputs[4] = CastToInt32(graph, match.mask->mask);
      spec.attributes.push_back(Attribute::Float("mask_filter_value", match.mask->filter));
    }
    if (match.bias) spec.inputs[5] = AttentionBias4d(graph, *match.bias);
    while (spec.inputs.back().empty()) spec.inputs.pop_back();
    const std::string output = FusedOutput(graph, match.merge);
    spec.outputs = {output};
    spec.attributes.push_back(Attribute::Int("num_heads", match.q.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.q.head_size);
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    FinishMerge(graph, output, match.merge);
    node_removed = true;
    if (match.mask) {
      for (const Node* chain_node : match.mask->chain) RemoveIfUnused(graph, *chain_node);
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseCrossAttentionRule() {
  return std::make_unique<FuseCrossAttentionRule>();
}

}  // namespace ort
