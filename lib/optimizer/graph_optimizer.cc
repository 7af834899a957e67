#include "lib/optimizer/graph_optimizer.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/ranges.h>

#include "lib/common/logging.h"
#include "lib/ir/graph_validation.h"
#include "lib/onnx/model_loader.h"
#include "lib/optimizer/passes.h"

namespace ort {
namespace {

// A level is re-run while it keeps changing the graph, at most this many times.
constexpr int kMaxIterationsPerLevel = 10;

// Fused nodes may use a domain the original model did not import (com.microsoft); a saved model
// must import every domain its nodes use.
void ImportUsedDomains(const Graph& graph, OpsetMap& opsets) {
  for (const Node* node : graph.Nodes()) {
    if (!node->domain().empty() && opsets.count(node->domain()) == 0) opsets[node->domain()] = 1;
    for (const Graph* subgraph : node->Subgraphs()) ImportUsedDomains(*subgraph, opsets);
  }
}

// Collects the rules of the rule group being read from passes.inc into one pass.
class RuleGroup {
 public:
  void Start(std::string name, OptimizationLevel level,
             std::vector<std::unique_ptr<GraphTransformer>>& passes) {
    Finish(passes);
    name_ = std::move(name);
    level_ = level;
  }
  void Add(std::unique_ptr<RewriteRule> rule) { rules_.push_back(std::move(rule)); }
  void Finish(std::vector<std::unique_ptr<GraphTransformer>>& passes) {
    if (rules_.empty()) return;
    passes.push_back(
        std::make_unique<RuleBasedTransformer>(std::move(name_), level_, std::move(rules_)));
    rules_.clear();
  }

 private:
  std::string name_;
  OptimizationLevel level_ = OptimizationLevel::kBasic;
  std::vector<std::unique_ptr<RewriteRule>> rules_;
};

}  // namespace

std::vector<std::unique_ptr<GraphTransformer>> BuiltInPasses() {
  std::vector<std::unique_ptr<GraphTransformer>> passes;
  RuleGroup group;
#define ORT_RULE_GROUP(name, level) group.Start(#name, OptimizationLevel::level, passes);
#define ORT_SESSION_RULE_GROUP(name, level) ORT_RULE_GROUP(name, level)
#define ORT_RULE(Name) group.Add(Create##Name##Rule());
#define ORT_PASS(Name)  \
  group.Finish(passes); \
  passes.push_back(Create##Name());
#include "lib/optimizer/passes.inc"
#undef ORT_RULE_GROUP
#undef ORT_SESSION_RULE_GROUP
#undef ORT_RULE
#undef ORT_PASS
  group.Finish(passes);
  return passes;
}

bool IsSessionOnlyPass(std::string_view name) {
  static const std::set<std::string, std::less<>> session_only = [] {
    std::set<std::string, std::less<>> names;
#define ORT_RULE_GROUP(name, level)
#define ORT_SESSION_RULE_GROUP(name, level) names.insert(#name);
#define ORT_RULE(Name)
#define ORT_PASS(Name)
#include "lib/optimizer/passes.inc"
#undef ORT_RULE_GROUP
#undef ORT_SESSION_RULE_GROUP
#undef ORT_RULE
#undef ORT_PASS
    return names;
  }();
  return session_only.count(name) > 0;
}

std::vector<std::string> DisablePassNames() {
  std::vector<std::string> names;
  for (const auto& pass : BuiltInPasses()) {
    names.push_back(pass->name());
    for (auto& rule : pass->RuleNames()) names.push_back(std::move(rule));
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string DescribeRollback(const OptimizerRollback& rollback) {
  std::string text = "pass '" + rollback.pass + "'";
  if (!rollback.rule.empty()) text += ", rule '" + rollback.rule + "'";
  if (!rollback.node.empty()) text += ", at " + rollback.node;
  return text + ": " + rollback.reason;
}

namespace {

using Clock = std::chrono::steady_clock;

// What a level goes back to when one of its passes broke the graph: the graph (whose
// initializers share their buffers with the live graph's) and the opset imports fusions extend.
struct Snapshot {
  std::unique_ptr<Graph> graph;
  OpsetMap opsets;
};

// A pass application that failed or left an invalid graph.
struct Failure {
  Status status;  // the error of strict mode
  OptimizerRollback rollback;
};

struct Outcome {
  bool changed = false;
  std::optional<Failure> failure;
};

// A rewrite of a rule-based pass that failed or broke the graph.
struct FailedRewrite {
  std::string rule;
  std::string node;  // the node the rewrite was rooted at
  Status status;
};

// The message of `error` without the description of `node` that WithNode put in it: the rollback
// names the node once.
std::string ReasonWithout(const Status& error, const std::string& node) {
  std::string reason = error.message();
  if (!error.names_node() || error.node() != node) return reason;
  const size_t at = reason.find(node + ": ");
  if (at != std::string::npos) reason.erase(at, node.size() + 2);
  return reason;
}

// One optimization of one model.
class Optimization {
 public:
  Optimization(Model& model, const OptimizerOptions& options,
               std::span<IExecutionProvider* const> providers, const OptimizerObserver& observer)
      : model_(model), options_(options), providers_(providers), observer_(observer) {
    for (auto& pass : BuiltInPasses()) passes_.push_back(std::move(pass));
    passes_.insert(passes_.end(), options.custom_passes.begin(), options.custom_passes.end());
    disabled_ = options.disabled_passes;
    context_.providers = providers;
    context_.disabled = &disabled_;
    context_.rule_fires = observer ? &rule_fires_ : nullptr;
    context_.check_rewrite = [this](const std::string& rule, const std::string& node,
                                    Status status) {
      if (status.ok() && validate_each_rewrite_) status = CheckGraph();
      if (!status.ok() && !failed_rewrite_) failed_rewrite_ = FailedRewrite{rule, node, status};
      return status;
    };
  }

  Status Run();

 private:
  Status CheckDisabledNames() const;
  // Runs `current` until an iteration changes nothing (bounded), rolling back failed passes.
  Status RunLevel(OptimizationLevel current, OptimizerStep& level_step);
  // Runs the iterations of `current` once; false when a pass was rolled back (the graph is then
  // back at the level's start, `snapshot`).
  Result<bool> RunIterations(OptimizationLevel current, OptimizerStep& level_step,
                             std::optional<Snapshot>& snapshot);
  // Levels up to options_.applied_level were applied to the saved model, except for the
  // session-only passes, which no saved model has had.
  bool Runs(const GraphTransformer& pass, OptimizationLevel level) const {
    if (pass.level() != level || context_.IsDisabled(pass.name()) ||
        !pass.ServesPreferred(providers_)) {
      return false;
    }
    if (IsSessionOnlyPass(pass.name())) return !options_.for_saving;
    return static_cast<int>(level) > static_cast<int>(options_.applied_level);
  }
  // Applies one pass, validates the graph when it changed and tells the observer.
  Outcome Apply(const GraphTransformer& pass, int iteration);
  Failure MakeFailure(const GraphTransformer& pass, const Status& error, std::string_view context);
  // Puts `snapshot` back after `pass` failed. The culprit (the pass, or the rule of a rule-based
  // pass whose rewrite failed) is disabled, warned about and told to the observer, unless
  // `may_retry` and the rule is still unknown: then the level runs again, validating after each
  // of that pass's rewrites. Strict mode returns the failure's error instead.
  Status RollBack(const GraphTransformer& pass, Failure failure, std::optional<Snapshot> snapshot,
                  int iteration, bool may_retry);
  std::optional<Snapshot> TakeSnapshot() const {
    if (options_.strict) return std::nullopt;
    return Snapshot{model_.graph().Clone(), model_.opsets()};
  }
  Status CheckGraph() {
    Graph& graph = model_.graph();
    graph.ResolveOuterScope();
    ORT_RETURN_IF_ERROR(ValidateGraph(graph));
    return CheckInterface(graph, interface_);
  }
  Clock::time_point Now() const { return observer_ ? Clock::now() : Clock::time_point(); }

  Model& model_;
  const OptimizerOptions& options_;
  std::span<IExecutionProvider* const> providers_;
  const OptimizerObserver& observer_;
  std::vector<std::shared_ptr<const GraphTransformer>> passes_;
  // The caller's disabled passes and rules, and the culprits of rollbacks.
  std::set<std::string> disabled_;
  GraphInterface interface_;
  std::map<std::string, int> rule_fires_;
  std::vector<RuleFireCount> fired_rules_;
  OptimizerContext context_;
  // The first rewrite that failed during the current pass application.
  std::optional<FailedRewrite> failed_rewrite_;
  bool validate_each_rewrite_ = false;
  // The rule-based pass whose failure the current level re-runs to find the culprit rule.
  const GraphTransformer* bisected_ = nullptr;
};

Status Optimization::CheckDisabledNames() const {
  std::vector<std::string> known;
  for (const auto& pass : passes_) {
    known.push_back(pass->name());
    for (auto& rule : pass->RuleNames()) known.push_back(std::move(rule));
  }
  std::sort(known.begin(), known.end());
  for (const auto& name : options_.disabled_passes) {
    if (!std::binary_search(known.begin(), known.end(), name)) {
      return ORT_ERROR(kInvalidArgument, "cannot disable unknown optimizer pass '{}' (known: {})",
                       name, fmt::join(known, ", "));
    }
  }
  return Status::OK();
}

Failure Optimization::MakeFailure(const GraphTransformer& pass, const Status& error,
                                  std::string_view context) {
  Failure failure{error.WithContext(fmt::format("{} '{}'", context, pass.name())), {}};
  failure.rollback.pass = pass.name();
  if (failed_rewrite_) {
    failure.rollback.rule = failed_rewrite_->rule;
    failure.rollback.node = failed_rewrite_->node;
    failure.rollback.reason = ReasonWithout(failed_rewrite_->status, failed_rewrite_->node);
  } else {
    failure.rollback.node = error.node();
    failure.rollback.reason = ReasonWithout(error, error.node());
  }
  return failure;
}

Outcome Optimization::Apply(const GraphTransformer& pass, int iteration) {
  Outcome outcome;
  rule_fires_.clear();
  failed_rewrite_.reset();
  const Clock::time_point start = Now();
  validate_each_rewrite_ = &pass == bisected_;
  Status status = pass.Apply(model_.graph(), context_, outcome.changed);
  validate_each_rewrite_ = false;
  if (!status.ok()) {
    outcome.failure = MakeFailure(pass, status, "optimizer pass");
    return outcome;
  }
  if (outcome.changed) {
    status = CheckGraph();
    if (!status.ok()) {
      outcome.failure = MakeFailure(pass, status, "graph invalid after optimizer pass");
      return outcome;
    }
    ORT_LOG_VERBOSE("optimizer pass '{}' changed the graph", pass.name());
  }
  if (observer_) {
    const Clock::time_point end = Clock::now();
    fired_rules_.clear();
    for (const auto& [rule, count] : rule_fires_) fired_rules_.push_back({rule, count});
    OptimizerStep step;
    step.name = pass.name();
    step.level = pass.level();
    step.iteration = iteration;
    step.changed = outcome.changed;
    step.start = start;
    step.end = end;
    step.rule_fires = fired_rules_;
    observer_(step);
  }
  return outcome;
}

Status Optimization::RollBack(const GraphTransformer& pass, Failure failure,
                              std::optional<Snapshot> snapshot, int iteration, bool may_retry) {
  if (!snapshot) return failure.status;
  const Clock::time_point start = Now();
  model_.graph().RestoreFrom(std::move(snapshot->graph));
  model_.opsets() = std::move(snapshot->opsets);
  const bool rule_based = !pass.RuleNames().empty();
  if (may_retry && rule_based && failure.rollback.rule.empty() && bisected_ != &pass) {
    bisected_ = &pass;
    return Status::OK();
  }
  bisected_ = nullptr;
  const OptimizerRollback& rollback = failure.rollback;
  disabled_.insert(rollback.rule.empty() ? rollback.pass : rollback.rule);
  ORT_LOG_WARNING(
      "{}optimizer {}; its edits were rolled back and the {} is skipped for the rest of this "
      "optimization (strict optimizer mode makes this an error)",
      model_.path.empty() ? "" : model_.path + ": ", DescribeRollback(rollback),
      rollback.rule.empty() ? "pass" : "rule");
  if (observer_) {
    OptimizerStep step;
    step.kind = OptimizerStep::Kind::kRollback;
    step.name = pass.name();
    step.level = pass.level();
    step.iteration = iteration;
    step.changed = true;
    step.start = start;
    step.end = Clock::now();
    step.rollback = &rollback;
    observer_(step);
  }
  return Status::OK();
}

Status Optimization::RunLevel(OptimizationLevel current, OptimizerStep& level_step) {
  // Passes are deterministic: after a rollback, running the level again from its start, without
  // the culprit, redoes the edits of the passes before it. One snapshot per level (rather than
  // per pass or iteration) keeps the cost of a graph copy to a few per optimization.
  for (;;) {
    std::optional<Snapshot> snapshot = TakeSnapshot();
    ORT_ASSIGN_OR_RETURN(const bool completed, RunIterations(current, level_step, snapshot));
    if (completed) return Status::OK();
  }
}

Result<bool> Optimization::RunIterations(OptimizationLevel current, OptimizerStep& level_step,
                                         std::optional<Snapshot>& snapshot) {
  level_step.iteration = 0;
  level_step.changed = false;
  for (int iteration = 0; iteration < kMaxIterationsPerLevel; ++iteration) {
    bool changed = false;
    for (const auto& pass : passes_) {
      if (!Runs(*pass, current)) continue;
      Outcome outcome = Apply(*pass, iteration);
      if (outcome.failure) {
        ORT_RETURN_IF_ERROR(RollBack(*pass, std::move(*outcome.failure), std::move(snapshot),
                                     iteration, /*may_retry=*/true));
        return false;
      }
      changed = changed || outcome.changed;
    }
    level_step.iteration = iteration + 1;
    level_step.changed = level_step.changed || changed;
    if (!changed) break;
  }
  bisected_ = nullptr;
  return true;
}

Status Optimization::Run() {
  ORT_RETURN_IF_ERROR(CheckDisabledNames());
  const OptimizationLevel level = options_.level;
  if (level == OptimizationLevel::kDisable) return Status::OK();
  Graph& graph = model_.graph();
  graph.ResolveOuterScope();
  Status status = ValidateGraph(graph);
  if (!status.ok()) return status.WithContext("graph invalid before optimization");
  interface_ = CaptureInterface(graph);
  bool fused_above_basic = false;
  bool previous_level_changed = false;
  for (OptimizationLevel current :
       {OptimizationLevel::kBasic, OptimizationLevel::kExtended, OptimizationLevel::kAll}) {
    if (static_cast<int>(current) > static_cast<int>(level)) break;
    if (static_cast<int>(current) <= static_cast<int>(options_.applied_level) &&
        std::none_of(passes_.begin(), passes_.end(),
                     [&](const auto& pass) { return Runs(*pass, current); })) {
      continue;
    }
    // Folding shape arithmetic into constants lets shape inference reach values it could not at
    // load time (e.g. after BERT's position-id Slice); fusions above basic need those shapes.
    if (previous_level_changed) InferModelTypes(model_);
    OptimizerStep level_step;
    level_step.kind = OptimizerStep::Kind::kLevel;
    level_step.name = OptimizationLevelName(current);
    level_step.level = current;
    level_step.start = Now();
    ORT_RETURN_IF_ERROR(RunLevel(current, level_step));
    fused_above_basic =
        fused_above_basic || (current != OptimizationLevel::kBasic && level_step.changed);
    previous_level_changed = level_step.changed;
    if (observer_) {
      level_step.end = Clock::now();
      observer_(level_step);
    }
  }
  // Fusions above the basic level leave behind constants only the replaced nodes read (shape
  // folding results, split weights); the basic dead-node pass drops them so that saved models
  // carry no unused initializers.
  const std::string cleanup = "eliminate_dead_nodes";
  for (const auto& pass : passes_) {
    if (!fused_above_basic || pass->name() != cleanup || context_.IsDisabled(cleanup)) continue;
    std::optional<Snapshot> snapshot = TakeSnapshot();
    Outcome outcome = Apply(*pass, 0);
    if (outcome.failure) {
      ORT_RETURN_IF_ERROR(RollBack(*pass, std::move(*outcome.failure), std::move(snapshot), 0,
                                   /*may_retry=*/false));
    }
  }
  ImportUsedDomains(model_.graph(), model_.opsets());
  return Status::OK();
}

}  // namespace

Status OptimizeGraph(Model& model, const OptimizerOptions& options,
                     std::span<IExecutionProvider* const> providers,
                     const OptimizerObserver& observer) {
  return Optimization(model, options, providers, observer).Run();
}

}  // namespace ort
