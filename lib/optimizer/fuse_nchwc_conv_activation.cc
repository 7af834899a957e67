// Rule fuse_nchwc_conv_activation: an NCHWc Conv without an activation, read only by QuickGelu
// (SiLU's x sigmoid(x), from fuse_quick_gelu) or HardSwish, takes the activation as its own
// (`activation` QuickGelu with `activation_params` [alpha], or HardSwish): the kernel applies it
// to each output row while the row is in cache instead of a pass over the whole tensor
// (EfficientNet's 49 SiLUs were a quarter of its run). onnxruntime's Conv knows neither
// activation, so the rule rewrites sessions only.
#include "lib/optimizer/nchwc_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// The activation `consumer` applies, as the Conv's `activation` and `activation_params`; null
// when the Conv cannot take it.
std::optional<std::pair<std::string, std::vector<float>>> FusableActivation(const Node& consumer) {
  if (consumer.inputs().size() != 1 || consumer.outputs().size() != 1) return std::nullopt;
  if (consumer.domain() == kMsDomain && consumer.op_type() == "QuickGelu") {
    const Attribute* alpha = consumer.FindAttribute("alpha");
    return std::make_pair(std::string("QuickGelu"),
                          std::vector<float>{alpha != nullptr ? alpha->f : 1.702f});
  }
  if (consumer.domain().empty() && consumer.op_type() == "HardSwish") {
    return std::make_pair(std::string("HardSwish"), std::vector<float>{});
  }
  return std::nullopt;
}

class FuseNchwcConvActivation final : public RewriteRule {
 public:
  FuseNchwcConvActivation()
      : RewriteRule("fuse_nchwc_conv_activation", {"Conv"}, std::string(kNchwcDomain),
                    {{std::string(kNchwcDomain), "Conv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const Attribute* activation = node.FindAttribute("activation");
    if ((activation != nullptr && !activation->s.empty()) || node.outputs().size() != 1 ||
        !HasSingleConsumer(graph, node.outputs()[0])) {
      return false;
    }
    const std::vector<const Node*> consumers = graph.Consumers(node.outputs()[0]);
    return consumers.size() == 1 && consumers[0]->inputs()[0] == node.outputs()[0] &&
           FusableActivation(*consumers[0]).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    (void)node_removed;
    Node& consumer = *graph.Consumers(node.outputs()[0])[0];
    auto [name, params] = *FusableActivation(consumer);
    node.SetAttribute(Attribute::String("activation", name));
    if (!params.empty()) node.SetAttribute(Attribute::Floats("activation_params", params));
    AbsorbConsumer(graph, node, consumer);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseNchwcConvActivationRule() {
  return std::make_unique<FuseNchwcConvActivation>();
}

}  // namespace ort
