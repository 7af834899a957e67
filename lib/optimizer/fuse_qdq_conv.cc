// Rule fuse_qdq_conv: QuantizeLinear(Conv(DequantizeLinear(x), DequantizeLinear(constant W)
// [, DequantizeLinear(constant int32 bias)])), with a Relu or Clip the QuantizeLinear makes
// redundant allowed before it, becomes QLinearConv, so the convolution runs on 8-bit operands
// (onnxruntime's QDQ ConvNodeGroupSelector and its QLinearConv action).
#include <cmath>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct ConvGroup {
  const Node* conv;
  const Node* activation;  // a Relu or Clip the output's quantization makes redundant, or null
  QuantizationParams x, w, y;
  std::optional<QuantizationParams> bias;
};

std::optional<ConvGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  const Node* activation = nullptr;
  const Node* conv = QuantizedProducer(graph, q, *y, "Conv", &activation);
  if (conv == nullptr || !conv->HasInput(0) || !conv->HasInput(1)) return std::nullopt;
  const auto x = DequantizeOf(graph, conv->inputs()[0]);
  const auto w = DequantizeOf(graph, conv->inputs()[1]);
  if (!x || x->count != 1 || !w) return std::nullopt;
  const Tensor* weights = ConstantInput(graph, *w->node, 0);
  if (weights == nullptr || weights->shape().rank() < 3) return std::nullopt;
  const int64_t filters = weights->shape()[0];
  if (!PerTensorOrChannel(*w, weights->shape().rank(), 0, filters)) return std::nullopt;
  ConvGroup group{conv, activation, *x, *w, *y, std::nullopt};
  if (conv->HasInput(2)) {
    group.bias = DequantizeOf(graph, conv->inputs()[2], true);
    if (!group.bias || group.bias->type != DataType::kInt32) return std::nullopt;
    const Tensor* bias = ConstantInput(graph, *group.bias->node, 0);
    if (bias == nullptr || bias->NumElements() != filters ||
        !PerTensorOrChannel(*group.bias, 1, 0, filters)) {
      return std::nullopt;
    }
    if (!group.bias->zero_point.empty()) {
      const Tensor* zero = ConstantInput(graph, *group.bias->node, 2);
      for (int64_t i = 0; i < zero->NumElements(); ++i) {
        if (zero->Data<int32_t>()[i] != 0) return std::nullopt;
      }
    }
  }
  return group;
}

// QLinearConv's bias is in units of x_scale * w_scale[f]; a DequantizeLinear of the bias states
// its own scale, which quantizers make that product. Where it differs, the bias is rescaled.
std::string BiasInput(Graph& graph, const ConvGroup& group) {
  const QuantizationParams& b = *group.bias;
  const Tensor& bias = *ConstantInput(graph, *b.node, 0);
  const Tensor& bias_scale = *ConstantInput(graph, *b.node, 1);
  const Tensor& w_scale = *ConstantInput(graph, *group.w.node, 1);
  const float x_scale = ConstantInput(graph, *group.x.node, 1)->Data<float>()[0];
  const int64_t filters = bias.NumElements();
  std::vector<int32_t> values(static_cast<size_t>(filters));
  bool same = true;
  for (int64_t f = 0; f < filters; ++f) {
    const double from = bias_scale.Data<float>()[bias_scale.NumElements() == 1 ? 0 : f];
    const double to =
        static_cast<double>(x_scale) * w_scale.Data<float>()[w_scale.NumElements() == 1 ? 0 : f];
    const int32_t original = bias.Data<int32_t>()[f];
    const double rescaled = to != 0.0 ? std::nearbyint(original * from / to) : 0.0;
    values[f] = static_cast<int32_t>(std::clamp(rescaled, -2147483648.0, 2147483647.0));
    same = same && values[f] == original;
  }
  if (same) return b.node->inputs()[0];
  const std::string name = graph.UniqueValueName(b.node->inputs()[0] + "_rescaled");
  graph.AddInitializer(name, Tensor::FromVector<int32_t>(TensorShape({filters}), values));
  return name;
}

class FuseQdqConv final : public RewriteRule {
 public:
  FuseQdqConv() : RewriteRule("fuse_qdq_conv", {"QuantizeLinear"}, "", {{"", "QLinearConv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const ConvGroup group = *MatchGroup(graph, node);
    std::vector<std::string> inputs = QLinearInputs(graph, group.x, group.w, group.y);
    if (group.bias) inputs.push_back(BiasInput(graph, group));
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : group.conv->attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    ReplaceQdqGroup(
        graph, *group.conv, group.activation, node,
        {group.conv->name(), "QLinearConv", "", std::move(inputs), {}, std::move(attributes)},
        {group.x.node, group.w.node, group.bias ? group.bias->node : nullptr});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqConvRule() { return std::make_unique<FuseQdqConv>(); }

}  // namespace ort
