// Shape rules of the com.microsoft ops this engine's fusions make (FusedConv, FusedGemm,
// FusedMatMul, the GELU family, BiasAdd, SkipLayerNormalization, Attention, MultiHeadAttention,
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

// query [B, S, N*H]; key and value [B, L, N*H] and [B, L, Dv], or heads [B, N, L, H] both; past
// [B, N, P, H] -> output [B, S, Dv], present key and value [B, N, P + L, H or Dv/N], scores
// [B, N, S, P + L].
void MultiHeadAttention(RuleContext& context) {
  const std::vector<DimExpr>* query = context.Shape(0);
  const std::vector<DimExpr>* key = context.Shape(1);
  const std::vector<DimExpr>* value = context.Shape(2);
  if (query == nullptr || query->size() != 3 || key == nullptr || value == nullptr ||
      key->size() != value->size() || (key->size() != 3 && key->size() != 4) ||
      context.IntAttribute("num_heads", 0) < 1) {
    return;
  }
  const DimExpr heads = DimExpr::Constant(context.IntAttribute("num_heads", 0));
  const DimExpr& batch = (*query)[0];
  const DimExpr& sequence = (*query)[1];
  const bool head_major = key->size() == 4;
  const DimExpr& length = (*key)[head_major ? 2 : 1];
  const std::optional<DimExpr> head = DivExact((*query)[2], heads);
  const std::optional<DimExpr> v_head =
      head_major ? std::optional<DimExpr>((*value)[3]) : DivExact((*value)[2], heads);
  // Head-major values may hold fewer heads (kv_num_heads); the output has num_heads of them.
  const std::optional<DimExpr> v_hidden =
      head_major ? Mul(heads, (*value)[3]) : std::optional<DimExpr>((*value)[2]);
  context.SetShape(0, {batch, sequence, context.OrFresh(v_hidden)});
  std::optional<DimExpr> total = length;
  if (context.Input(6) != nullptr) {
    const std::vector<DimExpr>* past = context.Shape(6);
    total = past != nullptr && past->size() == 4 ? Add((*past)[2], length) : std::nullopt;
  }
  const DimExpr all = context.OrFresh(total);
  context.SetShape(1, {batch, heads, all, context.OrFresh(head)});
  context.SetShape(2, {batch, heads, all, context.OrFresh(v_head)});
  context.SetShape(3, {batch, heads, sequence, all});
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
  registry.Add(
      kMsDomain,
      {"Gelu", "QuickGelu", "FastGelu", "BiasGelu", "BiasAdd", "RotaryEmbedding", "GroupNorm"},
      SameAsInput);
  registry.Add(kMsDomain, {"SkipLayerNormalization", "SkipSimplifiedLayerNormalization"},
               SkipLayerNormalization);
  registry.Add(kOnnxDomain, {"SimplifiedLayerNormalization"}, SimplifiedLayerNormalization);
  registry.Add(kMsDomain, {"Attention"}, Attention);
  registry.Add(kMsDomain, {"EmbedLayerNormalization"}, EmbedLayerNormalization);
  registry.Add(kMsDomain, {"MultiHeadAttention"}, MultiHeadAttention);
}

}  // namespace ort
