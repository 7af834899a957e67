// Pass qlinear_nhwc_layout: 8-bit QLinearConvs with constant 2-D filters, and the QLinearAdd,
// QLinearMul, MaxPool, QLinearConcat and QLinearGlobalAveragePool between them, run
// channels-last (com.microsoft QLinearConv and QLinearGlobalAveragePool with channels_last = 1,
// NhwcMaxPool, QLinearConcat along the moved axis), as onnxruntime's NhwcTransformer does.
//
// The integer convolution works on NHWC rows anyway; without this pass every QLinearConv
// transposes its input in and its output back, for a sixth of a quantized ResNet's time. Values
// of the channels-last region get twins named "<value>_nhwc"; a Transpose makes a twin where the
// region reads a plain value and restores a plain value that something outside still reads.
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

bool IsEightBitType(std::optional<DataType> type) {
  return type && (*type == DataType::kUint8 || *type == DataType::kInt8);
}

class Rewriter {
 public:
  explicit Rewriter(Graph& graph) : graph_(graph) {}

  Status Run(bool& changed) {
    ORT_ASSIGN_OR_RETURN(const std::vector<NodeIndex> order, graph_.TopologicalOrder());
    for (NodeIndex index : order) {
      Node* node = graph_.GetNode(index);
      if (node == nullptr) continue;
      if (node->op_type() == "QLinearConv" &&
          (node->domain().empty() || node->domain() == kMsDomain)) {
        TransformConv(*node);
      } else if (node->domain() == kMsDomain &&
                 (node->op_type() == "QLinearAdd" || node->op_type() == "QLinearMul")) {
        TransformBinary(*node);
      } else if (IsOnnxOp(node, "MaxPool")) {
        TransformMaxPool(*node);
      } else if (node->domain() == kMsDomain && node->op_type() == "QLinearConcat") {
        TransformConcat(*node);
      } else if (node->domain() == kMsDomain && node->op_type() == "QLinearGlobalAveragePool") {
        TransformGlobalAveragePool(*node);
      } else if (IsOnnxOp(node, "Concat") || IsOnnxOp(node, "Split")) {
        TransformAlongAxis(*node);
      } else if (IsOnnxOp(node, "Slice")) {
        TransformSlice(*node);
      } else if (IsOnnxOp(node, "Resize")) {
        TransformResize(*node);
      } else if (IsOnnxOp(node, "Shape")) {
        TransformShape(*node);
      } else {
        TransformElementwise(*node);
      }
    }
    if (converted_.empty()) return Status::OK();
    for (const std::string& value : converted_) {
      if (graph_.Consumers(value).empty() && !graph_.IsGraphOutput(value)) continue;
      AddTranspose(twins_.at(value), value, kToChannelsFirst);
    }
    changed = true;
    return Status::OK();
  }

 private:
  void AddTranspose(const std::string& input, const std::string& output, const int64_t (&perm)[4]) {
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Ints("perm", std::vector<int64_t>(perm, perm + 4)));
    graph_.AddNode({graph_.UniqueNodeName("Transpose"),
                    "Transpose",
                    "",
                    {input},
                    {output},
                    std::move(attributes)});
  }

  // The channels-last type of a value typed `type` (rank 4 or unknown).
  static ValueType TwinType(DataType type, const ValueType* plain) {
    if (plain == nullptr || !plain->shape || plain->shape->size() != 4) {
      return ValueType::Tensor(type);
    }
    const SymbolicShape& s = *plain->shape;
    return ValueType::Tensor(type, SymbolicShape{s[0], s[2], s[3], s[1]});
  }

  // A new twin for `value` (8-bit of `type`), recorded.
  std::string NewTwin(const std::string& value, DataType type) {
    const std::string name = graph_.UniqueValueName(value + "_nhwc");
    graph_.SetValueType(name, TwinType(type, graph_.FindTypeInScope(value)));
    twins_[value] = name;
    return name;
  }

  // The twin of `value`, transposing it when it has none.
  std::string ChannelsLastInput(const std::string& value, DataType type) {
    if (auto it = twins_.find(value); it != twins_.end()) return it->second;
    const std::string twin = NewTwin(value, type);
    AddTranspose(value, twin, kToChannelsLast);
    return twin;
  }

  // Replaces `node` by `spec`, whose outputs are the twins of node's, all of `output_type`.
  void Replace(const Node& node, NodeSpec spec, DataType output_type) {
    const std::vector<std::string> outputs = node.outputs();
    spec.outputs.clear();
    for (const std::string& output : outputs) {
      spec.outputs.push_back(output.empty() ? output : NewTwin(output, output_type));
    }
    graph_.RemoveNode(node.index());
    graph_.AddNode(std::move(spec));
    graph_.mutable_opsets().try_emplace(std::string(kMsDomain), 1);
    for (const std::string& output : outputs) {
      if (!output.empty()) converted_.push_back(output);
    }
  }

  // `axis` of a rank-4 tensor (negative counts from the end) in the channels-last twin, or
  // nullopt when out of range.
  static std::optional<int64_t> ChannelsLastAxis(int64_t axis) {
    constexpr int64_t kMoved[] = {0, 3, 1, 2};
    if (axis < -4 || axis > 3) return std::nullopt;
    return kMoved[(axis + 4) % 4];
  }

  // The twins of every input of `op` in `inputs` (all must have one), or false.
  bool TwinInputs(const Node& op, std::vector<std::string>& inputs) {
    inputs = op.inputs();
    for (std::string& input : inputs) {
      const auto twin = twins_.find(input);
      if (twin == twins_.end()) return false;
      input = twin->second;
    }
    return !inputs.empty();
  }

  static std::vector<Attribute> AttributesWithout(const Node& node, std::string_view dropped) {
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : node.attributes()) {
      if (name != dropped) attributes.push_back(attribute.Clone());
    }
    return attributes;
  }

  void TransformConv(const Node& conv) {
    const Attribute* channels_last = conv.FindAttribute("channels_last");
    if (channels_last != nullptr && channels_last->i != 0) return;
    if (conv.inputs().size() < 8 || conv.outputs().size() != 1 || !conv.HasInput(0)) return;
    for (size_t i = 1; i < 8; ++i) {
      if (!conv.HasInput(i)) return;
    }
    const Tensor* w = ConstantInput(graph_, conv, 3);
    if (w == nullptr || w->shape().rank() != 4) return;
    const std::optional<DataType> x_type = ElementTypeOf(graph_, conv.inputs()[0]);
    const std::optional<DataType> y_type = ElementTypeOf(graph_, conv.inputs()[7]);
    if (!IsEightBitType(x_type) || !IsEightBitType(y_type)) return;
    std::vector<std::string> inputs = conv.inputs();
    inputs[0] = ChannelsLastInput(inputs[0], *x_type);
    std::vector<Attribute> attributes = AttributesWithout(conv, "channels_last");
    attributes.push_back(Attribute::Int("channels_last", 1));
    Replace(conv,
            {conv.name(), "QLinearConv", std::string(kMsDomain), inputs, {}, std::move(attributes)},
            *y_type);
  }

  // Elementwise with broadcasting: both operands permuted alike broadcast alike, so the op reads
  // two twins (both rank 4) as it read their plain values.
  void TransformBinary(const Node& op) {
    if (op.inputs().size() != 8 || op.outputs().size() != 1) return;
    const std::optional<DataType> y_type = ElementTypeOf(graph_, op.inputs()[7]);
    if (!IsEightBitType(y_type)) return;
    // Each operand a twin, or a one-value constant (a learnable scale or bias of PP-OCR's
    // activations), which reads the same in either layout.
    std::vector<std::string> inputs = op.inputs();
    bool any_twin = false;
    for (const size_t index : {size_t{0}, size_t{3}}) {
      if (const auto twin = twins_.find(inputs[index]); twin != twins_.end()) {
        inputs[index] = twin->second;
        any_twin = true;
        continue;
      }
      const Tensor* constant = graph_.GetConstantInitializer(inputs[index], true);
      if (constant == nullptr || constant->NumElements() != 1) return;
    }
    if (!any_twin) return;
    Replace(
        op,
        {op.name(), op.op_type(), std::string(kMsDomain), inputs, {}, AttributesWithout(op, "")},
        *y_type);
  }

  void TransformMaxPool(const Node& pool) {
    if (!pool.HasInput(0) || pool.outputs().size() != 1) return;
    const auto twin = twins_.find(pool.inputs()[0]);
    if (twin == twins_.end()) return;
    const std::optional<DataType> type = ElementTypeOf(graph_, pool.inputs()[0]);
    const Attribute* kernel = pool.FindAttribute("kernel_shape");
    if (!IsEightBitType(type) || kernel == nullptr || kernel->ints.size() != 2) return;
    Replace(pool,
            {pool.name(),
             "NhwcMaxPool",
             std::string(kMsDomain),
             {twin->second},
             {},
             AttributesWithout(pool, "storage_order")},
            *type);
  }

  // Every tensor read by twins (a rank-4 region), the axis renumbered channels-last.
  void TransformConcat(const Node& concat) {
    const Attribute* axis = concat.FindAttribute("axis");
    if (axis == nullptr || concat.inputs().size() < 5 || (concat.inputs().size() - 2) % 3 != 0 ||
        concat.outputs().size() != 1 || axis->i < -4 || axis->i > 3) {
      return;
    }
    std::vector<std::string> inputs = concat.inputs();
    for (size_t i = 2; i < inputs.size(); i += 3) {
      const auto twin = twins_.find(inputs[i]);
      if (twin == twins_.end()) return;
      inputs[i] = twin->second;
    }
    const std::optional<DataType> type = ElementTypeOf(graph_, concat.inputs()[1]);
    if (!IsEightBitType(type)) return;
    constexpr int64_t kChannelsLastAxis[] = {0, 3, 1, 2};
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("axis", kChannelsLastAxis[(axis->i + 4) % 4]));
    Replace(
        concat,
        {concat.name(), "QLinearConcat", std::string(kMsDomain), inputs, {}, std::move(attributes)},
        *type);
  }

  void TransformGlobalAveragePool(const Node& pool) {
    const Attribute* channels_last = pool.FindAttribute("channels_last");
    if ((channels_last != nullptr && channels_last->i != 0) || pool.inputs().size() < 4 ||
        pool.outputs().size() != 1) {
      return;
    }
    const auto twin = twins_.find(pool.inputs()[0]);
    if (twin == twins_.end()) return;
    const std::optional<DataType> type = ElementTypeOf(graph_, twin->second);
    if (!IsEightBitType(type)) return;
    std::vector<std::string> inputs = pool.inputs();
    inputs[0] = twin->second;
    std::vector<Attribute> attributes = AttributesWithout(pool, "channels_last");
    attributes.push_back(Attribute::Int("channels_last", 1));
    Replace(pool,
            {pool.name(),
             "QLinearGlobalAveragePool",
             std::string(kMsDomain),
             inputs,
             {},
             std::move(attributes)},
            *type);
  }

  // Elementwise ops between channels-last nodes follow them, so that a float activation a
  // quantizer left between two convolutions (YOLO's SiLU: DequantizeLinear, QuickGelu,
  // QuantizeLinear) costs no Transposes: each input either has a twin or is a one-value constant
  // (a scale, zero point or bound), and at least one has a twin.
  void TransformElementwise(const Node& op) {
    static const std::unordered_set<std::string> kOnnxOps = {
        "Relu",          "Sigmoid", "Tanh", "LeakyRelu", "HardSigmoid", "HardSwish",
        "Clip",          "Elu",     "Selu", "Softplus",  "Erf",         "Abs",
        "Neg",           "Add",     "Sub",  "Mul",       "Div",         "DequantizeLinear",
        "QuantizeLinear"};
    static const std::unordered_set<std::string> kMsOps = {
        "QuickGelu", "Gelu", "QLinearSigmoid", "QLinearLeakyRelu", "QLinearHardSigmoid"};
    const bool known = op.domain().empty()
                           ? kOnnxOps.count(op.op_type()) > 0
                           : op.domain() == kMsDomain && kMsOps.count(op.op_type()) > 0;
    if (!known || op.outputs().size() != 1 || !op.HasOutput(0) || op.inputs().empty()) return;
    std::vector<std::string> inputs = op.inputs();
    std::optional<DataType> type;
    for (std::string& input : inputs) {
      if (input.empty()) continue;
      if (const auto twin = twins_.find(input); twin != twins_.end()) {
        if (!type) type = ElementTypeOf(graph_, twin->second);
        input = twin->second;
        continue;
      }
      const Tensor* constant = graph_.GetConstantInitializer(input, true);
      if (constant == nullptr || constant->NumElements() != 1) return;
    }
    if (!type) return;
    if (op.op_type() == "DequantizeLinear") {
      type = ElementTypeOf(graph_, op.inputs()[1]);
    } else if (op.op_type() == "QuantizeLinear") {
      type = op.HasInput(2) ? ElementTypeOf(graph_, op.inputs()[2]) : DataType::kUint8;
    }
    if (!type) return;
    Replace(op, {op.name(), op.op_type(), op.domain(), inputs, {}, AttributesWithout(op, "")},
            *type);
  }

  // Concat of twins, or Split of one, along the moved axis (YOLO's C2f blocks).
  void TransformAlongAxis(const Node& op) {
    const bool concat = op.op_type() == "Concat";
    std::vector<std::string> inputs;
    if (concat) {
      if (!TwinInputs(op, inputs)) return;
    } else {
      const auto twin = twins_.find(op.HasInput(0) ? op.inputs()[0] : std::string());
      if (twin == twins_.end()) return;
      inputs = op.inputs();
      inputs[0] = twin->second;
    }
    const Attribute* axis_attribute = op.FindAttribute("axis");
    if (concat && axis_attribute == nullptr) return;
    const auto axis = ChannelsLastAxis(axis_attribute != nullptr ? axis_attribute->i : 0);
    const std::optional<DataType> type = ElementTypeOf(graph_, inputs[0]);
    if (!axis || !type) return;
    std::vector<Attribute> attributes = AttributesWithout(op, "axis");
    attributes.push_back(Attribute::Int("axis", *axis));
    Replace(op, {op.name(), op.op_type(), "", inputs, {}, std::move(attributes)}, *type);
  }

  // Slice of a twin with constant axes (or none: the leading ones), the axes renumbered.
  void TransformSlice(const Node& op) {
    const auto twin = twins_.find(op.HasInput(0) ? op.inputs()[0] : std::string());
    if (twin == twins_.end() || op.outputs().size() != 1 || !op.HasInput(1)) return;
    const Tensor* starts = ConstantInput(graph_, op, 1);
    if (starts == nullptr || starts->shape().rank() != 1) return;
    std::vector<int64_t> axes;
    if (op.HasInput(3)) {
      const auto constant = ConstantInts(graph_, op, 3);
      if (!constant) return;
      axes = *constant;
    } else {
      for (int64_t i = 0; i < starts->NumElements(); ++i) axes.push_back(i);
    }
    std::vector<int64_t> moved;
    for (int64_t axis : axes) {
      const auto channels_last = ChannelsLastAxis(axis);
      if (!channels_last) return;
      moved.push_back(*channels_last);
    }
    const std::optional<DataType> type = ElementTypeOf(graph_, twin->second);
    if (!type) return;
    const std::string axes_name = graph_.UniqueValueName(op.name() + "_nhwc_axes");
    if (starts->dtype() == DataType::kInt32) {
      std::vector<int32_t> narrow(moved.begin(), moved.end());
      graph_.AddInitializer(axes_name,
                            Tensor::FromVector<int32_t>(TensorShape({int64_t(narrow.size())}),
                                                        std::span<const int32_t>(narrow)));
    } else {
      graph_.AddInitializer(axes_name,
                            Tensor::FromVector<int64_t>(TensorShape({int64_t(moved.size())}),
                                                        std::span<const int64_t>(moved)));
    }
    std::vector<std::string> inputs = op.inputs();
    inputs[0] = twin->second;
    inputs.resize(std::max<size_t>(inputs.size(), 4));
    inputs[3] = axes_name;
    Replace(op, {op.name(), "Slice", "", inputs, {}, AttributesWithout(op, "")}, *type);
  }

  // Resize of a twin whose roi, scales and sizes (those given) are constants: permuted alike.
  void TransformResize(const Node& op) {
    const auto twin = twins_.find(op.HasInput(0) ? op.inputs()[0] : std::string());
    if (twin == twins_.end() || op.outputs().size() != 1 || op.FindAttribute("axes") != nullptr ||
        graph_.OpsetVersion("") < 11) {
      return;
    }
    std::vector<std::string> inputs = op.inputs();
    inputs[0] = twin->second;
    for (size_t i = 1; i < inputs.size(); ++i) {
      if (inputs[i].empty()) continue;
      const Tensor* constant = ConstantInput(graph_, op, i);
      if (constant == nullptr) return;
      if (constant->NumElements() == 0) continue;
      const int64_t halves = i == 1 ? 2 : 1;  // roi holds the starts, then the ends
      if (constant->NumElements() != 4 * halves) return;
      Tensor permuted;
      if (constant->dtype() == DataType::kFloat) {
        permuted = Permuted<float>(*constant, halves);
      } else if (constant->dtype() == DataType::kInt64) {
        permuted = Permuted<int64_t>(*constant, halves);
      } else {
        return;
      }
      inputs[i] = graph_.UniqueValueName(inputs[i] + "_nhwc");
      graph_.AddInitializer(inputs[i], std::move(permuted));
    }
    const std::optional<DataType> type = ElementTypeOf(graph_, twin->second);
    if (!type) return;
    Replace(op, {op.name(), "Resize", "", inputs, {}, AttributesWithout(op, "")}, *type);
  }

  template <typename T>
  static Tensor Permuted(const Tensor& values, int64_t halves) {
    const T* data = values.Data<T>();
    std::vector<T> permuted;
    for (int64_t h = 0; h < halves; ++h) {
      for (int64_t axis : kToChannelsLast) permuted.push_back(data[h * 4 + axis]);
    }
    return Tensor::FromVector<T>(values.shape(), std::span<const T>(permuted));
  }

  // Shape of a plain value that has a twin: the twin's shape gathered back to channels-first
  // order, instead of a Transpose made only to be measured.
  void TransformShape(const Node& op) {
    const auto twin = twins_.find(op.HasInput(0) ? op.inputs()[0] : std::string());
    if (twin == twins_.end() || op.outputs().size() != 1 || !op.attributes().empty()) return;
    const std::string output = op.outputs()[0];
    const std::string name = op.name();
    const std::string twin_shape = graph_.UniqueValueName(output + "_nhwc");
    const std::string order = graph_.UniqueValueName(output + "_nchw_order");
    graph_.AddInitializer(order, Tensor::FromVector<int64_t>(
                                     TensorShape({4}), std::span<const int64_t>(kToChannelsFirst)));
    graph_.SetValueType(twin_shape,
                        ValueType::Tensor(DataType::kInt64, SymbolicShape{Dimension::Known(4)}));
    graph_.RemoveNode(op.index());
    graph_.AddNode({name, "Shape", "", {twin->second}, {twin_shape}, {}});
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("axis", 0));
    graph_.AddNode({graph_.UniqueNodeName(name + "_nchw"),
                    "Gather",
                    "",
                    {twin_shape, order},
                    {output},
                    std::move(attributes)});
  }

  Graph& graph_;
  std::unordered_map<std::string, std::string> twins_;
  std::vector<std::string> converted_;
};

class QlinearNhwcLayout final : public GraphTransformer {
 public:
  QlinearNhwcLayout()
      : GraphTransformer(
            "qlinear_nhwc_layout", OptimizationLevel::kAll,
            {{std::string(kMsDomain), "QLinearConv"}, {std::string(kMsDomain), "NhwcMaxPool"}}) {}

  Status Apply(Graph& graph, const OptimizerContext& context, bool& changed) const override {
    ORT_RETURN_IF_ERROR(ApplyToSubgraphs(graph, context, changed));
    return Rewriter(graph).Run(changed);
  }
};

}  // namespace

std::unique_ptr<GraphTransformer> CreateQlinearNhwcLayout() {
  return std::make_unique<QlinearNhwcLayout>();
}

}  // namespace ort
