// Rule fuse_qdq_matmul: QuantizeLinear(MatMul(DequantizeLinear(a), DequantizeLinear(b))), with a
// Relu or Clip the QuantizeLinear makes redundant allowed before it, becomes QLinearMatMul, so the
// product runs on 8-bit operands (onnxruntime's QDQ MatMulNodeGroupSelector and its QLinearMatMul
// action). B may be per column when it is a matrix.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct MatMulGroup {
  const Node* matmul;
  const Node* activation;  // a Relu or Clip the output's quantization makes redundant, or null
  QuantizationParams a, b, y;
};

std::optional<MatMulGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  const Node* activation = nullptr;
  const Node* matmul = QuantizedProducer(graph, q, *y, "MatMul", &activation);
  if (matmul == nullptr || !matmul->HasInput(0) || !matmul->HasInput(1)) return std::nullopt;
  const auto a = DequantizeOf(graph, matmul->inputs()[0]);
  const auto b = DequantizeOf(graph, matmul->inputs()[1]);
  if (!a || a->count != 1 || !b) return std::nullopt;
  if (b->count != 1) {
    const std::optional<size_t> rank = RankOf(graph, b->node->inputs()[0]);
    const std::optional<int64_t> columns = KnownDimension(graph, b->node->inputs()[0], 1);
    if (rank != 2u || !columns || !PerTensorOrChannel(*b, 2, 1, *columns)) return std::nullopt;
  }
  return MatMulGroup{matmul, activation, *a, *b, *y};
}

class FuseQdqMatMul final : public RewriteRule {
 public:
  FuseQdqMatMul()
      : RewriteRule("fuse_qdq_matmul", {"QuantizeLinear"}, "", {{"", "QLinearMatMul"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const MatMulGroup group = *MatchGroup(graph, node);
    ReplaceQdqGroup(graph, *group.matmul, group.activation, node,
                    {group.matmul->name(),
                     "QLinearMatMul",
                     "",
                     QLinearInputs(graph, group.a, group.b, group.y),
                     {},
                     {}},
                    {group.a.node, group.b.node});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqMatMulRule() { return std::make_unique<FuseQdqMatMul>(); }

}  // namespace ort
