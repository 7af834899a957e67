// Rule fuse_conv_add_activation: act(Conv(X, W, B) + Z), Z shaped as the sum -> FusedConv with Z.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A float Conv, or a FusedConv that neither sums nor activates yet, whose output only `add` reads
// (once) and no graph output keeps.
bool IsFusableConv(const Graph& graph, const Node* conv, const Node& add) {
  if (conv == nullptr || conv->outputs().size() != 1) return false;
  const bool plain = IsOnnxOp(conv, "Conv");
  const bool fused = conv->op_type() == "FusedConv" && conv->domain() == kMsDomain &&
                     !conv->HasInput(3) && conv->FindAttribute("activation") == nullptr;
  return (plain || fused) && conv->HasInput(0) && IsFloatValue(graph, conv->inputs()[0]) &&
         OnlyConsumer(graph, conv->outputs()[0]) == &add;
}

// The Conv whose output `add` sums with a tensor of provably the same shape (FusedConv's Z takes no
// broadcasting), the first in input order when both qualify; else null.
const Node* ConvOperand(const Graph& graph, const Node& add) {
  if (add.inputs().size() != 2) return nullptr;
  for (const auto& input : add.inputs()) {
    const Node* conv = graph.Producer(input);
    if (!IsFusableConv(graph, conv, add)) continue;
    if (ProvablySameShape(graph, input, OtherInput(add, input))) return conv;
  }
  return nullptr;
}

// The activation folded with the Add: its only reader, reading the sum as its data input. Like
// onnxruntime, a sum with other readers keeps its activation separate.
const Node* FusableActivation(const Graph& graph, const Node& add) {
  const Node* activation = OnlyConsumer(graph, add.outputs()[0]);
  if (activation == nullptr || activation->inputs()[0] != add.outputs()[0]) return nullptr;
  return FusedConvActivationParams(graph, *activation) ? activation : nullptr;
}

class FuseConvAddActivation final : public RewriteRule {
 public:
  FuseConvAddActivation()
      : RewriteRule("fuse_conv_add_activation", {"Add"}, "",
                    {{std::string(kMsDomain), "FusedConv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return ConvOperand(graph, node) != nullptr;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const Node& conv = *ConvOperand(graph, node);
    const Node* activation = FusableActivation(graph, node);
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : conv.attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    std::vector<const Node*> replaced{&conv, &node};
    std::string output = node.outputs()[0];
    if (activation != nullptr) {
      const std::vector<float> params = *FusedConvActivationParams(graph, *activation);
      attributes.push_back(Attribute::String("activation", activation->op_type()));
      if (!params.empty()) attributes.push_back(Attribute::Floats("activation_params", params));
      replaced.push_back(activation);
      output = activation->outputs()[0];
    }
    // Z is input 3; an absent bias stays an omitted input.
    std::vector<std::string> inputs = conv.inputs();
    inputs.resize(3);
    inputs.push_back(OtherInput(node, conv.outputs()[0]));
    ReplaceByFusedNode(graph, replaced,
                       {conv.name(),
                        "FusedConv",
                        std::string(kMsDomain),
                        std::move(inputs),
                        {std::move(output)},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseConvAddActivationRule() {
  return std::make_unique<FuseConvAddActivation>();
}

}  // namespace ort
