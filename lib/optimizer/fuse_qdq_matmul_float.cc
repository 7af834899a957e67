// Rule fuse_qdq_matmul_float: MatMul(DequantizeLinear(a), DequantizeLinear(b)) whose float result
// is not quantized again (a classifier's or a language model's logits) becomes com.microsoft
// MatMulIntegerToFloat, the product taken on the 8-bit operands and scaled once (onnxruntime's
// QDQ MatMul action without a QuantizeLinear). B may be per column when it is a matrix.
#include <optional>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct FloatMatMulGroup {
  QuantizationParams a, b;
};

bool HasFloatScale(const Graph& graph, const QuantizationParams& params) {
  return ElementTypeOf(graph, params.scale) == DataType::kFloat;
}

std::optional<FloatMatMulGroup> MatchGroup(const Graph& graph, const Node& matmul) {
  if (!matmul.HasInput(0) || !matmul.HasInput(1) || !matmul.HasOutput(0)) return std::nullopt;
  // A quantized result is fuse_qdq_matmul's (QLinearMatMul).
  for (const Node* reader : graph.Consumers(matmul.outputs()[0])) {
    if (IsOnnxOp(reader, "QuantizeLinear") || IsOnnxOp(reader, "Relu") ||
        IsOnnxOp(reader, "Clip")) {
      return std::nullopt;
    }
  }
  const auto a = DequantizeOf(graph, matmul.inputs()[0]);
  const auto b = DequantizeOf(graph, matmul.inputs()[1]);
  if (!a || a->count != 1 || !b || !HasFloatScale(graph, *a) || !HasFloatScale(graph, *b)) {
    return std::nullopt;
  }
  if (b->count != 1) {
    const std::optional<size_t> rank = RankOf(graph, b->node->inputs()[0]);
    const std::optional<int64_t> columns = KnownDimension(graph, b->node->inputs()[0], 1);
    if (rank != 2u || !columns || !PerTensorOrChannel(*b, 2, 1, *columns)) return std::nullopt;
  }
  return FloatMatMulGroup{*a, *b};
}

class FuseQdqMatMulFloat final : public RewriteRule {
 public:
  FuseQdqMatMulFloat()
      : RewriteRule("fuse_qdq_matmul_float", {"MatMul"}, "",
                    {{std::string(kMsDomain), "MatMulIntegerToFloat"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const FloatMatMulGroup group = *MatchGroup(graph, node);
    std::vector<std::string> inputs{
        group.a.node->inputs()[0],      group.b.node->inputs()[0],     group.a.scale, group.b.scale,
        ZeroPointInput(graph, group.a), ZeroPointInput(graph, group.b)};
    NodeSpec fused{node.name(),       "MatMulIntegerToFloat", std::string(kMsDomain),
                   std::move(inputs), node.outputs(),         {}};
    const Node* a_dequantize = group.a.node;
    const Node* b_dequantize = group.b.node;
    ReplaceByFusedNode(graph, {&node}, std::move(fused));
    RemoveIfUnused(graph, *a_dequantize);
    if (b_dequantize != a_dequantize) RemoveIfUnused(graph, *b_dequantize);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqMatMulFloatRule() {
  return std::make_unique<FuseQdqMatMulFloat>();
}

}  // namespace ort
