// Rule hoist_quantize: a per-tensor QuantizeLinear of a Reshape, Flatten, (Un)Squeeze or
// Transpose output that nothing else reads moves before that op, which then moves 8-bit values
// (onnxruntime's QDQPropagationTransformer): BERT's bias Add -> Reshape -> Transpose -> Q then
// transposes a quarter of the bytes, and the Q meets the Add's own QDQ group.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

// Ops whose output holds each input element once: quantizing before or after them is the same,
// and costs the same.
bool RearrangesOnly(const Node& op) {
  if (!op.domain().empty()) return false;
  for (const char* type : {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose"}) {
    if (op.op_type() == type) return true;
  }
  return false;
}

Node* HoistableOp(const Graph& graph, const Node& q) {
  if (!QuantizeParams(graph, q)) return nullptr;
  const Node* op = graph.Producer(q.inputs()[0]);
  if (op == nullptr || !RearrangesOnly(*op) || !op->HasInput(0) ||
      op->outputs()[0] != q.inputs()[0]) {
    return nullptr;
  }
  const std::string& moved = op->outputs()[0];
  if (graph.IsGraphOutput(moved) || graph.Consumers(moved).size() != 1) return nullptr;
  // A constant input is better left to constant folding than quantized on every run, and a
  // dequantized one to drop_qdq_data_movement, which removes both nodes.
  if (graph.GetConstantInitializer(op->inputs()[0], true) != nullptr ||
      IsOnnxOp(graph.Producer(op->inputs()[0]), "DequantizeLinear")) {
    return nullptr;
  }
  // The shape input must not be the moved value itself.
  for (size_t i = 1; i < op->inputs().size(); ++i) {
    if (op->inputs()[i] == op->inputs()[0]) return nullptr;
  }
  return const_cast<Node*>(op);
}

class HoistQuantize final : public RewriteRule {
 public:
  HoistQuantize() : RewriteRule("hoist_quantize", {"QuantizeLinear"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return HoistableOp(graph, node) != nullptr;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    Node& op = *HoistableOp(graph, node);
    // X -> op -> Q  becomes  X -> Q' -> op, the op writing Q's output.
    const std::string input = op.inputs()[0];
    const std::string float_result = op.outputs()[0];
    const std::string quantized_output = node.outputs()[0];
    const std::string quantized_input = graph.UniqueValueName(input + "_quantized");
    std::vector<std::string> q_inputs = node.inputs();
    q_inputs[0] = input;
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : node.attributes()) attributes.push_back(attribute.Clone());
    const std::string q_name = graph.UniqueNodeName(node.name());
    graph.RemoveNode(node.index());
    node_removed = true;
    graph.AddNode({q_name,
                   "QuantizeLinear",
                   "",
                   std::move(q_inputs),
                   {quantized_input},
                   std::move(attributes)});
    graph.SetNodeInput(op, 0, quantized_input);
    graph.SetNodeOutput(op, 0, quantized_output);
    graph.RemoveValueInfo(float_result);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateHoistQuantizeRule() { return std::make_unique<HoistQuantize>(); }

}  // namespace ort
