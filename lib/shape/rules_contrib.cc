// Shape rules of the com.microsoft ops this engine's fusions make (FusedConv, FusedGemm,
// FusedMatMul, the GELU family, BiasAdd, SkipLayerNormalization, Attention,
// EmbedLayerNormalization, RotaryEmbedding) and of ONNX Runtime's SimplifiedLayerNormalization.
#include "lib/shape/shape_rules.h"

namespace ort {
namespace {

void SameAsInput(RuleContext& context) { context.CopyInput(0, 0); }

void FusedMatMul(RuleContext& context) {
  // The batch-transposing variants are rare enough to leave to the recorded types.
  if (context.IntAttribute("transBatchA", 0) != 0 || context.IntAttribute("transBatchB", 0) != 0) {
    return;
  }
  InferMatMul(context, context.IntAttribute("transA", 0) != 0,
              context.IntAttribute("transB", 0) != 0);
}

// Outputs: the normalized sum, mean and inverse standard deviation (per row), and the sum itself.
void SkipLayerNormalization(RuleContext& context) {
  context.CopyInput(0, 0);
  context.CopyInput(0, 3);
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr || input->empty()) return;
  SetNormStatistics(context, *input, input->size() - 1, {1, 2});
}

void SimplifiedLayerNormalization(RuleContext& context) {
  context.CopyInput(0, 0);
  const std::vector<DimExpr>* input = context.Shape(0);
  if (input == nullptr) return;
  const auto axis = ResolveAxis(context.IntAttribute("axis", -1), input->size());
  if (axis) SetNormStatistics(context, *input, *axis, {1});
}

// input [B, S, H_in] and weights [H_in, Q + K + V] -> [B, S, V] (V from qkv_hidden_sizes, else a
// third of the weights' columns).
void Attention(RuleContext& context) {
  const std::vector<DimExpr>* input = context.Shape(0);
  const std::vector<DimExpr>* weights = context.Shape(1);
  if (input == nullptr || weights == nullptr || input->size() != 3 || weights->size() != 2) return;
  std::optional<DimExpr> hidden;
  if (const auto sizes = context.IntsAttribute("qkv_hidden_sizes")) {
    if (sizes->size() == 3) hidden = DimExpr::Constant((*sizes)[2]);
  } else {
    hidden = FloorDiv((*weights)[1], 3);
  }
  context.SetShape(0, {(*input)[0], (*input)[1], context.OrFresh(hidden)});
}

// input_ids [B, S] and word embeddings [V, H] -> output [B, S, H], mask index [B], and the
// embedding sum [B, S, H].
void EmbedLayerNormalization(RuleContext& context) {
  const std::vector<DimExpr>* ids = context.Shape(0);
  const std::vector<DimExpr>* table = context.Shape(2);
  if (ids == nullptr || table == nullptr || ids->size() != 2 || table->size() != 2) return;
  const std::vector<DimExpr> shape{(*ids)[0], (*ids)[1], (*table)[1]};
  context.SetShape(0, shape);
  context.SetShape(1, {(*ids)[0]});
  context.SetShape(2, shape);
}

}  // namespace

void AddContribRules(RuleRegistry& registry) {
  registry.Add(kMsDomain, {"FusedConv"}, InferConv);
  registry.Add(kMsDomain, {"FusedGemm"}, InferGemm);
  registry.Add(kMsDomain, {"FusedMatMul"}, FusedMatMul);
  registry.Add(kMsDomain,
               {"Gelu", "QuickGelu", "FastGelu", "BiasGelu", "BiasAdd", "RotaryEmbedding"},
               SameAsInput);
  registry.Add(kMsDomain, {"SkipLayerNormalization", "SkipSimplifiedLayerNormalization"},
               SkipLayerNormalization);
  registry.Add(kOnnxDomain, {"SimplifiedLayerNormalization"}, SimplifiedLayerNormalization);
  registry.Add(kMsDomain, {"Attention"}, Attention);
  registry.Add(kMsDomain, {"EmbedLayerNormalization"}, EmbedLayerNormalization);
}

}  // namespace ort
