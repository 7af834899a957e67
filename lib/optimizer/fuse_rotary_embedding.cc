// Rule fuse_rotary_embedding: x * cos + rotate_half(x) * sin (rotate_half(x) = Concat(-x2, x1)
// of x's halves), with cos/sin rows of constant tables gathered at the tokens' positions, becomes
// com.microsoft RotaryEmbedding with [M, h/2] caches; heads split as Transpose(Reshape(P)) are
// rotated as the [B,S,N*h] projection P, so that the attention fusions still see the split.
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "lib/optimizer/attention_patterns.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// The value `value` holds at run time as a rank-0/1 int expression, when known.
std::optional<DimExpr> ScalarFact(SymbolicShapes& shapes, const std::string& value) {
  const TensorFacts& facts = shapes.Facts(value);
  if (!facts.values || facts.values->size() != 1) return std::nullopt;
  return facts.values->front();
}

std::optional<std::vector<DimExpr>> ShapeFact(SymbolicShapes& shapes, const std::string& value) {
  return shapes.Facts(value).shape;
}

// rotate_half(x): Concat(Neg(x[..., h/2:]), x[..., :h/2]) on the last axis of the 4-D x.
struct RotateHalf {
  std::string x;
  std::vector<const Node*> nodes;  // the Concat, the Neg, the Slices
};

bool IsHalfSlice(const Graph& graph, const Node& slice, int64_t begin, int64_t half) {
  if (slice.inputs().size() < 4) return false;
  const auto starts = ConstantInts(graph, slice, 1), ends = ConstantInts(graph, slice, 2);
  const auto axes = ConstantInts(graph, slice, 3);
  const auto steps = slice.HasInput(4) ? ConstantInts(graph, slice, 4) : std::vector<int64_t>{1};
  if (!starts || !ends || !axes || !steps || starts->size() != 1 || ends->size() != 1 ||
      axes->size() != 1 || ((*axes)[0] != -1 && (*axes)[0] != 3) ||
      *steps != std::vector<int64_t>{1}) {
    return false;
  }
  // The second half runs to the end: any end past it (INT64_MAX as exporters write it).
  return (*starts)[0] == begin && (begin == 0 ? (*ends)[0] == half : (*ends)[0] >= 2 * half);
}

// rotate_half(value) of h = 2 * half channels, `half` read off the first half's Slice (x's last
// dimension is checked against it later).
std::optional<RotateHalf> MatchRotateHalf(const Graph& graph, const std::string& value,
                                          int64_t& half) {
  const Node* concat = IntermediateProducer(graph, value, "Concat");
  if (concat == nullptr || concat->inputs().size() != 2) return std::nullopt;
  const Attribute* axis = concat->FindAttribute("axis");
  if (axis == nullptr || (axis->i != -1 && axis->i != 3)) return std::nullopt;
  const Node* neg = IntermediateProducer(graph, concat->inputs()[0], "Neg");
  if (neg == nullptr) return std::nullopt;
  const Node* second = IntermediateProducer(graph, neg->inputs()[0], "Slice");
  const Node* first = IntermediateProducer(graph, concat->inputs()[1], "Slice");
  if (first == nullptr || second == nullptr || first->inputs()[0] != second->inputs()[0]) {
    return std::nullopt;
  }
  const auto ends = ConstantInts(graph, *first, 2);
  if (!ends || ends->size() != 1 || (*ends)[0] <= 0 || (*ends)[0] > (INT64_MAX >> 2)) {
    return std::nullopt;
  }
  half = (*ends)[0];
  if (!IsHalfSlice(graph, *first, 0, half) || !IsHalfSlice(graph, *second, half, half)) {
    return std::nullopt;
  }
  return RotateHalf{first->inputs()[0], {concat, neg, first, second}};
}

// cos or sin of every token: Gather(table, positions) (unsqueezed to [., 1, S, h] when the
// positions are 2-D), the table a constant [1,..,1,M,h] narrowed to [M,h] by Gathers of index 0
// or Squeezes of its leading axes, and by Slices [0, end) of its rows. The fused node reads all
// M rows: a row a Slice cut off is one the unfused Gather refuses, so the rows it reads are the
// same, and only a position the unfused graph fails on (or wraps, when negative, where the
// kernel refuses it) reads past `end`.
struct GatheredTable {
  const Tensor* table = nullptr;
  std::string table_name;
  std::string positions;
  std::vector<const Node*> nodes;  // from the Unsqueeze to the table, removed once unused
};

// The axes of a Squeeze (attribute before opset 13, constant input from 13), non-negative for
// an input of `rank`; nullopt when not constant or not given.
std::optional<std::vector<int64_t>> SqueezeAxes(const Graph& graph, const Node& squeeze,
                                                int64_t rank) {
  std::optional<std::vector<int64_t>> axes;
  if (const Attribute* attribute = squeeze.FindAttribute("axes")) {
    axes = attribute->ints;
  } else {
    axes = ConstantInts(graph, squeeze, 1);
  }
  if (!axes || axes->empty()) return std::nullopt;
  for (int64_t& axis : *axes) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    if (axis < 0) axis += rank;
  }
  return axes;
}

std::optional<GatheredTable> MatchGatheredTable(const Graph& graph, const std::string& value) {
  GatheredTable found;
  std::string current = value;
  const Node* unsqueeze = graph.Producer(current);
  bool unsqueezed = false;
  if (IsOnnxOp(unsqueeze, "Unsqueeze")) {
    if (UnsqueezeAxes(graph, *unsqueeze) != std::vector<int64_t>{1}) return std::nullopt;
    found.nodes.push_back(unsqueeze);
    current = unsqueeze->inputs()[0];
    unsqueezed = true;
  }
  const Node* lookup = graph.Producer(current);
  if (!IsOnnxOp(lookup, "Gather") || lookup->inputs().size() != 2) return std::nullopt;
  const Attribute* lookup_axis = lookup->FindAttribute("axis");
  if (lookup_axis != nullptr && lookup_axis->i != 0) return std::nullopt;
  found.nodes.push_back(lookup);
  found.positions = lookup->inputs()[1];
  const auto positions_rank = RankOf(graph, found.positions);
  if (!positions_rank || *positions_rank != (unsqueezed ? 2u : 1u)) return std::nullopt;
  current = lookup->inputs()[0];
  // Walk to the constant; `rank` is the rank of `current` counted from the table's [M,h] end.
  int64_t leading = 0;
  while (true) {
    if (const Tensor* table = graph.GetConstantInitializer(current, true)) {
      if (table->dtype() != DataType::kFloat ||
          static_cast<int64_t>(table->shape().rank()) != 2 + leading) {
        return std::nullopt;
      }
      found.table = table;
      found.table_name = current;
      break;
    }
    const Node* step = graph.Producer(current);
    if (IsOnnxOp(step, "Gather") && step->inputs().size() == 2) {
      const Attribute* axis = step->FindAttribute("axis");
      const Tensor* index = graph.GetConstantInitializer(step->inputs()[1], true);
      if ((axis != nullptr && axis->i != 0) || index == nullptr || index->shape().rank() != 0 ||
          ConstantInts(graph, *step, 1) != std::vector<int64_t>{0}) {
        return std::nullopt;
      }
      ++leading;
    } else if (IsOnnxOp(step, "Squeeze")) {
      const auto rank = RankOf(graph, step->inputs()[0]);
      const auto axes =
          rank ? SqueezeAxes(graph, *step, static_cast<int64_t>(*rank)) : std::nullopt;
      if (!axes ||
          static_cast<int64_t>(*rank) != 2 + leading + static_cast<int64_t>(axes->size())) {
        return std::nullopt;
      }
      for (const int64_t axis : *axes) {
        if (axis >= static_cast<int64_t>(*rank) - 2) return std::nullopt;
      }
      leading += static_cast<int64_t>(axes->size());
    } else if (IsOnnxOp(step, "Slice") && step->inputs().size() >= 4) {
      const auto starts = ConstantInts(graph, *step, 1), axes = ConstantInts(graph, *step, 3);
      const auto steps =
          step->HasInput(4) ? ConstantInts(graph, *step, 4) : std::vector<int64_t>{1};
      const auto rank = RankOf(graph, step->inputs()[0]);
      if (!starts || !axes || !steps || !rank || *starts != std::vector<int64_t>{0} ||
          *steps != std::vector<int64_t>{1} || axes->size() != 1 ||
          ((*axes)[0] != -2 && (*axes)[0] != static_cast<int64_t>(*rank) - 2) ||
          static_cast<int64_t>(*rank) != 2 + leading) {
        return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    found.nodes.push_back(step);
    current = step->inputs()[0];
  }
  return found;
}

// The [M, h/2] half of a table whose rows repeat their first half (cat(freqs, freqs) as every
// rotate_half model builds it); nullopt when they do not, since the kernel reads one half only.
std::optional<Tensor> HalfTable(const Tensor& table, int64_t head_size) {
  const auto& dims = table.shape().dims();
  if (dims.back() != head_size) return std::nullopt;
  const int64_t rows = dims[dims.size() - 2], half = head_size / 2;
  const float* data = table.Data<float>();
  std::vector<float> result(static_cast<size_t>(rows * half));
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = data + r * head_size;
    if (std::memcmp(row, row + half, sizeof(float) * static_cast<size_t>(half)) != 0) {
      return std::nullopt;
    }
    std::memcpy(result.data() + r * half, row, sizeof(float) * static_cast<size_t>(half));
  }
  return Tensor::FromVector<float>(TensorShape({rows, half}), std::span<const float>(result));
}

struct RotaryMatch {
  RotateHalf rotate;
  GatheredTable cos, sin;
  std::string position_ids;
  int64_t heads = 0, head_size = 0;
  std::vector<const Node*> nodes;  // Add, the two Muls, rotate_half
  // The 3-D form: the Reshape to [B,S,N,h] and the Transpose that split `projected` into x.
  const Node* reshape = nullptr;
  const Node* transpose = nullptr;
};

// The position_ids input that gives token s of sample b the row positions[b, s] (or
// positions[s]): positions themselves when [B,S], or the start of a Range(start, start + S, 1).
std::optional<std::string> PositionIds(const Graph& graph, SymbolicShapes& shapes,
                                       const GatheredTable& table,
                                       const std::vector<DimExpr>& x_shape) {
  const auto positions = ShapeFact(shapes, table.positions);
  if (!positions || positions->back() != x_shape[2] ||
      ElementTypeOf(graph, table.positions) != DataType::kInt64) {
    return std::nullopt;
  }
  const Node* range = graph.Producer(table.positions);
  if (IsOnnxOp(range, "Unsqueeze") && UnsqueezeAxes(graph, *range) == std::vector<int64_t>{0}) {
    range = graph.Producer(range->inputs()[0]);
  }
  std::optional<std::string> ids;
  if (IsOnnxOp(range, "Range") && range->inputs().size() == 3 &&
      ConstantInts(graph, *range, 2) == std::vector<int64_t>{1} &&
      RankOf(graph, range->inputs()[0]) == 0u &&
      ElementTypeOf(graph, range->inputs()[0]) == DataType::kInt64) {
    // A negative start would wrap around in Gather but is no row for the kernel.
    const auto start = ScalarFact(shapes, range->inputs()[0]);
    if (start && start->IsNonNegative()) ids = range->inputs()[0];
  }
  if (!ids && positions->size() == 2 && (*positions)[0] == x_shape[0]) ids = table.positions;
  return ids;
}

std::optional<RotaryMatch> MatchRotary(const Graph& graph, const Node& add) {
  if (add.inputs().size() != 2 || !IsFloatValue(graph, add.outputs()[0])) return std::nullopt;
  for (int order = 0; order < 2; ++order) {
    const Node* plain = IntermediateProducer(graph, add.inputs()[order], "Mul");
    const Node* rotated = IntermediateProducer(graph, add.inputs()[1 - order], "Mul");
    if (plain == nullptr || rotated == nullptr || plain->inputs().size() != 2 ||
        rotated->inputs().size() != 2) {
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const std::string& half_input = rotated->inputs()[side];
      const Node* concat = graph.Producer(half_input);
      if (!IsOnnxOp(concat, "Concat")) continue;
      int64_t half = 0;
      auto rotate = MatchRotateHalf(graph, half_input, half);
      if (!rotate) continue;
      const int64_t head_size = 2 * half;
      const std::string cos = OtherInput(*plain, rotate->x);
      if (cos.empty()) continue;
      auto cos_table = MatchGatheredTable(graph, cos);
      auto sin_table = MatchGatheredTable(graph, rotated->inputs()[1 - side]);
      if (!cos_table || !sin_table || cos_table->positions != sin_table->positions) continue;

      SymbolicShapes shapes(graph);
      const auto x_shape = ShapeFact(shapes, rotate->x);
      if (!x_shape || x_shape->size() != 4 || !(*x_shape)[1].AsConstant() ||
          (*x_shape)[3].AsConstant() != head_size) {
        continue;
      }
      // The Add must not broadcast x (cos/sin are [.,1,S,h] or [S,h], checked with positions).
      if (ShapeFact(shapes, add.outputs()[0]) != x_shape) continue;
      auto ids = PositionIds(graph, shapes, *cos_table, *x_shape);
      if (!ids || PositionIds(graph, shapes, *sin_table, *x_shape) != ids) continue;

      RotaryMatch match;
      match.heads = *(*x_shape)[1].AsConstant();
      match.head_size = head_size;
      match.position_ids = *ids;
      match.nodes = {&add, plain, rotated};
      match.nodes.insert(match.nodes.end(), rotate->nodes.begin(), rotate->nodes.end());
      // The 3-D form when x = Transpose(0,2,1,3)(Reshape(P)) with P [B,S,N*h] and x read by
      // nothing but this pattern (and Shape).
      const Node* transpose = graph.Producer(rotate->x);
      if (IsOnnxOp(transpose, "Transpose") && HasPerm(*transpose, {0, 2, 1, 3}) &&
          !graph.IsGraphOutput(rotate->x)) {
        const Node* reshape = IntermediateProducer(graph, transpose->inputs()[0], "Reshape");
        const auto split = reshape ? ShapeFact(shapes, reshape->outputs()[0]) : std::nullopt;
        const auto projected = reshape ? ShapeFact(shapes, reshape->inputs()[0]) : std::nullopt;
        if (split && projected && projected->size() == 3 && split->size() == 4 &&
            (*split)[0] == (*projected)[0] && (*split)[1] == (*projected)[1] &&
            (*projected)[2].AsConstant() == match.heads * match.head_size) {
          match.reshape = reshape;
          match.transpose = transpose;
        }
      }
      match.rotate = std::move(*rotate);
      match.cos = std::move(*cos_table);
      match.sin = std::move(*sin_table);
      return match;
    }
  }
  return std::nullopt;
}

// The half cache of `table` as an initializer, shared by every layer reading the same table.
std::optional<std::string> AddHalfCache(Graph& graph, const GatheredTable& table,
                                        int64_t head_size) {
  const std::string name = table.table_name + "_rotary_half";
  if (const Tensor* existing = graph.GetConstantInitializer(name, false)) {
    const auto expected = HalfTable(*table.table, head_size);
    if (expected && existing->shape() == expected->shape() &&
        std::memcmp(existing->Data<float>(), expected->Data<float>(),
                    sizeof(float) * static_cast<size_t>(expected->shape().NumElements())) == 0) {
      return name;
    }
  }
  auto half = HalfTable(*table.table, head_size);
  if (!half) return std::nullopt;
  const std::string unique = graph.DefinesValue(name) ? graph.UniqueValueName(name) : name;
  graph.AddInitializer(unique, std::move(*half));
  return unique;
}

class FuseRotaryEmbeddingRule final : public RewriteRule {
 public:
  FuseRotaryEmbeddingRule()
      : RewriteRule("fuse_rotary_embedding", {"Add"}, "",
                    {{std::string(kMsDomain), "RotaryEmbedding"}}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    auto match = MatchRotary(graph, node);
    return match && HalfTable(*match->cos.table, match->head_size) &&
           HalfTable(*match->sin.table, match->head_size);
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    auto found = MatchRotary(graph, node);
    if (!found) return Status::OK();
    RotaryMatch match = std::move(*found);
    const auto cos = AddHalfCache(graph, match.cos, match.head_size);
    const auto sin = AddHalfCache(graph, match.sin, match.head_size);
    if (!cos || !sin) return Status::OK();
    const std::string output = node.outputs()[0];
    NodeSpec spec;
    spec.op_type = "RotaryEmbedding";
    spec.domain = std::string(kMsDomain);
    spec.attributes.push_back(Attribute::Int("num_heads", match.heads));
    if (match.reshape == nullptr) {
      spec.inputs = {match.rotate.x, match.position_ids, *cos, *sin};
      spec.outputs = {output};
      ReplaceByFusedNode(graph, match.nodes, std::move(spec));
    } else {
      // Rotate the projection, then split it into heads again under the pattern's output name.
      const std::string rotated = graph.UniqueValueName(match.reshape->inputs()[0] + "_rotary");
      const std::string split = graph.UniqueValueName(match.reshape->outputs()[0] + "_rotary");
      spec.inputs = {match.reshape->inputs()[0], match.position_ids, *cos, *sin};
      spec.outputs = {rotated};
      NodeSpec reshape{graph.UniqueNodeName(match.reshape->name()),
                       "Reshape",
                       "",
                       match.reshape->inputs(),
                       {split},
                       {}};
      reshape.inputs[0] = rotated;
      for (const auto& [name, attribute] : match.reshape->attributes()) {
        reshape.attributes.push_back(CopyPlainAttribute(attribute, name));
      }
      NodeSpec transpose{
          graph.UniqueNodeName(match.transpose->name()), "Transpose", "", {split}, {output}, {}};
      transpose.attributes.push_back(Attribute::Ints("perm", {0, 2, 1, 3}));
      ReplaceByFusedNode(graph, match.nodes, std::move(spec));
      graph.AddNode(std::move(reshape));
      graph.AddNode(std::move(transpose));
      RemoveIfUnused(graph, *match.transpose);
      RemoveIfUnused(graph, *match.reshape);
    }
    node_removed = true;
    for (const GatheredTable* table : {&match.cos, &match.sin}) {
      for (const Node* n : table->nodes) RemoveIfUnused(graph, *n);
      RemoveInitializerIfUnused(graph, table->table_name);
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFuseRotaryEmbeddingRule() {
  return std::make_unique<FuseRotaryEmbeddingRule>();
}

}  // namespace ort
