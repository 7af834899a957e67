// Rule fuse_bias_gelu: com.microsoft Gelu(Add(x, bias)) with a constant 1-D bias along x's last
// axis becomes BiasGelu(x, bias); FastGelu(Add(x, bias)) becomes FastGelu(x, bias).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

class FuseBiasGelu final : public RewriteRule {
 public:
  FuseBiasGelu()
      : RewriteRule("fuse_bias_gelu", {"Gelu", "FastGelu"}, std::string(kMsDomain),
                    {{std::string(kMsDomain), "BiasGelu"}, {std::string(kMsDomain), "FastGelu"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return BiasIndex(graph, node) >= 0;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const int bias = BiasIndex(graph, node);
    const Node& add = *graph.Producer(node.inputs()[0]);
    const std::string op = node.op_type() == "Gelu" ? "BiasGelu" : "FastGelu";
    ReplaceByFusedNode(
        graph, {&add, &node},
        {op,
         op,
         std::string(kMsDomain),
         {add.inputs()[static_cast<size_t>(1 - bias)], add.inputs()[static_cast<size_t>(bias)]},
         {node.outputs()[0]},
         {}});
    node_removed = true;
    return Status::OK();
  }

 private:
  // Which input of the Add feeding `node` is the 1-D bias (0 or 1), or -1 when it does not fuse.
  static int BiasIndex(const Graph& graph, const Node& node) {
    if (node.inputs().size() != 1 || !node.HasInput(0)) return -1;  // FastGelu with a bias
    const Node* add = IntermediateProducer(graph, node.inputs()[0], "Add");
    if (add == nullptr || add->inputs().size() != 2 || add->inputs()[0] == add->inputs()[1]) {
      return -1;
    }
    if (!IsFloatValue(graph, add->inputs()[0]) || !IsFloatValue(graph, add->inputs()[1])) return -1;
    for (int bias = 0; bias < 2; ++bias) {
      const Tensor* constant = graph.GetConstantInitializer(add->inputs()[bias], true);
      if (constant == nullptr || constant->shape().rank() != 1) continue;
      const auto x_last = LastDimension(graph, add->inputs()[1 - bias]);
      if (x_last && *x_last == constant->shape().dims()[0]) return bias;
    }
    return -1;
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseBiasGeluRule() { return std::make_unique<FuseBiasGelu>(); }

}  // namespace ort
