// Rules nchwc_framed_conv, nchwc_framed_fused_conv: a 3-D Conv (or FusedConv without Z) whose
// kernel stays within a frame (1 x KH x KW, stride, dilation 1 and no padding over T) becomes a
// blocked 2-D Conv over the frames of every clip as images: ReorderInput blocks [N, C, T, H, W]
// as [N, T, C, H, W], the nchwc Conv reads that as N*T images, and ReorderOutput unblocks its
// [N, T, M, H, W] as [N, M, T, H, W].
//
// The frame-local halves of factorized video networks ((2+1)-D ResNets, P3D, S3D) are most of
// their multiply-adds; as 2-D blocked convolutions the 3x3 ones of stride 1 take Winograd's path
// (r2plus1d_18's 64 -> 144 over 8 frames of 56x56: 86 ms through the 3-D im2col and GEMM).
// The reorders transpose as they block, so X is read once either way. 5-D blocked tensors are this
// engine's own, so the rewrite happens in sessions only.
#include <optional>

#include "lib/common/cpu_info.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/nchwc_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// A frame-local 3-D Conv: its input's shape ([N, C, T, H, W], C known) and its 2-D window.
struct FramedConv {
  SymbolicShape x;
  int64_t filters = 0;
  std::vector<int64_t> kernel, strides, dilations, pads;  // of H and W; pads: begins, then ends
};

std::optional<FramedConv> Match(const Graph& graph, const Node& node, int64_t block) {
  if (node.outputs().size() != 1 || !node.HasInput(0) || node.HasInput(3) ||
      !HasConstantFloatWeights(graph, node)) {
    return std::nullopt;
  }
  const Attribute* auto_pad = node.FindAttribute("auto_pad");
  const Attribute* group = node.FindAttribute("group");
  if ((auto_pad != nullptr && auto_pad->s != "NOTSET") || (group != nullptr && group->i != 1)) {
    return std::nullopt;
  }
  const TensorShape& w = ConstantInput(graph, node, 1)->shape();
  const ValueType* type = graph.FindTypeInScope(node.inputs()[0]);
  if (w.rank() != 5 || w[2] != 1 || w[3] > kNchwcMaxKernelRows || type == nullptr ||
      !type->IsTensor() || type->elem_type != DataType::kFloat || !type->shape ||
      type->shape->size() != 5) {
    return std::nullopt;
  }
  FramedConv conv;
  conv.x = *type->shape;
  // Fewer channels than a block (an RGB stem) would be padded to a whole one: more work, not less.
  if (!conv.x[1].IsKnown() || conv.x[1].value != w[1] || conv.x[1].value < block) {
    return std::nullopt;
  }
  conv.filters = w[0];
  const auto kernel = IntsAttributeOr(node, "kernel_shape", {w[2], w[3], w[4]});
  const auto strides = IntsAttributeOr(node, "strides", {1, 1, 1});
  const auto dilations = IntsAttributeOr(node, "dilations", {1, 1, 1});
  const auto pads = IntsAttributeOr(node, "pads", {0, 0, 0, 0, 0, 0});
  if (kernel != std::vector<int64_t>{1, w[3], w[4]} || strides.size() != 3 || strides[0] != 1 ||
      dilations.size() != 3 || dilations[0] != 1 || pads.size() != 6 || pads[0] != 0 ||
      pads[3] != 0) {
    return std::nullopt;
  }
  // A pointwise one is conv3d_as_conv2d's, by reshapes alone.
  const bool pointwise = w[3] == 1 && w[4] == 1 && strides[1] == 1 && strides[2] == 1 &&
                         pads == std::vector<int64_t>(6, 0);
  if (pointwise) return std::nullopt;
  conv.kernel = {kernel[1], kernel[2]};
  conv.strides = {strides[1], strides[2]};
  conv.dilations = {dilations[1], dilations[2]};
  conv.pads = {pads[1], pads[2], pads[4], pads[5]};
  return conv;
}

class NchwcFramedConv final : public RewriteRule {
 public:
  NchwcFramedConv(std::string name, std::string op_type, std::string domain)
      : RewriteRule(std::move(name), {std::move(op_type)}, std::move(domain),
                    {{std::string(kNchwcDomain), "Conv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return Match(graph, node, NchwcBlockSize()).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const int64_t block = NchwcBlockSize();
    const FramedConv conv = *Match(graph, node, block);
    const std::string output = node.outputs()[0];
    const Tensor& weight = *ConstantInput(graph, node, 1);
    const TensorShape& w = weight.shape();
    ORT_ASSIGN_OR_RETURN(Tensor weight_2d, weight.Reshaped(TensorShape({w[0], w[1], w[3], w[4]})));
    const int64_t padded_filters = RoundUp(conv.filters, block);
    std::vector<std::string> inputs(2);
    inputs[1] = graph.UniqueValueName(node.inputs()[1] + "_nchwc");
    graph.AddInitializer(inputs[1], PackNchwcFilters(weight_2d, block, false));
    if (const Tensor* bias = ConstantInput(graph, node, 2)) {
      inputs.push_back(graph.UniqueValueName(node.inputs()[2] + "_nchwc"));
      graph.AddInitializer(inputs.back(), PaddedVector(bias->Span<float>(), padded_filters));
    }
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : node.attributes()) {
      if (name != "kernel_shape" && name != "strides" && name != "dilations" && name != "pads" &&
          name != "group" && name != "auto_pad") {
        attributes.push_back(CopyPlainAttribute(attribute, name));
      }
    }
    attributes.push_back(Attribute::Ints("kernel_shape", conv.kernel));
    attributes.push_back(Attribute::Ints("strides", conv.strides));
    attributes.push_back(Attribute::Ints("dilations", conv.dilations));
    attributes.push_back(Attribute::Ints("pads", conv.pads));
    const std::string x = node.inputs()[0];
    const std::string name = node.name().empty() ? "NchwcConv" : node.name();
    graph.RemoveNode(node.index());
    node_removed = true;

    inputs[0] = graph.UniqueValueName(x + "_frames_nchwc");
    graph.SetValueType(
        inputs[0],
        ValueType::Tensor(
            DataType::kFloat,
            SymbolicShape{conv.x[0], conv.x[2], Dimension::Known(RoundUp(conv.x[1].value, block)),
                          conv.x[3], conv.x[4]}));
    graph.AddNode({graph.UniqueNodeName("ReorderInput"),
                   "ReorderInput",
                   std::string(kNchwcDomain),
                   {x},
                   {inputs[0]},
                   IntAttribute("channels_last", 0)});
    const std::string blocked = graph.UniqueValueName(output + "_frames_nchwc");
    SymbolicShape y{conv.x[0], conv.x[2], Dimension::Known(padded_filters), Dimension{},
                    Dimension{}};
    if (const ValueType* type = graph.FindTypeInScope(output);
        type != nullptr && type->shape && type->shape->size() == 5) {
      y[3] = (*type->shape)[3];
      y[4] = (*type->shape)[4];
    }
    graph.SetValueType(blocked, ValueType::Tensor(DataType::kFloat, std::move(y)));
    graph.AddNode({graph.UniqueNodeName(name),
                   "Conv",
                   std::string(kNchwcDomain),
                   std::move(inputs),
                   {blocked},
                   std::move(attributes)});
    graph.AddNode({graph.UniqueNodeName("ReorderOutput"),
                   "ReorderOutput",
                   std::string(kNchwcDomain),
                   {blocked},
                   {output},
                   IntAttribute("channels", conv.filters)});
    graph.mutable_opsets().try_emplace(std::string(kNchwcDomain), 1);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateNchwcFramedConvRule() {
  return std::make_unique<NchwcFramedConv>("nchwc_framed_conv", "Conv", "");
}

std::unique_ptr<RewriteRule> CreateNchwcFramedFusedConvRule() {
  return std::make_unique<NchwcFramedConv>("nchwc_framed_fused_conv", "FusedConv",
                                           std::string(kMsDomain));
}

}  // namespace ort
