// Rule fuse_fast_gelu: the tanh form of Gelu, 0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715
// x^3))), written with Pow(x, 3), x * (x * x) (torch's approximate='tanh') or as
// sqrt(2/pi) x (1 + 0.044715 x x), becomes com.microsoft FastGelu(x).
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

constexpr float kSqrt2OverPi = 0.7978845834732056f;
constexpr float kCubeCoefficient = 0.044715f;

struct FastGeluMatch {
  std::string x;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
};

// The non-constant input of a Mul read once whose other input is the constant `factor`, or "".
std::string ScaledBy(const Graph& graph, std::string_view value, float factor, const Node** mul) {
  *mul = IntermediateProducer(graph, value, "Mul");
  if (*mul == nullptr || (*mul)->inputs().size() != 2) return {};
  for (size_t i = 0; i < 2; ++i) {
    if (IsScalarConstant(graph, (*mul)->inputs()[i], factor)) return (*mul)->inputs()[1 - i];
  }
  return {};
}

// The nodes computing x^3 from `cube` when it is Pow(x, 3) or x * (x * x) (either order), each
// read once; empty otherwise.
std::vector<const Node*> MatchCube(const Graph& graph, const std::string& cube,
                                   const std::string& x) {
  if (const Node* pow = IntermediateProducer(graph, cube, "Pow")) {
    if (pow->inputs().size() == 2 && pow->inputs()[0] == x &&
        IsScalarConstant(graph, pow->inputs()[1], 3.0f)) {
      return {pow};
    }
    return {};
  }
  const Node* outer = IntermediateProducer(graph, cube, "Mul");
  if (outer == nullptr) return {};
  const std::string square = OtherInput(*outer, x);
  const Node* inner = square.empty() ? nullptr : IntermediateProducer(graph, square, "Mul");
  if (inner == nullptr || inner->inputs().size() != 2 || inner->inputs()[0] != x ||
      inner->inputs()[1] != x) {
    return {};
  }
  return {inner, outer};
}

// x + 0.044715 * x^3: returns x, appending the nodes.
std::string MatchPowForm(const Graph& graph, std::string_view inner,
                         std::vector<const Node*>& nodes) {
  const Node* add = IntermediateProducer(graph, inner, "Add");
  if (add == nullptr || add->inputs().size() != 2) return {};
  for (size_t i = 0; i < 2; ++i) {
    const Node* mul = nullptr;
    const std::string cube = ScaledBy(graph, add->inputs()[i], kCubeCoefficient, &mul);
    const std::string& x = add->inputs()[1 - i];
    if (cube.empty()) continue;
    const std::vector<const Node*> cube_nodes = MatchCube(graph, cube, x);
    if (cube_nodes.empty()) continue;
    nodes.insert(nodes.end(), cube_nodes.begin(), cube_nodes.end());
    nodes.insert(nodes.end(), {mul, add});
    return x;
  }
  return {};
}

// `product` = (sqrt(2/pi) x) * (1 + 0.044715 x x): returns x, appending the nodes.
std::string MatchSquareForm(const Graph& graph, const Node& product,
                            std::vector<const Node*>& nodes) {
  for (size_t i = 0; i < 2 && product.inputs().size() == 2; ++i) {
    const Node* scale = nullptr;
    const std::string x = ScaledBy(graph, product.inputs()[1 - i], kSqrt2OverPi, &scale);
    const Node* add = IntermediateProducer(graph, product.inputs()[i], "Add");
    if (x.empty() || add == nullptr) continue;
    for (size_t j = 0; j < 2 && add->inputs().size() == 2; ++j) {
      if (!IsScalarConstant(graph, add->inputs()[1 - j], 1.0f)) continue;
      const Node* square = IntermediateProducer(graph, add->inputs()[j], "Mul");
      if (square == nullptr) continue;
      const Node* first = nullptr;
      if (ScaledBy(graph, OtherInput(*square, x), kCubeCoefficient, &first) != x) continue;
      nodes.insert(nodes.end(), {first, square, add, scale});
      return x;
    }
  }
  return {};
}

std::optional<FastGeluMatch> FindFastGelu(const Graph& graph, const Node& tanh) {
  FastGeluMatch match;
  if (!tanh.HasInput(0)) return std::nullopt;
  const Node* product = nullptr;
  const std::string inner = ScaledBy(graph, tanh.inputs()[0], kSqrt2OverPi, &product);
  if (!inner.empty()) {
    match.x = MatchPowForm(graph, inner, match.nodes);
    match.nodes.push_back(product);
  } else if (product != nullptr) {
    match.x = MatchSquareForm(graph, *product, match.nodes);
    match.nodes.push_back(product);
  }
  if (match.x.empty() || !IsFloatValue(graph, match.x)) return std::nullopt;
  match.nodes.push_back(&tanh);
  const Node* add = OnlyConsumer(graph, tanh.outputs()[0]);
  if (!IsOnnxOp(add, "Add") ||
      !IsScalarConstant(graph, OtherInput(*add, tanh.outputs()[0]), 1.0f)) {
    return std::nullopt;
  }
  match.nodes.push_back(add);
  match.last = MatchHalfXTimes(graph, *add, match.x, match.nodes);
  if (match.last == nullptr) return std::nullopt;
  return match;
}

class FuseFastGelu final : public RewriteRule {
 public:
  FuseFastGelu()
      : RewriteRule("fuse_fast_gelu", {"Tanh"}, "", {{std::string(kMsDomain), "FastGelu"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindFastGelu(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const FastGeluMatch match = *FindFastGelu(graph, node);
    ReplaceByFusedNode(graph, match.nodes,
                       {"FastGelu",
                        "FastGelu",
                        std::string(kMsDomain),
                        {match.x},
                        {match.last->outputs()[0]},
                        {}});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseFastGeluRule() { return std::make_unique<FuseFastGelu>(); }

}  // namespace ort
