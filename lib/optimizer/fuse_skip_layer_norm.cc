// Rule fuse_skip_layer_norm: LayerNormalization (SimplifiedLayerNormalization) over the last axis
// of Add(input, skip), 3-D operands of one shape, becomes com.microsoft SkipLayerNormalization
// (SkipSimplifiedLayerNormalization)(input, skip, gamma[, beta]); a 1-D constant bias added to
// either operand first is taken in as its last input. When others read the sum too (pre-norm
// transformers carry it to the next residual), it stays available as input_skip_bias_sum.
// Rule fuse_skip_layer_norm_any_rank: the same for operands of another rank (Swin's and MaxViT's
// [B, H, W, C] residuals), session-only (passes.inc): onnxruntime's kernel takes 3-D only.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

constexpr float kDefaultLayerNormEpsilon = 1e-5f;

const SymbolicShape* ShapeOf(const Graph& graph, std::string_view value) {
  const ValueType* type = graph.FindTypeInScope(value);
  return type != nullptr && type->IsTensor() && type->shape ? &*type->shape : nullptr;
}

bool SameDimension(const Dimension& a, const Dimension& b) {
  if (a.IsKnown() || b.IsKnown()) return a.value == b.value;
  return !a.param.empty() && a.param == b.param;
}

// The operand ranks each rule takes: 3 (onnxruntime's), or any other.
enum class Ranks { kThree, kOthers };

bool Takes(Ranks ranks, size_t rank) {
  return ranks == Ranks::kThree ? rank == 3 : rank >= 1 && rank != 3;
}

// The residual Add: two float operands of provably the same shape, of a rank `ranks` takes.
bool IsResidualAdd(const Graph& graph, const Node& add, Ranks ranks) {
  if (add.inputs().size() != 2) return false;
  const SymbolicShape* a = ShapeOf(graph, add.inputs()[0]);
  const SymbolicShape* b = ShapeOf(graph, add.inputs()[1]);
  if (a == nullptr || b == nullptr || !Takes(ranks, a->size()) || b->size() != a->size()) {
    return false;
  }
  for (size_t i = 0; i < a->size(); ++i) {
    if (!SameDimension((*a)[i], (*b)[i])) return false;
  }
  return IsFloatValue(graph, add.inputs()[0]) && IsFloatValue(graph, add.inputs()[1]);
}

// The bias Add: a float input of a rank `ranks` takes plus a constant 1-D bias (input 1) along
// its last axis.
bool IsBiasAdd(const Graph& graph, const Node& add, Ranks ranks) {
  if (add.inputs().size() != 2 || graph.GetConstantInitializer(add.inputs()[1], true) == nullptr) {
    return false;
  }
  const SymbolicShape* input = ShapeOf(graph, add.inputs()[0]);
  const SymbolicShape* bias = ShapeOf(graph, add.inputs()[1]);
  return input != nullptr && bias != nullptr && Takes(ranks, input->size()) && bias->size() == 1 &&
         input->back().IsKnown() && input->back() == (*bias)[0] &&
         IsFloatValue(graph, add.inputs()[0]) && IsFloatValue(graph, add.inputs()[1]);
}

struct SkipMatch {
  const Node* residual = nullptr;
  const Node* bias_add = nullptr;  // null without a bias
  size_t biased_operand = 0;       // which residual operand the bias Add produces
};

// True when only output 0 of the LayerNormalization is read and it normalizes the last axis.
bool NormalizesLastAxisOnly(const Graph& graph, const Node& norm) {
  for (size_t i = 1; i < norm.outputs().size(); ++i) {
    if (!norm.HasOutput(i)) continue;
    if (graph.IsGraphOutput(norm.outputs()[i]) || !graph.Consumers(norm.outputs()[i]).empty()) {
      return false;
    }
  }
  const Attribute* axis = norm.FindAttribute("axis");
  const SymbolicShape* shape = norm.HasInput(0) ? ShapeOf(graph, norm.inputs()[0]) : nullptr;
  return axis == nullptr || axis->i == -1 ||
         (shape != nullptr && axis->i == static_cast<int64_t>(shape->size()) - 1);
}

std::optional<SkipMatch> FindSkip(const Graph& graph, const Node& norm, Ranks ranks) {
  if (!norm.HasInput(0) || !norm.HasInput(1) || !NormalizesLastAxisOnly(graph, norm)) {
    return std::nullopt;
  }
  SkipMatch match;
  const Node* residual = graph.Producer(norm.inputs()[0]);
  if (!IsOnnxOp(residual, "Add") || residual->outputs()[0] != norm.inputs()[0] ||
      !IsResidualAdd(graph, *residual, ranks)) {
    return std::nullopt;
  }
  // The norm reads the sum once; other readers get it from input_skip_bias_sum.
  int reads = 0;
  for (const auto& input : norm.inputs()) reads += input == norm.inputs()[0] ? 1 : 0;
  if (reads != 1) return std::nullopt;
  match.residual = residual;
  for (size_t i = 0; i < 2; ++i) {
    const Node* bias_add = IntermediateProducer(graph, match.residual->inputs()[i], "Add");
    if (bias_add != nullptr && IsBiasAdd(graph, *bias_add, ranks)) {
      match.bias_add = bias_add;
      match.biased_operand = i;
      break;
    }
  }
  return match;
}

class FuseSkipLayerNorm final : public RewriteRule {
 public:
  FuseSkipLayerNorm(std::string name, Ranks ranks)
      : RewriteRule(std::move(name), {"LayerNormalization", "SimplifiedLayerNormalization"}, "",
                    {{std::string(kMsDomain), "SkipLayerNormalization"},
                     {std::string(kMsDomain), "SkipSimplifiedLayerNormalization"}}),
        ranks_(ranks) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindSkip(graph, node, ranks_).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const SkipMatch match = *FindSkip(graph, node, ranks_);
    const bool simplified = node.op_type() == "SimplifiedLayerNormalization";
    std::vector<std::string> inputs = match.residual->inputs();
    inputs.push_back(node.inputs()[1]);
    if (!simplified) inputs.push_back(node.HasInput(2) ? node.inputs()[2] : std::string());
    std::vector<const Node*> nodes{match.residual, &node};
    if (match.bias_add != nullptr) {
      inputs[match.biased_operand] = match.bias_add->inputs()[0];
      inputs.push_back(match.bias_add->inputs()[1]);
      nodes.push_back(match.bias_add);
    }
    const std::string sum = match.residual->outputs()[0];
    std::vector<std::string> outputs{node.outputs()[0]};
    if (graph.IsGraphOutput(sum) || graph.Consumers(sum).size() > 1) {
      outputs.insert(outputs.end(), {"", "", sum});
    }
    const Attribute* epsilon = node.FindAttribute("epsilon");
    std::vector<Attribute> attributes;
    attributes.push_back(
        Attribute::Float("epsilon", epsilon != nullptr ? epsilon->f : kDefaultLayerNormEpsilon));
    const std::string op =
        simplified ? "SkipSimplifiedLayerNormalization" : "SkipLayerNormalization";
    ReplaceByFusedNode(graph, nodes,
                       {op, op, std::string(kMsDomain), std::move(inputs), std::move(outputs),
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }

 private:
  Ranks ranks_;
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseSkipLayerNormRule() {
  return std::make_unique<FuseSkipLayerNorm>("fuse_skip_layer_norm", Ranks::kThree);
}

std::unique_ptr<RewriteRule> CreateFuseSkipLayerNormAnyRankRule() {
  return std::make_unique<FuseSkipLayerNorm>("fuse_skip_layer_norm_any_rank", Ranks::kOthers);
}

}  // namespace ort
