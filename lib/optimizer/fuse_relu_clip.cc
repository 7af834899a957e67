// Rule fuse_relu_clip: Clip(Relu(x), min, max) becomes Clip(x, max(min, 0), max).
#include <algorithm>
#include <limits>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

class FuseReluClip final : public RewriteRule {
 public:
  FuseReluClip() : RewriteRule("fuse_relu_clip", {"Clip"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const Node* relu = SoleProducer(graph, node, 0, "Relu");
    if (relu == nullptr || !relu->HasInput(0)) return false;
    if (graph.OpsetVersion("") < 11) return true;  // min is an attribute
    // The new min is written as a float initializer; it must replace a constant float min.
    if (ElementTypeOf(graph, relu->inputs()[0]) != DataType::kFloat) return false;
    if (!node.HasInput(1)) return true;
    const Tensor* min = ConstantInput(graph, node, 1);
    return min != nullptr && min->dtype() == DataType::kFloat && min->NumElements() == 1;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    (void)node_removed;
    Node& relu = *graph.Producer(node.inputs()[0]);
    const std::string source = relu.inputs()[0];
    if (graph.OpsetVersion("") < 11) {
      const Attribute* min = node.FindAttribute("min");
      const float old_min = min != nullptr ? min->f : std::numeric_limits<float>::lowest();
      node.SetAttribute(Attribute::Float("min", std::max(old_min, 0.0f)));
    } else {
      const Tensor* min = ConstantInput(graph, node, 1);
      const float old_min =
          min != nullptr ? min->Data<float>()[0] : std::numeric_limits<float>::lowest();
      const std::string name = graph.UniqueValueName("relu_clip_min");
      graph.AddInitializer(name, Tensor::Scalar<float>(std::max(old_min, 0.0f)));
      graph.SetNodeInput(node, 1, name);
    }
    graph.SetNodeInput(node, 0, source);
    graph.RemoveNode(relu.index());
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseReluClipRule() { return std::make_unique<FuseReluClip>(); }

}  // namespace ort
