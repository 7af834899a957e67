// Rule fuse_packed_qkv_attention: self-attention whose queries, keys and values come out of one
// projection, as torchvision's Swin and timm-style vision transformers write it:
//   qkv = Reshape(X W + b, [B', S, 3, N, h]); p = Transpose(qkv, 2,0,3,1,4)
//   q, k, v = Gather(p, 0), Gather(p, 1), Gather(p, 2)   (or Squeeze(Split(p)), unbind)
//   y = merge(MatMul(Softmax(bias(MatMul(q, Transpose(k, 0,1,3,2)) * c)), v))
// (scalar factors on q, k or the scores; bias: constant terms, attention_score_bias.h) becomes
// com.microsoft Attention(X, W, b, attention_bias) -> y. The terms fold into one constant; Swin's
// shifted-window mask makes it per window, [W, N, S, T], tiled over the B'/W images at run time
// (attention_bias takes a batch of 1 or B' only).

#include <fmt/format.h>

#include <array>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/attention_score_bias.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

// The packed projection X W + b split into the query, key and value heads.
struct PackedQkv {
  std::string x, weights, bias;
  const Tensor* bias_constant = nullptr;
  int64_t heads = 0, head_size = 0;
  /// The query, key and value heads [B', N, S, h].
  std::array<std::string, 3> parts;
  /// The MatMul, Add, Reshape, Transpose and the nodes taking the parts out.
  std::vector<const Node*> nodes;
  std::vector<ShapeElement> leading;
  /// Values whose first two dimensions are [B', S].
  std::vector<std::string> batch_sequence_values;
};

// The scalar index of a Gather along axis 0 of a rank-5 tensor, in [0, 3); else -1.
int64_t PartIndex(const Graph& graph, const Node& gather) {
  const Attribute* axis = gather.FindAttribute("axis");
  if ((axis != nullptr && axis->i != 0 && axis->i != -5) || gather.inputs().size() != 2) return -1;
  const Tensor* index = ConstantInput(graph, gather, 1);
  if (index == nullptr || index->shape().rank() != 0) return -1;
  int64_t part = -1;
  if (index->dtype() == DataType::kInt64) part = index->Data<int64_t>()[0];
  if (index->dtype() == DataType::kInt32) part = index->Data<int32_t>()[0];
  if (part < 0) part += 3;
  return part >= 0 && part < 3 ? part : -1;
}

// True when `squeeze` removes axis 0 (of 5) only.
bool SqueezesFirstAxis(const Graph& graph, const Node& squeeze) {
  const Attribute* attribute = squeeze.FindAttribute("axes");
  const auto axes =
      attribute != nullptr ? std::optional(attribute->ints) : ConstantInts(graph, squeeze, 1);
  return axes && axes->size() == 1 && (axes->front() == 0 || axes->front() == -5);
}

// A Split of `packed` along axis 0 into three parts of 1, each read by one Squeeze of that axis
// (timm's qkv.unbind(0)): fills `qkv.parts` and appends the nodes.
bool MatchSqueezedSplit(const Graph& graph, const Node& split, PackedQkv& qkv) {
  const Attribute* axis = split.FindAttribute("axis");
  if ((axis != nullptr && axis->i != 0 && axis->i != -5) || split.outputs().size() != 3) {
    return false;
  }
  // Without sizes the 3 rows split evenly.
  const Attribute* attribute = split.FindAttribute("split");
  const auto sizes =
      attribute != nullptr ? std::optional(attribute->ints) : ConstantInts(graph, split, 1);
  if (split.HasInput(1) && !sizes) return false;
  if (sizes && *sizes != std::vector<int64_t>{1, 1, 1}) return false;
  qkv.nodes.push_back(&split);
  for (size_t part = 0; part < 3; ++part) {
    const Node* squeeze = OnlyReaderOp(graph, split.outputs()[part], "Squeeze");
    if (squeeze == nullptr || !SqueezesFirstAxis(graph, *squeeze)) return false;
    qkv.parts[part] = squeeze->outputs()[0];
    qkv.nodes.push_back(squeeze);
  }
  return true;
}

// The three parts [B', N, S, h] of `packed` [3, B', N, S, h], each read once: Gathers of the
// scalar indices 0, 1 and 2 (torchvision's qkv[0], qkv[1], qkv[2]) or a Squeezed Split.
bool MatchParts(const Graph& graph, const std::string& packed, PackedQkv& qkv) {
  const auto readers = graph.Consumers(packed);
  if (graph.IsGraphOutput(packed)) return false;
  if (readers.size() == 1 && IsOnnxOp(readers[0], "Split") && readers[0]->inputs()[0] == packed) {
    return MatchSqueezedSplit(graph, *readers[0], qkv);
  }
  if (readers.size() != 3) return false;
  for (const Node* reader : readers) {
    const int64_t part = IsOnnxOp(reader, "Gather") && reader->inputs()[0] == packed
                             ? PartIndex(graph, *reader)
                             : -1;
    if (part < 0 || !qkv.parts[part].empty()) return false;
    qkv.parts[part] = reader->outputs()[0];
    qkv.nodes.push_back(reader);
  }
  return true;
}

// `query`, read by one node, as part 0 of a packed projection.
std::optional<PackedQkv> MatchPackedQkv(const Graph& graph, const std::string& query) {
  const Node* part = graph.Producer(query);
  std::string packed;
  if (OnlyConsumer(graph, query) == nullptr) return std::nullopt;
  if (IsOnnxOp(part, "Gather")) {
    packed = part->inputs()[0];
  } else if (IsOnnxOp(part, "Squeeze")) {
    const Node* split = graph.Producer(part->inputs()[0]);
    if (IsOnnxOp(split, "Split")) packed = split->inputs()[0];
  }
  const Node* transpose = packed.empty() ? nullptr : graph.Producer(packed);
  if (!IsOnnxOp(transpose, "Transpose") || !HasPerm(*transpose, {2, 0, 3, 1, 4})) {
    return std::nullopt;
  }
  PackedQkv qkv;
  if (!MatchParts(graph, packed, qkv) || qkv.parts[0] != query) return std::nullopt;
  const Node* reshape = IntermediateProducer(graph, transpose->inputs()[0], "Reshape");
  const Attribute* allowzero = reshape == nullptr ? nullptr : reshape->FindAttribute("allowzero");
  if (reshape == nullptr || !reshape->HasInput(1) || (allowzero != nullptr && allowzero->i != 0)) {
    return std::nullopt;
  }
  const auto target = AnalyzeShapeValue(graph, reshape->inputs()[1]);
  if (!target || target->scalar || target->elements.size() != 5) return std::nullopt;
  const auto& elements = target->elements;
  for (size_t i = 2; i < 5; ++i) {
    if (elements[i].kind != ShapeElement::Kind::kValue || elements[i].value <= 0) {
      return std::nullopt;
    }
  }
  if (elements[2].value != 3 || !PlausibleHeads(elements[3].value, elements[4].value)) {
    return std::nullopt;
  }
  qkv.heads = elements[3].value;
  qkv.head_size = elements[4].value;
  qkv.leading = {elements[0], elements[1]};

  std::string projected = reshape->inputs()[0];
  qkv.nodes.insert(qkv.nodes.end(), {transpose, reshape});
  qkv.batch_sequence_values = {reshape->outputs()[0], projected};
  if (const Node* add = IntermediateProducer(graph, projected, "Add")) {
    for (size_t i = 0; i < 2 && qkv.bias.empty(); ++i) {
      const Tensor* constant = ConstantInput(graph, *add, i);
      if (constant == nullptr || add->inputs()[0] == add->inputs()[1]) continue;
      qkv.bias = add->inputs()[i];
      qkv.bias_constant = constant;
      projected = add->inputs()[1 - i];
    }
    if (qkv.bias.empty()) return std::nullopt;
    qkv.nodes.push_back(add);
    qkv.batch_sequence_values.push_back(projected);
  }
  const Node* matmul = IntermediateProducer(graph, projected, "MatMul");
  if (matmul == nullptr || matmul->inputs().size() != 2) return std::nullopt;
  qkv.nodes.push_back(matmul);
  qkv.x = matmul->inputs()[0];
  qkv.weights = matmul->inputs()[1];
  qkv.batch_sequence_values.push_back(qkv.x);

  // Attention's input [B', S, D], weights [D, 3*N*h] and bias [3*N*h] (leading 1s dropped).
  const int64_t width = 3 * qkv.heads * qkv.head_size;
  const auto weights = StaticShapeOf(graph, qkv.weights);
  if (RankOf(graph, qkv.x) != size_t{3} || !IsFloatValue(graph, qkv.x) || !weights ||
      weights->rank() != 2 || (*weights)[1] != width) {
    return std::nullopt;
  }
  if (qkv.bias_constant != nullptr) {
    const auto& dims = qkv.bias_constant->shape().dims();
    if (qkv.bias_constant->dtype() != DataType::kFloat || dims.empty() || dims.size() > 3 ||
        dims.back() != width || qkv.bias_constant->shape().NumElements() != width) {
      return std::nullopt;
    }
  }
  return qkv;
}

struct PackedAttentionMatch {
  PackedQkv qkv;
  ScoreBias bias;
  ScoreDims dims;
  float scale = 1;
  HeadMerge merge;
  std::vector<const Node*> nodes;
};

// Follows `value` up through scalar factors read once (the first read by `reader`).
std::string SkipFactors(const Graph& graph, std::string value, const Node* reader, float& scale,
                        std::vector<const Node*>& nodes) {
  for (;;) {
    std::string input;
    const Node* factor = MatchScalarFactor(graph, value, {reader}, scale, input);
    if (factor == nullptr) return value;
    nodes.push_back(factor);
    reader = factor;
    value = input;
  }
}

std::optional<PackedAttentionMatch> MatchPackedAttention(const Graph& graph, const Node& softmax) {
  const std::string& input = softmax.inputs()[0];
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  if (RankOf(graph, input) != size_t{4} || (softmax_axis != -1 && softmax_axis != 3)) {
    return std::nullopt;
  }
  PackedAttentionMatch match;
  for (int64_t i = 0; i < 3; ++i) match.dims[i] = KnownDimension(graph, input, i + 1);
  match.bias = MatchScoreBias(graph, input, {&softmax}, match.dims);
  std::vector<const Node*> readers = match.bias.readers;
  std::string scores = match.bias.scores;
  std::string scaled;
  if (const Node* factor = MatchScalarFactor(graph, scores, readers, match.scale, scaled)) {
    match.nodes.push_back(factor);
    readers = {factor};
    scores = scaled;
  }
  const Node* qk = ProducerReadOnlyBy(graph, scores, "MatMul", readers);
  if (qk == nullptr || qk->inputs().size() != 2) return std::nullopt;
  // The terms were checked against the softmax input's dimensions: the raw scores have them.
  for (int64_t i = 0; i < 3 && !match.bias.terms.empty(); ++i) {
    if (KnownDimension(graph, scores, i + 1) != match.dims[i]) return std::nullopt;
  }
  const std::string query = SkipFactors(graph, qk->inputs()[0], qk, match.scale, match.nodes);
  auto qkv = MatchPackedQkv(graph, query);
  std::string keys = SkipFactors(graph, qk->inputs()[1], qk, match.scale, match.nodes);
  const Node* key_transpose = IntermediateProducer(graph, keys, "Transpose");
  if (!qkv || key_transpose == nullptr || !HasPerm(*key_transpose, {0, 1, 3, 2})) {
    return std::nullopt;
  }
  keys = SkipFactors(graph, key_transpose->inputs()[0], key_transpose, match.scale, match.nodes);
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (keys != qkv->parts[1] || OnlyConsumer(graph, keys) == nullptr || !IsOnnxOp(pv, "MatMul") ||
      pv->inputs().size() != 2 || pv->inputs()[0] != softmax.outputs()[0] ||
      pv->inputs()[1] != qkv->parts[2] || OnlyConsumer(graph, qkv->parts[2]) != pv) {
    return std::nullopt;
  }
  if (match.dims[0] && *match.dims[0] != qkv->heads) return std::nullopt;
  match.dims[0] = qkv->heads;
  if (!match.bias.terms.empty() && !FoldableBiasSize(std::array{match.bias.windows, *match.dims[0],
                                                                *match.dims[1], *match.dims[2]})) {
    return std::nullopt;
  }
  auto merge = MatchHeadMerge(graph, *pv);
  if (!merge) return std::nullopt;
  std::vector<std::string> same = qkv->batch_sequence_values;
  same.insert(same.end(), merge->batch_sequence_values.begin(), merge->batch_sequence_values.end());
  if (!KeepsBatchAndSequence(graph, qkv->leading, same, qkv->x) ||
      !merge->Keeps(graph, qkv->heads * qkv->head_size, same, qkv->x)) {
    return std::nullopt;
  }
  match.nodes.insert(match.nodes.end(), {qk, key_transpose, &softmax, pv});
  match.nodes.insert(match.nodes.end(), match.bias.nodes.begin(), match.bias.nodes.end());
  match.nodes.insert(match.nodes.end(), qkv->nodes.begin(), qkv->nodes.end());
  match.nodes.insert(match.nodes.end(), merge->nodes.begin(), merge->nodes.end());
  match.merge = std::move(*merge);
  match.qkv = std::move(*qkv);
  return match;
}

// Adds `node` with a fresh name and output of `type` (a unique name from `output`); returns the
// output.
std::string AddStep(Graph& graph, NodeSpec node, const std::string& output, ValueType type) {
  node.name = graph.UniqueNodeName(output);
  node.outputs = {graph.UniqueValueName(output)};
  std::string name = node.outputs[0];
  graph.AddNode(std::move(node));
  graph.SetValueType(name, std::move(type));
  return name;
}

// The per-window bias `folded` [W, N, S, T] repeated for the B'/W images of `x` [B', S, D], into
// a value of the scores' type `scores`.
std::string TiledBias(Graph& graph, const std::string& x, const std::string& folded,
                      int64_t windows, const ValueType& scores) {
  const auto ints = [](int64_t size) {
    return ValueType::Tensor(DataType::kInt64, SymbolicShape({Dimension::Known(size)}));
  };
  const auto constant = [&](const std::string& name, std::vector<int64_t> values) {
    const std::string unique = graph.UniqueValueName(name);
    const auto size = static_cast<int64_t>(values.size());
    graph.AddInitializer(unique, Tensor::FromVector<int64_t>({size}, std::span(values)));
    return unique;
  };
  const std::string shape =
      AddStep(graph, {"", "Shape", "", {x}, {}, {}}, folded + "_shape", ints(3));
  const std::string batch =
      AddStep(graph, {"", "Gather", "", {shape, constant(folded + "_axis0", {0})}, {}, {}},
              folded + "_batch", ints(1));
  const std::string images =
      AddStep(graph, {"", "Div", "", {batch, constant(folded + "_windows", {windows})}, {}, {}},
              folded + "_images", ints(1));
  NodeSpec concat{"", "Concat", "", {images, constant(folded + "_ones", {1, 1, 1})}, {}, {}};
  concat.attributes.push_back(Attribute::Int("axis", 0));
  const std::string repeats = AddStep(graph, std::move(concat), folded + "_repeats", ints(4));
  return AddStep(graph, {"", "Tile", "", {folded, repeats}, {}, {}}, folded + "_tiled", scores);
}

class FusePackedQkvAttentionRule final : public RewriteRule {
 public:
  FusePackedQkvAttentionRule()
      : RewriteRule("fuse_packed_qkv_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "Attention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchPackedAttention(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchPackedAttention(graph, node);
    if (!found) return Status::OK();
    PackedAttentionMatch match = std::move(*found);
    const PackedQkv& qkv = match.qkv;
    const std::string bias =
        FlatQkvBias(graph, qkv.bias, qkv.bias_constant, 3 * qkv.heads * qkv.head_size,
                    qkv.bias_constant != nullptr ? qkv.bias + "_flat" : qkv.weights + "_bias");
    std::string attention_bias;
    if (!match.bias.terms.empty()) {
      attention_bias = graph.UniqueValueName(fmt::format("{}_attention_bias", node.name()));
      graph.AddInitializer(attention_bias, match.bias.Fold(match.dims));
      if (match.bias.windows > 1) {
        const ValueType* scores = graph.FindTypeInScope(node.inputs()[0]);
        attention_bias = TiledBias(graph, qkv.x, attention_bias, match.bias.windows,
                                   scores != nullptr ? *scores : ValueType{});
      }
    }

    NodeSpec spec;
    spec.op_type = "Attention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {qkv.x, qkv.weights, bias, "", "", attention_bias};
    if (attention_bias.empty()) spec.inputs.resize(3);
    if (!match.merge.rewired.empty()) {
      match.merge.output = graph.UniqueValueName(match.merge.output);
    }
    spec.outputs = {match.merge.output};
    spec.attributes.push_back(Attribute::Int("num_heads", qkv.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, qkv.head_size);
    const std::string old_bias = qkv.bias;
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    RewireMerge(graph, match.merge);
    node_removed = true;
    if (!old_bias.empty() && bias != old_bias) RemoveInitializerIfUnused(graph, old_bias);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFusePackedQkvAttentionRule() {
  return std::make_unique<FusePackedQkvAttentionRule>();
}

}  // namespace ort
