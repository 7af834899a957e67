// Rule fuse_qdq_gemm: Gemm(DequantizeLinear(a), DequantizeLinear(b)[, DequantizeLinear(c)])
// becomes com.microsoft QGemm (onnxruntime's QDQ Gemm selector): with float output, or, quantized
// by a QuantizeLinear (through a Relu or Clip it makes redundant), with 8-bit output. The bias must
// be int32 in units of a_scale b_scale, which QGemm adds to the integer product; b per tensor or
// per output column. Classifiers and transformer projections read 8-bit weights, not float ones.
#include <cmath>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct GemmGroup {
  const Node* gemm;
  const Node* activation = nullptr;  // with a quantized output: a Relu or Clip it makes redundant
  QuantizationParams a, b;
  std::optional<QuantizationParams> c, y;
};

// The scale values of `params` (a constant), or empty.
std::vector<float> ScaleValues(const Graph& graph, const QuantizationParams& params) {
  const Tensor* scale = graph.GetConstantInitializer(params.scale, true);
  if (scale == nullptr || scale->dtype() != DataType::kFloat) return {};
  return std::vector<float>(scale->Data<float>(), scale->Data<float>() + scale->NumElements());
}

// True when the bias's scale is a_scale b_scale, per column where b is: QGemm adds the bias to
// the integer product before scaling it.
bool BiasInProductUnits(const Graph& graph, const QuantizationParams& a,
                        const QuantizationParams& b, const QuantizationParams& c) {
  const std::vector<float> sa = ScaleValues(graph, a), sb = ScaleValues(graph, b);
  const std::vector<float> sc = ScaleValues(graph, c);
  if (sa.size() != 1 || sb.empty() || sc.size() != sb.size()) return false;
  for (size_t j = 0; j < sc.size(); ++j) {
    const float expected = sa[0] * sb[j];
    if (!(std::abs(sc[j] - expected) <= 1e-6f * std::abs(expected))) return false;
  }
  const Tensor* zero =
      c.zero_point.empty() ? nullptr : graph.GetConstantInitializer(c.zero_point, true);
  if (zero == nullptr) return c.zero_point.empty();
  for (int64_t i = 0; i < zero->NumElements(); ++i) {
    if (zero->Data<int32_t>()[i] != 0) return false;
  }
  return true;
}

// The Gemm's operands, when they make a QGemm; the output is not looked at.
std::optional<GemmGroup> MatchOperands(const Graph& graph, const Node& gemm) {
  if (!IsOnnxOp(&gemm, "Gemm") || !gemm.HasInput(0) || !gemm.HasInput(1) ||
      gemm.outputs().size() != 1) {
    return std::nullopt;
  }
  const auto a = DequantizeOf(graph, gemm.inputs()[0]);
  const auto b = DequantizeOf(graph, gemm.inputs()[1]);
  // onnxruntime's QGemm multiplies int8 A only by int8 B.
  if (!a || !b || a->count != 1 || (a->type == DataType::kInt8 && b->type != DataType::kInt8)) {
    return std::nullopt;
  }
  const Attribute* trans_b = gemm.FindAttribute("transB");
  const bool transposed = trans_b != nullptr && trans_b->i != 0;
  const std::optional<int64_t> columns =
      KnownDimension(graph, b->node->inputs()[0], transposed ? 0 : 1);
  if (b->count != 1 && (!columns || !PerTensorOrChannel(*b, 2, transposed ? 0 : 1, *columns))) {
    return std::nullopt;
  }
  GemmGroup group{&gemm, nullptr, *a, *b, std::nullopt, std::nullopt};
  if (gemm.HasInput(2)) {
    const auto c = DequantizeOf(graph, gemm.inputs()[2], true);
    if (!c || c->type != DataType::kInt32 || FloatAttribute(gemm, "alpha", 1.0f) != 1.0f ||
        FloatAttribute(gemm, "beta", 1.0f) != 1.0f || !BiasInProductUnits(graph, *a, *b, *c)) {
      return std::nullopt;
    }
    group.c = c;
  }
  return group;
}

// With `q` a QuantizeLinear: the group it quantizes (the 8-bit output of A's type).
std::optional<GemmGroup> MatchQuantized(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y || y->count != 1) return std::nullopt;
  const Node* activation = nullptr;
  const Node* gemm = QuantizedProducer(graph, q, *y, "Gemm", &activation);
  if (gemm == nullptr) return std::nullopt;
  auto group = MatchOperands(graph, *gemm);
  if (!group || group->a.type != y->type) return std::nullopt;
  group->activation = activation;
  group->y = y;
  return group;
}

class FuseQdqGemm final : public RewriteRule {
 public:
  FuseQdqGemm()
      : RewriteRule("fuse_qdq_gemm", {"Gemm", "QuantizeLinear"}, "",
                    {{std::string(kMsDomain), "QGemm"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return Match(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const GemmGroup group = *Match(graph, node);
    const Node& gemm = *group.gemm;
    std::vector<std::string> inputs{group.a.node->inputs()[0],
                                    group.a.scale,
                                    ZeroPointInput(graph, group.a),
                                    group.b.node->inputs()[0],
                                    group.b.scale,
                                    ZeroPointInput(graph, group.b),
                                    group.c ? group.c->node->inputs()[0] : std::string()};
    std::vector<Attribute> attributes;
    for (const char* name : {"alpha", "transA", "transB"}) {
      if (const Attribute* attribute = gemm.FindAttribute(name)) {
        attributes.push_back(attribute->Clone());
      }
    }
    std::vector<const Node*> dequantized{group.a.node, group.b.node};
    if (group.c) dequantized.push_back(group.c->node);
    NodeSpec fused{gemm.name(), "QGemm", std::string(kMsDomain), {}, {}, std::move(attributes)};
    if (group.y) {
      inputs.push_back(group.y->scale);
      inputs.push_back(ZeroPointInput(graph, *group.y));
      fused.inputs = std::move(inputs);
      ReplaceQdqGroup(graph, gemm, group.activation, node, std::move(fused), dequantized);
    } else {
      fused.inputs = std::move(inputs);
      fused.outputs = gemm.outputs();
      ReplaceByFusedNode(graph, {&gemm}, std::move(fused));
      for (const Node* dq : dequantized) RemoveIfUnused(graph, *dq);
    }
    node_removed = true;
    return Status::OK();
  }

 private:
  // A QuantizeLinear roots the quantized form; a Gemm the float one, unless its output goes to
  // a QuantizeLinear that makes the quantized form (visited later: Gemms come first).
  static std::optional<GemmGroup> Match(const Graph& graph, const Node& node) {
    if (node.op_type() == "QuantizeLinear") return MatchQuantized(graph, node);
    auto group = MatchOperands(graph, node);
    if (!group) return std::nullopt;
    for (const Node* reader : graph.Consumers(node.outputs()[0])) {
      const Node* q = reader;
      if ((IsOnnxOp(reader, "Relu") || IsOnnxOp(reader, "Clip")) && reader->HasOutput(0)) {
        const auto next = graph.Consumers(reader->outputs()[0]);
        q = next.size() == 1 ? next[0] : nullptr;
      }
      if (q != nullptr && IsOnnxOp(q, "QuantizeLinear") && MatchQuantized(graph, *q)) {
        return std::nullopt;
      }
    }
    return group;
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqGemmRule() { return std::make_unique<FuseQdqGemm>(); }

}  // namespace ort
