// common_subexpression_elimination: which duplicate nodes it merges (equal ops, attributes and
// inputs, constants equal by value, inside subgraphs) and which it must keep (random ops,
// different attributes, graph outputs, values read by subgraphs).
#include "test/optimizer/optimizer_test_util.h"

namespace ort::test {
namespace {

constexpr const char* kCse = "common_subexpression_elimination";

// Two branches a = op(x), b = op(x) joined by y = Add(a, b).
Model TwoBranches(const std::string& op, std::vector<Attribute> a_attributes,
                  std::vector<Attribute> b_attributes) {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.SetValueType("x", FloatTensor({2, 3}));
  graph.AddNode({"a", op, "", {"x"}, {"a"}, std::move(a_attributes)});
  graph.AddNode({"b", op, "", {"x"}, {"b"}, std::move(b_attributes)});
  graph.AddNode({"join", "Add", "", {"a", "b"}, {"y"}, {}});
  return model;
}

std::vector<Attribute> Perm(std::vector<int64_t> perm) {
  std::vector<Attribute> attributes;
  attributes.push_back(Attribute::Ints("perm", std::move(perm)));
  return attributes;
}

}  // namespace

TEST_CASE("common_subexpression_elimination merges equal nodes and whole equal chains",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.AddNode({"r1", "Relu", "", {"x"}, {"r1"}, {}});
  graph.AddNode({"n1", "Neg", "", {"r1"}, {"n1"}, {}});
  graph.AddNode({"r2", "Relu", "", {"x"}, {"r2"}, {}});
  graph.AddNode({"n2", "Neg", "", {"r2"}, {"n2"}, {}});
  graph.AddNode({"join", "Add", "", {"n1", "n2"}, {"y"}, {}});
  OptimizeBasic(model);
  REQUIRE(OpTypes(graph) == Ops{"Relu", "Neg", "Add"});
  CHECK(graph.Producer("y")->inputs() == std::vector<std::string>{"n1", "n1"});

  Model disabled = MakeModel();
  disabled.graph().set_inputs({"x"});
  disabled.graph().set_outputs({"y"});
  disabled.graph().AddNode({"r1", "Relu", "", {"x"}, {"r1"}, {}});
  disabled.graph().AddNode({"r2", "Relu", "", {"x"}, {"r2"}, {}});
  disabled.graph().AddNode({"join", "Add", "", {"r1", "r2"}, {"y"}, {}});
  OptimizeBasic(disabled, {kCse});
  CHECK(disabled.graph().NodeCount() == 3);
}

TEST_CASE("common_subexpression_elimination compares attributes", "[optimizer]") {
  Model same = TwoBranches("Transpose", Perm({1, 0}), Perm({1, 0}));
  OptimizeBasic(same);
  CHECK(OpTypes(same.graph()) == Ops{"Transpose", "Add"});

  Model different = TwoBranches("Transpose", Perm({1, 0}), Perm({0, 1}));
  OptimizeBasic(different, {"eliminate_noop"});
  CHECK(CountOps(different.graph(), "Transpose") == 2);

  std::vector<Attribute> with_alpha;
  with_alpha.push_back(Attribute::Float("alpha", 0.5f));
  Model missing = TwoBranches("LeakyRelu", std::move(with_alpha), {});
  OptimizeBasic(missing);
  CHECK(CountOps(missing.graph(), "LeakyRelu") == 2);
}

TEST_CASE("common_subexpression_elimination treats equal small constants as one input",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y", "z"});
  graph.AddInitializer("c1", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddInitializer("c2", Tensor::FromVector<float>({2}, {1, 2}));
  graph.AddInitializer("c3", Tensor::FromVector<float>({2}, {1, 3}));
  graph.AddNode({"a", "Add", "", {"x", "c1"}, {"a"}, {}});
  graph.AddNode({"b", "Add", "", {"x", "c2"}, {"b"}, {}});
  graph.AddNode({"c", "Add", "", {"x", "c3"}, {"c"}, {}});
  graph.AddNode({"y", "Mul", "", {"a", "b"}, {"y"}, {}});
  graph.AddNode({"z", "Mul", "", {"a", "c"}, {"z"}, {}});
  OptimizeBasic(model);
  CHECK(CountOps(graph, "Add") == 2);
  CHECK(graph.Producer("y")->inputs() == std::vector<std::string>{"a", "a"});
  CHECK(graph.GetInitializer("c2") == nullptr);  // read by nothing once b went
  CHECK(graph.GetInitializer("c3") != nullptr);
}

TEST_CASE("common_subexpression_elimination keeps random ops and training-mode Dropout",
          "[optimizer]") {
  Model random = TwoBranches("RandomUniformLike", {}, {});
  OptimizeBasic(random);
  CHECK(CountOps(random.graph(), "RandomUniformLike") == 2);

  Model dropout = MakeModel();
  Graph& graph = dropout.graph();
  graph.set_inputs({"x", "training"});
  graph.set_outputs({"y"});
  graph.AddInitializer("ratio", Tensor::Scalar<float>(0.5f));
  graph.AddNode({"d1", "Dropout", "", {"x", "ratio", "training"}, {"d1"}, {}});
  graph.AddNode({"d2", "Dropout", "", {"x", "ratio", "training"}, {"d2"}, {}});
  graph.AddNode({"join", "Add", "", {"d1", "d2"}, {"y"}, {}});
  OptimizeBasic(dropout);
  CHECK(CountOps(graph, "Dropout") == 2);
}

TEST_CASE("common_subexpression_elimination keeps graph outputs' names", "[optimizer]") {
  // Both duplicates are graph outputs: each name must still be produced.
  Model both = MakeModel();
  both.graph().set_inputs({"x"});
  both.graph().set_outputs({"a", "b"});
  both.graph().AddNode({"a", "Relu", "", {"x"}, {"a"}, {}});
  both.graph().AddNode({"b", "Relu", "", {"x"}, {"b"}, {}});
  OptimizeBasic(both);
  CHECK(both.graph().NodeCount() == 2);

  // Only the first is an output: the second merges into it and its reader reads the output.
  Model first = MakeModel();
  Graph& graph = first.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"a", "y"});
  graph.AddNode({"a", "Relu", "", {"x"}, {"a"}, {}});
  graph.AddNode({"b", "Relu", "", {"x"}, {"b"}, {}});
  graph.AddNode({"y", "Neg", "", {"b"}, {"y"}, {}});
  OptimizeBasic(first);
  CHECK(OpTypes(graph) == Ops{"Relu", "Neg"});
  CHECK(graph.outputs() == std::vector<std::string>{"a", "y"});
  CHECK(graph.Producer("y")->inputs()[0] == "a");

  // Only the second is an output: it stays and the first one's reader reads it.
  Model second = MakeModel();
  Graph& other = second.graph();
  other.set_inputs({"x"});
  other.set_outputs({"y", "b"});
  other.AddNode({"a", "Relu", "", {"x"}, {"a"}, {}});
  other.AddNode({"y", "Neg", "", {"a"}, {"y"}, {}});
  other.AddNode({"b", "Relu", "", {"x"}, {"b"}, {}});
  OptimizeBasic(second);
  CHECK(other.NodeCount() == 2);
  CHECK(other.Producer("a") == nullptr);
  CHECK(other.Producer("y")->inputs()[0] == "b");
}

TEST_CASE("common_subexpression_elimination works inside subgraphs and around them",
          "[optimizer]") {
  Model model = MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"cond", "x"});
  graph.set_outputs({"y", "z"});
  // The then-branch computes Relu(x) twice from the outer x.
  auto then_branch = std::make_unique<Graph>(graph.shared_opsets());
  then_branch->set_outputs({"t"});
  then_branch->AddNode({"t1", "Relu", "", {"x"}, {"t1"}, {}});
  then_branch->AddNode({"t2", "Relu", "", {"x"}, {"t2"}, {}});
  then_branch->AddNode({"t", "Add", "", {"t1", "t2"}, {"t"}, {}});
  // The else-branch reads the outer "late", a duplicate of "early": renaming it would leave the
  // branch reading a value nothing produces, so "late" stays and "early" goes.
  auto else_branch = std::make_unique<Graph>(graph.shared_opsets());
  else_branch->set_outputs({"e"});
  else_branch->AddNode({"e", "Neg", "", {"late"}, {"e"}, {}});
  graph.AddNode({"early", "Sigmoid", "", {"x"}, {"early"}, {}});
  graph.AddNode({"late", "Sigmoid", "", {"x"}, {"late"}, {}});
  std::vector<Attribute> branches;
  branches.push_back(Attribute::GraphValue("then_branch", std::move(then_branch)));
  branches.push_back(Attribute::GraphValue("else_branch", std::move(else_branch)));
  graph.AddNode({"if", "If", "", {"cond"}, {"y"}, std::move(branches)});
  graph.AddNode({"z", "Neg", "", {"early"}, {"z"}, {}});
  OptimizeBasic(model);
  CHECK(CountOps(graph, "Sigmoid") == 1);
  CHECK(graph.Producer("late") != nullptr);
  CHECK(graph.Producer("z")->inputs()[0] == "late");
  const Node& if_node = *graph.Producer("y");
  const Graph& then_graph = *if_node.Subgraphs()[1];  // attribute order: else, then
  CHECK(OpTypes(then_graph) == Ops{"Relu", "Add"});
}

}  // namespace ort::test
