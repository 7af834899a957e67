// Rule fuse_dynamic_quantize_matmul: the dynamically quantized MatMul of onnxruntime's
// quantize_dynamic, DynamicQuantizeLinear(A) -> MatMulInteger(A_q, B, A_zero, B_zero) -> Cast to
// float -> Mul by Mul(A_scale, B_scale) (-> Add of a constant bias), with B and its scale and zero
// point constants, becomes com.microsoft DynamicQuantizeMatMul (onnxruntime's
// DynamicQuantizeMatMulFusion): one kernel quantizes A, multiplies on packed B and scales.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

struct DynamicGroup {
  const Node* quantize;  // DynamicQuantizeLinear
  const Node* matmul;
  const Node* cast;
  const Node* scale;  // Mul(A_scale, B_scale)
  const Node* mul;
  const Node* add;  // or null
  std::string b_scale;
  std::string bias;
};

// The input of `mul` other than `value`, or empty.
std::string OtherInput(const Node& mul, const std::string& value) {
  if (mul.inputs().size() != 2) return {};
  if (mul.inputs()[0] == value) return mul.inputs()[1];
  return mul.inputs()[1] == value ? mul.inputs()[0] : std::string();
}

// The sole reader of `value` when it is an ai.onnx `op_type`, else null.
const Node* SoleReader(const Graph& graph, const std::string& value, const char* op_type) {
  if (!HasSingleConsumer(graph, value)) return nullptr;
  const Node* reader = graph.Consumers(value)[0];
  return IsOnnxOp(reader, op_type) ? reader : nullptr;
}

std::optional<DynamicGroup> MatchGroup(const Graph& graph, const Node& matmul) {
  if (!IsOnnxOp(&matmul, "MatMulInteger") || matmul.inputs().size() < 3 || !matmul.HasInput(2) ||
      matmul.outputs().size() != 1) {
    return std::nullopt;
  }
  const Node* quantize = graph.Producer(matmul.inputs()[0]);
  if (!IsOnnxOp(quantize, "DynamicQuantizeLinear") || quantize->outputs().size() != 3 ||
      quantize->outputs()[2] != matmul.inputs()[2]) {
    return std::nullopt;
  }
  const Tensor* b = ConstantInput(graph, matmul, 1);
  if (b == nullptr || b->shape().rank() != 2) return std::nullopt;
  if (matmul.HasInput(3) && ConstantInput(graph, matmul, 3) == nullptr) return std::nullopt;
  const Node* cast = SoleReader(graph, matmul.outputs()[0], "Cast");
  const Attribute* to = cast != nullptr ? cast->FindAttribute("to") : nullptr;
  if (to == nullptr || to->i != static_cast<int64_t>(DataType::kFloat)) return std::nullopt;
  const Node* mul = SoleReader(graph, cast->outputs()[0], "Mul");
  if (mul == nullptr) return std::nullopt;
  const Node* scale = graph.Producer(OtherInput(*mul, cast->outputs()[0]));
  if (!IsOnnxOp(scale, "Mul") || !HasSingleConsumer(graph, scale->outputs()[0])) {
    return std::nullopt;
  }
  const std::string b_scale = OtherInput(*scale, quantize->outputs()[1]);
  const Tensor* b_scale_value = graph.GetConstantInitializer(b_scale, true);
  const int64_t n = b->shape()[1];
  if (b_scale_value == nullptr || b_scale_value->dtype() != DataType::kFloat ||
      (b_scale_value->NumElements() != 1 && b_scale_value->NumElements() != n) ||
      b_scale_value->shape().rank() > 1) {
    return std::nullopt;
  }
  DynamicGroup group{quantize, &matmul, cast, scale, mul, nullptr, b_scale, {}};
  if (const Node* add = SoleReader(graph, mul->outputs()[0], "Add")) {
    const std::string bias = OtherInput(*add, mul->outputs()[0]);
    const Tensor* value = graph.GetConstantInitializer(bias, true);
    if (value != nullptr && value->dtype() == DataType::kFloat && value->NumElements() == n &&
        value->shape().rank() == 1) {
      group.add = add;
      group.bias = bias;
    }
  }
  return group;
}

class FuseDynamicQuantizeMatMul final : public RewriteRule {
 public:
  FuseDynamicQuantizeMatMul()
      : RewriteRule("fuse_dynamic_quantize_matmul", {"MatMulInteger"}, "",
                    {{std::string(kMsDomain), "DynamicQuantizeMatMul"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const DynamicGroup group = *MatchGroup(graph, node);
    const Node* last = group.add != nullptr ? group.add : group.mul;
    std::vector<std::string> inputs{group.quantize->inputs()[0], node.inputs()[1], group.b_scale,
                                    node.HasInput(3) ? node.inputs()[3] : std::string(),
                                    group.bias};
    std::vector<const Node*> replaced{&node, group.cast, group.scale, group.mul};
    if (group.add != nullptr) replaced.push_back(group.add);
    const Node* quantize = group.quantize;
    ReplaceByFusedNode(graph, replaced,
                       {node.name(),
                        "DynamicQuantizeMatMul",
                        std::string(kMsDomain),
                        std::move(inputs),
                        last->outputs(),
                        {}});
    // The quantization of A may serve other products (Q, K and V read one input).
    RemoveIfUnused(graph, *quantize);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseDynamicQuantizeMatMulRule() {
  return std::make_unique<FuseDynamicQuantizeMatMul>();
}

}  // namespace ort
