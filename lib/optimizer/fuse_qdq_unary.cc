// Rules fuse_qdq_unary and fuse_qdq_hard_sigmoid: QuantizeLinear(f(DequantizeLinear(x))), per
// tensor and of one 8-bit type, becomes a table lookup of the 256 values of x: com.microsoft
// QLinearSigmoid or QLinearLeakyRelu (onnxruntime's QDQ unary selector), and in sessions only
// this engine's QLinearHardSigmoid (the gate of the HardSwish of PP-OCR and MobileNetV3, which a
// quantizer leaves between a QuantizeLinear and a QLinearMul).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct UnaryGroup {
  const Node* op;
  const Node* activation;
  QuantizationParams x, y;
};

std::optional<UnaryGroup> MatchGroup(const Graph& graph, const Node& q,
                                     const std::vector<std::string>& op_types) {
  const auto y = QuantizeParams(graph, q);
  if (!y || y->count != 1) return std::nullopt;
  for (const std::string& op_type : op_types) {
    const Node* activation = nullptr;
    const Node* op = QuantizedProducer(graph, q, *y, op_type, &activation);
    if (op == nullptr || !op->HasInput(0)) continue;
    const auto x = DequantizeOf(graph, op->inputs()[0]);
    if (!x || x->count != 1 || x->type != y->type) return std::nullopt;
    return UnaryGroup{op, activation, *x, *y};
  }
  return std::nullopt;
}

class FuseQdqUnary final : public RewriteRule {
 public:
  FuseQdqUnary(std::string name, std::vector<std::string> op_types)
      : RewriteRule(std::move(name), {"QuantizeLinear"}, "", MadeOps(op_types)),
        op_types_(std::move(op_types)) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node, op_types_).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const UnaryGroup group = *MatchGroup(graph, node, op_types_);
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : group.op->attributes()) {
      attributes.push_back(attribute.Clone());
    }
    ReplaceQdqGroup(graph, *group.op, group.activation, node,
                    {group.op->name(),
                     "QLinear" + group.op->op_type(),
                     std::string(kMsDomain),
                     {group.x.node->inputs()[0], group.x.scale, ZeroPointInput(graph, group.x),
                      group.y.scale, ZeroPointInput(graph, group.y)},
                     {},
                     std::move(attributes)},
                    {group.x.node});
    node_removed = true;
    return Status::OK();
  }

 private:
  static std::vector<MadeOp> MadeOps(const std::vector<std::string>& op_types) {
    std::vector<MadeOp> made;
    for (const std::string& op : op_types) made.push_back({std::string(kMsDomain), "QLinear" + op});
    return made;
  }

  std::vector<std::string> op_types_;
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqUnaryRule() {
  return std::make_unique<FuseQdqUnary>("fuse_qdq_unary",
                                        std::vector<std::string>{"Sigmoid", "LeakyRelu"});
}

std::unique_ptr<RewriteRule> CreateFuseQdqHardSigmoidRule() {
  return std::make_unique<FuseQdqUnary>("fuse_qdq_hard_sigmoid",
                                        std::vector<std::string>{"HardSigmoid"});
}

}  // namespace ort
