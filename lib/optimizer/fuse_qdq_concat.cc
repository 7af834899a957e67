// Rule fuse_qdq_concat: QuantizeLinear(Concat(DequantizeLinear(x_i)...)), all per tensor and of
// one 8-bit type, becomes com.microsoft QLinearConcat (onnxruntime's QDQ Concat selector), which
// copies the inputs quantized as the output and maps the others through a table: SqueezeNet's
// fire modules concatenate in 8 bits.
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/optimizer/qdq_patterns.h"

namespace ort {
namespace {

struct ConcatGroup {
  const Node* concat;
  const Node* activation;
  std::vector<QuantizationParams> inputs;
  QuantizationParams y;
};

std::optional<ConcatGroup> MatchGroup(const Graph& graph, const Node& q) {
  const auto y = QuantizeParams(graph, q);
  if (!y) return std::nullopt;
  const Node* activation = nullptr;
  const Node* concat = QuantizedProducer(graph, q, *y, "Concat", &activation);
  if (concat == nullptr || concat->inputs().empty() || concat->FindAttribute("axis") == nullptr) {
    return std::nullopt;
  }
  ConcatGroup group{concat, activation, {}, *y};
  for (const std::string& input : concat->inputs()) {
    const auto x = input.empty() ? std::nullopt : DequantizeOf(graph, input);
    if (!x || x->count != 1 || x->type != y->type) return std::nullopt;
    group.inputs.push_back(*x);
  }
  return group;
}

class FuseQdqConcat final : public RewriteRule {
 public:
  FuseQdqConcat()
      : RewriteRule("fuse_qdq_concat", {"QuantizeLinear"}, "",
                    {{std::string(kMsDomain), "QLinearConcat"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchGroup(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const ConcatGroup group = *MatchGroup(graph, node);
    std::vector<std::string> inputs{group.y.scale, ZeroPointInput(graph, group.y)};
    std::vector<const Node*> dequantized;
    for (const QuantizationParams& x : group.inputs) {
      inputs.push_back(x.node->inputs()[0]);
      inputs.push_back(x.scale);
      inputs.push_back(ZeroPointInput(graph, x));
      dequantized.push_back(x.node);
    }
    std::vector<Attribute> attributes;
    attributes.push_back(group.concat->FindAttribute("axis")->Clone());
    ReplaceQdqGroup(graph, *group.concat, group.activation, node,
                    {group.concat->name(),
                     "QLinearConcat",
                     std::string(kMsDomain),
                     std::move(inputs),
                     {},
                     std::move(attributes)},
                    dequantized);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseQdqConcatRule() { return std::make_unique<FuseQdqConcat>(); }

}  // namespace ort
