// The basic level's redundant-node rules and dead-node elimination, each on a graph where its
// pattern is present and on one where a condition fails.
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {

TEST_CASE(
    "eliminate_noop removes casts, reshapes, transposes, slices and expands that change "
    "nothing",
    "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", FloatTensor({2, 2}));
  for (const char* name : {"a", "b", "c", "d", "e", "f", "y"}) {
    graph.SetValueType(name, FloatTensor({2, 2}));
  }
  graph.AddInitializer("shape", Tensor::FromVector<int64_t>({2}, {2, 2}));
  graph.AddInitializer("starts", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddInitializer("ends", Tensor::FromVector<int64_t>({1}, {100}));
  graph.AddInitializer("axes", Tensor::FromVector<int64_t>({1}, {0}));
  graph.AddInitializer("steps", Tensor::FromVector<int64_t>({1}, {1}));
  graph.AddInitializer("back", Tensor::FromVector<int64_t>({1}, {-1}));
  graph.AddNode({"cast", "Cast", "", {"x"}, {"a"}, {}}).SetAttribute(Attribute::Int("to", 1));
  graph.AddNode({"reshape", "Reshape", "", {"a", "shape"}, {"b"}, {}});
  graph.AddNode({"transpose", "Transpose", "", {"b"}, {"c"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 1}));
  graph.AddNode({"slice", "Slice", "", {"c", "starts", "ends", "axes", "steps"}, {"d"}, {}});
  graph.AddNode({"expand", "Expand", "", {"d", "shape"}, {"e"}, {}});
  // Kept: a real permutation of a square matrix, and a reversing slice of the same shape.
  graph.AddNode({"swap", "Transpose", "", {"e"}, {"f"}, {}})
      .SetAttribute(Attribute::Ints("perm", {1, 0}));
  graph.AddNode({"reverse", "Slice", "", {"f", "back", "back", "axes", "back"}, {"y"}, {}});
  OptimizeBasic(model);
  CHECK(OpTypes(graph) == Ops{"Transpose", "Slice"});
  CHECK(graph.GetNode(5)->inputs()[0] == "x");
}

TEST_CASE("eliminate_noop keeps nodes without static types, casts that convert, graph outputs",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"b", "c"});
  graph.SetValueType("x", FloatTensor({2, 3}));
  graph.AddInitializer("shape", Tensor::FromVector<int64_t>({2}, {2, 3}));
  graph.AddNode({"untyped", "Reshape", "", {"x", "shape"}, {"a"}, {}});  // no type for "a"
  graph.AddNode({"to_int", "Cast", "", {"a"}, {"b"}, {}}).SetAttribute(Attribute::Int("to", 7));
  graph.SetValueType("c", FloatTensor({2, 3}));
  graph.AddNode({"output", "Reshape", "", {"x", "shape"}, {"c"}, {}});
  // The two Reshapes are one to common_subexpression_elimination.
  OptimizeBasic(model, {"common_subexpression_elimination"});
  CHECK(OpTypes(graph).size() == 3);
}

TEST_CASE("merge_transposes composes permutations and drops identities", "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "z"});
  graph.AddNode({"t1", "Transpose", "", {"x"}, {"a"}, {}})
      .SetAttribute(Attribute::Ints("perm", {1, 2, 0}));
  graph.AddNode({"t2", "Transpose", "", {"a"}, {"b"}, {}})
      .SetAttribute(Attribute::Ints("perm", {2, 0, 1}));  // undoes t1
  graph.AddNode({"neg", "Neg", "", {"b"}, {"y"}, {}});
  graph.AddNode({"t3", "Transpose", "", {"x"}, {"c"}, {}})
      .SetAttribute(Attribute::Ints("perm", {1, 0, 2}));
  graph.AddNode({"t4", "Transpose", "", {"c"}, {"z"}, {}})
      .SetAttribute(Attribute::Ints("perm", {0, 2, 1}));
  OptimizeBasic(model);
  CHECK(OpTypes(graph) == Ops{"Neg", "Transpose"});
  const Node* merged = graph.Producer("z");
  CHECK(merged->inputs()[0] == "x");
  // Output axis i is input axis inner[outer[i]]: [1,0,2][[0,2,1]] = [1,2,0].
  CHECK(merged->FindAttribute("perm")->ints == std::vector<int64_t>{1, 2, 0});
  CHECK(graph.Producer("y")->inputs()[0] == "x");

  Model disabled = MakeModel();
  disabled.graph().set_inputs({"x"});
  disabled.graph().set_outputs({"b"});
  disabled.graph()
      .AddNode({"t1", "Transpose", "", {"x"}, {"a"}, {}})
      .SetAttribute(Attribute::Ints("perm", {1, 0}));
  disabled.graph()
      .AddNode({"t2", "Transpose", "", {"a"}, {"b"}, {}})
      .SetAttribute(Attribute::Ints("perm", {1, 0}));
  OptimizeBasic(disabled, {"merge_transposes"});
  CHECK(disabled.graph().NodeCount() == 2);
}

TEST_CASE("merge_reshapes reads the first input unless the second shape copies dimensions",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "z", "first"});
  graph.AddInitializer("flat", Tensor::FromVector<int64_t>({1}, {-1}));
  graph.AddInitializer("rows", Tensor::FromVector<int64_t>({2}, {3, -1}));
  graph.AddInitializer("copy", Tensor::FromVector<int64_t>({2}, {0, -1}));
  graph.AddNode({"r1", "Reshape", "", {"x", "flat"}, {"first"}, {}});
  graph.AddNode({"r2", "Reshape", "", {"first", "rows"}, {"y"}, {}});
  graph.AddNode({"r3", "Reshape", "", {"first", "copy"}, {"z"}, {}});
  OptimizeBasic(model);
  CHECK(graph.Producer("y")->inputs()[0] == "x");
  CHECK(graph.Producer("z")->inputs()[0] == "first");  // 0 copies a dimension of its input
  CHECK(graph.NodeCount() == 3);                       // r1 still defines a graph output
}

TEST_CASE("eliminate_unsqueeze_squeeze removes pairs over the same axes", "[optimizer]") {
  auto build = [](std::vector<int64_t> squeeze_axes, int64_t opset) {
    Model model = MakeModel(opset);
    Graph& graph = model.graph();
    graph.set_inputs({"x"});
    graph.set_outputs({"y"});
    graph.SetValueType("x", FloatTensor({3, 4}));
    graph.SetValueType("u", FloatTensor({1, 3, 1, 4}));
    Node& unsqueeze = graph.AddNode({"u", "Unsqueeze", "", {"x"}, {"u"}, {}});
    Node& squeeze = graph.AddNode({"s", "Squeeze", "", {"u"}, {"s"}, {}});
    if (opset < 13) {
      unsqueeze.SetAttribute(Attribute::Ints("axes", {0, 2}));
      squeeze.SetAttribute(Attribute::Ints("axes", squeeze_axes));
    } else {
      graph.AddInitializer("add", Tensor::FromVector<int64_t>({2}, {0, 2}));
      graph.AddInitializer(
          "remove",
          Tensor::FromVector<int64_t>({static_cast<int64_t>(squeeze_axes.size())}, squeeze_axes));
      graph.SetNodeInput(unsqueeze, 1, "add");
      graph.SetNodeInput(squeeze, 1, "remove");
    }
    graph.AddNode({"neg", "Neg", "", {"s"}, {"y"}, {}});
    OptimizeBasic(model);
    return OpTypes(graph);
  };
  CHECK(build({2, 0}, 13) == Ops{"Neg"});
  CHECK(build({-4, -2}, 13) == Ops{"Neg"});  // negative axes count from the unsqueezed rank
  CHECK(build({0, 2}, 11) == Ops{"Neg"});
  CHECK(build({0}, 13) == Ops{"Unsqueeze", "Squeeze", "Neg"});
}

TEST_CASE("eliminate_dead_nodes removes unreachable nodes and unread initializers", "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x", "overridable"});
  graph.set_outputs({"y"});
  graph.AddInitializer("unused", Tensor::Scalar<float>(1));
  graph.AddInitializer("overridable", Tensor::Scalar<float>(2));
  graph.AddInitializer("used_by_dead", Tensor::Scalar<float>(3));
  graph.AddNode({"neg", "Neg", "", {"x"}, {"y"}, {}});
  graph.AddNode({"dead1", "Add", "", {"x", "used_by_dead"}, {"d1"}, {}});
  graph.AddNode({"dead2", "Relu", "", {"d1"}, {"d2"}, {}});
  OptimizeBasic(model);
  CHECK(OpTypes(graph) == Ops{"Neg"});
  CHECK(graph.GetInitializer("unused") == nullptr);
  CHECK(graph.GetInitializer("used_by_dead") == nullptr);
  CHECK(graph.GetInitializer("overridable") != nullptr);  // a graph input's default
}

TEST_CASE("Disabling an unknown pass is an error that lists the known ones", "[optimizer]") {
  Model model = MakeModel();
  model.graph().set_inputs({"x"});
  model.graph().set_outputs({"x"});
  const Status status = OptimizeGraph(model, {OptimizationLevel::kAll, {"no_such_pass"}}, {});
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("no_such_pass") != std::string::npos);
  CHECK(status.message().find("eliminate_identity") != std::string::npos);
  const auto names = DisablePassNames();
  CHECK(std::find(names.begin(), names.end(), "basic_rewrites") != names.end());
  CHECK(std::find(names.begin(), names.end(), "eliminate_dead_nodes") != names.end());
}

// maskrcnn's paste loop reads a no-op Cast's output from inside its body: bypassing the Cast must
// rewire the body too, and an If that already reads the Cast's input keeps one implicit input.
Model CastReadInBranchModel() {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"cond", "x"});
  graph.set_outputs({"y"});
  graph.SetValueType("cond", ValueType::Tensor(DataType::kBool, SymbolicShape{}));
  graph.SetValueType("x", FloatTensor({3}));
  graph.SetValueType("a", FloatTensor({3}));
  auto then_branch = std::make_unique<Graph>(graph.shared_opsets());
  then_branch->set_outputs({"t"});
  then_branch->AddNode({"square", "Mul", "", {"a", "x"}, {"t"}, {}});
  auto else_branch = std::make_unique<Graph>(graph.shared_opsets());
  else_branch->set_outputs({"e"});
  else_branch->AddNode({"negate", "Neg", "", {"a"}, {"e"}, {}});
  graph.AddNode({"cast", "Cast", "", {"x"}, {"a"}, {}}).SetAttribute(Attribute::Int("to", 1));
  std::vector<Attribute> branches;
  branches.push_back(Attribute::GraphValue("then_branch", std::move(then_branch)));
  branches.push_back(Attribute::GraphValue("else_branch", std::move(else_branch)));
  graph.AddNode({"if", "If", "", {"cond"}, {"y"}, std::move(branches)});
  graph.ResolveOuterScope();
  return model;
}

TEST_CASE("Bypassing a node rewires the subgraphs that read its output", "[optimizer]") {
  Model model = CastReadInBranchModel();
  OptimizeBasic(model);
  const Graph& graph = model.graph();
  CHECK(CountOps(graph, "Cast") == 0);
  const Node& if_node = *graph.Producer("y");
  CHECK(if_node.implicit_inputs() == std::vector<std::string>{"x"});
  for (const Graph* branch : if_node.Subgraphs()) {
    for (const Node* node : branch->Nodes()) {
      CHECK(std::find(node->inputs().begin(), node->inputs().end(), "a") == node->inputs().end());
    }
  }
  const Tensor x = Tensor::FromVector<float>({3}, {1.5f, -2.0f, 0.5f});
  for (bool cond : {true, false}) {
    const std::vector<NamedValue> feeds{
        {"cond", Value(Tensor::FromVector<bool>(TensorShape{}, {cond}))}, {"x", Value(x)}};
    const auto [fused, fused_ops] =
        RunOnCpu(CastReadInBranchModel(), OptimizationLevel::kBasic, feeds);
    REQUIRE(fused.size() == 3);
    const std::vector<float> expected =
        cond ? std::vector<float>{2.25f, 4.0f, 0.25f} : std::vector<float>{-1.5f, 2.0f, -0.5f};
    CheckClose(fused, expected, 0, 0);
  }
}

}  // namespace ort::test
