// Rule fuse_matmul_scale_transpose: a float MatMul whose operands come through Transposes that swap
// their last two axes, or through Mul/Div by a scalar constant, or whose product is scaled so,
// becomes com.microsoft FusedMatMul with transA/transB and the scales multiplied into alpha.
// Transposes and input scales that other nodes also read are kept for them.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A Transpose whose perm swaps the last two axes and keeps the others in place.
bool SwapsLastTwoAxes(const Node& transpose) {
  const Attribute* perm = transpose.FindAttribute("perm");
  if (perm == nullptr || perm->ints.size() < 2) return false;
  const auto rank = static_cast<int64_t>(perm->ints.size());
  for (int64_t i = 0; i < rank - 2; ++i) {
    if (perm->ints[static_cast<size_t>(i)] != i) return false;
  }
  return perm->ints[static_cast<size_t>(rank - 2)] == rank - 1 &&
         perm->ints[static_cast<size_t>(rank - 1)] == rank - 2;
}

// When `node` multiplies one operand by a scalar float constant (Mul either way round, Div with
// the constant as divisor) without broadcasting it to a higher rank: the scale and the operand.
std::optional<std::pair<float, std::string>> ScalarScale(const Graph& graph, const Node& node) {
  if (!node.domain().empty() || node.inputs().size() != 2 || !node.HasInput(0) ||
      !node.HasInput(1)) {
    return std::nullopt;
  }
  const bool is_div = node.op_type() == "Div";
  if (!is_div && node.op_type() != "Mul") return std::nullopt;
  for (size_t i = is_div ? 1 : 0; i < 2; ++i) {
    const std::string& operand = node.inputs()[1 - i];
    const auto scale = ScalarFloatConstant(graph, node.inputs()[i]);
    const auto rank = RankOf(graph, operand);
    const Tensor* constant = graph.GetConstantInitializer(node.inputs()[i], true);
    if (!scale || !rank || *rank == 0 || constant->shape().rank() > *rank) continue;
    return std::make_pair(is_div ? 1.0f / *scale : *scale, operand);
  }
  return std::nullopt;
}

struct FusedOperand {
  std::string value;
  bool transposed = false;
  std::vector<const Node*> peeled;  // nodes between the operand and the MatMul
};

struct MatMulMatch {
  FusedOperand a, b;
  float alpha = 1.0f;
  const Node* output_scale = nullptr;
};

// Follows `value` up through at most one last-axes Transpose and any scalar scales.
FusedOperand PeelOperand(const Graph& graph, const std::string& value, float& alpha) {
  FusedOperand operand{value, false, {}};
  for (;;) {
    const Node* producer = graph.Producer(operand.value);
    if (producer == nullptr || graph.IsGraphOutput(operand.value) ||
        producer->outputs()[0] != operand.value) {
      return operand;
    }
    if (IsOnnxOp(producer, "Transpose") && !operand.transposed && SwapsLastTwoAxes(*producer)) {
      operand.transposed = true;
      operand.value = producer->inputs()[0];
    } else if (auto scale = ScalarScale(graph, *producer)) {
      alpha *= scale->first;
      operand.value = scale->second;
    } else {
      return operand;
    }
    operand.peeled.push_back(producer);
  }
}

std::optional<MatMulMatch> FindFusedMatMul(const Graph& graph, const Node& matmul) {
  if (matmul.inputs().size() != 2 || !matmul.HasInput(0) || !matmul.HasInput(1) ||
      !IsFloatValue(graph, matmul.inputs()[0]) || !IsFloatValue(graph, matmul.inputs()[1])) {
    return std::nullopt;
  }
  MatMulMatch match;
  match.a = PeelOperand(graph, matmul.inputs()[0], match.alpha);
  match.b = PeelOperand(graph, matmul.inputs()[1], match.alpha);
  if (const Node* next = OnlyConsumer(graph, matmul.outputs()[0])) {
    auto scale = ScalarScale(graph, *next);
    if (scale && scale->second == matmul.outputs()[0]) {
      match.alpha *= scale->first;
      match.output_scale = next;
    }
  }
  if (match.a.peeled.empty() && match.b.peeled.empty() && match.output_scale == nullptr) {
    return std::nullopt;
  }
  return match;
}

class FuseMatMulScaleTranspose final : public RewriteRule {
 public:
  FuseMatMulScaleTranspose()
      : RewriteRule("fuse_matmul_scale_transpose", {"MatMul"}, "",
                    {{std::string(kMsDomain), "FusedMatMul"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindFusedMatMul(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const MatMulMatch match = *FindFusedMatMul(graph, node);
    std::vector<const Node*> removed{&node};
    if (match.output_scale != nullptr) removed.push_back(match.output_scale);
    const std::string output =
        (match.output_scale != nullptr ? match.output_scale : &node)->outputs()[0];
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Float("alpha", match.alpha));
    attributes.push_back(Attribute::Int("transA", match.a.transposed ? 1 : 0));
    attributes.push_back(Attribute::Int("transB", match.b.transposed ? 1 : 0));
    ReplaceByFusedNode(graph, removed,
                       {node.name(),
                        "FusedMatMul",
                        std::string(kMsDomain),
                        {match.a.value, match.b.value},
                        {output},
                        std::move(attributes)});
    // The peeled chains die from the MatMul end unless something else reads them.
    for (const FusedOperand* operand : {&match.a, &match.b}) {
      for (const Node* peeled : operand->peeled) {
        if (graph.GetNode(peeled->index()) == peeled) RemoveIfUnused(graph, *peeled);
      }
    }
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseMatMulScaleTransposeRule() {
  return std::make_unique<FuseMatMulScaleTranspose>();
}

}  // namespace ort
