// shape_value_sharing (extended level): sizes read through Shape of two tensors that symbolic
// shapes prove of equal size are one value, so a node kept alive only to have its shape read
// goes; sizes that are not provably equal stay apart. Outputs are checked against hand-computed
// sizes.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

// y = Concat(x.size(0), Relu(x).size(0), x.size(1), other.size(1)) with x [batch, seq, 8] and
// other [batch, m]: the first two are one value (Relu keeps x's shape), x.size(1) and
// other.size(1) are not (seq and m are unrelated symbols).
Model SizesModel() {
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), Dimension::Symbol("seq"),
                                           Dimension::Known(8)}));
  graph.SetValueType("other",
                     ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("batch"),
                                                                       Dimension::Symbol("m")}));
  graph.set_inputs({"x", "other"});
  graph.AddNode({"relu", "Relu", "", {"x"}, {"relu_x"}, {}});
  std::vector<std::string> pieces;
  for (const auto& [source, axis] : std::vector<std::pair<std::string, int64_t>>{
           {"x", 0}, {"relu_x", 0}, {"x", 1}, {"other", 1}}) {
    const std::string tag = fmt::format("{}_{}", source, axis);
    graph.AddNode({"shape_" + tag, "Shape", "", {source}, {"dims_" + tag}, {}});
    graph.AddInitializer("start_" + tag, Tensor::FromVector<int64_t>({1}, {axis}));
    graph.AddInitializer("end_" + tag, Tensor::FromVector<int64_t>({1}, {axis + 1}));
    graph.AddNode({"slice_" + tag,
                   "Slice",
                   "",
                   {"dims_" + tag, "start_" + tag, "end_" + tag},
                   {"size_" + tag},
                   {}});
    pieces.push_back("size_" + tag);
  }
  graph.AddNode({"concat", "Concat", "", pieces, {"y"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  graph.set_outputs({"y"});
  return model;
}

}  // namespace

TEST_CASE("shape_value_sharing makes provably equal sizes one value", "[optimizer]") {
  Model model = SizesModel();
  OptimizeExtended(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Relu") == 0);
  CHECK(CountOps(graph, "Shape") == 2);  // x's and other's
  const Node& concat = *graph.Producer("y");
  CHECK(concat.inputs()[0] == concat.inputs()[1]);
  CHECK(concat.inputs()[2] != concat.inputs()[3]);

  Model disabled = SizesModel();
  OptimizeExtended(disabled, {"shape_value_sharing"});
  CHECK(CountOps(disabled.graph(), "Relu") == 1);

  SessionOptions options;
  options.optimization_level = OptimizationLevel::kExtended;
  const auto session = MakeCpuSession(std::make_unique<Model>(SizesModel()), options);
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({3, 5, 8}, 1))},
                                {"other", Value(RandomTensor({3, 7}, 2))}};
  std::vector<Value> outputs;
  REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 1);
  const auto sizes = outputs[0].tensor().Span<int64_t>();
  CHECK(std::vector<int64_t>(sizes.begin(), sizes.end()) == std::vector<int64_t>{3, 3, 5, 7});
}

}  // namespace ort::test
