#include <catch2/catch.hpp>

#include <map>

#include "lib/ir/model.h"
#include "lib/optimizer/graph_optimizer.h"

namespace ort {
namespace {

// x -> Identity -> Identity -> Neg -> out.
Model IdentityChain() {
  Model model;
  model.opsets()[""] = 14;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.AddNode({"id1", "Identity", "", {"x"}, {"a"}, {}});
  graph.AddNode({"id2", "Identity", "", {"a"}, {"b"}, {}});
  graph.AddNode({"neg", "Neg", "", {"b"}, {"out"}, {}});
  graph.ResolveOuterScope();
  return model;
}

}  // namespace

TEST_CASE("The observer sees each rule's fires per pass application", "[optimizer]") {
  Model model = IdentityChain();
  std::map<std::string, int> fires;
  std::vector<std::string> levels;
  const OptimizerObserver observer = [&](const OptimizerStep& step) {
    if (step.kind == OptimizerStep::Kind::kLevel) levels.emplace_back(step.name);
    for (const RuleFireCount& fired : step.rule_fires)
      fires[std::string(fired.rule)] += fired.count;
  };
  REQUIRE(OptimizeGraph(model, {OptimizationLevel::kBasic, {}}, {}, observer).ok());
  CHECK(model.graph().NodeCount() == 1);
  CHECK(fires == std::map<std::string, int>{{"eliminate_identity", 2}});
  CHECK(levels == std::vector<std::string>{"basic"});
}

TEST_CASE("Levels already applied are skipped", "[optimizer]") {
  Model model = IdentityChain();
  std::vector<std::string> levels;
  const OptimizerObserver observer = [&](const OptimizerStep& step) {
    if (step.kind == OptimizerStep::Kind::kLevel) levels.emplace_back(step.name);
  };
  OptimizerOptions options{OptimizationLevel::kAll, {}, OptimizationLevel::kBasic};
  REQUIRE(OptimizeGraph(model, options, {}, observer).ok());
  CHECK(levels == std::vector<std::string>{"extended", "all"});
  CHECK(model.graph().NodeCount() == 3);  // the basic rules did not run
}

TEST_CASE("Domains of the optimized graph's nodes are imported", "[optimizer]") {
  Model model;
  model.opsets()[""] = 14;
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.AddNode({"gelu", "Gelu", std::string(kMsDomain), {"x"}, {"out"}, {}});
  graph.ResolveOuterScope();
  REQUIRE(OptimizeGraph(model, {OptimizationLevel::kBasic, {}}, {}).ok());
  CHECK(model.opsets().at(std::string(kMsDomain)) == 1);
}

}  // namespace ort
