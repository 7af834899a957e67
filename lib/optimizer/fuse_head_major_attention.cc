// Rule fuse_head_major_attention: attention whose queries, keys and values are [B,N,S,h] heads
// however the model made them (MViT pools each into its own heads), proven by symbolic shapes:
//   y = MatMul(Softmax(MatMul(Q, Transpose(K, 0,1,3,2)) * c [+ M]), V)
// (or the scores as FusedMatMul(Q, K, transB=1)) becomes com.microsoft MultiHeadAttention(
// Reshape(Transpose(Q, 0,2,1,3), [0,0,N*h]), K, V, attention_bias = M), the key and value heads
// given 4-D. When y is merged right away (Transpose(0,2,1,3), Reshape to [B,S,N*h]) the fused
// node writes the merge; otherwise its [B,S,N*h] output goes back to [B,N,S,h] heads. It runs
// after the attention fusions that take the queries' projection too.
#include <fmt/format.h>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

struct HeadMajorMatch {
  std::string query, key, value, bias;
  int64_t heads = 0, head_size = 0;
  float scale = 1;
  /// The Reshape ending the merge, when y is merged right away.
  const Node* merge = nullptr;
  /// y: the value the blocks' readers read when there is no merge.
  std::string output;
  std::vector<const Node*> nodes;
};

// True when `dim` is `expected` or, where the Add broadcasts, 1.
bool SameOrOne(const DimExpr& dim, const DimExpr& expected) {
  return dim == expected || dim.AsConstant() == 1;
}

// The scores' product below `scores` (read by `readers`), through a scalar factor: MatMul(Q,
// Transpose(K)) with a factor on Q allowed, or FusedMatMul(Q, K, transB=1). Sets the match's
// query, key and scale and adds the nodes.
bool MatchProduct(const Graph& graph, std::string scores, std::vector<const Node*> readers,
                  HeadMajorMatch& match) {
  std::vector<const Node*> nodes;
  float scale = 1;
  std::string scaled;
  if (const Node* factor = MatchScalarFactor(graph, scores, readers, scale, scaled)) {
    nodes.push_back(factor);
    readers = {factor};
    scores = scaled;
  }
  bool keys_transposed = false;
  if (const Node* fused = MatchScoresFusedMatMul(graph, scores, readers, scale, keys_transposed)) {
    if (!keys_transposed || fused->inputs().size() != 2) return false;
    nodes.push_back(fused);
    match.query = fused->inputs()[0];
    match.key = fused->inputs()[1];
  } else {
    const Node* product = ProducerReadOnlyBy(graph, scores, "MatMul", readers);
    if (product == nullptr || product->inputs().size() != 2) return false;
    const Node* key_transpose = IntermediateProducer(graph, product->inputs()[1], "Transpose");
    if (key_transpose == nullptr || !key_transpose->HasInput(0) ||
        !HasPerm(*key_transpose, {0, 1, 3, 2})) {
      return false;
    }
    nodes.insert(nodes.end(), {product, key_transpose});
    match.key = key_transpose->inputs()[0];
    match.query = product->inputs()[0];
    if (const Node* factor = MatchScalarFactor(graph, match.query, {product}, scale, scaled)) {
      nodes.push_back(factor);
      match.query = scaled;
    }
  }
  match.scale = scale;
  match.nodes.insert(match.nodes.end(), nodes.begin(), nodes.end());
  return true;
}

std::optional<HeadMajorMatch> MatchHeadMajor(const Graph& graph, const Node& softmax) {
  if (!softmax.HasInput(0) || !softmax.HasOutput(0)) return std::nullopt;
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  // The scores are 4-D as the shapes of q and k prove below, whatever the types record.
  const auto rank = RankOf(graph, softmax.inputs()[0]);
  if ((rank && *rank != 4) || (softmax_axis != -1 && softmax_axis != 3)) return std::nullopt;
  HeadMajorMatch match;
  match.nodes.push_back(&softmax);
  if (!MatchProduct(graph, softmax.inputs()[0], {&softmax}, match)) {
    // Else a mask: the operand of an Add beside the product.
    const Node* add = ProducerReadOnlyBy(graph, softmax.inputs()[0], "Add", {&softmax});
    for (int side = 0; add != nullptr && side < 2 && match.query.empty(); ++side) {
      if (MatchProduct(graph, add->inputs()[side], {add}, match)) {
        match.bias = add->inputs()[1 - side];
        match.nodes.push_back(add);
      }
    }
    if (match.query.empty() || !IsFloatValue(graph, match.bias)) return std::nullopt;
  }
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (!IsOnnxOp(pv, "MatMul") || pv->inputs().size() != 2 || !pv->HasOutput(0) ||
      pv->inputs()[0] != softmax.outputs()[0] || graph.IsGraphOutput(pv->outputs()[0])) {
    return std::nullopt;
  }
  match.nodes.push_back(pv);
  match.value = pv->inputs()[1];
  match.output = pv->outputs()[0];
  for (const auto* operand : {&match.query, &match.key, &match.value}) {
    if (!IsFloatValue(graph, *operand)) return std::nullopt;
  }

  // Q [B,N,S,h], K and V [B,N,T,h], N and h constant; the mask [B|1,N|1,S,T].
  SymbolicShapes shapes(graph);
  const auto& q = shapes.Facts(match.query).shape;
  const auto& k = shapes.Facts(match.key).shape;
  const auto& v = shapes.Facts(match.value).shape;
  if (!q || !k || !v || q->size() != 4 || k->size() != 4 || v->size() != 4) return std::nullopt;
  const auto heads = (*q)[1].AsConstant(), head_size = (*q)[3].AsConstant();
  if (!heads || !head_size || !PlausibleHeads(*heads, *head_size)) return std::nullopt;
  for (const auto* kv : {&*k, &*v}) {
    if ((*kv)[0] != (*q)[0] || (*kv)[1] != (*q)[1] || (*kv)[2] != (*k)[2] || (*kv)[3] != (*q)[3]) {
      return std::nullopt;
    }
  }
  if (!match.bias.empty()) {
    const auto& bias = shapes.Facts(match.bias).shape;
    if (!bias || bias->size() != 4 || !SameOrOne((*bias)[0], (*q)[0]) ||
        !SameOrOne((*bias)[1], (*q)[1]) || (*bias)[2] != (*q)[2] || (*bias)[3] != (*k)[2]) {
      return std::nullopt;
    }
  }
  match.heads = *heads;
  match.head_size = *head_size;

  // The merge: Transpose(0,2,1,3) and a Reshape proven to write [B,S,N*h], each read once.
  const Node* transpose = OnlyConsumer(graph, match.output);
  const Node* reshape = IsOnnxOp(transpose, "Transpose") && transpose->HasOutput(0) &&
                                HasPerm(*transpose, {0, 2, 1, 3})
                            ? OnlyConsumer(graph, transpose->outputs()[0])
                            : nullptr;
  if (IsOnnxOp(reshape, "Reshape") && reshape->HasOutput(0) &&
      reshape->inputs()[0] == transpose->outputs()[0] &&
      !graph.IsGraphOutput(transpose->outputs()[0])) {
    const auto& merged = shapes.Facts(reshape->outputs()[0]).shape;
    const std::vector<DimExpr> expected{(*q)[0], (*q)[2],
                                        DimExpr::Constant(match.heads * match.head_size)};
    if (merged && *merged == expected) {
      match.merge = reshape;
      match.nodes.insert(match.nodes.end(), {transpose, reshape});
    }
  }
  return match;
}

// Adds `op_type`(inputs) writing `output` (a new float value unless given).
std::string AddStep(Graph& graph, const std::string& op_type, std::vector<std::string> inputs,
                    Attribute attribute, std::string output = {}) {
  if (output.empty()) {
    output = graph.UniqueValueName(fmt::format("{}_{}", inputs[0], op_type));
    graph.SetValueType(output, ValueType::Tensor(DataType::kFloat, std::nullopt));
  }
  NodeSpec spec;
  spec.name = graph.UniqueNodeName(fmt::format("{}_{}", output, op_type));
  spec.op_type = op_type;
  spec.inputs = std::move(inputs);
  spec.outputs = {output};
  if (!attribute.name.empty()) spec.attributes.push_back(std::move(attribute));
  graph.AddNode(std::move(spec));
  return output;
}

std::string Ints(Graph& graph, const std::string& hint, std::vector<int64_t> values) {
  const std::string name = graph.UniqueValueName(hint);
  const auto size = static_cast<int64_t>(values.size());
  graph.AddInitializer(name, Tensor::FromVector<int64_t>({size}, values));
  return name;
}

class FuseHeadMajorAttentionRule final : public RewriteRule {
 public:
  FuseHeadMajorAttentionRule()
      : RewriteRule("fuse_head_major_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "MultiHeadAttention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchHeadMajor(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchHeadMajor(graph, node);
    if (!found) return Status::OK();
    const HeadMajorMatch& match = *found;
    const int64_t hidden = match.heads * match.head_size;
    // The kernel reads queries as [B,S,N*h]; Reshape's 0s copy B and S. One head needs no
    // Transpose: [B,1,S,h] holds its elements in [B,S,h]'s order.
    const bool one_head = match.heads == 1;
    const std::string heads_first = one_head ? match.query
                                             : AddStep(graph, "Transpose", {match.query},
                                                       Attribute::Ints("perm", {0, 2, 1, 3}));
    const std::string query = AddStep(
        graph, "Reshape",
        {heads_first, Ints(graph, match.query + "_merged_shape", {0, one_head ? -1 : 0, hidden})},
        Attribute());
    NodeSpec spec;
    spec.op_type = "MultiHeadAttention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {query, match.key, match.value, "", "", match.bias};
    while (spec.inputs.back().empty()) spec.inputs.pop_back();
    std::string output;
    if (match.merge != nullptr) {
      output = match.merge->outputs()[0];
    } else {
      output = graph.UniqueValueName(fmt::format("{}_merged", match.output));
      graph.SetValueType(output, ValueType::Tensor(DataType::kFloat, std::nullopt));
    }
    spec.outputs = {output};
    spec.attributes.push_back(Attribute::Int("num_heads", match.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.head_size);
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    if (match.merge == nullptr && one_head) {
      // Back to the heads the block's readers take.
      AddStep(graph, "Reshape",
              {output, Ints(graph, match.output + "_heads_shape", {0, 1, -1, match.head_size})},
              Attribute(), match.output);
    } else if (match.merge == nullptr) {
      const std::string split = AddStep(graph, "Reshape",
                                        {output, Ints(graph, match.output + "_heads_shape",
                                                      {0, 0, match.heads, match.head_size})},
                                        Attribute());
      AddStep(graph, "Transpose", {split}, Attribute::Ints("perm", {0, 2, 1, 3}), match.output);
    }
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseHeadMajorAttentionRule() {
  return std::make_unique<FuseHeadMajorAttentionRule>();
}

}  // namespace ort
