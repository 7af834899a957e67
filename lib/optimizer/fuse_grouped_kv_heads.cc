// Rule fuse_grouped_kv_heads: a MultiHeadAttention whose head-major key and value are repeat_kv
// copies, Reshape(Expand(Unsqueeze(kv, 2), [B, Nkv, G, T, h]), [B, Nkv * G, T, h]) (LLaMA's
// grouped-query attention, after fuse_kv_heads_attention), reads kv itself with this engine's
// kv_num_heads = Nkv: each key and value head serves G query heads without being copied G times.
// A session-only rule (passes.inc): onnxruntime's MultiHeadAttention has no kv_num_heads.
#include <algorithm>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

struct RepeatedHeads {
  std::string heads;  // [B, Nkv, T, h]
  int64_t kv_heads = 0;
  std::vector<const Node*> chain;  // the Reshape, the Expand, the Unsqueeze
};

bool SameDims(const std::optional<std::vector<DimExpr>>& shape,
              const std::vector<DimExpr>& expected) {
  return shape && *shape == expected;
}

// The repeat_kv chain making `value` ([B, num_heads, T, h]) from fewer heads.
std::optional<RepeatedHeads> MatchRepeatKv(const Graph& graph, SymbolicShapes& shapes,
                                           const std::string& value, int64_t num_heads) {
  const Node* reshape = graph.Producer(value);
  if (!IsOnnxOp(reshape, "Reshape") || reshape->inputs().size() != 2) return std::nullopt;
  const Node* expand = graph.Producer(reshape->inputs()[0]);
  if (!IsOnnxOp(expand, "Expand") || expand->inputs().size() != 2) return std::nullopt;
  const Node* unsqueeze = graph.Producer(expand->inputs()[0]);
  if (!IsOnnxOp(unsqueeze, "Unsqueeze")) return std::nullopt;
  RepeatedHeads match;
  match.heads = unsqueeze->inputs()[0];
  const auto& kv = shapes.Facts(match.heads).shape;
  if (!kv || kv->size() != 4 || !(*kv)[1].AsConstant() || !(*kv)[3].AsConstant()) {
    return std::nullopt;
  }
  const DimExpr &batch = (*kv)[0], &kv_heads = (*kv)[1], &length = (*kv)[2], &size = (*kv)[3];
  match.kv_heads = *kv_heads.AsConstant();
  if (match.kv_heads <= 0 || num_heads % match.kv_heads != 0 || match.kv_heads == num_heads) {
    return std::nullopt;
  }
  const DimExpr group = DimExpr::Constant(num_heads / match.kv_heads);
  const DimExpr heads = DimExpr::Constant(num_heads);
  // A new axis 2, expanded to the group: head n of the result is kv head n / G.
  if (!SameDims(shapes.Facts(unsqueeze->outputs()[0]).shape,
                {batch, kv_heads, DimExpr::Constant(1), length, size}) ||
      !SameDims(shapes.Facts(expand->outputs()[0]).shape, {batch, kv_heads, group, length, size})) {
    return std::nullopt;
  }
  // Merged to [B, N, T, h]: proven, or so written (a target element that is 0 at run time would
  // copy G, not T, and the Reshape would fail).
  const std::vector<DimExpr> merged{batch, heads, length, size};
  if (!SameDims(shapes.Facts(value).shape, merged) &&
      !SameDims(shapes.Facts(reshape->inputs()[1]).values, merged)) {
    return std::nullopt;
  }
  match.chain = {reshape, expand, unsqueeze};
  return match;
}

struct GroupedKvMatch {
  RepeatedHeads key, value;
};

std::optional<GroupedKvMatch> MatchGroupedKv(const Graph& graph, const Node& attention) {
  if (attention.domain() != kMsDomain || attention.FindAttribute("kv_num_heads") != nullptr ||
      attention.inputs().size() < 3 || !attention.HasInput(1) || !attention.HasInput(2) ||
      attention.HasInput(6) || attention.HasInput(7)) {
    return std::nullopt;
  }
  // The present outputs would hold num_heads heads.
  for (size_t i = 1; i < attention.outputs().size(); ++i) {
    if (i <= 2 && !attention.outputs()[i].empty()) return std::nullopt;
  }
  const Attribute* heads = attention.FindAttribute("num_heads");
  if (heads == nullptr || heads->i <= 0) return std::nullopt;
  SymbolicShapes shapes(graph);
  auto key = MatchRepeatKv(graph, shapes, attention.inputs()[1], heads->i);
  auto value = MatchRepeatKv(graph, shapes, attention.inputs()[2], heads->i);
  if (!key || !value || key->kv_heads != value->kv_heads) return std::nullopt;
  return GroupedKvMatch{std::move(*key), std::move(*value)};
}

class FuseGroupedKvHeads final : public RewriteRule {
 public:
  FuseGroupedKvHeads()
      : RewriteRule("fuse_grouped_kv_heads", {"MultiHeadAttention"}, std::string(kMsDomain),
                    {{std::string(kMsDomain), "MultiHeadAttention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroupedKv(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const auto match = MatchGroupedKv(graph, node);
    if (!match) return Status::OK();
    graph.SetNodeInput(node, 1, match->key.heads);
    graph.SetNodeInput(node, 2, match->value.heads);
    node.SetAttribute(Attribute::Int("kv_num_heads", match->key.kv_heads));
    // By index, readers first: key and value may share steps (one chain repeating both).
    std::vector<NodeIndex> steps;
    for (const RepeatedHeads* repeated : {&match->key, &match->value}) {
      for (const Node* step : repeated->chain) {
        if (std::find(steps.begin(), steps.end(), step->index()) == steps.end()) {
          steps.push_back(step->index());
        }
      }
    }
    for (NodeIndex index : steps) {
      if (const Node* step = graph.GetNode(index)) RemoveIfUnused(graph, *step);
    }
    node_removed = false;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseGroupedKvHeadsRule() {
  return std::make_unique<FuseGroupedKvHeads>();
}

}  // namespace ort
