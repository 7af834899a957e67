// Rule fuse_conv_activation: a float Conv read only by Relu, Sigmoid, Tanh, LeakyRelu, HardSigmoid
// or Clip with constant bounds becomes com.microsoft FusedConv with the Conv's inputs and
// attributes plus `activation` and `activation_params`.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class FuseConvActivation final : public RewriteRule {
 public:
  FuseConvActivation()
      : RewriteRule("fuse_conv_activation",
                    {"Relu", "Sigmoid", "Tanh", "LeakyRelu", "HardSigmoid", "Clip"}, "",
                    {{std::string(kMsDomain), "FusedConv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const Node* conv = SoleProducer(graph, node, 0, "Conv");
    return conv != nullptr && conv->HasInput(0) && IsFloatValue(graph, conv->inputs()[0]) &&
           FusedConvActivationParams(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const Node& conv = *graph.Producer(node.inputs()[0]);
    const std::vector<float> params = *FusedConvActivationParams(graph, node);
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : conv.attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    attributes.push_back(Attribute::String("activation", node.op_type()));
    if (!params.empty()) attributes.push_back(Attribute::Floats("activation_params", params));
    ReplaceByFusedNode(graph, {&conv, &node},
                       {conv.name(),
                        "FusedConv",
                        std::string(kMsDomain),
                        conv.inputs(),
                        {node.outputs()[0]},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseConvActivationRule() {
  return std::make_unique<FuseConvActivation>();
}

}  // namespace ort
