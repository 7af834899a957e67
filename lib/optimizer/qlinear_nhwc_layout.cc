// Pass qlinear_nhwc_layout: 8-bit QLinearConvs with constant 2-D filters, and the QLinearAdd,
// QLinearMul, MaxPool, QLinearConcat and QLinearGlobalAveragePool between them, run
// channels-last (com.microsoft QLinearConv and QLinearGlobalAveragePool with channels_last = 1,
// NhwcMaxPool, QLinearConcat along the moved axis), as onnxruntime's NhwcTransformer does.
//
// The integer convolution works on NHWC rows anyway; without this pass every QLinearConv
// transposes its input in and its output back, for a sixth of a quantized ResNet's time. Values
// of the channels-last region get twins named "<value>_nhwc"; a Transpose makes a twin where the
// region reads a plain value and restores a plain value that something outside still reads.
#include <unordered_map>

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

  // Replaces `node` by `spec` (whose output 0 is the twin of node's output 0).
  void Replace(const Node& node, NodeSpec spec, DataType output_type) {
    const std::string output = node.outputs()[0];
    spec.outputs = {NewTwin(output, output_type)};
    graph_.RemoveNode(node.index());
    graph_.AddNode(std::move(spec));
    graph_.mutable_opsets().try_emplace(std::string(kMsDomain), 1);
    converted_.push_back(output);
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
    const auto a = twins_.find(op.inputs()[0]);
    const auto b = twins_.find(op.inputs()[3]);
    const std::optional<DataType> y_type = ElementTypeOf(graph_, op.inputs()[7]);
    if (a == twins_.end() || b == twins_.end() || !IsEightBitType(y_type)) return;
    std::vector<std::string> inputs = op.inputs();
    inputs[0] = a->second;
    inputs[3] = b->second;
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
