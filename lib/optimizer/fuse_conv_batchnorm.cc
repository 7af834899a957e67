// Rule fuse_conv_batchnorm: BatchNormalization(Conv(x, W, B)) in inference becomes one Conv whose
// weights and bias carry the normalization.
#include <cmath>

#include "lib/optimizer/conv_fusion.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class FuseConvBatchNorm final : public RewriteRule {
 public:
  FuseConvBatchNorm() : RewriteRule("fuse_conv_batchnorm", {"BatchNormalization"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    // Only the normalized output may be used, and only inference mode folds into constants.
    for (size_t i = 1; i < node.outputs().size(); ++i) {
      if (node.HasOutput(i)) return false;
    }
    const Attribute* training = node.FindAttribute("training_mode");
    const Attribute* spatial = node.FindAttribute("spatial");
    if ((training != nullptr && training->i != 0) || (spatial != nullptr && spatial->i != 1)) {
      return false;
    }
    const Node* conv = SoleProducer(graph, node, 0, "Conv");
    if (conv == nullptr || !HasConstantFloatWeights(graph, *conv)) return false;
    const int64_t channels = ConstantInput(graph, *conv, 1)->shape()[0];
    for (size_t i = 1; i <= 4; ++i) {
      const Tensor* parameter = ConstantInput(graph, node, i);
      if (parameter == nullptr || parameter->dtype() != DataType::kFloat ||
          parameter->NumElements() != channels) {
        return false;
      }
    }
    return true;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    Node& conv = *graph.Producer(node.inputs()[0]);
    ConvParameters parameters = CopyConvParameters(graph, conv);
    const float* gamma = ConstantInput(graph, node, 1)->Data<float>();
    const float* beta = ConstantInput(graph, node, 2)->Data<float>();
    const float* mean = ConstantInput(graph, node, 3)->Data<float>();
    const float* variance = ConstantInput(graph, node, 4)->Data<float>();
    const Attribute* epsilon_attribute = node.FindAttribute("epsilon");
    const float epsilon = epsilon_attribute != nullptr ? epsilon_attribute->f : 1e-5f;
    const auto channels = static_cast<size_t>(parameters.channels);
    // y = gamma (conv - mean) / sqrt(var + eps) + beta = conv * s + (beta - mean * s).
    std::vector<float> scale(channels), shift(channels);
    for (size_t m = 0; m < channels; ++m) {
      scale[m] = gamma[m] / std::sqrt(variance[m] + epsilon);
      shift[m] = beta[m] - mean[m] * scale[m];
    }
    ScaleAndShift(parameters, scale, shift);
    SetConvParameters(graph, conv, std::move(parameters.weight), std::move(parameters.bias));
    AbsorbConsumer(graph, conv, node);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseConvBatchNormRule() {
  return std::make_unique<FuseConvBatchNorm>();
}

}  // namespace ort
