// Rule fuse_group_norm: torch's GroupNorm export, Reshape(x, [N, G, -1]) -> InstanceNormalization
// -> Reshape back to x's shape -> per-channel Mul / Add (the affine; absent without one), then
// SiLU as QuickGelu(alpha 1), becomes com.microsoft GroupNorm(x, gamma, beta) channels first,
// with InstanceNormalization's per-group scale and bias folded into the per-channel gamma and
// beta: one pass over the tensor instead of five to seven. A session-only rule (passes.inc):
// onnxruntime's CPU provider has no GroupNorm kernel.
#include <fmt/format.h>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

struct GroupNormMatch {
  std::string x;
  int64_t groups = 0;
  float epsilon = 1e-5f;
  std::vector<float> gamma, beta;
  bool silu = false;
  std::vector<const Node*> nodes;
  const Node* last = nullptr;
  // The producers of the two Reshape targets, left without readers by the fusion.
  std::vector<const Node*> target_producers;
};

// Folds the per-channel Mul / Add chain after the normalization (any order, any length) into
// gamma and beta: each step maps gamma * n + beta to (gamma * n + beta) * s or + s.
void AbsorbPerChannelAffine(const Graph& graph, size_t rank, GroupNormMatch& match) {
  for (;;) {
    const std::string& value = match.last->outputs()[0];
    const Node* reader = OnlyConsumer(graph, value);
    const bool mul = IsOnnxOp(reader, "Mul");
    if ((!mul && !IsOnnxOp(reader, "Add")) || reader->inputs().size() != 2) return;
    const size_t other = reader->inputs()[0] == value ? 1 : 0;
    if (reader->inputs()[1 - other] != value) return;
    const Tensor* constant = ConstantInput(graph, *reader, other);
    if (constant == nullptr) return;
    const auto values = PerChannelValues(*constant, static_cast<int64_t>(match.gamma.size()), rank);
    if (!values) return;
    for (size_t c = 0; c < match.gamma.size(); ++c) {
      if (mul) {
        match.gamma[c] *= (*values)[c];
        match.beta[c] *= (*values)[c];
      } else {
        match.beta[c] += (*values)[c];
      }
    }
    match.nodes.push_back(reader);
    match.last = reader;
  }
}

std::optional<GroupNormMatch> FindGroupNorm(const Graph& graph, const Node& norm) {
  if (norm.inputs().size() != 3 || norm.outputs().size() != 1) return std::nullopt;
  const Node* split = SoleProducer(graph, norm, 0, "Reshape");
  if (split == nullptr || split->inputs().size() != 2) return std::nullopt;
  GroupNormMatch match;
  match.x = split->inputs()[0];
  const std::string& grouped = norm.inputs()[0];
  const auto rank = RankOf(graph, match.x);
  const auto channels = KnownDimension(graph, match.x, 1);
  const auto groups = KnownDimension(graph, grouped, 1);
  // [N, C, ...] viewed as [N, G, C / G * ...]: with G dividing C, each group is C / G whole
  // channels.
  if (!IsFloatValue(graph, match.x) || !rank || *rank < 2 || RankOf(graph, grouped) != 3 ||
      !channels || !groups || *groups <= 0 || *channels % *groups != 0 ||
      !ProvablySameDimension(graph, grouped, 0, match.x, 0)) {
    return std::nullopt;
  }
  const Tensor* scale = ConstantInput(graph, norm, 1);
  const Tensor* bias = ConstantInput(graph, norm, 2);
  if (scale == nullptr || bias == nullptr || scale->dtype() != DataType::kFloat ||
      bias->dtype() != DataType::kFloat || scale->NumElements() != *groups ||
      bias->NumElements() != *groups) {
    return std::nullopt;
  }
  const Node* merge = OnlyReaderOp(graph, norm.outputs()[0], "Reshape");
  if (merge == nullptr || !ProvablySameShape(graph, merge->outputs()[0], match.x)) {
    return std::nullopt;
  }
  match.groups = *groups;
  if (const Attribute* epsilon = norm.FindAttribute("epsilon")) match.epsilon = epsilon->f;
  const int64_t group_channels = *channels / *groups;
  for (int64_t c = 0; c < *channels; ++c) {
    match.gamma.push_back(scale->Data<float>()[c / group_channels]);
    match.beta.push_back(bias->Data<float>()[c / group_channels]);
  }
  match.nodes = {split, &norm, merge};
  match.last = merge;
  for (const Node* reshape : {split, merge}) {
    const Node* producer = graph.Producer(reshape->inputs()[1]);
    if (producer != nullptr &&
        (match.target_producers.empty() || match.target_producers.front() != producer)) {
      match.target_producers.push_back(producer);
    }
  }
  AbsorbPerChannelAffine(graph, *rank, match);
  const Node* activation = OnlyConsumer(graph, match.last->outputs()[0]);
  if (activation != nullptr && activation->domain() == kMsDomain &&
      activation->op_type() == "QuickGelu") {
    // QuickGelu's alpha defaults to 1.702 (CLIP's QuickGELU), not SiLU's 1.
    const Attribute* alpha = activation->FindAttribute("alpha");
    if (alpha != nullptr && alpha->f == 1.0f) {
      match.silu = true;
      match.nodes.push_back(activation);
      match.last = activation;
    }
  }
  return match;
}

class FuseGroupNorm final : public RewriteRule {
 public:
  FuseGroupNorm()
      : RewriteRule("fuse_group_norm", {"InstanceNormalization"}, "",
                    {{std::string(kMsDomain), "GroupNorm"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return FindGroupNorm(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const GroupNormMatch match = *FindGroupNorm(graph, node);
    const int64_t channels = static_cast<int64_t>(match.gamma.size());
    const std::string gamma =
        graph.UniqueValueName(fmt::format("{}_group_norm_gamma", node.name()));
    graph.AddInitializer(gamma, Tensor::FromVector<float>(TensorShape{channels}, match.gamma));
    const std::string beta = graph.UniqueValueName(fmt::format("{}_group_norm_beta", node.name()));
    graph.AddInitializer(beta, Tensor::FromVector<float>(TensorShape{channels}, match.beta));
    std::vector<Attribute> attributes;
    attributes.push_back(Attribute::Float("epsilon", match.epsilon));
    attributes.push_back(Attribute::Int("groups", match.groups));
    attributes.push_back(Attribute::Int("activation", match.silu ? 1 : 0));
    attributes.push_back(Attribute::Int("channels_last", 0));
    const std::string output = match.last->outputs()[0];
    ReplaceByFusedNode(graph, match.nodes,
                       {"GroupNorm",
                        "GroupNorm",
                        std::string(kMsDomain),
                        {match.x, gamma, beta},
                        {output},
                        std::move(attributes)});
    for (const Node* producer : match.target_producers) RemoveIfUnused(graph, *producer);
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseGroupNormRule() { return std::make_unique<FuseGroupNorm>(); }

}  // namespace ort
