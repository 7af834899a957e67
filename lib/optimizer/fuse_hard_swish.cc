// Rule fuse_hard_swish: x * Clip(x + 3, 0, 6) / 6 (the division also written as Mul by 1/6)
// becomes x * HardSigmoid(x, alpha 1/6, beta 1/2): two passes over the tensor instead of four,
// in ops every opset has (HardSwish itself arrived only in opset 14).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

struct HardSwishMatch {
  std::string x;
  const Node* add = nullptr;
  const Node* clip = nullptr;
  const Node* mul = nullptr;
  const Node* scale = nullptr;  // the Div by 6 or Mul by 1/6
};

// True when `clip` bounds its input to [0, 6] with constants (inputs from opset 11, attributes
// before).
bool ClipsToZeroSix(const Graph& graph, const Node& clip) {
  if (graph.OpsetVersion("") < 11) {
    const Attribute* min = clip.FindAttribute("min");
    const Attribute* max = clip.FindAttribute("max");
    return min != nullptr && max != nullptr && min->f == 0.0f && max->f == 6.0f;
  }
  return clip.inputs().size() == 3 && IsScalarConstant(graph, clip.inputs()[1], 0.0f) &&
         IsScalarConstant(graph, clip.inputs()[2], 6.0f);
}

std::optional<HardSwishMatch> FindHardSwish(const Graph& graph, const Node& clip) {
  HardSwishMatch match;
  match.clip = &clip;
  if (!clip.HasInput(0) || !ClipsToZeroSix(graph, clip)) return std::nullopt;
  match.add = IntermediateProducer(graph, clip.inputs()[0], "Add");
  if (match.add == nullptr || match.add->inputs().size() != 2) return std::nullopt;
  for (size_t i = 0; i < 2 && match.x.empty(); ++i) {
    if (IsScalarConstant(graph, match.add->inputs()[1 - i], 3.0f)) match.x = match.add->inputs()[i];
  }
  if (match.x.empty() || !IsFloatValue(graph, match.x)) return std::nullopt;
  match.mul = OnlyConsumer(graph, clip.outputs()[0]);
  if (!IsOnnxOp(match.mul, "Mul") || OtherInput(*match.mul, clip.outputs()[0]) != match.x) {
    return std::nullopt;
  }
  const std::string& product = match.mul->outputs()[0];
  match.scale = OnlyConsumer(graph, product);
  if (match.scale == nullptr || match.scale->inputs().size() != 2) return std::nullopt;
  const std::string divisor = OtherInput(*match.scale, product);
  const bool divides = IsOnnxOp(match.scale, "Div") && match.scale->inputs()[0] == product &&
                       IsScalarConstant(graph, divisor, 6.0f);
  const bool multiplies =
      IsOnnxOp(match.scale, "Mul") && IsScalarConstant(graph, divisor, 1.0f / 6.0f);
  if (!divides && !multiplies) return std::nullopt;
  return match;
}

class FuseHardSwish final : public RewriteRule {
 public:
  FuseHardSwish() : RewriteRule("fuse_hard_swish", {"Clip"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindHardSwish(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const HardSwishMatch match = *FindHardSwish(graph, node);
    Node& mul = *graph.GetNode(match.mul->index());
    Node& scale = *graph.GetNode(match.scale->index());
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Float("alpha", 1.0f / 6.0f));
    attributes.push_back(Attribute::Float("beta", 0.5f));
    ReplaceByFusedNode(graph, {match.add, match.clip},
                       {"HardSigmoid",
                        "HardSigmoid",
                        "",
                        {match.x},
                        {match.clip->outputs()[0]},
                        std::move(attributes)});
    AbsorbConsumer(graph, mul, scale);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseHardSwishRule() { return std::make_unique<FuseHardSwish>(); }

}  // namespace ort
