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

TEST_CASE("shape_value_sharing shares sizes inside If branches", "[optimizer]") {
  // The branch reads x [batch, 8] from the enclosing graph: x.size(0) and Relu(x).size(0) are
  // one value there too.
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.set_inputs({"condition", "x"});
  graph.set_outputs({"y"});
  graph.SetValueType("condition", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  graph.SetValueType(
      "x", ValueType::Tensor(DataType::kFloat,
                             SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(8)}));
  auto then_branch = std::make_unique<Graph>(graph.shared_opsets());
  then_branch->AddNode({"relu", "Relu", "", {"x"}, {"relu_x"}, {}});
  then_branch->AddNode({"shape_x", "Shape", "", {"x"}, {"dims_x"}, {}});
  then_branch->AddNode({"shape_relu", "Shape", "", {"relu_x"}, {"dims_relu"}, {}});
  then_branch->AddNode({"concat", "Concat", "", {"dims_x", "dims_relu"}, {"dims"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  then_branch->set_outputs({"dims"});
  auto else_branch = std::make_unique<Graph>(graph.shared_opsets());
  else_branch->AddNode({"shape", "Shape", "", {"x"}, {"shape"}, {}});
  else_branch->AddNode({"concat", "Concat", "", {"shape", "shape"}, {"twice"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  else_branch->set_outputs({"twice"});
  AddIf(graph, "condition", std::move(then_branch), std::move(else_branch), "y");
  OptimizeExtended(model);
  const Graph& shared = *graph.Producer("y")->FindAttribute("then_branch")->g;
  CHECK(CountOps(shared, "Relu") == 0);
  CHECK(CountOps(shared, "Shape") == 1);
  const Node& concat = *shared.Producer("dims");
  CHECK(concat.inputs()[0] == concat.inputs()[1]);
}

TEST_CASE("shape_value_sharing keeps the first value of a size while others read it",
          "[optimizer]") {
  // x.size(0) three times: as Slice(Shape(x), 0, 1) first, then Unsqueeze(Relu(x).size(0)) whose
  // scalar is the first of its kind but read only by that copy, then Sigmoid(x).size(0) read by
  // a Cast: it must still find the scalar it is rewired to.
  Model model = MakeModel(14);
  Graph& graph = model.graph();
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, SymbolicShape{Dimension::Symbol("n"),
                                                                            Dimension::Known(3)}));
  graph.set_inputs({"x"});
  graph.AddInitializer("zero", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddInitializer("one", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("index", Tensor::Scalar<int64_t>(0));
  graph.AddNode({"shape_x", "Shape", "", {"x"}, {"dims_x"}, {}});
  graph.AddNode({"slice", "Slice", "", {"dims_x", "zero", "one"}, {"sliced"}, {}});
  graph.AddNode({"relu", "Relu", "", {"x"}, {"relu_x"}, {}});
  graph.AddNode({"shape_relu", "Shape", "", {"relu_x"}, {"dims_relu"}, {}});
  graph.AddNode({"gather_relu", "Gather", "", {"dims_relu", "index"}, {"size_relu"}, {}});
  graph.AddNode({"unsqueeze", "Unsqueeze", "", {"size_relu", "zero"}, {"unsqueezed"}, {}});
  graph.AddNode({"sigmoid", "Sigmoid", "", {"x"}, {"sigmoid_x"}, {}});
  graph.AddNode({"shape_sigmoid", "Shape", "", {"sigmoid_x"}, {"dims_sigmoid"}, {}});
  graph.AddNode({"gather_sigmoid", "Gather", "", {"dims_sigmoid", "index"}, {"size_sigmoid"}, {}});
  graph.AddNode({"concat", "Concat", "", {"sliced", "unsqueezed"}, {"sizes"}, {}})
      .SetAttribute(Attribute::Int("axis", 0));
  graph.AddNode({"cast", "Cast", "", {"size_sigmoid"}, {"size_float"}, {}})
      .SetAttribute(Attribute::Int("to", static_cast<int64_t>(DataType::kFloat)));
  graph.set_outputs({"sizes", "size_float"});

  SessionOptions options;
  options.optimization_level = OptimizationLevel::kExtended;
  const auto session = MakeCpuSession(std::make_unique<Model>(std::move(model)), options);
  CHECK(session->ExecutionOrder().size() < 10);
  std::vector<NamedValue> feeds{{"x", Value(RandomTensor({4, 3}, 3))}};
  std::vector<Value> outputs;
  REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 2);
  const auto sizes = outputs[0].tensor().Span<int64_t>();
  CHECK(std::vector<int64_t>(sizes.begin(), sizes.end()) == std::vector<int64_t>{4, 4});
  CHECK(outputs[1].tensor().Span<float>()[0] == 4.0f);
}

}  // namespace ort::test
