// fold_slice_assignment on torch 1.13's export of `x[:, :, 1:, 1:] += y` (x [batch, 2, 5, 5]),
// written twice as MViT v2 writes it: the ScatterNDs over the index grid become one Add of the
// padded y, with the unfolded model's outputs; grids and updates that are no such assignment
// stay ScatterNDs.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

enum class Variant {
  kAssignment,  // x[:, :, 1:, 1:] += y, then the same values written again
  kShortBox,    // the grid stops one short of the last column: not to the end
  kStep2,       // the last axis' indices 1, 3, ...: not every element of a box
  kPlainWrite,  // x[:, :, 1:, 1:] = y: no Slice(x) + y
  kOneColumn,   // the last axis' index a single 1, broadcast: every write lands in column 1
};

Model SliceAssignmentModel(Variant variant) {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  const auto dims = [](int64_t rows, int64_t columns) {
    return ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(2),
                                           Dimension::Known(rows), Dimension::Known(columns)});
  };
  const int64_t columns = variant == Variant::kShortBox ? 3 : 4;
  graph.SetValueType("x", dims(5, 5));
  graph.SetValueType("y", dims(4, columns));
  graph.set_inputs({"x", "y"});
  int next = 0;
  const auto add = [&](const std::string& op, std::vector<std::string> inputs) {
    const std::string output = fmt::format("v{}", next++);
    graph.AddNode({output + "_" + op, op, "", std::move(inputs), {output}, {}});
    return output;
  };
  const auto ints = [&](std::vector<int64_t> dims_of, std::vector<int64_t> values) {
    const std::string name = fmt::format("c{}", next++);
    graph.AddInitializer(name,
                         Tensor::FromVector<int64_t>(TensorShape(std::move(dims_of)), values));
    return name;
  };
  const auto scalar = [&](int64_t value) {
    const std::string name = fmt::format("s{}", next++);
    graph.AddInitializer(name, Tensor::Scalar<int64_t>(value));
    return name;
  };
  // The box x[:, :, 1:, 1:] (one column short for kShortBox) and its shape.
  const std::string rows =
      add("Slice", {"x", ints({1}, {1}), ints({1}, {INT64_MAX}), ints({1}, {2})});
  const std::string box =
      add("Slice", {rows, ints({1}, {1}),
                    ints({1}, {variant == Variant::kShortBox ? 4 : INT64_MAX}), ints({1}, {3})});
  const std::string box_shape = add("Shape", {box});
  // The grid: arange(batch) as [B,1,1,1], the heads [2,1,1], the rows [4,1], the columns [4].
  const std::string batch = add("Gather", {add("Shape", {"x"}), scalar(0)});
  const std::string batch_index =
      add("Reshape", {add("Range", {scalar(0), batch, scalar(1)}), ints({4}, {-1, 1, 1, 1})});
  std::vector<int64_t> column_values{1, 2, 3, 4};
  if (variant == Variant::kShortBox) column_values = {1, 2, 3};
  if (variant == Variant::kStep2) column_values = {1, 3, 5, 7};
  if (variant == Variant::kOneColumn) column_values = {1};
  const std::vector<std::string> sources{
      batch_index, ints({2, 1, 1}, {0, 1}), ints({4, 1}, {1, 2, 3, 4}),
      ints({static_cast<int64_t>(column_values.size())}, column_values)};
  const auto grid = [&] {
    std::vector<std::string> parts;
    for (const auto& source : sources) {
      parts.push_back(add("Unsqueeze", {add("Expand", {source, box_shape}), ints({1}, {-1})}));
    }
    const std::string concat = add("Concat", parts);
    graph.GetNode(graph.Producer(concat)->index())->SetAttribute(Attribute::Int("axis", -1));
    return concat;
  };
  const std::string update = variant == Variant::kPlainWrite ? "y" : add("Add", {box, "y"});
  std::string y = add("ScatterND", {"x", grid(), update});
  if (variant == Variant::kAssignment) {
    y = add("ScatterND", {y, grid(), add("Expand", {update, box_shape})});
  }
  graph.set_outputs({y});
  graph.ResolveOuterScope();
  return model;
}

std::vector<NamedValue> Feeds(int64_t batch, Variant variant) {
  const int64_t columns = variant == Variant::kShortBox ? 3 : 4;
  return {{"x", Value(RandomTensor({batch, 2, 5, 5}, 1))},
          {"y", Value(RandomTensor({batch, 2, 4, columns}, 2))}};
}

}  // namespace

TEST_CASE("fold_slice_assignment turns torch's x[..., 1:, 1:] += y into Add(x, Pad(y))",
          "[optimizer]") {
  Model model = SliceAssignmentModel(Variant::kAssignment);
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(CountOps(model.graph(), "ScatterND") == 0);
  CHECK(CountOps(model.graph(), "Pad") == 1);
  for (const int64_t batch : {1, 3}) {
    const auto feeds = Feeds(batch, Variant::kAssignment);
    const auto plain =
        RunOnCpu(SliceAssignmentModel(Variant::kAssignment), OptimizationLevel::kDisable, feeds);
    const auto folded =
        RunOnCpu(SliceAssignmentModel(Variant::kAssignment), OptimizationLevel::kBasic, feeds);
    CHECK(std::count(folded.executed.begin(), folded.executed.end(), "ScatterND") == 0);
    // The box holds x + y as the ScatterND wrote it, the rest x + 0.
    CheckClose(folded.output, plain.output, 0, 0);
  }
}

TEST_CASE("fold_slice_assignment leaves writes that are no such assignment", "[optimizer]") {
  for (const Variant variant :
       {Variant::kShortBox, Variant::kStep2, Variant::kPlainWrite, Variant::kOneColumn}) {
    CAPTURE(static_cast<int>(variant));
    Model model = SliceAssignmentModel(variant);
    OptimizeForCpu(model, OptimizationLevel::kBasic);
    CHECK(CountOps(model.graph(), "ScatterND") == 1);
    if (variant == Variant::kStep2) continue;  // its indices leave the 5 columns: invalid to run
    const auto feeds = Feeds(2, variant);
    CheckClose(RunOnCpu(SliceAssignmentModel(variant), OptimizationLevel::kBasic, feeds).output,
               RunOnCpu(SliceAssignmentModel(variant), OptimizationLevel::kDisable, feeds).output,
               0, 0);
  }
}

}  // namespace ort::test
