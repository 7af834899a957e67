// Rule fuse_matmul_add_into_gemm: Add(MatMul(A, B), C) with 2-D A and B, and C broadcasting onto
// the product without enlarging it, becomes Gemm(A, B, C).
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

const SymbolicShape* ShapeOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->IsTensor() && type->shape ? &*type->shape : nullptr;
}

// A dimension of C fits the product's when it is 1 or provably the same.
bool Fits(const Dimension& c, const Dimension& product) {
  if (c.IsKnown() && c.value == 1) return true;
  if (c.IsKnown() && product.IsKnown()) return c.value == product.value;
  return !c.param.empty() && c.param == product.param;
}

class FuseMatMulAddIntoGemm final : public RewriteRule {
 public:
  FuseMatMulAddIntoGemm() : RewriteRule("fuse_matmul_add_into_gemm", {"Add"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatMulOperand(graph, node) >= 0;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const int operand = MatMulOperand(graph, node);
    const Node& matmul = *graph.Producer(node.inputs()[static_cast<size_t>(operand)]);
    NodeSpec gemm{matmul.name(),
                  "Gemm",
                  "",
                  {matmul.inputs()[0], matmul.inputs()[1], node.inputs()[1 - operand]},
                  {node.outputs()[0]},
                  {}};
    graph.RemoveNode(matmul.index());
    graph.RemoveNode(node.index());
    graph.AddNode(std::move(gemm));
    node_removed = true;
    return Status::OK();
  }

 private:
  // Which input of the Add is the fusable MatMul's product (0 or 1), or -1.
  static int MatMulOperand(const Graph& graph, const Node& node) {
    if (graph.OpsetVersion("") < 11) return -1;  // Gemm's C became optional and broadcastable
    for (int i = 0; i < 2; ++i) {
      const Node* matmul = SoleProducer(graph, node, static_cast<size_t>(i), "MatMul");
      if (matmul == nullptr || !matmul->HasInput(0) || !matmul->HasInput(1)) continue;
      const SymbolicShape* a = ShapeOf(graph, matmul->inputs()[0]);
      const SymbolicShape* b = ShapeOf(graph, matmul->inputs()[1]);
      const SymbolicShape* product = ShapeOf(graph, matmul->outputs()[0]);
      const SymbolicShape* c = ShapeOf(graph, node.inputs()[static_cast<size_t>(1 - i)]);
      if (a == nullptr || b == nullptr || product == nullptr || c == nullptr) continue;
      if (a->size() != 2 || b->size() != 2 || product->size() != 2 || c->size() > 2) continue;
      if (ElementTypeOf(graph, matmul->inputs()[0]) != DataType::kFloat) continue;
      bool fits = true;
      for (size_t j = 0; j < c->size(); ++j) {
        fits = fits && Fits((*c)[j], (*product)[j + 2 - c->size()]);
      }
      if (fits) return i;
    }
    return -1;
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseMatMulAddIntoGemmRule() {
  return std::make_unique<FuseMatMulAddIntoGemm>();
}

}  // namespace ort
