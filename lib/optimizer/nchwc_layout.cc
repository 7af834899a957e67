// Pass nchwc_layout: float 2-D Conv/FusedConv with constant weights, the pools, Resizes, Concats,
// elementwise ops and per-channel affine maps around them become com.microsoft.nchwc blocked ops.
//
// Values of the blocked region get twins named "<value>_nchwc" holding [N, C / B, H, W, B] data
// (declared [N, C padded, H, W]); ReorderInput makes a twin where the region reads a plain value
// (reading NHWC where that value is a Transpose from NHWC) and ReorderOutput restores a plain
// value that something outside the region still reads (writing NHWC for a Transpose to NHWC).
// BatchNormalization and arithmetic with per-channel constants become 1x1 depthwise Convs;
// [N, C, 1, 1] gates multiply blocked data through [N, C / B, pixels, B] views. Filters are
// rewritten in ORT's layouts (nchwc_patterns.h) so that ORT can run a saved model.
#include <cmath>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "lib/common/cpu_info.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/nchwc_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// Most neighbouring groups merged into one blocked group: merging m groups multiplies the
// multiply-adds by m, which beats a GEMM per group at 2 (RegNet's 8- and 24-channel groups,
// ResNeXt's 8) but not at 4.
constexpr int64_t kMaxMergedGroups = 2;

// One application of the pass to one graph.
class Rewriter {
 public:
  Rewriter(Graph& graph, int64_t block) : graph_(graph), block_(block) {}

  Status Run(bool& changed) {
    ORT_ASSIGN_OR_RETURN(const std::vector<NodeIndex> order, graph_.TopologicalOrder());
    for (NodeIndex index : order) {
      Node* node = graph_.GetNode(index);
      // Every op rewritten here reads input 0 and writes output 0; a node without them (an op
      // at an opset older than its schema, which the loader cannot check) is left alone.
      if (node == nullptr || !node->HasInput(0) || !node->HasOutput(0)) continue;
      const std::string& op = node->op_type();
      if (IsOnnxOp(node, "Conv") || (op == "FusedConv" && node->domain() == kMsDomain)) {
        TransformConv(*node);
      } else if (IsOnnxOp(node, "MaxPool") || IsOnnxOp(node, "AveragePool") ||
                 IsOnnxOp(node, "GlobalMaxPool") || IsOnnxOp(node, "GlobalAveragePool")) {
        TransformPool(*node);
      } else if (IsBinaryPassThrough(*node)) {
        TransformBinary(*node);
      } else if (IsUnaryPassThrough(*node)) {
        TransformUnary(*node);
      } else if (IsOnnxOp(node, "Concat")) {
        TransformConcat(*node);
      } else if (IsOnnxOp(node, "Resize") || IsOnnxOp(node, "Upsample")) {
        TransformResize(*node);
      } else if (IsOnnxOp(node, "BatchNormalization")) {
        TransformBatchNorm(*node);
      }
    }
    if (converted_.empty()) return Status::OK();
    graph_.mutable_opsets().try_emplace(std::string(kNchwcDomain), 1);
    for (const std::string& value : converted_) {
      const Twin& twin = twins_.at(value);
      // A Transpose to NHWC (ConvNeXt's channels-last blocks) becomes a ReorderOutput writing NHWC.
      for (const Node* reader : graph_.Consumers(value)) {
        if (!IsTransposeWithPerm(*reader, {0, 2, 3, 1})) continue;
        const std::string nhwc = reader->outputs()[0];
        graph_.RemoveNode(reader->index());
        AddReorderOutput(twin, nhwc, true);
      }
      if (graph_.Consumers(value).empty() && !graph_.IsGraphOutput(value)) continue;
      AddReorderOutput(twin, value, false);
    }
    changed = true;
    return Status::OK();
  }

 private:
  // The blocked twin of a plain value.
  struct Twin {
    std::string name;
    int64_t channels = 0;  // of the plain value
  };
  // What later fusions need to know of an nchwc Conv this run created.
  struct ConvState {
    NodeIndex node = 0;
    bool fused = false;  // has a Sum or an activation already
  };

  // The twin of `value`, inserting a ReorderInput when it has none; nullopt when `value` is not a
  // float 4-D tensor whose channel count is a multiple of 4 (ORT's ReorderInput rejects others).
  // A Transpose from NHWC is read through: the ReorderInput reads NHWC itself.
  std::optional<std::string> BlockedInput(const std::string& value) {
    if (auto it = twins_.find(value); it != twins_.end()) return it->second.name;
    const auto shape = FloatShape4(graph_, value);
    if (!shape || (*shape)[1].value % 4 != 0) return std::nullopt;
    const std::string name = NewTwin(value, *shape, (*shape)[1].value);
    const Node* nhwc = NhwcSource(value);
    const std::string source = nhwc != nullptr ? nhwc->inputs()[0] : value;
    graph_.AddNode({graph_.UniqueNodeName("ReorderInput"),
                    "ReorderInput",
                    std::string(kNchwcDomain),
                    {source},
                    {name},
                    IntAttribute("channels_last", nhwc != nullptr ? 1 : 0)});
    return name;
  }

  // The Transpose that makes `value` from an NHWC tensor; else null.
  const Node* NhwcSource(const std::string& value) const {
    const Node* producer = graph_.Producer(value);
    return producer != nullptr && IsTransposeWithPerm(*producer, {0, 3, 1, 2}) ? producer : nullptr;
  }

  // True when `value` is blocked already, or its twin costs no more than the Transpose making it.
  bool CheaplyBlocked(const std::string& value) const {
    if (twins_.count(value) > 0) return true;
    const auto shape = FloatShape4(graph_, value);
    return shape && (*shape)[1].value % 4 == 0 && NhwcSource(value) != nullptr;
  }

  void AddReorderOutput(const Twin& twin, const std::string& output, bool channels_last) {
    std::vector<Attribute> attributes = IntAttribute("channels", twin.channels);
    if (channels_last) attributes.push_back(Attribute::Int("channels_last", 1));
    graph_.AddNode({graph_.UniqueNodeName("ReorderOutput"),
                    "ReorderOutput",
                    std::string(kNchwcDomain),
                    {twin.name},
                    {output},
                    std::move(attributes)});
  }

  // Names and types the twin of `value` of `channels` channels shaped like `shape` otherwise.
  std::string NewTwin(const std::string& value, SymbolicShape shape, int64_t channels) {
    const std::string name = graph_.UniqueValueName(value + "_nchwc");
    shape[1] = Dimension::Known(RoundUp(channels, block_));
    graph_.SetValueType(name, ValueType::Tensor(DataType::kFloat, std::move(shape)));
    twins_[value] = {name, channels};
    return name;
  }

  // `node`'s output 0, shaped `shape`, is now computed blocked: gives it a twin (and the type
  // inference could not give it, for the readers of both).
  std::string ConvertOutput(const Node& node, const SymbolicShape& shape, int64_t channels) {
    const std::string& value = node.outputs()[0];
    if (!FloatShape4(graph_, value)) {
      graph_.SetValueType(value, ValueType::Tensor(DataType::kFloat, shape));
    }
    converted_.push_back(value);
    region_.insert(value);
    return NewTwin(value, shape, channels);
  }

  bool HasSingleReader(const std::string& value) const {
    return !graph_.IsGraphOutput(value) && graph_.Consumers(value).size() == 1;
  }

  void TransformConv(Node& conv) {
    if (!conv.HasInput(0) || conv.outputs().size() != 1 || !HasConstantFloatWeights(graph_, conv)) {
      return;
    }
    const std::string x = conv.inputs()[0];
    const Tensor* weight = ConstantInput(graph_, conv, 1);
    if (weight->shape().rank() != 4) return;
    const auto x_shape = ConvInputShape(conv, weight->shape());
    if (!x_shape) return;
    // Inference may stop short of the output (after contrib ops of an optimized model): its
    // channels are the filters all the same.
    const SymbolicShape y_shape =
        FloatShape4(graph_, conv.outputs()[0])
            .value_or(SymbolicShape{(*x_shape)[0], Dimension::Known(weight->shape()[0]),
                                    Dimension{}, Dimension{}});
    if (weight->shape()[2] > kNchwcMaxKernelRows) return;
    const Attribute* kernel_shape = conv.FindAttribute("kernel_shape");
    if (kernel_shape != nullptr && kernel_shape->ints.size() != 2) return;
    const Attribute* group_attribute = conv.FindAttribute("group");
    int64_t group = group_attribute != nullptr ? group_attribute->i : 1;
    const int64_t filters = weight->shape()[0];
    const int64_t channels = (*x_shape)[1].value;
    if (y_shape[1].value != filters) return;
    // Groups of channels that do not fill whole blocks (RegNet's 8 or 24, ResNeXt's 8) run as
    // merged groups that do, with block-diagonal filters: twice the multiply-adds, but in the
    // blocked kernels rather than a GEMM per group a handful of rows tall, several times slower.
    std::optional<Tensor> merged_weight;
    if (const int64_t merged = NarrowGroupsMerged(*weight, group, channels)) {
      merged_weight = MergeNarrowGroups(*weight, group, merged);
      weight = &*merged_weight;
      group /= merged;
    }
    const TensorShape& ws = weight->shape();
    const bool depthwise = group > 1 && ws[1] == 1;
    if (depthwise && !(group == channels && filters == channels)) return;
    // Grouped convolutions block when each group's input and output channels fill whole blocks
    // (RegNet's group width 16 at B = 16): every group is then a convolution of its own blocks.
    if (!depthwise && (ws[1] * group != channels ||
                       (group > 1 && (ws[1] % block_ != 0 || filters % (group * block_) != 0)))) {
      return;
    }
    const bool nchw_input = !depthwise && channels < block_ && twins_.count(x) == 0;
    if (!nchw_input && twins_.count(x) == 0 && channels % 4 != 0) return;
    const bool has_sum = conv.HasInput(3);
    if (has_sum && twins_.count(conv.inputs()[3]) == 0) {
      const auto sum_shape = FloatShape4(graph_, conv.inputs()[3]);
      if (!sum_shape || (*sum_shape)[1].value % 4 != 0) return;
    }

    std::string input = x;
    if (!nchw_input) input = *BlockedInput(x);
    const int64_t padded_filters = RoundUp(filters, block_);
    std::vector<std::string> inputs{input, PackWeight(conv, *weight, depthwise, nchw_input)};
    inputs.push_back(PackBias(conv, padded_filters));
    if (has_sum) inputs.push_back(*BlockedInput(conv.inputs()[3]));
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : conv.attributes()) {
      if (name == "group") continue;
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    if (group > 1) {
      attributes.push_back(Attribute::Int("group", depthwise ? padded_filters : group));
    }
    const bool activated = conv.FindAttribute("activation") != nullptr;
    const std::string output = ConvertOutput(conv, y_shape, filters);
    const std::string name = conv.name();
    graph_.RemoveNode(conv.index());
    Node& nchwc = graph_.AddNode({graph_.UniqueNodeName(name.empty() ? "NchwcConv" : name),
                                  "Conv",
                                  std::string(kNchwcDomain),
                                  std::move(inputs),
                                  {output},
                                  std::move(attributes)});
    convs_[output] = {nchwc.index(), has_sum || activated};
  }

  // How many neighbouring groups of `weight` (group > 1 channels each) to merge so that every
  // merged group reads and writes whole blocks; 0 when the groups do already or no merge does.
  int64_t NarrowGroupsMerged(const Tensor& weight, int64_t group, int64_t channels) const {
    const int64_t group_channels = weight.shape()[1];
    const int64_t group_filters = weight.shape()[0] / group;
    if (group <= 1 || group_channels <= 1 || group_channels * group != channels ||
        (group_channels % block_ == 0 && group_filters % block_ == 0)) {
      return 0;
    }
    for (int64_t merged = 2; merged <= kMaxMergedGroups; ++merged) {
      if (group % merged == 0 && merged * group_channels % block_ == 0 &&
          merged * group_filters % block_ == 0) {
        return merged;
      }
    }
    return 0;
  }

  // X's shape. Where inference lost its channel count (detection models batch their resized
  // images in ways it cannot follow), a stem Conv reading NCHW directly takes it from W: any
  // other count fails the Conv at run time, as the nchwc kernel checks.
  std::optional<SymbolicShape> ConvInputShape(const Node& conv, const TensorShape& ws) const {
    const std::string& x = conv.inputs()[0];
    if (auto shape = FloatShape4(graph_, x)) return shape;
    const Attribute* group = conv.FindAttribute("group");
    const ValueType* type = graph_.FindTypeInScope(x);
    if ((group != nullptr && group->i != 1) || ws[1] >= block_ || twins_.count(x) > 0 ||
        type == nullptr || !type->IsTensor() || type->elem_type != DataType::kFloat ||
        !type->shape || type->shape->size() != 4) {
      return std::nullopt;
    }
    SymbolicShape shape = *type->shape;
    shape[1] = Dimension::Known(ws[1]);
    return shape;
  }

  // The filters in the layout the nchwc Conv reads, as a new initializer.
  std::string PackWeight(const Node& conv, const Tensor& weight, bool depthwise, bool nchw_input) {
    const std::string name = graph_.UniqueValueName(conv.inputs()[1] + "_nchwc");
    graph_.AddInitializer(name, PackNchwcFilters(weight, block_, depthwise || nchw_input));
    return name;
  }

  // The bias padded to `padded` filters as a new initializer, or "" when the Conv has none.
  std::string PackBias(const Node& conv, int64_t padded) {
    const Tensor* bias = ConstantInput(graph_, conv, 2);
    if (bias == nullptr) return "";
    const std::string name = graph_.UniqueValueName(conv.inputs()[2] + "_nchwc");
    graph_.AddInitializer(name, PaddedVector(bias->Span<float>(), padded));
    return name;
  }

  // Inference BatchNormalization of blocked data is a per-channel affine map: gamma / sqrt(var +
  // eps) and beta - mean * that. Pre-activation networks (DenseNet) would otherwise leave the
  // region at every one.
  void TransformBatchNorm(Node& node) {
    const std::string x = node.inputs()[0];
    const auto y_shape = FloatShape4(graph_, node.outputs()[0]);
    if (!CheaplyBlocked(x) || !y_shape) return;
    for (size_t i = 1; i < node.outputs().size(); ++i) {
      if (node.HasOutput(i)) return;
    }
    const Attribute* training = node.FindAttribute("training_mode");
    const Attribute* spatial = node.FindAttribute("spatial");
    if ((training != nullptr && training->i != 0) || (spatial != nullptr && spatial->i != 1)) {
      return;
    }
    const int64_t channels = (*y_shape)[1].value;
    const float* parameters[4];
    for (size_t i = 1; i <= 4; ++i) {
      const Tensor* parameter = ConstantInput(graph_, node, i);
      if (parameter == nullptr || parameter->dtype() != DataType::kFloat ||
          parameter->NumElements() != channels) {
        return;
      }
      parameters[i - 1] = parameter->Data<float>();
    }
    const float epsilon = FloatAttribute(node, "epsilon", 1e-5f);
    std::vector<float> scale(static_cast<size_t>(channels)), shift(scale);
    for (size_t c = 0; c < scale.size(); ++c) {
      scale[c] = parameters[0][c] / std::sqrt(parameters[3][c] + epsilon);
      shift[c] = parameters[1][c] - parameters[2][c] * scale[c];
    }
    AddChannelAffine(node, *BlockedInput(x), scale, shift, *y_shape);
  }

  // Add, Sub, Mul or Div of blocked data and a constant per channel ([C, 1, 1]: ConvNeXt's layer
  // scale) is an affine map per channel too.
  bool TransformChannelConstant(Node& node, const SymbolicShape& y_shape) {
    const std::string& op = node.op_type();
    for (size_t i = 0; i < 2; ++i) {
      const std::string& value = node.inputs()[i];
      const auto shape = FloatShape4(graph_, value);
      if (!shape || *shape != y_shape || !CheaplyBlocked(value) || (op == "Div" && i == 1)) {
        continue;
      }
      const auto constant = ChannelConstant(graph_, node.inputs()[1 - i], y_shape[1].value);
      if (!constant) continue;
      std::vector<float> scale(constant->size(), 1.0f), shift(constant->size(), 0.0f);
      for (size_t c = 0; c < constant->size(); ++c) {
        const float k = (*constant)[c];
        if (op == "Mul") scale[c] = k;
        if (op == "Div") scale[c] = 1.0f / k;
        if (op == "Add") shift[c] = k;
        if (op == "Sub") {
          scale[c] = i == 0 ? 1.0f : -1.0f;
          shift[c] = i == 0 ? -k : k;
        }
      }
      AddChannelAffine(node, *BlockedInput(value), scale, shift, y_shape);
      return true;
    }
    return false;
  }

  // Replaces `node` by a 1x1 depthwise nchwc Conv of `input` (the twin of its input) computing
  // scale * x + shift per channel; padding channels get zero filters and bias and stay zero.
  void AddChannelAffine(Node& node, const std::string& input, std::vector<float> scale,
                        std::vector<float> shift, const SymbolicShape& y_shape) {
    const auto channels = static_cast<int64_t>(scale.size());
    const int64_t padded = RoundUp(channels, block_);
    scale.resize(static_cast<size_t>(padded), 0.0f);
    shift.resize(static_cast<size_t>(padded), 0.0f);
    const std::string base = node.outputs()[0];
    const std::string weight = graph_.UniqueValueName(base + "_scale_nchwc");
    const std::string bias = graph_.UniqueValueName(base + "_shift_nchwc");
    graph_.AddInitializer(weight, Tensor::FromVector<float>(TensorShape({padded, 1, 1, 1}),
                                                            std::span<const float>(scale)));
    graph_.AddInitializer(
        bias, Tensor::FromVector<float>(TensorShape({padded}), std::span<const float>(shift)));
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Ints("kernel_shape", {1, 1}));
    attributes.push_back(Attribute::Int("group", padded));
    const std::string output = ConvertOutput(node, y_shape, channels);
    const std::string name = node.name();
    graph_.RemoveNode(node.index());
    Node& conv = graph_.AddNode({graph_.UniqueNodeName(name.empty() ? "ChannelAffine" : name),
                                 "Conv",
                                 std::string(kNchwcDomain),
                                 {input, weight, bias},
                                 {output},
                                 std::move(attributes)});
    convs_[output] = {conv.index(), false};
  }

  // The nchwc Conv this run made that alone computes `value` and has neither a Sum nor an
  // activation yet, when the node about to fuse into it reads `value` alone; else null. Readers
  // already moved into the region read the twin: fusing would change what they see, and a Sum
  // computed from them would feed the Conv its own output (a cycle).
  Node* FusableConv(const std::string& value) {
    const auto twin = twins_.find(value);
    if (twin == twins_.end() || !HasSingleReader(value) ||
        !graph_.Consumers(twin->second.name).empty()) {
      return nullptr;
    }
    const auto conv = convs_.find(twin->second.name);
    if (conv == convs_.end() || conv->second.fused) return nullptr;
    return graph_.GetNode(conv->second.node);
  }

  // `node` disappears into the Conv computing its input `value`: the Conv's output becomes the
  // twin of `node`'s output.
  void AbsorbIntoConv(Node& node, const std::string& value) {
    const std::string output = node.outputs()[0];
    const Twin twin = twins_.at(value);
    twins_.erase(value);
    std::erase(converted_, value);
    region_.erase(value);
    twins_[output] = twin;
    converted_.push_back(output);
    region_.insert(output);
    convs_[twin.name].fused = true;
    graph_.RemoveNode(node.index());
  }

  void TransformUnary(Node& node) {
    const std::string value = node.inputs()[0];
    if (region_.count(value) == 0) return;
    // The output is shaped like the input, also where inference knows no type for it (contrib
    // ops made by earlier fusions), so that what reads it can join the region too.
    const std::string& output = node.outputs()[0];
    const auto input_shape = FloatShape4(graph_, value);
    if (!input_shape) return;
    if (!FloatShape4(graph_, output)) {
      graph_.SetValueType(output, ValueType::Tensor(DataType::kFloat, *input_shape));
    }
    if (Node* conv = FusableConv(value)) {
      if (auto attributes = ActivationAttributes(graph_, node)) {
        for (Attribute& attribute : *attributes) conv->SetAttribute(std::move(attribute));
        AbsorbIntoConv(node, value);
        return;
      }
    }
    const auto shape = FloatShape4(graph_, node.outputs()[0]);
    if (!shape) return;
    const Twin twin = twins_.at(value);
    graph_.SetNodeInput(node, 0, twin.name);
    graph_.SetNodeOutput(node, 0, ConvertOutput(node, *shape, twin.channels));
  }

  void TransformBinary(Node& node) {
    if (!node.HasInput(1)) return;
    const std::string a = node.inputs()[0], b = node.inputs()[1];
    const auto y_shape = FloatShape4(graph_, node.outputs()[0]);
    if (!y_shape || a == b) return;
    if (node.op_type() != "Max" && node.op_type() != "Min" &&
        TransformChannelConstant(node, *y_shape)) {
      return;
    }
    if (region_.count(a) == 0 && region_.count(b) == 0) return;
    // A scalar constant applies to every element alike, padding included; Div only by a
    // nonzero divisor so that the padding stays zero.
    for (size_t i = 0; i < 2; ++i) {
      const std::string& value = node.inputs()[i];
      const std::string& other = node.inputs()[1 - i];
      const auto scalar = ScalarFloatConstant(graph_, other);
      if (region_.count(value) == 0 || !scalar ||
          (node.op_type() == "Div" && (i == 1 || *scalar == 0.0f))) {
        continue;
      }
      const Twin twin = twins_.at(value);
      graph_.SetNodeInput(node, i, twin.name);
      graph_.SetNodeOutput(node, 0, ConvertOutput(node, *y_shape, twin.channels));
      return;
    }
    if (node.op_type() == "Div") return;
    if (!SameShape(graph_, a, b)) {
      TransformChannelBroadcast(node, *y_shape);
      return;
    }
    if (node.op_type() == "Add") {
      for (const std::string& value : {a, b}) {
        Node* conv = FusableConv(value);
        if (conv == nullptr) continue;
        const auto other = BlockedInput(value == a ? b : a);
        if (!other) return;
        graph_.SetNodeInput(*conv, 3, *other);
        AbsorbIntoConv(node, value);
        return;
      }
    }
    const auto blocked_a = BlockedInput(a);
    const auto blocked_b = BlockedInput(b);
    if (!blocked_a || !blocked_b) return;
    graph_.SetNodeInput(node, 0, *blocked_a);
    graph_.SetNodeInput(node, 1, *blocked_b);
    graph_.SetNodeOutput(node, 0, ConvertOutput(node, *y_shape, (*y_shape)[1].value));
  }

  // A blocked [N, C, H, W] operand and an [N, C, 1, 1] one (squeeze-and-excitation gates, which
  // would otherwise take the large operand out of the region and back): both are viewed as
  // [N, C / B, pixels, B], where the small one broadcasts over the pixels, then the result is
  // viewed back. Reshapes of blocked data are views, so this costs no copy.
  void TransformChannelBroadcast(Node& node, const SymbolicShape& y_shape) {
    for (size_t i = 0; i < 2; ++i) {
      const std::string big = node.inputs()[i], small = node.inputs()[1 - i];
      const auto big_shape = FloatShape4(graph_, big);
      const auto small_shape = FloatShape4(graph_, small);
      // The output is then shaped like the large operand.
      if (region_.count(big) == 0 || !big_shape || !small_shape ||
          (*small_shape)[1] != (*big_shape)[1] || (*small_shape)[2].value != 1 ||
          (*small_shape)[3].value != 1 ||
          !((*small_shape)[0].value == 1 ||
            ((*small_shape)[0] == (*big_shape)[0] &&
             ((*big_shape)[0].IsKnown() || !(*big_shape)[0].param.empty())))) {
        continue;
      }
      const auto blocked_small = BlockedInput(small);
      if (!blocked_small) return;
      const SymbolicShape& shape = *big_shape;
      const int64_t channels = shape[1].value;
      const int64_t blocks = RoundUp(channels, block_) / block_;
      const bool spatial_known = shape[2].IsKnown() && shape[3].IsKnown();
      const Dimension pixels =
          spatial_known ? Dimension::Known(shape[2].value * shape[3].value) : Dimension{};
      const std::string big_twin = twins_.at(big).name;
      const std::string big_view = View(big_twin, {0, blocks, -1, block_}, shape[0], pixels);
      const std::string small_view =
          View(*blocked_small, {0, blocks, 1, block_}, (*small_shape)[0], Dimension::Known(1));
      const std::string output = ConvertOutput(node, y_shape, channels);
      const std::string product = graph_.UniqueValueName(output + "_view");
      graph_.SetValueType(product, *graph_.FindTypeInScope(big_view));
      graph_.SetNodeInput(node, i, big_view);
      graph_.SetNodeInput(node, 1 - i, small_view);
      graph_.SetNodeOutput(node, 0, product);
      std::string target;
      if (spatial_known) {
        target =
            ShapeConstant(output, {0, RoundUp(channels, block_), shape[2].value, shape[3].value});
      } else {
        target = graph_.UniqueValueName(output + "_shape");
        graph_.AddNode({graph_.UniqueNodeName("Shape"), "Shape", "", {big_twin}, {target}, {}});
      }
      AddReshape(product, target, output);
      return;
    }
  }

  // A constant 1-D int64 tensor holding `dims`, named after `base`.
  std::string ShapeConstant(const std::string& base, const std::vector<int64_t>& dims) {
    const std::string name = graph_.UniqueValueName(base + "_dims");
    graph_.AddInitializer(
        name, Tensor::FromVector<int64_t>(TensorShape({static_cast<int64_t>(dims.size())}),
                                          std::span<const int64_t>(dims)));
    return name;
  }

  void AddReshape(const std::string& x, const std::string& shape, const std::string& y) {
    graph_.AddNode({graph_.UniqueNodeName("Reshape"), "Reshape", "", {x, shape}, {y}, {}});
  }

  // Blocked `value` reshaped to `dims` ([0, C / B, rows, B]; 0 copies the batch) as a new value
  // typed [batch, C / B, rows, B].
  std::string View(const std::string& value, const std::vector<int64_t>& dims,
                   const Dimension& batch, const Dimension& rows) {
    const std::string name = graph_.UniqueValueName(value + "_view");
    graph_.SetValueType(
        name, ValueType::Tensor(DataType::kFloat, SymbolicShape{batch, Dimension::Known(dims[1]),
                                                                rows, Dimension::Known(dims[3])}));
    AddReshape(value, ShapeConstant(value, dims), name);
    return name;
  }

  // Concat along channels of blocked parts without padding is the concatenation of their blocks.
  void TransformConcat(Node& node) {
    const Attribute* axis = node.FindAttribute("axis");
    const auto shape = FloatShape4(graph_, node.outputs()[0]);
    if (axis == nullptr || (axis->i != 1 && axis->i != -3) || !shape) return;
    for (const std::string& input : node.inputs()) {
      const auto twin = twins_.find(input);
      if (twin == twins_.end() || twin->second.channels % block_ != 0) return;
    }
    for (size_t i = 0; i < node.inputs().size(); ++i) {
      graph_.SetNodeInput(node, i, twins_.at(node.inputs()[i]).name);
    }
    graph_.SetNodeOutput(node, 0, ConvertOutput(node, *shape, (*shape)[1].value));
  }

  void TransformPool(Node& pool) {
    if (!pool.HasInput(0) || pool.HasOutput(1)) return;
    const std::string x = pool.inputs()[0];
    const auto x_shape = FloatShape4(graph_, x);
    const auto y_shape = FloatShape4(graph_, pool.outputs()[0]);
    if (!x_shape || !y_shape) return;
    if (twins_.count(x) == 0 && (*x_shape)[1].value % block_ != 0) return;
    auto attributes = NchwcPoolAttributes(pool);
    if (!attributes) return;
    const std::string input = *BlockedInput(x);
    const std::string output = ConvertOutput(pool, *y_shape, (*y_shape)[1].value);
    const std::string name = pool.name(), op = pool.op_type();
    graph_.RemoveNode(pool.index());
    graph_.AddNode({graph_.UniqueNodeName(name.empty() ? op : name),
                    op,
                    std::string(kNchwcDomain),
                    {input},
                    {output},
                    std::move(*attributes)});
  }

  // Resize / Upsample of blocked data by constant integer factors becomes the nchwc Upsample.
  void TransformResize(Node& node) {
    const std::string x = node.inputs()[0];
    const auto y_shape = FloatShape4(graph_, node.outputs()[0]);
    if (region_.count(x) == 0 || !y_shape || node.outputs().size() != 1) return;
    auto attributes = NchwcUpsampleAttributes(graph_, node);
    if (!attributes) return;
    const Twin twin = twins_.at(x);
    const std::string output = ConvertOutput(node, *y_shape, twin.channels);
    const std::string name = node.name();
    graph_.RemoveNode(node.index());
    graph_.AddNode({graph_.UniqueNodeName(name.empty() ? "Upsample" : name),
                    "Upsample",
                    std::string(kNchwcDomain),
                    {twin.name},
                    {output},
                    std::move(*attributes)});
  }

  Graph& graph_;
  int64_t block_;
  std::unordered_map<std::string, Twin> twins_;
  // Plain values whose producers now write their twins instead, in the order converted.
  std::vector<std::string> converted_;
  std::unordered_set<std::string> region_;            // converted_ as a set
  std::unordered_map<std::string, ConvState> convs_;  // by output twin
};

class NchwcLayout final : public GraphTransformer {
 public:
  NchwcLayout()
      : GraphTransformer("nchwc_layout", OptimizationLevel::kAll,
                         {{std::string(kNchwcDomain), "ReorderInput"},
                          {std::string(kNchwcDomain), "ReorderOutput"},
                          {std::string(kNchwcDomain), "Conv"}}) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    ORT_RETURN_IF_ERROR(ApplyToSubgraphs(graph, context, changed));
    return Rewriter(graph, NchwcBlockSize()).Run(changed);
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateNchwcLayout() { return std::make_unique<NchwcLayout>(); }

}  // namespace ort
