#include <catch2/catch.hpp>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"

namespace ort {

TEST_CASE("Identity and inference Dropout nodes are removed", "[optimizer]") {
  Model model;
  model.opsets()[""] = 14;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out", "kept"});
  graph.AddNode({"id", "Identity", "", {"x"}, {"a"}, {}});
  graph.AddNode({"drop", "Dropout", "", {"a"}, {"b"}, {}});
  graph.AddNode({"masked", "Dropout", "", {"b"}, {"c", "mask"}, {}});
  graph.AddNode({"neg", "Neg", "", {"c"}, {"out"}, {}});
  graph.AddNode({"output_id", "Identity", "", {"mask"}, {"kept"}, {}});
  graph.ResolveOuterScope();

  REQUIRE(OptimizeGraph(model, {.level = OptimizationLevel::kBasic, .strict = true}, {}).ok());
  std::vector<std::string> ops;
  for (const Node* node : graph.Nodes()) ops.push_back(node->name());
  // The Dropout whose mask is used and the Identity defining a graph output stay.
  CHECK(ops == std::vector<std::string>{"masked", "neg", "output_id"});
  CHECK(graph.GetNode(2)->inputs()[0] == "x");

  Model untouched;
  untouched.opsets()[""] = 14;
  untouched.graph().set_inputs({"x"});
  untouched.graph().set_outputs({"y"});
  untouched.graph().AddNode({"id", "Identity", "", {"x"}, {"t"}, {}});
  untouched.graph().AddNode({"neg", "Neg", "", {"t"}, {"y"}, {}});
  REQUIRE(OptimizeGraph(untouched, {OptimizationLevel::kDisable, {}}, {}).ok());
  CHECK(untouched.graph().NodeCount() == 2);
}

TEST_CASE("Dropout that passes its input through is removed, random Dropout stays", "[optimizer]") {
  // torch exports dropout(p=0) as Dropout(x, 0.0, training_mode=true) with an unread mask.
  Model model;
  model.opsets()[""] = 14;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.AddInitializer("zero", Tensor::Scalar<float>(0.0f));
  graph.AddInitializer("half", Tensor::Scalar<float>(0.5f));
  graph.AddInitializer("training", Tensor::Scalar<bool>(true));
  graph.AddInitializer("inference", Tensor::Scalar<bool>(false));
  graph.AddNode({"p0_training", "Dropout", "", {"x", "zero", "training"}, {"a", "a_mask"}, {}});
  graph.AddNode({"p_half_inference", "Dropout", "", {"a", "half", "inference"}, {"b"}, {}});
  graph.AddNode({"random", "Dropout", "", {"b", "half", "training"}, {"c"}, {}});
  graph.AddNode({"neg", "Neg", "", {"c"}, {"out"}, {}});
  graph.ResolveOuterScope();

  REQUIRE(OptimizeGraph(model, {.level = OptimizationLevel::kBasic, .strict = true}, {}).ok());
  std::vector<std::string> ops;
  for (const Node* node : graph.Nodes()) ops.push_back(node->name());
  CHECK(ops == std::vector<std::string>{"random", "neg"});
  CHECK(graph.Producer("c")->inputs()[0] == "x");
}

}  // namespace ort
