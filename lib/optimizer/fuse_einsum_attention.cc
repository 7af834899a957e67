// Rule fuse_einsum_attention: attention over groups of tokens written with Einsum, as
// torchvision's MaxViT (RelativePositionalMultiHeadAttention) writes it on x [B, G, P, D]:
//   q, k, v = Transpose(Reshape(Slice or Split(x W + b, last axis), [B, G, P, N, h]), 0,1,3,2,4)
//   s = Einsum("bghid,bghjd->bghij", q, k) (scalar factors on q, k or s) + constant bias
//   y = Reshape(Transpose(Einsum("bghij,bghjd->bghid", Softmax(s), v), 0,1,3,2,4), [B, G, P, N*h])
// becomes Reshape(Attention(Reshape(x, [B*G, P, D]), W, b, attention_bias [1, N, P, P]),
// [B, G, P, N*h]). Every Reshape is proven with lib/shape to split or group whole axes only.
#include <algorithm>
#include <array>
#include <cctype>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/attention_score_bias.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"

namespace ort {
namespace {

constexpr size_t kRank = 5;

enum class EinsumForm : uint8_t { kScores, kContext };

// The labels of an explicit two-input equation without ellipsis, spaces removed.
std::optional<std::array<std::string, 3>> ParseEquation(std::string_view equation) {
  std::string text;
  for (char c : equation) {
    if (c != ' ') text.push_back(c);
  }
  const size_t arrow = text.find("->");
  const size_t comma = text.find(',');
  if (arrow == std::string::npos || comma == std::string::npos || comma > arrow ||
      text.find("->", arrow + 1) != std::string::npos || text.find(',', comma + 1) < arrow) {
    return std::nullopt;
  }
  std::array<std::string, 3> labels{
      text.substr(0, comma), text.substr(comma + 1, arrow - comma - 1), text.substr(arrow + 2)};
  for (const auto& part : labels) {
    if (!std::all_of(part.begin(), part.end(), [](char c) { return std::isalpha(c) != 0; })) {
      return std::nullopt;
    }
  }
  return labels;
}

// True when `einsum` is a matmul batched over the three leading axes of rank-5 operands:
// kScores "abcix,abcjx->abcij" (queries by keys), kContext "abcix,abcxj->abcij" (weights by
// values).
bool IsBatchedEinsum(const Node& einsum, EinsumForm form) {
  const Attribute* equation = einsum.FindAttribute("equation");
  if (equation == nullptr || einsum.inputs().size() != 2 || einsum.outputs().size() != 1) {
    return false;
  }
  const auto labels = ParseEquation(equation->s);
  if (!labels) return false;
  const auto& [a, b, out] = *labels;
  if (a.size() != kRank || b.size() != kRank) return false;
  for (size_t i = 0; i < kRank; ++i) {
    if (a.find(a[i], i + 1) != std::string::npos) return false;
  }
  const bool scores = form == EinsumForm::kScores;
  const char contracted = scores ? b[4] : b[3];
  const char kept = scores ? b[3] : b[4];
  return b.compare(0, 3, a, 0, 3) == 0 && contracted == a[4] && a.find(kept) == std::string::npos &&
         out == a.substr(0, 4) + kept;
}

// True when the Reshape `reshape` of a tensor with dimensions `in` (allowzero off) gives
// `expected`: each target element equal to its expected size (0 copying `in`'s), at most one -1,
// and as many elements as `in`.
bool ReshapeYields(SymbolicShapes& shapes, const Node& reshape, const std::vector<DimExpr>& in,
                   const std::vector<DimExpr>& expected) {
  const Attribute* allowzero = reshape.FindAttribute("allowzero");
  if (!reshape.HasInput(1) || (allowzero != nullptr && allowzero->i != 0)) return false;
  const auto& target = shapes.Facts(reshape.inputs()[1]).values;
  if (!target || target->size() != expected.size()) return false;
  int inferred = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto constant = (*target)[i].AsConstant();
    if (constant == -1) {
      ++inferred;
      continue;
    }
    if (constant == 0 && (i >= in.size() || in[i] != expected[i])) return false;
    if (constant != 0 && (*target)[i] != expected[i]) return false;
  }
  const auto in_count = Product(in);
  const auto out_count = Product(expected);
  return inferred <= 1 && in_count && out_count && *in_count == *out_count;
}

// A range [start, end) of the last axis of `packed` [B, G, P, 3*N*h], taken by `source`.
struct Range {
  std::string packed;
  int64_t start = 0, end = 0;
  const Node* source = nullptr;
};

// The range `part` is, read only by one node, when a Slice of one range or a Split (torch.chunk,
// as other exporters write it) of the last axis takes it; else nullopt.
std::optional<Range> MatchRange(SymbolicShapes& shapes, const std::string& part) {
  const Graph& graph = shapes.graph();
  const Node* source = graph.Producer(part);
  if (source == nullptr || OnlyConsumer(graph, part) == nullptr || source->inputs().empty()) {
    return std::nullopt;
  }
  const auto& packed_shape = shapes.Facts(source->inputs()[0]).shape;
  const auto width =
      packed_shape && packed_shape->size() == 4 ? packed_shape->back().AsConstant() : std::nullopt;
  if (!width) return std::nullopt;
  const auto last_axis = [](int64_t axis) { return axis == -1 || axis == 3; };
  if (IsOnnxOp(source, "Slice") && source->inputs().size() >= 4) {
    const auto starts = ConstantInts(graph, *source, 1);
    const auto ends = ConstantInts(graph, *source, 2);
    const auto axes = ConstantInts(graph, *source, 3);
    const auto steps = source->HasInput(4) ? ConstantInts(graph, *source, 4)
                                           : std::optional(std::vector<int64_t>{1});
    if (!starts || !ends || !axes || !steps || starts->size() != 1 || ends->size() != 1 ||
        axes->size() != 1 || *steps != std::vector<int64_t>{1} || !last_axis(axes->front())) {
      return std::nullopt;
    }
    const auto clamp = [&](int64_t index) {
      return std::clamp(index < 0 ? index + *width : index, int64_t{0}, *width);
    };
    return Range{source->inputs()[0], clamp(starts->front()), clamp(ends->front()), source};
  }
  // A Split goes with the block: it must have no other part.
  if (!IsOnnxOp(source, "Split") || source->outputs().size() != 3) return std::nullopt;
  const Attribute* axis = source->FindAttribute("axis");
  if (axis == nullptr || !last_axis(axis->i)) return std::nullopt;
  const Attribute* attribute = source->FindAttribute("split");
  auto sizes = attribute != nullptr ? std::optional(attribute->ints)
                                    : (source->HasInput(1) ? ConstantInts(graph, *source, 1)
                                                           : std::optional<std::vector<int64_t>>());
  const auto outputs = static_cast<int64_t>(source->outputs().size());
  if (!sizes && !source->HasInput(1) && *width % outputs == 0) {
    sizes = std::vector<int64_t>(static_cast<size_t>(outputs), *width / outputs);
  }
  if (!sizes || sizes->size() != source->outputs().size()) return std::nullopt;
  Range range{source->inputs()[0], 0, 0, source};
  for (size_t i = 0; i < sizes->size(); ++i) {
    range.end = range.start + (*sizes)[i];
    if (source->outputs()[i] == part) return range;
    range.start = range.end;
  }
  return std::nullopt;
}

// One of the query, key and value heads: Transpose(Reshape(range, [B, G, P, N, h]), 0,1,3,2,4),
// each step read once.
struct Heads {
  Range range;
  int64_t heads = 0, head_size = 0;
  /// [B, G, P] of the range.
  std::vector<DimExpr> leading;
  std::vector<const Node*> nodes;
};

std::optional<Heads> MatchHeads(SymbolicShapes& shapes, const std::string& value) {
  const Graph& graph = shapes.graph();
  const Node* transpose = IntermediateProducer(graph, value, "Transpose");
  if (transpose == nullptr || !HasPerm(*transpose, {0, 1, 3, 2, 4})) return std::nullopt;
  const Node* reshape = IntermediateProducer(graph, transpose->inputs()[0], "Reshape");
  if (reshape == nullptr) return std::nullopt;
  const std::string& part = reshape->inputs()[0];
  auto range = MatchRange(shapes, part);
  const auto& part_shape = shapes.Facts(part).shape;
  const auto& target = shapes.Facts(reshape->inputs()[1]).values;
  if (!range || !part_shape || part_shape->size() != 4 || !target || target->size() != kRank) {
    return std::nullopt;
  }
  const auto count = (*target)[3].AsConstant();
  const auto size = (*target)[4].AsConstant();
  if (!count || !size || !PlausibleHeads(*count, *size)) return std::nullopt;
  Heads heads{std::move(*range), *count, *size, {}, {}};
  heads.leading.assign(part_shape->begin(), part_shape->begin() + 3);
  std::vector<DimExpr> expected = heads.leading;
  expected.push_back(DimExpr::Constant(*count));
  expected.push_back(DimExpr::Constant(*size));
  if (heads.range.end - heads.range.start != *count * *size ||
      !ReshapeYields(shapes, *reshape, *part_shape, expected)) {
    return std::nullopt;
  }
  heads.nodes = {transpose, reshape};
  return heads;
}

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

struct EinsumAttention {
  std::string x, weights, bias, output, reshaped_output;
  const Tensor* bias_constant = nullptr;
  /// The score bias, broadcast to [1, N, P, P]; empty without one.
  std::vector<float> score_bias;
  int64_t heads = 0, head_size = 0, tokens = 0, hidden = 0;
  /// The [B, G, P, N*h] target with B*G's one unknown factor as -1.
  std::vector<int64_t> output_shape;
  float scale = 1;
  std::vector<const Node*> nodes;
};

// The constant `bias` added to scores [B, G, N, P, P] when it varies along N and P only: its
// values broadcast to [N, P, P]; else nullopt.
std::optional<std::vector<float>> BroadcastScoreBias(const Tensor& bias, int64_t heads,
                                                     int64_t tokens) {
  const auto& dims = bias.shape().dims();
  if (bias.dtype() != DataType::kFloat || dims.size() > kRank) return std::nullopt;
  std::array<int64_t, kRank> full{1, 1, 1, 1, 1};
  std::copy(dims.begin(), dims.end(), full.end() - static_cast<std::ptrdiff_t>(dims.size()));
  const std::array<int64_t, 3> sizes{heads, tokens, tokens};
  if (full[0] != 1 || full[1] != 1 || !FoldableBiasSize(sizes)) return std::nullopt;
  for (size_t i = 0; i < 3; ++i) {
    if (full[i + 2] != 1 && full[i + 2] != sizes[i]) return std::nullopt;
  }
  const float* data = bias.Data<float>();
  std::vector<float> values;
  values.reserve(static_cast<size_t>(heads * tokens * tokens));
  for (int64_t n = 0; n < heads; ++n) {
    for (int64_t i = 0; i < tokens; ++i) {
      for (int64_t j = 0; j < tokens; ++j) {
        const int64_t index =
            ((full[2] == 1 ? 0 : n) * full[3] + (full[3] == 1 ? 0 : i)) * full[4] +
            (full[4] == 1 ? 0 : j);
        values.push_back(data[index]);
      }
    }
  }
  return values;
}

// The packed projection `packed` = x W (+ b), x [B, G, P, D] with P and D known.
bool MatchProjection(SymbolicShapes& shapes, const std::string& packed, EinsumAttention& match) {
  const Graph& graph = shapes.graph();
  // `packed`'s readers are the three Slices (checked by the caller).
  std::string projected = packed;
  const Node* add = graph.Producer(packed);
  if (IsOnnxOp(add, "Add") && add->outputs()[0] == packed) {
    for (size_t i = 0; i < 2 && match.bias.empty(); ++i) {
      const Tensor* constant = ConstantInput(graph, *add, i);
      if (constant == nullptr || add->inputs()[0] == add->inputs()[1]) continue;
      match.bias = add->inputs()[i];
      match.bias_constant = constant;
      projected = add->inputs()[1 - i];
    }
    if (match.bias.empty()) return false;
    match.nodes.push_back(add);
  }
  const Node* matmul = projected == packed ? graph.Producer(packed)
                                           : IntermediateProducer(graph, projected, "MatMul");
  if (!IsOnnxOp(matmul, "MatMul") || matmul->outputs()[0] != projected ||
      matmul->inputs().size() != 2)
    return false;
  match.nodes.push_back(matmul);
  match.x = matmul->inputs()[0];
  match.weights = matmul->inputs()[1];
  const int64_t width = 3 * match.hidden;
  const auto weights = StaticShapeOf(graph, match.weights);
  const auto& x_shape = shapes.Facts(match.x).shape;
  if (!IsFloatValue(graph, match.x) || ConstantInput(graph, *matmul, 1) == nullptr || !weights ||
      weights->rank() != 2 || (*weights)[1] != width || !x_shape || x_shape->size() != 4 ||
      (*x_shape)[2].AsConstant() != match.tokens || (*x_shape)[3].AsConstant() != (*weights)[0]) {
    return false;
  }
  if (match.bias_constant != nullptr) {
    const auto& dims = match.bias_constant->shape().dims();
    if (match.bias_constant->dtype() != DataType::kFloat || dims.empty() || dims.back() != width ||
        match.bias_constant->shape().NumElements() != width) {
      return false;
    }
  }
  return true;
}

std::optional<EinsumAttention> MatchEinsumAttention(const Graph& graph, const Node& softmax) {
  SymbolicShapes shapes(graph);
  const std::string& input = softmax.inputs()[0];
  const Attribute* axis = softmax.FindAttribute("axis");
  const int64_t softmax_axis = axis != nullptr ? axis->i : (graph.OpsetVersion("") >= 13 ? -1 : 1);
  if (RankOf(graph, input) != kRank || (softmax_axis != -1 && softmax_axis != 4) ||
      !IsFloatValue(graph, input)) {
    return std::nullopt;
  }
  EinsumAttention match;
  std::vector<const Node*> readers{&softmax};
  std::string scores = input;
  const Tensor* score_bias = nullptr;
  if (const Node* add = ProducerReadOnlyBy(graph, scores, "Add", readers)) {
    for (size_t i = 0; i < 2 && score_bias == nullptr; ++i) {
      score_bias = ConstantInput(graph, *add, i);
      if (score_bias != nullptr) scores = add->inputs()[1 - i];
    }
    if (score_bias == nullptr) return std::nullopt;
    match.nodes.push_back(add);
    readers = {add};
  }
  std::string unscaled;
  if (const Node* factor = MatchScalarFactor(graph, scores, readers, match.scale, unscaled)) {
    match.nodes.push_back(factor);
    readers = {factor};
    scores = unscaled;
  }
  const Node* qk = ProducerReadOnlyBy(graph, scores, "Einsum", readers);
  const Node* pv = OnlyConsumer(graph, softmax.outputs()[0]);
  if (qk == nullptr || !IsBatchedEinsum(*qk, EinsumForm::kScores) || !IsOnnxOp(pv, "Einsum") ||
      pv->inputs().size() != 2 || pv->inputs()[0] != softmax.outputs()[0] ||
      !IsBatchedEinsum(*pv, EinsumForm::kContext)) {
    return std::nullopt;
  }
  const auto q =
      MatchHeads(shapes, SkipFactors(graph, qk->inputs()[0], qk, match.scale, match.nodes));
  const auto k =
      MatchHeads(shapes, SkipFactors(graph, qk->inputs()[1], qk, match.scale, match.nodes));
  const auto v = MatchHeads(shapes, pv->inputs()[1]);
  if (!q || !k || !v || q->range.packed != k->range.packed || q->range.packed != v->range.packed) {
    return std::nullopt;
  }
  const std::string& packed = q->range.packed;
  match.heads = q->heads;
  match.head_size = q->head_size;
  match.hidden = q->heads * q->head_size;
  const auto tokens = q->leading[2].AsConstant();
  const std::array<const Heads*, 3> parts{&*q, &*k, &*v};
  for (int64_t i = 0; i < 3; ++i) {
    const Heads& part = *parts[static_cast<size_t>(i)];
    if (part.heads != match.heads || part.head_size != match.head_size ||
        part.range.start != i * match.hidden || part.range.end != (i + 1) * match.hidden) {
      return std::nullopt;
    }
  }
  // Nothing but the ranges reads the projection.
  for (const Node* reader : graph.Consumers(packed)) {
    if (reader != q->range.source && reader != k->range.source && reader != v->range.source) {
      return std::nullopt;
    }
  }
  if (!tokens || graph.IsGraphOutput(packed)) return std::nullopt;
  match.tokens = *tokens;
  if (score_bias != nullptr) {
    auto values = BroadcastScoreBias(*score_bias, match.heads, match.tokens);
    if (!values) return std::nullopt;
    match.score_bias = std::move(*values);
  }
  if (!MatchProjection(shapes, packed, match)) return std::nullopt;

  // The merge: [B, G, N, P, h] -> [B, G, P, N, h] -> [B, G, P, N*h].
  const Node* transpose = OnlyConsumer(graph, pv->outputs()[0]);
  const Node* reshape = IsOnnxOp(transpose, "Transpose") && HasPerm(*transpose, {0, 1, 3, 2, 4})
                            ? OnlyConsumer(graph, transpose->outputs()[0])
                            : nullptr;
  if (!IsOnnxOp(reshape, "Reshape") || reshape->inputs()[0] != transpose->outputs()[0]) {
    return std::nullopt;
  }
  std::vector<DimExpr> merged = q->leading;
  std::vector<DimExpr> split = merged;
  split.push_back(DimExpr::Constant(match.heads));
  split.push_back(DimExpr::Constant(match.head_size));
  merged.push_back(DimExpr::Constant(match.hidden));
  if (!ReshapeYields(shapes, *reshape, split, merged)) return std::nullopt;
  int unknown = 0;
  for (size_t i = 0; i < 3; ++i) {
    const auto size = merged[i].AsConstant();
    unknown += size ? 0 : 1;
    match.output_shape.push_back(size.value_or(-1));
  }
  if (unknown > 1) return std::nullopt;
  match.output_shape.push_back(match.hidden);
  match.output = reshape->outputs()[0];
  for (const Heads* part : parts) {
    match.nodes.insert(match.nodes.end(), part->nodes.begin(), part->nodes.end());
    // A Split takes all three.
    if (std::find(match.nodes.begin(), match.nodes.end(), part->range.source) ==
        match.nodes.end()) {
      match.nodes.push_back(part->range.source);
    }
  }
  match.nodes.insert(match.nodes.end(), {qk, &softmax, pv, transpose, reshape});
  return match;
}

std::string AddInts(Graph& graph, const std::string& prefix, std::vector<int64_t> values) {
  const std::string name = graph.UniqueValueName(prefix);
  const auto size = static_cast<int64_t>(values.size());
  graph.AddInitializer(name, Tensor::FromVector<int64_t>({size}, std::span(values)));
  return name;
}

class FuseEinsumAttentionRule final : public RewriteRule {
 public:
  FuseEinsumAttentionRule()
      : RewriteRule("fuse_einsum_attention", {"Softmax"}, "",
                    {{std::string(kMsDomain), "Attention"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    return MatchEinsumAttention(graph, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchEinsumAttention(graph, node);
    if (!found) return Status::OK();
    const EinsumAttention match = std::move(*found);
    const int64_t width = 3 * match.hidden;
    const std::string bias =
        FlatQkvBias(graph, match.bias, match.bias_constant, width, match.weights + "_bias");
    std::string attention_bias;
    if (!match.score_bias.empty()) {
      attention_bias = graph.UniqueValueName(node.name() + "_attention_bias");
      graph.AddInitializer(attention_bias,
                           Tensor::FromVector<float>({1, match.heads, match.tokens, match.tokens},
                                                     std::span<const float>(match.score_bias)));
    }
    const auto float_type = [](int64_t last, int64_t tokens) {
      return ValueType::Tensor(
          DataType::kFloat,
          SymbolicShape({Dimension{}, Dimension::Known(tokens), Dimension::Known(last)}));
    };
    const int64_t channels = StaticShapeOf(graph, match.weights)->dims()[0];
    const std::string grouped = graph.UniqueValueName(match.x + "_grouped");
    graph.AddNode({graph.UniqueNodeName(grouped),
                   "Reshape",
                   "",
                   {match.x, AddInts(graph, grouped + "_shape", {-1, match.tokens, channels})},
                   {grouped},
                   {}});
    graph.SetValueType(grouped, float_type(channels, match.tokens));

    const std::string attended = graph.UniqueValueName(match.output + "_grouped");
    NodeSpec spec;
    spec.op_type = "Attention";
    spec.domain = std::string(kMsDomain);
    spec.inputs = {grouped, match.weights, bias, "", "", attention_bias};
    if (attention_bias.empty()) spec.inputs.resize(3);
    spec.outputs = {attended};
    spec.attributes.push_back(Attribute::Int("num_heads", match.heads));
    AddScaleUnlessDefault(spec.attributes, match.scale, match.head_size);
    const ValueType* output_type = graph.FindTypeInScope(match.output);
    const ValueType kept_type = output_type != nullptr ? *output_type : ValueType{};
    const std::string old_bias = match.bias;
    ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    graph.SetValueType(attended, float_type(match.hidden, match.tokens));
    graph.AddNode({graph.UniqueNodeName(match.output),
                   "Reshape",
                   "",
                   {attended, AddInts(graph, match.output + "_shape", match.output_shape)},
                   {match.output},
                   {}});
    graph.SetValueType(match.output, kept_type);
    node_removed = true;
    if (!old_bias.empty() && bias != old_bias) RemoveInitializerIfUnused(graph, old_bias);
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseEinsumAttentionRule() {
  return std::make_unique<FuseEinsumAttentionRule>();
}

}  // namespace ort
