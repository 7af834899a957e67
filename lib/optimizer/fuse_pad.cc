// Rule fuse_pad: Conv or AveragePool of Pad(x) with zeros around the spatial axes only becomes
// the Conv or AveragePool of x with the padding in its pads (AveragePool counting it).
#include <algorithm>
#include <optional>
#include <vector>

#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// Exporters write count_include_pad average pooling (torch's default) as an explicit Pad: the
// blocked layout cannot run a Pad, so every one left the NCHWc region and came back.
class FusePad final : public RewriteRule {
 public:
  FusePad() : RewriteRule("fuse_pad", {"Conv", "AveragePool"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    const Node* pad = SoleProducer(graph, node, 0, "Pad");
    if (pad == nullptr || !PadsOf(graph, *pad)) return false;
    const Attribute* auto_pad = node.FindAttribute("auto_pad");
    if (auto_pad != nullptr && auto_pad->s != "NOTSET") return false;
    if (node.op_type() == "Conv") return true;
    // The window reaches past the padding with ceil_mode, where explicit zeros and counted
    // padding could differ; pads already there must be counted too.
    const Attribute* ceil_mode = node.FindAttribute("ceil_mode");
    const Attribute* count_include_pad = node.FindAttribute("count_include_pad");
    const Attribute* pads = node.FindAttribute("pads");
    const bool counted = count_include_pad != nullptr && count_include_pad->i != 0;
    const bool unpadded = pads == nullptr || std::all_of(pads->ints.begin(), pads->ints.end(),
                                                         [](int64_t p) { return p == 0; });
    return (ceil_mode == nullptr || ceil_mode->i == 0) && (counted || unpadded);
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    (void)node_removed;
    Node& pad = *graph.Producer(node.inputs()[0]);
    const std::vector<int64_t> added = *PadsOf(graph, pad);
    const Attribute* old = node.FindAttribute("pads");
    std::vector<int64_t> pads = old != nullptr ? old->ints : std::vector<int64_t>(added.size(), 0);
    for (size_t i = 0; i < pads.size(); ++i) pads[i] += added[i];
    node.SetAttribute(Attribute::Ints("pads", pads));
    if (node.op_type() == "AveragePool") node.SetAttribute(Attribute::Int("count_include_pad", 1));
    graph.SetNodeInput(node, 0, pad.inputs()[0]);
    graph.RemoveNode(pad.index());
    return Status::OK();
  }

 private:
  // The spatial padding (begins, then ends, as Conv's pads) of a Pad adding zeros only before
  // and after the axes after N and C; else nullopt.
  static std::optional<std::vector<int64_t>> PadsOf(const Graph& graph, const Node& pad) {
    const Attribute* mode = pad.FindAttribute("mode");
    if ((mode != nullptr && mode->s != "constant") || !pad.HasInput(0)) return std::nullopt;
    std::optional<std::vector<int64_t>> pads;
    if (graph.OpsetVersion("") < 11) {
      const Attribute* value = pad.FindAttribute("value");
      const Attribute* attribute = pad.FindAttribute("pads");
      if ((value != nullptr && value->f != 0.0f) || attribute == nullptr) return std::nullopt;
      pads = attribute->ints;
    } else {
      if (pad.HasInput(3)) return std::nullopt;  // axes
      if (pad.HasInput(2)) {
        const Tensor* value = ConstantInput(graph, pad, 2);
        if (value == nullptr || value->dtype() != DataType::kFloat || value->NumElements() != 1 ||
            value->Data<float>()[0] != 0.0f) {
          return std::nullopt;
        }
      }
      pads = ConstantInts(graph, pad, 1);
    }
    if (!pads || pads->size() < 6 || pads->size() % 2 != 0) return std::nullopt;
    const size_t rank = pads->size() / 2;
    std::vector<int64_t> spatial;
    for (size_t side = 0; side < 2; ++side) {
      const int64_t* axes = pads->data() + side * rank;
      if (axes[0] != 0 || axes[1] != 0) return std::nullopt;
      for (size_t axis = 2; axis < rank; ++axis) {
        if (axes[axis] < 0) return std::nullopt;
        spatial.push_back(axes[axis]);
      }
    }
    return spatial;
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFusePadRule() { return std::make_unique<FusePad>(); }

}  // namespace ort
