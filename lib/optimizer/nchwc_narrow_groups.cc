// Rule nchwc_narrow_groups: a grouped Conv or FusedConv left outside the NCHWc layout because
// its groups (as many filters as channels each) do not fill whole blocks (RegNet's 24 channels
// in odd counts, ResNeXt's 4) reads the blocked twin of its input directly and writes a blocked
// output, as an nchwc Conv of narrow groups: the ReorderOutput before it and the ReorderInputs
// after it go, and its im2col and per-group GEMMs (three fifths of RegNet-X's grouped convs) give
// way to a kernel broadcasting each group's channels into its lanes. onnxruntime's nchwc Conv
// has no such form, so the rule rewrites sessions only.
#include <algorithm>

#include "lib/common/cpu_info.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/nchwc_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// The kernel's limit on the groups one output block may span (kNchwcMaxGroupSegments).
constexpr int64_t kMaxSegments = 4;

int64_t IntAttributeOr(const Node& node, std::string_view name, int64_t fallback) {
  const Attribute* attribute = node.FindAttribute(name);
  return attribute != nullptr ? attribute->i : fallback;
}

// Most groups of `group_channels` channels any block of `block` lanes spans.
int64_t MaxSegments(int64_t groups, int64_t group_channels, int64_t block) {
  const int64_t filters = groups * group_channels;
  int64_t most = 0;
  for (int64_t first = 0; first < filters; first += block) {
    const int64_t last = std::min(first + block, filters) - 1;
    most = std::max(most, last / group_channels - first / group_channels + 1);
  }
  return most;
}

// True when the kernel runs groups of `group_channels`: groups that read only their own block
// (2, 4 or 8 channels dividing it), or blocks spanning at most kMaxSegments groups.
bool KernelTakes(int64_t groups, int64_t group_channels, int64_t block) {
  const bool in_block = group_channels < block && block % group_channels == 0 &&
                        groups * group_channels % block == 0 &&
                        (group_channels == 2 || group_channels == 4 || group_channels == 8);
  return in_block || MaxSegments(groups, group_channels, block) <= kMaxSegments;
}

class NchwcNarrowGroups final : public RewriteRule {
 public:
  NchwcNarrowGroups()
      : RewriteRule("nchwc_narrow_groups", {"ReorderOutput"}, std::string(kNchwcDomain),
                    {{std::string(kNchwcDomain), "Conv"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindConv(graph, node) != nullptr;
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    Node& conv = *graph.GetNode(FindConv(graph, node)->index());
    const int64_t block = NchwcBlockSize();
    const Tensor& weight = *ConstantInput(graph, conv, 1);
    const int64_t filters = weight.shape()[0];
    const int64_t padded = RoundUp(filters, block);
    const std::string packed = graph.UniqueValueName(conv.inputs()[1] + "_nchwc");
    graph.AddInitializer(packed, PackNchwcFilters(weight, block, true));
    std::vector<std::string> inputs{node.inputs()[0], packed};
    if (const Tensor* bias = ConstantInput(graph, conv, 2)) {
      const std::string name = graph.UniqueValueName(conv.inputs()[2] + "_nchwc");
      graph.AddInitializer(name, PaddedVector(bias->Span<float>(), padded));
      inputs.push_back(name);
    }
    std::vector<Attribute> attributes;
    for (const auto& [name, attribute] : conv.attributes()) {
      attributes.push_back(CopyPlainAttribute(attribute, name));
    }
    const std::string output = conv.outputs()[0];
    SymbolicShape shape = *FloatShape4(graph, output);
    shape[1] = Dimension::Known(padded);
    const std::string blocked = graph.UniqueValueName(output + "_nchwc");
    graph.SetValueType(blocked, ValueType::Tensor(DataType::kFloat, std::move(shape)));
    const std::string name = conv.name();
    graph.RemoveNode(conv.index());
    graph.AddNode({graph.UniqueNodeName(name.empty() ? "NchwcNarrowGroupConv" : name),
                   "Conv",
                   std::string(kNchwcDomain),
                   std::move(inputs),
                   {blocked},
                   std::move(attributes)});
    // ReorderInputs of the output read the blocked output instead; anything else, the plain
    // output again.
    bool plain_needed = graph.IsGraphOutput(output);
    for (Node* reader : graph.Consumers(output)) {
      if (reader->domain() == kNchwcDomain && reader->op_type() == "ReorderInput" &&
          IntAttributeOr(*reader, "channels_last", 0) == 0 &&
          !graph.IsGraphOutput(reader->outputs()[0])) {
        const std::string reordered = reader->outputs()[0];
        graph.RemoveNode(reader->index());
        graph.ReplaceAllUses(reordered, blocked);
      } else {
        plain_needed = true;
      }
    }
    if (plain_needed) {
      graph.AddNode({graph.UniqueNodeName("ReorderOutput"),
                     "ReorderOutput",
                     std::string(kNchwcDomain),
                     {blocked},
                     {output},
                     IntAttribute("channels", filters)});
    }
    const std::string& plain_input = node.outputs()[0];
    if (graph.Consumers(plain_input).empty() && !graph.IsGraphOutput(plain_input)) {
      graph.RemoveNode(node.index());
      node_removed = true;
    }
    return Status::OK();
  }

 private:
  // The Conv or FusedConv of narrow groups reading `reorder`'s plain output as its X; else null.
  static const Node* FindConv(const Graph& graph, const Node& reorder) {
    if (!reorder.HasInput(0) || reorder.outputs().size() != 1 ||
        IntAttributeOr(reorder, "channels_last", 0) != 0) {
      return nullptr;
    }
    const int64_t channels = IntAttributeOr(reorder, "channels", 0);
    const int64_t block = NchwcBlockSize();
    for (const Node* conv : graph.Consumers(reorder.outputs()[0])) {
      const bool fused = conv->domain() == kMsDomain && conv->op_type() == "FusedConv";
      if (!IsOnnxOp(conv, "Conv") && !fused) continue;
      if (conv->inputs()[0] != reorder.outputs()[0] || conv->HasInput(3) ||
          conv->outputs().size() != 1 || !HasConstantFloatWeights(graph, *conv) ||
          !FloatShape4(graph, conv->outputs()[0])) {
        continue;
      }
      const Tensor* weight = ConstantInput(graph, *conv, 1);
      const TensorShape& ws = weight->shape();
      const int64_t groups = IntAttributeOr(*conv, "group", 1);
      if (ws.rank() != 4 || groups <= 1 || ws[1] <= 1 || ws[1] % block == 0 ||
          ws[0] != groups * ws[1] || channels != ws[0] || ws[2] > kNchwcMaxKernelRows ||
          !KernelTakes(groups, ws[1], block)) {
        continue;
      }
      return conv;
    }
    return nullptr;
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateNchwcNarrowGroupsRule() {
  return std::make_unique<NchwcNarrowGroups>();
}

}  // namespace ort
