// Rule fuse_gemm_activation: a float Gemm read only by an activation onnxruntime's FusedGemm
// implements becomes com.microsoft FusedGemm with the Gemm's inputs and attributes, `activation`,
// and the activation's attributes renamed activation_<name>.
#include <string_view>

#include <fmt/format.h>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// The activations and the last ai.onnx opset whose version of each FusedGemm covers (a later
// version may add types or change semantics).
struct FusableActivation {
  std::string_view op;
  int64_t last_opset;
};
constexpr FusableActivation kActivations[] = {
    {"Elu", 21},    {"HardSigmoid", 21},     {"LeakyRelu", 15}, {"Relu", 1000},
    {"Selu", 21},   {"Sigmoid", 1000},       {"Softplus", 21},  {"Softsign", 21},
    {"Tanh", 1000}, {"ThresholdedRelu", 21},
};

class FuseGemmActivation final : public RewriteRule {
 public:
  FuseGemmActivation()
      : RewriteRule("fuse_gemm_activation",
                    {"Elu", "HardSigmoid", "LeakyRelu", "Relu", "Selu", "Sigmoid", "Softplus",
                     "Softsign", "Tanh", "ThresholdedRelu"},
                    "", {{std::string(kMsDomain), "FusedGemm"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const int64_t opset = graph.OpsetVersion("");
    bool covered = false;
    for (const auto& activation : kActivations) {
      covered = covered || (activation.op == node.op_type() && opset <= activation.last_opset);
    }
    const Node* gemm = SoleProducer(graph, node, 0, "Gemm");
    return covered && opset >= 7 && gemm != nullptr && gemm->HasInput(0) &&
           IsFloatValue(graph, gemm->inputs()[0]);
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const Node& gemm = *graph.Producer(node.inputs()[0]);
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : gemm.attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    attributes.push_back(Attribute::String("activation", node.op_type()));
    for (const auto& [name, attribute] : node.attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, fmt::format("activation_{}", name)));
    }
    ReplaceByFusedNode(graph, {&gemm, &node},
                       {gemm.name(),
                        "FusedGemm",
                        std::string(kMsDomain),
                        gemm.inputs(),
                        {node.outputs()[0]},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseGemmActivationRule() {
  return std::make_unique<FuseGemmActivation>();
}

}  // namespace ort
