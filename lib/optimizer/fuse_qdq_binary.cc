// Rule fuse_qdq_binary: QuantizeLinear(Add or Mul(DequantizeLinear(a), DequantizeLinear(b))), all
// per tensor and of one 8-bit type, with a Relu or Clip the QuantizeLinear makes redundant allowed
// before it, becomes com.microsoft QLinearAdd or QLinearMul (onnxruntime's QDQ
// BinaryNodeGroupSelector): the residual additions of quantized CNNs stay in 8 bits.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct BinaryGroup {
  const Node* op;
  const Node* activation;
  QuantizationParams a, b, y;
};

std::optional<BinaryGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  for (const char* op_type : {"Add", "Mul"}) {
    const Node* activation = nullptr;
    const Node* op = QuantizedProducer(graph, q, *y, op_type, &activation);
    if (op == nullptr || op->inputs().size() != 2) continue;
    const auto a = DequantizeOf(graph, op->inputs()[0]);
    const auto b = DequantizeOf(graph, op->inputs()[1]);
    if (!a || !b || a->count != 1 || b->count != 1 || a->type != y->type || b->type != y->type) {
      return std::nullopt;
    }
    return BinaryGroup{op, activation, *a, *b, *y};
  }
  return std::nullopt;
}

class FuseQdqBinary final : public RewriteRule {
 public:
  FuseQdqBinary()
      : RewriteRule(
            "fuse_qdq_binary", {"QuantizeLinear"}, "",
            {{std::string(kMsDomain), "QLinearAdd"}, {std::string(kMsDomain), "QLinearMul"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const BinaryGroup group = *MatchGroup(graph, node);
    const std::string fused = group.op->op_type() == "Add" ? "QLinearAdd" : "QLinearMul";
    ReplaceQdqGroup(graph, *group.op, group.activation, node,
                    {group.op->name(),
                     fused,
                     std::string(kMsDomain),
                     QLinearInputs(graph, group.a, group.b, group.y),
                     {},
                     {}},
                    {group.a.node, group.b.node});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqBinaryRule() { return std::make_unique<FuseQdqBinary>(); }

}  // namespace ort
