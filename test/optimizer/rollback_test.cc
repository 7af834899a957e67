// The optimizer rolls back a pass that breaks the graph: deliberately broken test passes and rules
// are undone, warned about once and skipped while the other passes go on; strict mode makes them
// errors naming the pass.
#include <catch2/catch.hpp>

#include "lib/onnx/model_proto.h"
#include "lib/optimizer/graph_optimizer.h"
#include "lib/optimizer/rewrite_rule.h"
#include "providers/cpu/cpu_provider.h"
#include "test/optimizer/optimizer_test_util.h"

namespace ort {
namespace {

using Passes = std::vector<std::shared_ptr<const GraphTransformer>>;

// x -> Identity -> a -> Neg -> b -> Relu -> out: the basic rules remove the Identity; the broken
// passes below edit the Neg.
Model Chain() {
  Model model = test::MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.SetValueType("x", test::FloatTensor({2, 3}));
  graph.SetValueType("out", test::FloatTensor({2, 3}));
  graph.AddNode({"id", "Identity", "", {"x"}, {"a"}, {}});
  graph.AddNode({"neg", "Neg", "", {"a"}, {"b"}, {}});
  graph.AddNode({"relu", "Relu", "", {"b"}, {"out"}, {}});
  return model;
}

// A basic-level pass that edits the first Neg node with `edit` and returns what it returns.
class NegEditingPass final : public GraphTransformer {
 public:
  using Edit = std::function<Status(Graph&, Node&)>;
  NegEditingPass(std::string name, Edit edit)
      : GraphTransformer(std::move(name), OptimizationLevel::kBasic), edit_(std::move(edit)) {}

  Status Apply(Graph& graph, const OptimizerContext&, bool& changed) const override {
    ++*applications_;
    for (Node* node : graph.Nodes()) {
      if (node->op_type() != "Neg") continue;
      changed = true;
      return edit_(graph, *node);
    }
    return Status::OK();
  }
  const std::shared_ptr<int>& applications() const { return applications_; }

 private:
  Edit edit_;
  std::shared_ptr<int> applications_ = std::make_shared<int>(0);
};

struct BrokenPass {
  std::string name;
  NegEditingPass::Edit edit;
  std::string reason;  // part of what the rollback says
};

std::vector<BrokenPass> BrokenPasses() {
  return {
      {"make_cycle",
       [](Graph& graph, Node& neg) {
         graph.SetNodeInput(neg, 0, "out");  // the Relu's output, which reads the Neg's
         return Status::OK();
       },
       "cycle"},
      {"dangle_input",
       [](Graph& graph, Node& neg) {
         graph.SetNodeInput(neg, 0, "nowhere");
         return Status::OK();
       },
       "input 'nowhere' is not produced"},
      {"fail_midway",
       [](Graph& graph, Node& neg) {
         graph.RemoveNode(neg.index());
         return ORT_ERROR(kFail, "gave up halfway");
       },
       "gave up halfway"},
      {"define_twice",
       [](Graph& graph, Node&) {
         graph.AddNode({"abs", "Abs", "", {"x"}, {"b"}, {}});
         return Status::OK();
       },
       "output 'b' in graph '' is also defined by node 'abs' (Abs)"},
      {"retype_output",
       [](Graph& graph, Node&) {
         graph.SetValueType("out",
                            ValueType::Tensor(DataType::kInt64, test::FloatTensor({2, 3}).shape));
         return Status::OK();
       },
       "output 'out' of graph '': its element type changed"},
      {"rename_output",
       [](Graph& graph, Node&) {
         graph.set_outputs({"b"});
         return Status::OK();
       },
       "the outputs of graph '' changed from [out] to [b]"},
  };
}

struct Optimized {
  Status status;
  std::vector<OptimizerRollback> rollbacks;
  std::vector<std::string> warnings;
  std::map<std::string, int> fires;  // the rules' fires in applications that were kept
};

Optimized Optimize(Model& model, Passes passes, bool strict = false,
                   std::set<std::string> disabled = {}) {
  OptimizerOptions options;
  options.level = OptimizationLevel::kBasic;
  options.strict = strict;
  options.custom_passes = std::move(passes);
  options.disabled_passes = std::move(disabled);
  Optimized result;
  test::WarningCapture capture;
  std::map<std::string, int> iteration_fires;
  result.status = OptimizeGraph(model, options, {}, [&](const OptimizerStep& step) {
    if (step.kind == OptimizerStep::Kind::kRollback) {
      result.rollbacks.push_back(*step.rollback);
      iteration_fires.clear();  // the iteration runs again
    }
    for (const RuleFireCount& fired : step.rule_fires) {
      iteration_fires[std::string(fired.rule)] += fired.count;
    }
    if (step.kind == OptimizerStep::Kind::kLevel) result.fires.swap(iteration_fires);
  });
  result.warnings = capture.warnings();
  return result;
}

std::string Serialized(const Model& model) { return SerializeModel(model).value(); }

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("A pass that breaks the graph is rolled back, warned about and skipped",
          "[optimizer][rollback]") {
  const BrokenPass broken = GENERATE(from_range(BrokenPasses()));
  INFO(broken.name);
  Model reference = Chain();
  REQUIRE(Optimize(reference, {}).status.ok());

  Model model = Chain();
  auto pass = std::make_shared<NegEditingPass>(broken.name, broken.edit);
  const Optimized optimized = Optimize(model, {pass});
  INFO(optimized.status.ToString());
  REQUIRE(optimized.status.ok());
  REQUIRE(optimized.rollbacks.size() == 1);
  const OptimizerRollback& rollback = optimized.rollbacks[0];
  CHECK(rollback.pass == broken.name);
  CHECK(rollback.rule.empty());
  CHECK(Contains(rollback.reason, broken.reason));
  REQUIRE(optimized.warnings.size() == 1);
  CHECK(Contains(optimized.warnings[0], "optimizer pass '" + broken.name + "'"));
  CHECK(Contains(optimized.warnings[0], broken.reason));
  CHECK(Contains(optimized.warnings[0], "rolled back"));
  // Skipped after its one failed application, while the level ran on.
  CHECK(*pass->applications() == 1);
  CHECK(test::CountOps(model.graph(), "Identity") == 0);
  CHECK(Serialized(model) == Serialized(reference));
}

TEST_CASE("Strict mode makes a pass that breaks the graph an error naming it",
          "[optimizer][rollback]") {
  const BrokenPass broken = GENERATE(from_range(BrokenPasses()));
  INFO(broken.name);
  Model model = Chain();
  const Optimized optimized =
      Optimize(model, {std::make_shared<NegEditingPass>(broken.name, broken.edit)}, true);
  REQUIRE_FALSE(optimized.status.ok());
  CHECK(Contains(optimized.status.message(), "optimizer pass '" + broken.name + "'"));
  CHECK(Contains(optimized.status.message(), broken.reason));
  CHECK(optimized.rollbacks.empty());
  CHECK(optimized.warnings.empty());
}

TEST_CASE("The rollback names the node of a cycle", "[optimizer][rollback]") {
  Model model = Chain();
  const Optimized optimized =
      Optimize(model, {std::make_shared<NegEditingPass>("make_cycle", BrokenPasses()[0].edit)});
  REQUIRE(optimized.rollbacks.size() == 1);
  const std::string& node = optimized.rollbacks[0].node;
  CHECK((node == "node 'neg' (Neg)" || node == "node 'relu' (Relu)"));
}

namespace {

// Relu(Relu(v)) -> Relu(v), unless the outer Relu's output is a graph output.
class RemoveDoubleRelu final : public RewriteRule {
 public:
  RemoveDoubleRelu() : RewriteRule("remove_double_relu", {"Relu"}) {}
  bool Matches(const Graph& graph, const Node& node) const override {
    const Node* inner = graph.Producer(node.inputs()[0]);
    return inner != nullptr && inner->op_type() == "Relu" &&
           !graph.IsGraphOutput(node.outputs()[0]);
  }
  Status Rewrite(Graph& graph, Node& node, bool& node_removed) const override {
    const std::string from = node.outputs()[0];
    const std::string to = node.inputs()[0];
    graph.RemoveNode(node.index());
    graph.ReplaceAllUses(from, to);
    node_removed = true;
    return Status::OK();
  }
};

// Rewires every Neg to a value nothing defines, and optionally reports an error too.
class BreakNeg final : public RewriteRule {
 public:
  BreakNeg(std::string name, bool fail) : RewriteRule(std::move(name), {"Neg"}), fail_(fail) {}
  bool Matches(const Graph&, const Node& node) const override {
    return node.inputs()[0] != "nowhere";
  }
  Status Rewrite(Graph& graph, Node& node, bool&) const override {
    graph.SetNodeInput(node, 0, "nowhere");
    return fail_ ? ORT_ERROR(kFail, "cannot rewire") : Status::OK();
  }

 private:
  bool fail_;
};

// x -> Relu -> a -> Relu -> b -> Neg -> out.
Model DoubleRelu() {
  Model model = test::MakeModel();
  Graph& graph = model.graph();
  graph.set_inputs({"x"});
  graph.set_outputs({"out"});
  graph.AddNode({"r1", "Relu", "", {"x"}, {"a"}, {}});
  graph.AddNode({"r2", "Relu", "", {"a"}, {"b"}, {}});
  graph.AddNode({"neg", "Neg", "", {"b"}, {"out"}, {}});
  return model;
}

std::shared_ptr<const GraphTransformer> ReluRules(const std::string& broken_rule, bool fail) {
  std::vector<std::unique_ptr<RewriteRule>> rules;
  rules.push_back(std::make_unique<RemoveDoubleRelu>());
  rules.push_back(std::make_unique<BreakNeg>(broken_rule, fail));
  return std::make_shared<RuleBasedTransformer>("relu_rules", OptimizationLevel::kBasic,
                                                std::move(rules));
}

}  // namespace

TEST_CASE("Only the rule that broke the graph is rolled back and skipped",
          "[optimizer][rollback]") {
  // The rule leaves a dangling input (found by validating after each rewrite), or also fails.
  const bool fail = GENERATE(false, true);
  const std::string rule = fail ? "break_neg_and_fail" : "break_neg";
  INFO(rule);
  Model reference = DoubleRelu();
  const Optimized expected = Optimize(reference, {ReluRules(rule, fail)}, false, {rule});
  REQUIRE(expected.status.ok());
  REQUIRE(expected.rollbacks.empty());

  Model model = DoubleRelu();
  const Optimized optimized = Optimize(model, {ReluRules(rule, fail)});
  REQUIRE(optimized.status.ok());
  REQUIRE(optimized.rollbacks.size() == 1);
  const OptimizerRollback& rollback = optimized.rollbacks[0];
  CHECK(rollback.pass == "relu_rules");
  CHECK(rollback.rule == rule);
  CHECK(rollback.node == "node 'neg' (Neg)");
  CHECK(Contains(rollback.reason, fail ? "cannot rewire" : "input 'nowhere' is not produced"));
  REQUIRE(optimized.warnings.size() == 1);
  CHECK(Contains(optimized.warnings[0], "pass 'relu_rules', rule '" + rule + "', at node 'neg'"));
  // The other rule of the group still fired.
  CHECK(optimized.fires.at("remove_double_relu") == 1);
  CHECK(test::CountOps(model.graph(), "Relu") == 1);
  CHECK(Serialized(model) == Serialized(reference));

  Model strict = DoubleRelu();
  const Optimized failed = Optimize(strict, {ReluRules(rule, fail)}, true);
  REQUIRE_FALSE(failed.status.ok());
  CHECK(Contains(failed.status.message(), "optimizer pass 'relu_rules'"));
}

TEST_CASE("A graph invalid before optimization is an error, not a rollback",
          "[optimizer][rollback]") {
  Model model = Chain();
  model.graph().AddNode({"stray", "Abs", "", {"missing"}, {"c"}, {}});
  const Optimized optimized = Optimize(model, {});
  REQUIRE_FALSE(optimized.status.ok());
  CHECK(Contains(optimized.status.message(), "graph invalid before optimization"));
  CHECK(optimized.rollbacks.empty());
}

TEST_CASE("A session rolls back a broken custom pass and runs the model",
          "[optimizer][rollback][session]") {
  const bool strict = GENERATE(false, true);
  SessionOptions options;
  options.strict_optimizer = strict;
  InferenceSession session(options);
  REQUIRE(session.RegisterProvider(std::make_unique<CpuExecutionProvider>()).ok());
  REQUIRE(session
              .RegisterGraphTransformer(
                  std::make_unique<NegEditingPass>("make_cycle", BrokenPasses()[0].edit))
              .ok());
  CHECK_FALSE(session
                  .RegisterGraphTransformer(
                      std::make_unique<NegEditingPass>("constant_folding", BrokenPasses()[0].edit))
                  .ok());
  REQUIRE(session.Load(std::make_unique<Model>(Chain())).ok());
  const Status initialized = session.Initialize();
  if (strict) {
    REQUIRE_FALSE(initialized.ok());
    CHECK(Contains(initialized.message(), "optimizer pass 'make_cycle'"));
    return;
  }
  INFO(initialized.ToString());
  REQUIRE(initialized.ok());
  REQUIRE(session.optimizer_rollbacks().size() == 1);
  CHECK(session.optimizer_rollbacks()[0].pass == "make_cycle");
  const std::vector<NamedValue> feeds = {
      {"x", Value(Tensor::FromVector<float>({2, 3}, {-1, 2, -3, 4, -5, 6}))}};
  std::vector<Value> outputs;
  REQUIRE(session.Run({}, feeds, {}, &outputs).ok());
  const auto out = outputs[0].tensor().Span<float>();
  CHECK(std::vector<float>(out.begin(), out.end()) == std::vector<float>{1, 0, 3, 0, 5, 0});
}

}  // namespace ort
