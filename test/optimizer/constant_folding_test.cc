// constant_folding: which nodes it evaluates on the CPU provider, which it leaves, and a folded
// graph output read back through a session.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

template <typename T>
std::vector<T> Values(const Tensor* tensor) {
  REQUIRE(tensor != nullptr);
  return {tensor->Data<T>(), tensor->Data<T>() + tensor->NumElements()};
}

}  // namespace

TEST_CASE("constant_folding evaluates a constant chain into one initializer", "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.AddInitializer("a", Tensor::FromVector<float>({3}, {1, 2, 3}));
  graph.AddInitializer("b", Tensor::FromVector<float>({3}, {10, 20, 30}));
  graph.AddInitializer("c", Tensor::Scalar<float>(2));
  graph.AddNode({"add", "Add", "", {"a", "b"}, {"sum"}, {}});
  graph.AddNode({"mul", "Mul", "", {"sum", "c"}, {"product"}, {}});
  graph.AddNode({"use", "Add", "", {"x", "product"}, {"y"}, {}});  // x is fed: kept
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(OpTypes(graph) == Ops{"Add"});
  CHECK(Values<float>(graph.GetInitializer("product")) == std::vector<float>{22, 44, 66});
  CHECK(graph.GetInitializer("product")->shape() == TensorShape{3});
  // The folded chain's inputs are read by nothing any more.
  CHECK(graph.initializers().size() == 1);
}

TEST_CASE("constant_folding leaves overridable, random, failing and disabled nodes",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"w"});
  graph.set_outputs({"neg", "random", "reshaped"});
  graph.AddInitializer("w", Tensor::FromVector<float>({2}, {1, 2}));  // a feed may replace it
  graph.AddInitializer("bad_shape", Tensor::FromVector<int64_t>({1}, {3}));
  graph.AddNode({"neg", "Neg", "", {"w"}, {"neg"}, {}});
  graph.AddNode({"random", "RandomUniform", "", {}, {"random"}, {}})
      .SetAttribute(Attribute::Ints("shape", {2}));
  graph.AddInitializer("pair", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddNode({"reshape", "Reshape", "", {"pair", "bad_shape"}, {"reshaped"}, {}});
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(OpTypes(graph) == Ops{"Neg", "RandomUniform", "Reshape"});

  Model disabled = MakeModel();
  disabled.graph().set_outputs({"y"});
  disabled.graph().AddInitializer("a", Tensor::Scalar<float>(1));
  disabled.graph().AddNode({"neg", "Neg", "", {"a"}, {"y"}, {}});
  OptimizeForCpu(disabled, OptimizationLevel::kBasic, {"constant_folding"});
  CHECK(disabled.graph().NodeCount() == 1);
  OptimizeBasic(disabled);  // no CPU provider to evaluate with
  CHECK(disabled.graph().NodeCount() == 1);
}

TEST_CASE("constant_folding keeps nodes whose outputs would pass the size cap", "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_outputs({"typed", "untyped", "small"});
  // 4097 x 4096 floats is just over 64 MiB.
  graph.AddInitializer("big", Tensor::FromVector<int64_t>({2}, {4097, 4096}));
  graph.AddInitializer("one", Tensor::Scalar<float>(1));
  graph.AddNode({"typed", "Expand", "", {"one", "big"}, {"typed"}, {}});
  graph.SetValueType("typed", FloatTensor({4097, 4096}));  // refused before running
  graph.AddNode({"untyped", "Expand", "", {"one", "big"}, {"untyped"}, {}});  // after running
  graph.AddInitializer("rows", Tensor::FromVector<int64_t>({2}, {4, 4096}));
  graph.AddNode({"small", "Expand", "", {"one", "rows"}, {"small"}, {}});
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(OpTypes(graph) == Ops{"Expand", "Expand"});
  CHECK(graph.GetInitializer("small")->shape() == TensorShape{4, 4096});
}

TEST_CASE("constant_folding turns Shape and Size of static shapes into constants", "[optimizer]") {
  Model model = MakeModel(15);
  Graph& graph = model.graph();
  graph.set_inputs({"x", "dynamic"});
  graph.set_outputs({"doubled", "middle", "all", "size", "dynamic_shape"});
  graph.SetValueType("x", FloatTensor({2, 3, 4, 5}));
  graph.SetValueType(
      "dynamic", ValueType::Tensor(DataType::kFloat,
                                   SymbolicShape{Dimension::Symbol("batch"), Dimension::Known(3)}));
  graph.AddInitializer("two", Tensor::Scalar<int64_t>(2));
  graph.AddNode({"shape", "Shape", "", {"x"}, {"shape"}, {}});
  graph.AddNode({"double", "Mul", "", {"shape", "two"}, {"doubled"}, {}});
  Node& middle = graph.AddNode({"middle", "Shape", "", {"x"}, {"middle"}, {}});
  middle.SetAttribute(Attribute::Int("start", 1));
  middle.SetAttribute(Attribute::Int("end", -1));
  Node& all = graph.AddNode({"all", "Shape", "", {"x"}, {"all"}, {}});
  all.SetAttribute(Attribute::Int("start", -10));  // clamped to the rank
  all.SetAttribute(Attribute::Int("end", 10));
  graph.AddNode({"size", "Size", "", {"x"}, {"size"}, {}});
  graph.AddNode({"dynamic_shape", "Shape", "", {"dynamic"}, {"dynamic_shape"}, {}});
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  CHECK(OpTypes(graph) == Ops{"Shape"});
  CHECK(graph.Producer("dynamic_shape") != nullptr);
  CHECK(Values<int64_t>(graph.GetInitializer("doubled")) == std::vector<int64_t>{4, 6, 8, 10});
  CHECK(Values<int64_t>(graph.GetInitializer("middle")) == std::vector<int64_t>{3, 4});
  CHECK(Values<int64_t>(graph.GetInitializer("all")) == std::vector<int64_t>{2, 3, 4, 5});
  const Tensor* size = graph.GetInitializer("size");
  REQUIRE(size != nullptr);
  CHECK(size->shape().rank() == 0);
  CHECK(Values<int64_t>(size) == std::vector<int64_t>{120});
}

TEST_CASE("constant_folding folds inside If branches from the enclosing graph's shapes",
          "[optimizer]") {
  // x [2, 3] comes from the enclosing graph: the branch's Size(x) and its Cast fold to 6, and
  // the If stays (its condition is fed).
  Model model = MakeModel(15);
  Graph& graph = model.graph();
  graph.set_inputs({"condition", "x"});
  graph.set_outputs({"y"});
  graph.SetValueType("condition", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  graph.SetValueType("x", FloatTensor({2, 3}));
  auto then_branch = std::make_unique<Graph>(graph.shared_opsets());
  then_branch->AddNode({"size", "Size", "", {"x"}, {"size"}, {}});
  then_branch->AddNode({"cast", "Cast", "", {"size"}, {"size_float"}, {}})
      .SetAttribute(Attribute::Int("to", static_cast<int64_t>(1)));
  then_branch->AddNode({"add", "Add", "", {"x", "size_float"}, {"shifted"}, {}});
  then_branch->set_outputs({"shifted"});
  auto else_branch = std::make_unique<Graph>(graph.shared_opsets());
  else_branch->AddNode({"neg", "Neg", "", {"x"}, {"negated"}, {}});
  else_branch->set_outputs({"negated"});
  AddIf(graph, "condition", std::move(then_branch), std::move(else_branch), "y");
  OptimizeForCpu(model, OptimizationLevel::kBasic);
  REQUIRE(OpTypes(graph) == Ops{"If"});
  const Graph& folded = *graph.Producer("y")->FindAttribute("then_branch")->g;
  CHECK(OpTypes(folded) == Ops{"Add"});
  CHECK(Values<float>(folded.GetInitializer("size_float")) == std::vector<float>{6});
}

TEST_CASE("A folded graph output is served from its initializer", "[optimizer]") {
  auto model = std::make_unique<Model>(MakeModel());
  model->path = "folded_output";
  Graph& graph = model->graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "constant"});
  graph.SetValueType("x", FloatTensor({2}));
  graph.AddInitializer("a", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddInitializer("b", Tensor::FromVector<float>({2}, {3, 5}));
  graph.AddNode({"constant", "Mul", "", {"a", "b"}, {"constant"}, {}});
  graph.AddNode({"y", "Add", "", {"x", "constant"}, {"y"}, {}});
  graph.ResolveOuterScope();

  SessionOptions options;
  options.optimization_level = OptimizationLevel::kBasic;
  const auto session = MakeCpuSession(std::move(model), options);
  CHECK(session->ExecutionOrder().size() == 1);

  std::vector<NamedValue> feeds{{"x", Value(Tensor::FromVector<float>({2}, {10, 20}))}};
  std::vector<Value> outputs;
  REQUIRE(session->Run({}, feeds, {}, &outputs).ok());
  REQUIRE(outputs.size() == 2);
  CHECK(Values<float>(&outputs[0].tensor()) == std::vector<float>{13, 30});
  CHECK(Values<float>(&outputs[1].tensor()) == std::vector<float>{3, 10});
}

}  // namespace ort::test
