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

TEST_CASE("ValidateGraph finds values defined twice", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"y"});
  graph.AddInitializer("w", Tensor::Scalar<float>(1.0f));
  Node& first = Add(graph, "first", "Neg", {"x"}, {"y"});
  REQUIRE(ValidateGraph(graph).ok());

  SECTION("by two nodes") {
    Add(graph, "second", "Abs", {"x"}, {"y"});
    const Status status = ValidateGraph(graph);
    REQUIRE_FALSE(status.ok());
    CHECK(status.node() == "node 'first' (Neg)");
    CHECK(status.message().find("also defined by node 'second' (Abs)") != std::string::npos);
  }
  SECTION("by a node and a graph input") {
    graph.SetNodeOutput(first, 0, "x");
    graph.set_outputs({"x"});
    const Status status = ValidateGraph(graph);
    REQUIRE_FALSE(status.ok());
    CHECK(status.message().find("output 'x' in graph '' is also defined by a graph input") !=
          std::string::npos);
  }
  SECTION("by a node and an initializer") {
    graph.SetNodeOutput(first, 0, "w");
    graph.set_outputs({"w"});
    const Status status = ValidateGraph(graph);
    REQUIRE_FALSE(status.ok());
    CHECK(status.message().find("also defined by an initializer") != std::string::npos);
  }
}

TEST_CASE("ValidateGraph checks initializers against their recorded types", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.AddInitializer("w", Tensor::FromVector<float>({2}, {1.0f, 2.0f}));
  graph.set_outputs({"w"});
  REQUIRE(ValidateGraph(graph).ok());
  // A symbolic dimension does not contradict the data; a known one must match it.
  graph.SetValueType("w", ValueType::Tensor(DataType::kFloat, {{Dimension::Symbol("n")}}));
  CHECK(ValidateGraph(graph).ok());
  graph.SetValueType("w", ValueType::Tensor(DataType::kFloat, {{Dimension::Known(3)}}));
  CHECK(ValidateGraph(graph).message().find("initializer 'w' holds float[2]") != std::string::npos);
  graph.SetValueType("w", ValueType::Tensor(DataType::kInt64, {{Dimension::Known(2)}}));
  CHECK_FALSE(ValidateGraph(graph).ok());
}

TEST_CASE("CheckInterface accepts refined types and rejects changed ones", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"x", "bias"});
  graph.AddInitializer("bias", Tensor::Scalar<float>(0.0f));
  graph.set_outputs({"y"});
  const SymbolicShape dynamic = {Dimension::Symbol("batch"), Dimension::Known(4)};
  graph.SetValueType("x", ValueType::Tensor(DataType::kFloat, dynamic));
  graph.SetValueType("y", ValueType::Tensor(DataType::kFloat, dynamic));
  Add(graph, "neg", "Neg", {"x"}, {"y"});
  const GraphInterface before = CaptureInterface(graph);
  // The input with an initializer is a default, not part of what callers must feed.
  REQUIRE(before.inputs.size() == 1);

  graph.SetValueType(
      "y", ValueType::Tensor(DataType::kFloat, {{Dimension::Known(8), Dimension::Known(4)}}));
  CHECK(CheckInterface(graph, before).ok());

  graph.SetValueType("y", ValueType::Tensor(DataType::kFloat,
                                            {{Dimension::Symbol("batch"), Dimension::Known(5)}}));
  Status status = CheckInterface(graph, before);
  CHECK(status.message() ==
        "node 'neg' (Neg): output 'y' of graph '': its dimension 1 changed: "
        "tensor(float)[batch,4] before, tensor(float)[batch,5] now");
  CHECK(status.node() == "node 'neg' (Neg)");

  graph.SetValueType("y", ValueType::Tensor(DataType::kFloat));
  CHECK(CheckInterface(graph, before).message().find("its rank changed") != std::string::npos);
  graph.SetValueType("y", ValueType::Tensor(DataType::kFloat, dynamic));
  graph.set_inputs({"x"});
  CHECK(CheckInterface(graph, before).ok());
  graph.set_outputs({"x"});
  CHECK(CheckInterface(graph, before).message() ==
        "the outputs of graph '' changed from [y] to [x]");
}

TEST_CASE("A clone shares weights and restores the graph in place", "[ir][Graph]") {
  Model model;
  Graph& graph = model.graph();
  graph.set_inputs({"cond", "x"});
  graph.set_outputs({"out"});
  graph.AddInitializer("w", Tensor::FromVector<float>({2}, {1.0f, 2.0f}));
  Add(graph, "gone", "Neg", {"x"}, {"unused"});
  Add(graph, "mul", "Mul", {"x", "w"}, {"scaled"});
  auto body = std::make_unique<Graph>(nullptr);
  body->set_outputs({"branch_out"});
  body->AddNode({"inner", "Identity", "", {"scaled"}, {"branch_out"}, {}});
  NodeSpec spec{"if", "If", "", {"cond"}, {"out"}, {}};
  spec.attributes.push_back(Attribute::GraphValue("then_branch", std::move(body)));
  graph.AddNode(std::move(spec));
  graph.RemoveNode(0);
  graph.ResolveOuterScope();

  std::unique_ptr<Graph> snapshot = graph.Clone();
  CHECK(snapshot->GetNode(0) == nullptr);
  CHECK(snapshot->GetNode(1)->name() == "mul");
  CHECK(&snapshot->GetNode(1)->graph() == snapshot.get());
  CHECK(snapshot->GetInitializer("w")->SharesBufferWith(*graph.GetInitializer("w")));
  CHECK(snapshot->Producer("scaled") == snapshot->GetNode(1));
  const Graph& cloned_body = *snapshot->GetNode(2)->FindAttribute("then_branch")->g;
  CHECK(cloned_body.parent_graph() == snapshot.get());
  CHECK(cloned_body.parent_node() == snapshot->GetNode(2));
  CHECK(&cloned_body != graph.GetNode(2)->FindAttribute("then_branch")->g.get());

  // Edit the graph, then go back.
  graph.RemoveNode(1);
  graph.GetNode(2)->FindAttribute("then_branch")->g->set_outputs({});
  graph.AddNode({"extra", "Abs", "", {"x"}, {"scaled"}, {}});
  graph.RemoveInitializer("w");
  graph.RestoreFrom(std::move(snapshot));
  CHECK(graph.NodeCount() == 2);
  CHECK(graph.MaxNodeIndex() == 3);
  CHECK(graph.GetNode(1)->name() == "mul");
  CHECK(&graph.GetNode(1)->graph() == &graph);
  CHECK(graph.Producer("scaled") == graph.GetNode(1));
  CHECK(Names(graph.Consumers("scaled")) == std::vector<std::string>{"if"});
  CHECK(graph.GetInitializer("w") != nullptr);
  const Graph& restored_body = *graph.GetNode(2)->FindAttribute("then_branch")->g;
  CHECK(restored_body.parent_graph() == &graph);
  CHECK(restored_body.outputs() == std::vector<std::string>{"branch_out"});
  CHECK(ValidateGraph(graph).ok());
}

}  // namespace ort
