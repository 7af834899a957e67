#include <catch2/catch.hpp>

#include "lib/ir/graph_validation.h"
#include "lib/ir/model.h"

namespace ort {
namespace {

Node& Add(Graph& graph, const std::string& name, const std::string& op,
          std::vector<std::string> inputs, std::vector<std::string> outputs) {
  return graph.AddNode({name, op, "", std::move(inputs), std::move(outputs), {}});
}

std::vector<std::string> Names(const std::vector<Node*>& nodes) {
  std::vector<std::string> names;
  for (const Node* node : nodes) names.push_back(node->name());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("Graph tracks producers and consumers through edits", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"z"});
  Node& relu = Add(graph, "relu", "Relu", {"x"}, {"y"});
  Node& neg = Add(graph, "neg", "Neg", {"y"}, {"z"});
  Add(graph, "abs", "Abs", {"y"}, {"w"});

  CHECK(graph.Producer("y") == &relu);
  CHECK(graph.Producer("x") == nullptr);
  CHECK(Names(graph.Consumers("y")) == std::vector<std::string>{"abs", "neg"});

  graph.SetNodeInput(neg, 0, "x");
  CHECK(Names(graph.Consumers("y")) == std::vector<std::string>{"abs"});
  CHECK(Names(graph.Consumers("x")) == std::vector<std::string>{"neg", "relu"});

  graph.ReplaceAllUses("x", "y");
  CHECK(graph.Consumers("x").empty());
  CHECK(neg.inputs()[0] == "y");

  graph.RemoveNode(relu.index());
  CHECK(graph.NodeCount() == 2);
  CHECK(graph.Producer("y") == nullptr);
  CHECK(graph.GetNode(0) == nullptr);
}

TEST_CASE("ReplaceAllUses rewires graph outputs too", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  Add(graph, "id", "Identity", {"x"}, {"y"});
  graph.ReplaceAllUses("y", "x");
  CHECK(graph.outputs() == std::vector<std::string>{"x"});
}

TEST_CASE("TopologicalOrder sorts producers first and detects cycles", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"c"});
  Add(graph, "third", "Neg", {"b"}, {"c"});
  Add(graph, "first", "Neg", {"x"}, {"a"});
  Add(graph, "second", "Neg", {"a"}, {"b"});
  auto order = graph.TopologicalOrder();
  REQUIRE(order.ok());
  std::vector<std::string> names;
  for (NodeIndex index : *order) names.push_back(graph.GetNode(index)->name());
  CHECK(names == std::vector<std::string>{"first", "second", "third"});

  Node& first = *graph.GetNode(1);
  graph.SetNodeInput(first, 0, "c");
  auto cyclic = graph.TopologicalOrder();
  REQUIRE_FALSE(cyclic.ok());
  CHECK(cyclic.status().message().find("cycle") != std::string::npos);
}

TEST_CASE("Subgraphs see outer values as implicit inputs of their node", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"cond", "x"});
  graph.set_outputs({"out"});
  Add(graph, "scale", "Neg", {"x"}, {"scaled"});

  auto branch = [](const std::string& read) {
    auto body = std::make_unique<Graph>(nullptr);
    body->set_outputs({"branch_out"});
    body->AddNode({"inner", "Identity", "", {read}, {"branch_out"}, {}});
    return body;
  };
  NodeSpec spec{"if", "If", "", {"cond"}, {"out"}, {}};
  spec.attributes.push_back(Attribute::GraphValue("then_branch", branch("scaled")));
  spec.attributes.push_back(Attribute::GraphValue("else_branch", branch("x")));
  Node& if_node = graph.AddNode(std::move(spec));
  graph.ResolveOuterScope();

  // Attribute order: else_branch (reads x) before then_branch (reads scaled).
  CHECK(if_node.implicit_inputs() == std::vector<std::string>{"x", "scaled"});
  CHECK(Names(graph.Consumers("scaled")) == std::vector<std::string>{"if"});
  const Graph& then_branch = *if_node.FindAttribute("then_branch")->g;
  CHECK(then_branch.parent_graph() == &graph);
  CHECK(then_branch.outer_scope_values() == std::vector<std::string>{"scaled"});
  CHECK(ValidateGraph(graph).ok());

  auto order = graph.TopologicalOrder();
  REQUIRE(order.ok());
  CHECK(graph.GetNode(order->back())->name() == "if");
}

TEST_CASE("ValidateGraph names the node reading an undefined value", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  Add(graph, "broken", "Add", {"x", "nowhere"}, {"y"});
  Status status = ValidateGraph(graph);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message().find("node 'broken' (Add)") != std::string::npos);
  CHECK(status.message().find("'nowhere'") != std::string::npos);
}

TEST_CASE("Initializers that are also inputs are not constant", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.AddInitializer("w", Tensor::Scalar<float>(1.0f));
  graph.AddInitializer("bias", Tensor::Scalar<float>(2.0f));
  graph.set_inputs({"x", "bias"});
  CHECK(graph.GetConstantInitializer("w", false) != nullptr);
  CHECK(graph.GetConstantInitializer("bias", false) == nullptr);
  CHECK(graph.InputsWithoutInitializers() == std::vector<std::string>{"x"});
  CHECK(graph.FindValueInfo("w")->type.ToString() == "tensor(float)[]");
}

TEST_CASE("Unique names avoid existing values and nodes", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"v_0"});
  Add(graph, "n_0", "Neg", {"v_0"}, {"v_1"});
  const std::string value = graph.UniqueValueName("v");
  CHECK(value != "v_0");
  CHECK(value != "v_1");
  CHECK(graph.UniqueNodeName("n") != "n_0");
}

}  // namespace ort
