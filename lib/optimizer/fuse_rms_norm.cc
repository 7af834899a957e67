// Rule fuse_rms_norm: the RMS norm of T5, LLaMA and their kin,
//   x * (1 / Sqrt(ReduceMean(x^2) + eps)) * gamma    (or x / Sqrt(..) * gamma),
// the mean over the last axis, x^2 written as Pow(x, 2) or Mul(x, x), becomes
// SimplifiedLayerNormalization(x, gamma) with axis -1 (onnxruntime's SimplifiedLayerNormFusion;
// the op lives in ai.onnx there too).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

struct RmsNormMatch {
  std::string x, scale;
  float epsilon = 0;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
};

// x^2 as Pow(x, 2) or Mul(x, x): x, or "" when `square` is neither.
std::string SquaredValue(const Graph& graph, const Node& square) {
  if (square.inputs().size() != 2) return {};
  if (IsOnnxOp(&square, "Pow") && IsScalarConstant(graph, square.inputs()[1], 2.0f)) {
    return square.inputs()[0];
  }
  if (IsOnnxOp(&square, "Mul") && square.inputs()[0] == square.inputs()[1]) {
    return square.inputs()[0];
  }
  return {};
}

std::optional<RmsNormMatch> FindRmsNorm(const Graph& graph, const Node& mean) {
  RmsNormMatch match;
  if (!mean.HasInput(0)) return std::nullopt;
  const Node* square = graph.Producer(mean.inputs()[0]);
  if (square == nullptr || OnlyConsumer(graph, mean.inputs()[0]) != &mean) return std::nullopt;
  match.x = SquaredValue(graph, *square);
  const auto rank = RankOf(graph, match.x);
  if (match.x.empty() || !IsFloatValue(graph, match.x) || rank == size_t{0} ||
      !ReducesLastAxisKept(graph, mean, rank)) {
    return std::nullopt;
  }
  const Node* add_epsilon = OnlyReaderOp(graph, mean.outputs()[0], "Add");
  if (add_epsilon == nullptr) return std::nullopt;
  const auto epsilon = ScalarFloatConstant(graph, OtherInput(*add_epsilon, mean.outputs()[0]));
  const Node* sqrt = OnlyReaderOp(graph, add_epsilon->outputs()[0], "Sqrt");
  if (!epsilon || *epsilon < 0 || sqrt == nullptr) return std::nullopt;
  match.epsilon = *epsilon;
  match.nodes = {square, &mean, add_epsilon, sqrt};

  // x / Sqrt(..), or x * (1 / Sqrt(..)) with the reciprocal as Div(1, ..) or Reciprocal.
  const Node* normalized = nullptr;
  const Node* reader = OnlyConsumer(graph, sqrt->outputs()[0]);
  if (IsOnnxOp(reader, "Div") && reader->inputs().size() == 2 &&
      reader->inputs()[1] == sqrt->outputs()[0]) {
    if (reader->inputs()[0] == match.x) {
      normalized = reader;
    } else if (IsScalarConstant(graph, reader->inputs()[0], 1.0f)) {
      match.nodes.push_back(reader);
    } else {
      return std::nullopt;
    }
  } else if (IsOnnxOp(reader, "Reciprocal")) {
    match.nodes.push_back(reader);
  } else {
    return std::nullopt;
  }
  if (normalized == nullptr) {
    const std::string& inverse = match.nodes.back()->outputs()[0];
    normalized = OnlyReaderOp(graph, inverse, "Mul");
    if (normalized == nullptr || OtherInput(*normalized, inverse) != match.x) return std::nullopt;
  }
  match.nodes.push_back(normalized);
  const Node* scale = OnlyReaderOp(graph, normalized->outputs()[0], "Mul");
  if (scale == nullptr) return std::nullopt;
  match.scale = OtherInput(*scale, normalized->outputs()[0]);
  const auto scale_length = NormParameterLength(graph, match.scale);
  const auto last = LastDimension(graph, match.x);
  if (!scale_length || (last && *last != *scale_length)) return std::nullopt;
  match.nodes.push_back(scale);
  match.last = scale;
  return match;
}

class FuseRmsNorm final : public RewriteRule {
 public:
  FuseRmsNorm()
      : RewriteRule("fuse_rms_norm", {"ReduceMean"}, "", {{"", "SimplifiedLayerNormalization"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindRmsNorm(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const RmsNormMatch match = *FindRmsNorm(graph, node);
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Int("axis", -1));
    attributes.push_back(Attribute::Float("epsilon", match.epsilon));
    ReplaceByFusedNode(graph, match.nodes,
                       {graph.UniqueNodeName("SimplifiedLayerNormalization"),
                        "SimplifiedLayerNormalization",
                        "",
                        {match.x, match.scale},
                        {match.last->outputs()[0]},
                        std::move(attributes)});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseRmsNormRule() { return std::make_unique<FuseRmsNorm>(); }

}  // namespace ort
