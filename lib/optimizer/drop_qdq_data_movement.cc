// Rule drop_qdq_data_movement: DequantizeLinear -> data-movement op -> QuantizeLinear with the
// same per-tensor scale and zero point becomes the op on the 8-bit tensor (onnxruntime's
// DropQDQNodesRules): the op only moves, picks or takes the maximum of values, so quantizing its
// float result gives back exactly the 8-bit values it read. Between different parameters a
// MaxPool still pools the 8-bit tensor, its DequantizeLinear moved after it.
#include <cstring>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

// Ops whose outputs are values of their input 0, per element; MaxPool from opset 12 (8-bit
// inputs) and Resize only in nearest mode (interpolation would make new values).
bool MovesData(const Node& op, int64_t opset) {
  if (!op.domain().empty()) return false;
  const std::string& type = op.op_type();
  if (type == "MaxPool") {
    return opset >= 12 && !op.HasOutput(1);
  }
  if (type == "Resize") {
    const Attribute* mode = op.FindAttribute("mode");
    return opset >= 11 && (mode == nullptr || mode->s == "nearest");
  }
  for (const char* movement :
       {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Slice", "Gather",
        "GatherElements", "Expand", "Tile", "DepthToSpace", "SpaceToDepth"}) {
    if (type == movement) return true;
  }
  return false;
}

// The one value of a scalar constant, as raw bytes of its type; empty when not such a constant.
std::string ScalarBytes(const Graph& graph, const std::string& name) {
  const Tensor* t = graph.GetConstantInitializer(name, true);
  if (t == nullptr || t->NumElements() != 1) return {};
  return std::string(static_cast<const char*>(t->RawData()), t->SizeInBytes());
}

bool SameParameters(const Graph& graph, const QuantizationParams& a, const QuantizationParams& b) {
  if (a.count != 1 || b.count != 1 || a.type != b.type) return false;
  const std::string scale = ScalarBytes(graph, a.scale);
  if (scale.empty() || scale != ScalarBytes(graph, b.scale)) return false;
  // An absent zero point is a zero of the quantized type, one byte of zeros.
  const auto zero_bytes = [&](const QuantizationParams& p) {
    return p.zero_point.empty() ? std::string(1, '\0') : ScalarBytes(graph, p.zero_point);
  };
  const std::string zero = zero_bytes(a);
  return !zero.empty() && zero == zero_bytes(b);
}

struct DropGroup {
  Node* dq;
  Node* op;
  bool same_parameters;  // else a MaxPool whose DequantizeLinear moves after it
};

std::optional<DropGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  const Node* op = graph.Producer(q.inputs()[0]);
  if (op == nullptr || !MovesData(*op, graph.OpsetVersion("")) || !op->HasInput(0) ||
      op->outputs()[0] != q.inputs()[0]) {
    return std::nullopt;
  }
  const std::string& moved = op->outputs()[0];
  if (graph.IsGraphOutput(moved) || graph.Consumers(moved).size() != 1) return std::nullopt;
  const auto x = DequantizeOf(graph, op->inputs()[0]);
  if (!x || x->count != 1) return std::nullopt;
  const bool same = SameParameters(graph, *x, *y);
  // The maximum commutes with dequantizing (a non-decreasing map), so a MaxPool between
  // different parameters pools the 8-bit values, and only its output is requantized.
  if (!same && op->op_type() != "MaxPool") return std::nullopt;
  // Other inputs (shapes, indices, starts) must not be the dequantized value itself.
  for (size_t i = 1; i < op->inputs().size(); ++i) {
    if (op->inputs()[i] == op->inputs()[0]) return std::nullopt;
  }
  return DropGroup{const_cast<Node*>(x->node), const_cast<Node*>(op), same};
}

class DropQdqDataMovement final : public RewriteRule {
 public:
  DropQdqDataMovement() : RewriteRule("drop_qdq_data_movement", {"QuantizeLinear"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const DropGroup group = *MatchGroup(graph, node);
    if (!group.same_parameters) {
      // DQ(x) -> MaxPool -> Q  becomes  MaxPool(x) -> DQ -> Q: same values, pooled in 8 bits.
      const std::string dequantized = group.dq->outputs()[0];
      const std::string float_result = group.op->outputs()[0];
      const std::string pooled = graph.UniqueValueName(float_result + "_quantized");
      std::vector<std::string> dq_inputs = group.dq->inputs();
      dq_inputs[0] = pooled;
      std::vector<Attribute> attributes;
      for (const auto& [name, attribute] : group.dq->attributes()) {
        attributes.push_back(attribute.Clone());
      }
      graph.SetNodeInput(*group.op, 0, group.dq->inputs()[0]);
      graph.SetNodeOutput(*group.op, 0, pooled);
      graph.RemoveValueInfo(float_result);
      graph.AddNode({graph.UniqueNodeName(group.dq->name()),
                     "DequantizeLinear",
                     "",
                     std::move(dq_inputs),
                     {float_result},
                     std::move(attributes)});
      if (graph.Consumers(dequantized).empty() && !graph.IsGraphOutput(dequantized)) {
        graph.RemoveNode(group.dq->index());
      }
      return Status::OK();
    }
    const std::string quantized = node.outputs()[0];
    const std::string dequantized = group.dq->outputs()[0];
    const std::string float_result = group.op->outputs()[0];
    graph.SetNodeInput(*group.op, 0, group.dq->inputs()[0]);
    graph.RemoveNode(node.index());
    node_removed = true;
    graph.SetNodeOutput(*group.op, 0, quantized);
    graph.RemoveValueInfo(float_result);
    if (graph.Consumers(dequantized).empty() && !graph.IsGraphOutput(dequantized)) {
      graph.RemoveNode(group.dq->index());
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateDropQdqDataMovementRule() {
  return std::make_unique<DropQdqDataMovement>();
}

}  // namespace ort
