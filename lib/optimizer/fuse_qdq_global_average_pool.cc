// Rule fuse_qdq_global_average_pool: QuantizeLinear(GlobalAveragePool(DequantizeLinear(x))), per
// tensor and of one 8-bit type, becomes com.microsoft QLinearGlobalAveragePool (onnxruntime's QDQ
// unary selector): a CNN's pooled features stay in 8 bits, and channels-last with the layout.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct PoolGroup {
  const Node* pool;
  const Node* activation;
  QuantizationParams x, y;
};

std::optional<PoolGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  const Node* activation = nullptr;
  const Node* pool = QuantizedProducer(graph, q, *y, "GlobalAveragePool", &activation);
  if (pool == nullptr || !pool->HasInput(0)) return std::nullopt;
  const auto x = DequantizeOf(graph, pool->inputs()[0]);
  if (!x || x->count != 1 || x->type != y->type) return std::nullopt;
  return PoolGroup{pool, activation, *x, *y};
}

class FuseQdqGlobalAveragePool final : public RewriteRule {
 public:
  FuseQdqGlobalAveragePool()
      : RewriteRule("fuse_qdq_global_average_pool", {"QuantizeLinear"}, "",
                    {{std::string(kMsDomain), "QLinearGlobalAveragePool"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const PoolGroup group = *MatchGroup(graph, node);
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("channels_last", 0));
    ReplaceQdqGroup(graph, *group.pool, group.activation, node,
                    {group.pool->name(),
                     "QLinearGlobalAveragePool",
                     std::string(kMsDomain),
                     {group.x.node->inputs()[0], group.x.scale, ZeroPointInput(graph, group.x),
                      group.y.scale, ZeroPointInput(graph, group.y)},
                     {},
                     std::move(attributes)},
                    {group.x.node});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqGlobalAveragePoolRule() {
  return std::make_unique<FuseQdqGlobalAveragePool>();
}

}  // namespace ort
