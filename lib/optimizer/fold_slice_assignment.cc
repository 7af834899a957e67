// Rule fold_slice_assignment: torch's in-place `x[..., a:, b:] += y` (MViT v2's relative-position
// bias on the attention scores, its residual pooling), exported as ScatterND over an index grid
// (a Range or constant per axis, Expanded and Concatenated), becomes Add(x, Pad(y)):
//   ScatterND(x, grid of the box [a_k, d_k) on every axis k, Slice(x, that box) + y)
// with y of the box's shape; a ScatterND writing the same values again into that Add's output
// goes. Symbolic shapes prove the grid, the box and y. The box keeps its exact values (x + y
// either way) and the rest adds 0, so the scores become a product plus a bias that
// fuse_head_major_attention can take.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "lib/optimizer/fusion_patterns.h"
#include "lib/optimizer/passes.h"
#include "lib/optimizer/pattern_utils.h"
#include "lib/shape/symbolic_shapes.h"

namespace ort {
namespace {

using Dims = std::vector<DimExpr>;

// `value` past Reshapes and Expands that keep its shape (torch's view and expand_as around the
// update).
std::string SkipSameShape(const Graph& graph, SymbolicShapes& shapes, std::string value) {
  for (;;) {
    const Node* node = graph.Producer(value);
    if ((!IsOnnxOp(node, "Reshape") && !IsOnnxOp(node, "Expand")) || !node->HasInput(0)) {
      return value;
    }
    const auto& in = shapes.Facts(node->inputs()[0]).shape;
    const auto& out = shapes.Facts(value).shape;
    if (!in || !out || *in != *out) return value;
    value = node->inputs()[0];
  }
}

// The first element of the arithmetic progression (step 1) that `source` holds along `axis` of
// `box`, when its shape (right-aligned) is the box's on that axis and 1 on every other: a
// constant, or a Range of constant start and step 1, reshaped. (Broadcast along the axis, it
// would repeat one index.)
std::optional<int64_t> ProgressionStart(const Graph& graph, SymbolicShapes& shapes,
                                        const std::string& source, size_t axis, const Dims& box) {
  const size_t rank = box.size();
  const auto& shape = shapes.Facts(source).shape;
  if (!shape || shape->size() > rank || rank - shape->size() > axis) return std::nullopt;
  const size_t offset = rank - shape->size();
  for (size_t k = 0; k < shape->size(); ++k) {
    if (k + offset == axis ? (*shape)[k] != box[axis] : (*shape)[k].AsConstant() != 1) {
      return std::nullopt;
    }
  }
  if (const Tensor* constant = graph.GetConstantInitializer(source, true)) {
    auto values = ReadInt64Values(*constant);
    if (!values.ok() || values->empty()) return std::nullopt;
    for (size_t i = 1; i < values->size(); ++i) {
      if ((*values)[i] != (*values)[0] + static_cast<int64_t>(i)) return std::nullopt;
    }
    return (*values)[0];
  }
  const Node* reshape = graph.Producer(source);
  const Node* range = IsOnnxOp(reshape, "Reshape") && reshape->HasInput(0)
                          ? graph.Producer(reshape->inputs()[0])
                          : nullptr;
  if (!IsOnnxOp(range, "Range") || range->inputs().size() != 3) return std::nullopt;
  const auto start = ConstantInts(graph, *range, 0), step = ConstantInts(graph, *range, 2);
  if (!start || !step || start->size() != 1 || *step != std::vector<int64_t>{1}) {
    return std::nullopt;
  }
  return (*start)[0];
}

// The box's first index on each axis when `indices` is the grid of every index of a box of shape
// `box` (Concat on the last axis of one Unsqueezed, Expanded progression per axis).
std::optional<std::vector<int64_t>> GridStarts(const Graph& graph, SymbolicShapes& shapes,
                                               const std::string& indices, const Dims& box) {
  const size_t rank = box.size();
  const Node* concat = graph.Producer(indices);
  const Attribute* axis = IsOnnxOp(concat, "Concat") ? concat->FindAttribute("axis") : nullptr;
  if (axis == nullptr || (axis->i != -1 && axis->i != static_cast<int64_t>(rank)) ||
      concat->inputs().size() != rank) {
    return std::nullopt;
  }
  std::vector<int64_t> starts;
  for (size_t k = 0; k < rank; ++k) {
    const Node* unsqueeze = graph.Producer(concat->inputs()[k]);
    if (!IsOnnxOp(unsqueeze, "Unsqueeze") || !unsqueeze->HasInput(0)) return std::nullopt;
    const auto axes = unsqueeze->FindAttribute("axes") != nullptr
                          ? std::optional(unsqueeze->FindAttribute("axes")->ints)
                          : ConstantInts(graph, *unsqueeze, 1);
    if (!axes || axes->size() != 1 ||
        ((*axes)[0] != -1 && (*axes)[0] != static_cast<int64_t>(rank))) {
      return std::nullopt;
    }
    const Node* expand = graph.Producer(unsqueeze->inputs()[0]);
    if (!IsOnnxOp(expand, "Expand") || !expand->HasInput(0) ||
        shapes.Facts(expand->outputs()[0]).shape != box) {
      return std::nullopt;
    }
    const auto start = ProgressionStart(graph, shapes, expand->inputs()[0], k, box);
    if (!start || *start < 0) return std::nullopt;
    starts.push_back(*start);
  }
  return starts;
}

// The first index on each axis of the box that Slices (constant bounds, step 1, each to the end
// of its axis) take out of `data` to make `value`; nullopt unless `value` is such a chain.
std::optional<std::vector<int64_t>> SliceStarts(const Graph& graph, SymbolicShapes& shapes,
                                                std::string value, const std::string& data) {
  const auto& data_shape = shapes.Facts(data).shape;
  if (!data_shape) return std::nullopt;
  const size_t rank = data_shape->size();
  std::vector<int64_t> starts(rank, 0);
  while (value != data) {
    const Node* slice = graph.Producer(value);
    if (!IsOnnxOp(slice, "Slice") || slice->inputs().size() < 3) return std::nullopt;
    const auto begin = ConstantInts(graph, *slice, 1), end = ConstantInts(graph, *slice, 2);
    const auto axes = slice->HasInput(3) ? ConstantInts(graph, *slice, 3) : std::nullopt;
    const auto steps = slice->HasInput(4) ? ConstantInts(graph, *slice, 4) : std::nullopt;
    if (!begin || !end || begin->size() != end->size() || (slice->HasInput(3) && !axes) ||
        (slice->HasInput(4) &&
         (!steps || std::any_of(steps->begin(), steps->end(), [](int64_t s) { return s != 1; })))) {
      return std::nullopt;
    }
    const auto& input_shape = shapes.Facts(slice->inputs()[0]).shape;
    if (!input_shape || input_shape->size() != rank) return std::nullopt;
    for (size_t i = 0; i < begin->size(); ++i) {
      int64_t axis = axes ? (*axes)[i] : static_cast<int64_t>(i);
      if (axis < 0) axis += static_cast<int64_t>(rank);
      if (axis < 0 || axis >= static_cast<int64_t>(rank) || (*begin)[i] < 0) return std::nullopt;
      // To the end of the axis: past any size, or at least its known size.
      const auto size = (*input_shape)[static_cast<size_t>(axis)].AsConstant();
      if ((*end)[i] < std::numeric_limits<int32_t>::max() && !(size && (*end)[i] >= *size)) {
        return std::nullopt;
      }
      starts[static_cast<size_t>(axis)] += (*begin)[i];
    }
    value = slice->inputs()[0];
  }
  return starts;
}

struct SliceAssignment {
  std::string data;    // x
  std::string addend;  // y, of the box's shape
  std::vector<int64_t> starts;
};

// ScatterND(x, grid, Slice(source) + y) with the grid and the Slices on the same box, which runs
// to the end of every axis of x; `source` is x itself unless given.
std::optional<SliceAssignment> MatchAssignment(const Graph& graph, SymbolicShapes& shapes,
                                               const Node& scatter, std::string source = {}) {
  if (scatter.inputs().size() != 3 || !scatter.HasInput(0) || !scatter.HasOutput(0)) {
    return std::nullopt;
  }
  if (source.empty()) source = scatter.inputs()[0];
  const Attribute* reduction = scatter.FindAttribute("reduction");
  if (reduction != nullptr && reduction->s != "none") return std::nullopt;
  const auto& data_shape = shapes.Facts(scatter.inputs()[0]).shape;
  const auto& box = shapes.Facts(scatter.inputs()[2]).shape;
  if (!data_shape || !box || box->size() != data_shape->size() ||
      shapes.Facts(source).shape != data_shape) {
    return std::nullopt;
  }
  const auto starts = GridStarts(graph, shapes, scatter.inputs()[1], *box);
  if (!starts) return std::nullopt;
  for (size_t k = 0; k < box->size(); ++k) {
    if (Sub((*data_shape)[k], DimExpr::Constant((*starts)[k])) != (*box)[k]) return std::nullopt;
  }
  const std::string update = SkipSameShape(graph, shapes, scatter.inputs()[2]);
  const Node* add = graph.Producer(update);
  if (!IsOnnxOp(add, "Add") || add->inputs().size() != 2) return std::nullopt;
  for (size_t side = 0; side < 2; ++side) {
    const std::string& addend = add->inputs()[1 - side];
    if (SliceStarts(graph, shapes, add->inputs()[side], source) == starts &&
        shapes.Facts(addend).shape == box) {
      return SliceAssignment{scatter.inputs()[0], addend, *starts};
    }
  }
  return std::nullopt;
}

// The pads of Pad(y) before the box: its starts, then zeros after it.
std::vector<int64_t> BoxPads(const std::vector<int64_t>& starts) {
  std::vector<int64_t> pads = starts;
  pads.resize(2 * starts.size(), 0);
  return pads;
}

// True when `scatter` writes again into the Add this rule made of an earlier one, Add(x, Pad(y)),
// what that one wrote: Slice(x) + y on the same box.
bool RepeatsAssignment(const Graph& graph, SymbolicShapes& shapes, const Node& scatter) {
  if (!scatter.HasInput(0)) return false;
  const Node* add = graph.Producer(scatter.inputs()[0]);
  if (!IsOnnxOp(add, "Add") || add->inputs().size() != 2) return false;
  const Node* pad = graph.Producer(add->inputs()[1]);
  if (!IsOnnxOp(pad, "Pad") || pad->inputs().size() != 2) return false;
  const auto assignment = MatchAssignment(graph, shapes, scatter, add->inputs()[0]);
  return assignment && assignment->addend == pad->inputs()[0] &&
         ConstantInts(graph, *pad, 1) == BoxPads(assignment->starts);
}

// Whether `scatter` has the structure either form needs: its update an Add past Reshapes and
// Expands, or its data an Add of a Pad. Checked before symbolic shapes are built for the graph,
// which costs the whole graph per ScatterND (Swin's window masks have dozens).
bool MayMatch(const Graph& graph, const Node& scatter) {
  if (scatter.inputs().size() != 3 || !scatter.HasInput(0) || !scatter.HasInput(2)) return false;
  const Node* data = graph.Producer(scatter.inputs()[0]);
  if (IsOnnxOp(data, "Add") && data->inputs().size() == 2 &&
      IsOnnxOp(graph.Producer(data->inputs()[1]), "Pad")) {
    return true;
  }
  const Node* update = graph.Producer(scatter.inputs()[2]);
  while ((IsOnnxOp(update, "Reshape") || IsOnnxOp(update, "Expand")) && update->HasInput(0)) {
    update = graph.Producer(update->inputs()[0]);
  }
  return IsOnnxOp(update, "Add");
}

class FoldSliceAssignment final : public RewriteRule {
 public:
  FoldSliceAssignment() : RewriteRule("fold_slice_assignment", {"ScatterND"}) {}

  bool Matches(const Graph& graph, const Node& node) const override {
    if (graph.OpsetVersion("") < 11 || !MayMatch(graph, node)) return false;
    SymbolicShapes shapes(graph);
    return RepeatsAssignment(graph, shapes, node) ||
           MatchAssignment(graph, shapes, node).has_value();
  }

  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    SymbolicShapes shapes(graph);
    if (RepeatsAssignment(graph, shapes, node)) {
      const std::string output = node.outputs()[0], data = node.inputs()[0];
      graph.RemoveNode(node.index());
      if (graph.IsGraphOutput(output)) {
        // A graph output keeps its name.
        graph.AddNode({graph.UniqueNodeName(fmt::format("{}_identity", output)),
                       "Identity",
                       "",
                       {data},
                       {output},
                       {}});
      } else {
        graph.ReplaceAllUses(output, data);
      }
      node_removed = true;
      return Status::OK();
    }
    const auto assignment = MatchAssignment(graph, shapes, node);
    if (!assignment) return Status::OK();
    const std::string output = node.outputs()[0];
    const std::string pads = graph.UniqueValueName(fmt::format("{}_pads", output));
    const auto rank = static_cast<int64_t>(assignment->starts.size());
    graph.AddInitializer(pads,
                         Tensor::FromVector<int64_t>({2 * rank}, BoxPads(assignment->starts)));
    const std::string padded = graph.UniqueValueName(fmt::format("{}_padded", output));
    if (const ValueInfo* info = graph.FindValueInfo(output)) graph.SetValueType(padded, info->type);
    graph.RemoveNode(node.index());
    graph.AddNode({graph.UniqueNodeName(fmt::format("{}_pad", output)),
                   "Pad",
                   "",
                   {assignment->addend, pads},
                   {padded},
                   {}});
    graph.AddNode({graph.UniqueNodeName(fmt::format("{}_add", output)),
                   "Add",
                   "",
                   {assignment->data, padded},
                   {output},
                   {}});
    node_removed = true;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<RewriteRule> CreateFoldSliceAssignmentRule() {
  return std::make_unique<FoldSliceAssignment>();
}

}  // namespace ort
