// Rules conv3d_as_conv2d, fused_conv3d_as_conv2d: a 3-D Conv (or FusedConv) whose kernel spans
// frames only (KT x 1 x 1, stride 1 and no padding over H and W) becomes, by reshapes alone, a
// 2-D Conv with a KT x 1 kernel over X viewed as [N, C, T, H*W].
//
// The temporal halves of factorized video networks ((2+1)-D ResNets, P3D, S3D) and the 1x1x1
// projections of I3D-style ones are such convolutions: as 2-D ones they run in the NCHWc layout,
// where r2plus1d_18's 144-channel temporal convs took 28 ms instead of 43 ms through the 3-D
// im2col and GEMM. The frame-local KH x KW halves would need X transposed to put the frames
// beside the batch, and the transposes and reorders around each cost more than the blocked
// kernels saved. The rewrite needs H and W to reshape back and serves only a provider running
// the blocked Conv, so it rewrites sessions only.
#include <optional>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/nchwc_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// A temporal 3-D Conv: its input's shape ([N, C, T, H, W], C, H and W known) and the frames of
// its output.
struct TemporalConv {
  SymbolicShape x;
  int64_t filters = 0;
  int64_t out_frames = 0;
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins, then ends
};

std::optional<TemporalConv> Match(const Graph& graph, const Node& node) {
  if (node.outputs().size() != 1 || !node.HasInput(0) || !node.HasInput(1)) return std::nullopt;
  const Attribute* auto_pad = node.FindAttribute("auto_pad");
  if (auto_pad != nullptr && auto_pad->s != "NOTSET") return std::nullopt;
  const Tensor* weight = ConstantInput(graph, node, 1);
  if (weight == nullptr || weight->dtype() != DataType::kFloat || weight->shape().rank() != 5) {
    return std::nullopt;
  }
  const ValueType* type = graph.FindTypeInScope(node.inputs()[0]);
  if (type == nullptr || !type->IsTensor() || type->elem_type != DataType::kFloat || !type->shape ||
      type->shape->size() != 5) {
    return std::nullopt;
  }
  TemporalConv conv;
  conv.x = *type->shape;
  if (!conv.x[1].IsKnown() || !conv.x[3].IsKnown() || !conv.x[4].IsKnown()) return std::nullopt;
  const TensorShape& w = weight->shape();
  conv.filters = w[0];
  conv.kernel = IntsAttributeOr(node, "kernel_shape", {w[2], w[3], w[4]});
  conv.strides = IntsAttributeOr(node, "strides", {1, 1, 1});
  conv.dilations = IntsAttributeOr(node, "dilations", {1, 1, 1});
  conv.pads = IntsAttributeOr(node, "pads", {0, 0, 0, 0, 0, 0});
  if (conv.kernel != std::vector<int64_t>{w[2], 1, 1} || conv.strides.size() != 3 ||
      conv.strides[1] != 1 || conv.strides[2] != 1 || conv.dilations.size() != 3 ||
      conv.pads.size() != 6 || conv.pads[1] != 0 || conv.pads[2] != 0 || conv.pads[4] != 0 ||
      conv.pads[5] != 0) {
    return std::nullopt;
  }
  // Without a known frame count the output's is unknown too; the 2-D Conv works it out.
  if (conv.x[2].IsKnown() && conv.strides[0] > 0) {
    const int64_t span = conv.dilations[0] * (conv.kernel[0] - 1) + 1;
    const int64_t padded = conv.x[2].value + conv.pads[0] + conv.pads[3];
    if (padded < span) return std::nullopt;
    conv.out_frames = (padded - span) / conv.strides[0] + 1;
  }
  return conv;
}

// True when Z, reshaped as X is, matches the 2-D Conv's output: [N, M, T', H, W].
bool SameOutputShape(const Graph& graph, std::string_view z, const TemporalConv& conv) {
  const ValueType* type = graph.FindTypeInScope(z);
  if (type == nullptr || !type->IsTensor() || !type->shape || type->shape->size() != 5) {
    return false;
  }
  const SymbolicShape& shape = *type->shape;
  return shape[1] == Dimension::Known(conv.filters) && shape[3] == conv.x[3] &&
         shape[4] == conv.x[4] &&
         (conv.out_frames == 0 || shape[2] == Dimension::Known(conv.out_frames));
}

void AddReshape(Graph& graph, const std::string& input, const std::string& output,
                const std::vector<int64_t>& shape) {
  const std::string shape_name = graph.UniqueValueName(output + "_shape");
  graph.AddInitializer(shape_name,
                       Tensor::FromVector<int64_t>({static_cast<int64_t>(shape.size())}, shape));
  graph.AddNode(
      {graph.UniqueNodeName("Reshape"), "Reshape", "", {input, shape_name}, {output}, {}});
}

// `value` ([N, C, T, H, W]) as [N, C, T, H*W].
std::string Flattened(Graph& graph, const std::string& value, SymbolicShape shape) {
  const std::string result = graph.UniqueValueName(value + "_2d");
  shape[3] = Dimension::Known(shape[3].value * shape[4].value);
  shape.pop_back();
  graph.SetValueType(result, ValueType::Tensor(DataType::kFloat, std::move(shape)));
  AddReshape(graph, value, result, {0, 0, 0, -1});
  return result;
}

class Conv3dAsConv2d final : public RewriteRule {
 public:
  Conv3dAsConv2d(std::string name, std::string op_type, std::string domain)
      : RewriteRule(std::move(name), {std::move(op_type)}, std::move(domain),
                    {{std::string(kNchwcDomain), "Conv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const auto conv = Match(graph, node);
    // FusedConv's Z is reshaped along, so it must have the output's shape.
    return conv && (!node.HasInput(3) || SameOutputShape(graph, node.inputs()[3], *conv));
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const TemporalConv conv = *Match(graph, node);
    std::vector<std::string> inputs = node.inputs();
    const std::string output = node.outputs()[0];
    const Tensor& weight = *ConstantInput(graph, node, 1);
    const TensorShape& w = weight.shape();
    ORT_ASSIGN_OR_RETURN(Tensor weight_2d, weight.Reshaped(TensorShape({w[0], w[1], w[2], 1})));
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : node.attributes()) {
      if (name != "kernel_shape" && name != "strides" && name != "dilations" && name != "pads") {
        attributes.push_back(CopyPlainAttribute(attribute, name));
      }
    }
    const auto& p = conv.pads;
    attributes.push_back(Attribute::Ints("kernel_shape", {conv.kernel[0], 1}));
    attributes.push_back(Attribute::Ints("strides", {conv.strides[0], 1}));
    attributes.push_back(Attribute::Ints("dilations", {conv.dilations[0], 1}));
    attributes.push_back(Attribute::Ints("pads", {p[0], 0, p[3], 0}));
    NodeSpec spec{node.name(), node.op_type(), node.domain(), {}, {}, std::move(attributes)};
    graph.RemoveNode(node.index());
    node_removed = true;

    inputs[0] = Flattened(graph, inputs[0], conv.x);
    inputs[1] = graph.UniqueValueName(inputs[1] + "_2d");
    graph.AddInitializer(inputs[1], std::move(weight_2d));
    SymbolicShape y = conv.x;
    y[1] = Dimension::Known(conv.filters);
    y[2] = conv.out_frames > 0 ? Dimension::Known(conv.out_frames) : Dimension{};
    if (inputs.size() > 3 && !inputs[3].empty()) inputs[3] = Flattened(graph, inputs[3], y);
    const std::string output_2d = graph.UniqueValueName(output + "_2d");
    y[3] = Dimension::Known(y[3].value * y[4].value);
    y.pop_back();
    graph.SetValueType(output_2d, ValueType::Tensor(DataType::kFloat, std::move(y)));
    spec.inputs = std::move(inputs);
    spec.outputs = {output_2d};
    graph.AddNode(std::move(spec));
    AddReshape(graph, output_2d, output, {0, 0, 0, conv.x[3].value, conv.x[4].value});
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateConv3dAsConv2dRule() {
  return std::make_unique<Conv3dAsConv2d>("conv3d_as_conv2d", "Conv", "");
}

std::unique_ptr<RewriteRule> CreateFusedConv3dAsConv2dRule() {
  return std::make_unique<Conv3dAsConv2d>("fused_conv3d_as_conv2d", "FusedConv",
                                          std::string(kMsDomain));
}

}  // namespace ort
