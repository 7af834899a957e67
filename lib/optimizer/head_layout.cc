#include "lib/optimizer/head_layout.h"

#include <algorithm>
#include <array>

#include "lib/optimizer/attention_heads.h"
#include "lib/optimizer/fusion_patterns.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

// Axes while a chain is followed: the projection's first two dimensions, the heads and the head
// size once a Reshape split the hidden axis, and the hidden axis before.
enum Axis : uint8_t { kFirst, kSecond, kHeads, kSize, kHidden };
using Layout = std::vector<std::vector<Axis>>;

// Chains exporters write are a few nodes long.
constexpr int kMaxChain = 8;

struct Space {
  std::array<DimExpr, 5> size;
  bool split = false;
};

std::optional<DimExpr> GroupSize(const Space& space, const std::vector<Axis>& group) {
  DimExpr product = DimExpr::Constant(1);
  for (Axis axis : group) {
    auto next = Mul(product, space.size[axis]);
    if (!next) return std::nullopt;
    product = std::move(*next);
  }
  return product;
}

// The layout Reshape(target) gives `layout`: each target element the product of a run of axes
// (0 copying the input's dimension, one -1 taking the axes the others leave). The first Reshape
// whose last element is a constant divisor h of the hidden size splits it into N = hidden / h
// heads of h.
std::optional<Layout> ApplyReshape(Space& space, const Layout& layout, std::vector<DimExpr> target,
                                   bool allow_zero) {
  std::vector<Axis> flat;
  for (const auto& group : layout) flat.insert(flat.end(), group.begin(), group.end());
  std::optional<size_t> inferred;
  for (size_t i = 0; i < target.size(); ++i) {
    const auto element = target[i].AsConstant();
    if (element == 0 && !allow_zero) {
      if (i >= layout.size()) return std::nullopt;
      auto copied = GroupSize(space, layout[i]);
      if (!copied) return std::nullopt;
      target[i] = std::move(*copied);
    } else if (element == -1) {
      if (inferred) return std::nullopt;
      inferred = i;
    } else if (element && *element < 0) {
      return std::nullopt;
    }
  }
  if (target.empty()) return std::nullopt;
  const auto hidden = std::find(flat.begin(), flat.end(), kHidden);
  const int64_t last = target.back().AsConstant().value_or(0);
  const int64_t hidden_size = space.size[kHidden].AsConstant().value_or(0);
  if (hidden != flat.end() && last > 0 && last < hidden_size && hidden_size % last == 0) {
    space.size[kHeads] = DimExpr::Constant(hidden_size / last);
    space.size[kSize] = DimExpr::Constant(last);
    space.split = true;
    *hidden = kHeads;
    flat.insert(hidden + 1, kSize);
  }
  // Runs from the front up to the -1, from the back after it; the -1 takes the rest.
  Layout result(target.size());
  size_t front = 0, back = flat.size();
  const auto take = [&](size_t i, bool forward) {
    DimExpr product = DimExpr::Constant(1);
    while (!(product == target[i])) {
      if (front == back) return false;
      const Axis axis = forward ? flat[front++] : flat[--back];
      auto next = Mul(product, space.size[axis]);
      if (!next) return false;
      product = std::move(*next);
      auto& group = result[i];
      group.insert(forward ? group.end() : group.begin(), axis);
    }
    return true;
  };
  const size_t forward_end = inferred ? *inferred : target.size();
  for (size_t i = 0; i < forward_end; ++i) {
    if (!take(i, true)) return std::nullopt;
  }
  if (inferred) {
    for (size_t i = target.size(); i-- > *inferred + 1;) {
      if (!take(i, false)) return std::nullopt;
    }
    result[*inferred].assign(flat.begin() + static_cast<ptrdiff_t>(front),
                             flat.begin() + static_cast<ptrdiff_t>(back));
    front = flat.size();
  }
  // Axes of size 1 left over join the last dimension.
  for (; front < flat.size(); ++front) {
    if (result.empty() || space.size[flat[front]].AsConstant() != 1) return std::nullopt;
    result.back().push_back(flat[front]);
  }
  return result;
}

std::optional<Layout> ApplyTranspose(const Layout& layout, const Node& transpose) {
  const Attribute* perm = transpose.FindAttribute("perm");
  std::vector<int64_t> order;
  if (perm != nullptr) {
    order = perm->ints;
  } else {
    for (size_t i = layout.size(); i-- > 0;) order.push_back(static_cast<int64_t>(i));
  }
  if (order.size() != layout.size()) return std::nullopt;
  Layout result;
  std::vector<bool> seen(layout.size(), false);
  for (int64_t axis : order) {
    if (axis < 0 || axis >= static_cast<int64_t>(layout.size()) || seen[axis]) return std::nullopt;
    seen[axis] = true;
    result.push_back(layout[static_cast<size_t>(axis)]);
  }
  return result;
}

// Applies a Reshape or Transpose node; nullopt for any other node or a step nothing proves.
std::optional<Layout> Apply(SymbolicShapes& shapes, Space& space, const Layout& layout,
                            const Node& node) {
  if (IsOnnxOp(&node, "Transpose")) return ApplyTranspose(layout, node);
  if (!IsOnnxOp(&node, "Reshape") || !node.HasInput(1)) return std::nullopt;
  const auto& values = shapes.Facts(node.inputs()[1]).values;
  if (!values) return std::nullopt;
  const Attribute* allowzero = node.FindAttribute("allowzero");
  return ApplyReshape(space, layout, *values, allowzero != nullptr && allowzero->i != 0);
}

// Axes of size 1 are where any grouping puts them: equal layouts up to them are the same
// elements in the same order.
Layout Normalized(const Space& space, const Layout& layout) {
  Layout result;
  for (const auto& group : layout) {
    std::vector<Axis> kept;
    for (Axis axis : group) {
      if (space.size[axis].AsConstant() != 1) kept.push_back(axis);
    }
    if (!kept.empty()) result.push_back(std::move(kept));
  }
  return result;
}

bool Same(const Space& space, const Layout& layout, const Layout& expected) {
  return layout.size() == expected.size() &&
         Normalized(space, layout) == Normalized(space, expected);
}

// The heads in `form` over batch axis `b` and sequence axis `s`, of rank 4 or 3.
Layout HeadsLayout(HeadForm form, Axis b, Axis s, size_t rank) {
  const std::vector<Axis> last =
      form == HeadForm::kHeads ? std::vector<Axis>{s, kSize} : std::vector<Axis>{kSize, s};
  Layout layout = rank == 4 ? Layout{{b}, {kHeads}} : Layout{{b, kHeads}};
  for (Axis axis : last) layout.push_back({axis});
  return layout;
}

// The space of a rank-3 projection with a constant last dimension.
std::optional<Space> ProjectionSpace(SymbolicShapes& shapes, const std::string& projected) {
  const auto& shape = shapes.Facts(projected).shape;
  if (!shape || shape->size() != 3) return std::nullopt;
  const auto hidden = (*shape)[2].AsConstant();
  if (!hidden || *hidden <= 0) return std::nullopt;
  Space space;
  space.size[kFirst] = (*shape)[0];
  space.size[kSecond] = (*shape)[1];
  space.size[kHidden] = (*shape)[2];
  return space;
}

}  // namespace

std::optional<HeadChain> MatchHeadChain(const Graph& graph, const std::string& value,
                                        HeadForm form) {
  HeadChain chain;
  std::string current = value;
  bool reshaped = false;
  for (int i = 0; i < kMaxChain; ++i) {
    const Node* reader = OnlyConsumer(graph, current);
    // A value read elsewhere too (a Shape of nn.MultiheadAttention's key slice) ends the chain:
    // it can only be the projection.
    if (reader == nullptr && i == 0) return std::nullopt;
    if (reader == nullptr) break;
    std::string input;
    const Node* step = MatchScalarFactor(graph, current, {reader}, chain.scale, input);
    if (step == nullptr) {
      step = IntermediateProducer(graph, current, "Transpose");
      if (step == nullptr && (step = IntermediateProducer(graph, current, "Reshape"))) {
        reshaped = true;
      }
      if (step == nullptr) break;
      input = step->inputs()[0];
    }
    chain.nodes.push_back(step);
    current = input;
  }
  if (!reshaped) return std::nullopt;
  chain.projected = current;
  SymbolicShapes shapes(graph);
  auto space = ProjectionSpace(shapes, current);
  if (!space) return std::nullopt;
  Layout layout{{kFirst}, {kSecond}, {kHidden}};
  for (auto it = chain.nodes.rbegin(); it != chain.nodes.rend(); ++it) {
    if (!IsOnnxOp(*it, "Transpose") && !IsOnnxOp(*it, "Reshape")) continue;  // a factor
    auto next = Apply(shapes, *space, layout, **it);
    if (!next) return std::nullopt;
    layout = std::move(*next);
  }
  if (!space->split) return std::nullopt;
  for (const bool sequence_first : {false, true}) {
    const Axis b = sequence_first ? kSecond : kFirst, s = sequence_first ? kFirst : kSecond;
    for (const size_t rank : {size_t{4}, size_t{3}}) {
      if (!Same(*space, layout, HeadsLayout(form, b, s, rank))) continue;
      chain.sequence_first = sequence_first;
      chain.rank = rank;
      chain.heads = *space->size[kHeads].AsConstant();
      chain.head_size = *space->size[kSize].AsConstant();
      if (!PlausibleHeads(chain.heads, chain.head_size)) return std::nullopt;
      return chain;
    }
  }
  return std::nullopt;
}

std::optional<MergeChain> MatchMergeChain(const Graph& graph, const Node& pv,
                                          const HeadChain& query) {
  SymbolicShapes shapes(graph);
  auto space = ProjectionSpace(shapes, query.projected);
  if (!space) return std::nullopt;
  space->size[kHeads] = DimExpr::Constant(query.heads);
  space->size[kSize] = DimExpr::Constant(query.head_size);
  space->split = true;
  const Axis b = query.sequence_first ? kSecond : kFirst;
  const Axis s = query.sequence_first ? kFirst : kSecond;
  Layout layout = HeadsLayout(HeadForm::kHeads, b, s, query.rank);
  MergeChain merge;
  std::string current = pv.outputs()[0];
  for (int i = 0; i < kMaxChain; ++i) {
    const Node* step = OnlyConsumer(graph, current);
    if (step == nullptr || step->inputs()[0] != current) break;
    auto next = Apply(shapes, *space, layout, *step);
    if (!next) break;
    layout = std::move(*next);
    merge.nodes.push_back(step);
    current = step->outputs()[0];
    for (const bool sequence_first : {false, true}) {
      const Layout merged =
          sequence_first ? Layout{{s}, {b}, {kHeads, kSize}} : Layout{{b}, {s}, {kHeads, kSize}};
      if (Same(*space, layout, merged)) {
        merge.output = current;
        merge.sequence_first = sequence_first;
        return merge;
      }
    }
  }
  // A final Reshape grouping the merged axes otherwise ([S*B, N*h]) reads them alike from
  // [B,S,N*h] or [S,B,N*h] when its target copies nothing from its input.
  if (merge.nodes.empty() || !IsOnnxOp(merge.nodes.back(), "Reshape")) return std::nullopt;
  const Node* reshape = merge.nodes.back();
  const Attribute* allowzero = reshape->FindAttribute("allowzero");
  const auto& target = shapes.Facts(reshape->inputs()[1]).values;
  if (!target) return std::nullopt;
  for (const DimExpr& element : *target) {
    const auto constant = element.AsConstant();
    if (!(constant ? *constant != 0 : element.IsPositive()) &&
        (allowzero == nullptr || allowzero->i == 0)) {
      return std::nullopt;
    }
  }
  Layout flat(1);
  for (const auto& group : Normalized(*space, layout)) {
    flat[0].insert(flat[0].end(), group.begin(), group.end());
  }
  for (const bool sequence_first : {false, true}) {
    const Layout order =
        sequence_first ? Layout{{s, b, kHeads, kSize}} : Layout{{b, s, kHeads, kSize}};
    if (flat == Normalized(*space, order)) {
      merge.nodes.pop_back();
      merge.regrouped = reshape;
      merge.output = reshape->outputs()[0];
      merge.sequence_first = sequence_first;
      return merge;
    }
  }
  return std::nullopt;
}

}  // namespace ort
