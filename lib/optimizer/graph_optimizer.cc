#include "lib/optimizer/graph_optimizer.h"

#include <algorithm>
#include <map>

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
#define ORT_RULE(Name) group.Add(Create##Name##Rule());
#define ORT_PASS(Name)  \
  group.Finish(passes); \
  passes.push_back(Create##Name());
#include "lib/optimizer/passes.inc"
#undef ORT_RULE_GROUP
#undef ORT_RULE
#undef ORT_PASS
  group.Finish(passes);
  return passes;
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

Status OptimizeGraph(Model& model, const OptimizerOptions& options,
                     std::span<IExecutionProvider* const> providers,
                     const OptimizerObserver& observer) {
  const std::vector<std::string> known = DisablePassNames();
  for (const auto& name : options.disabled_passes) {
    if (!std::binary_search(known.begin(), known.end(), name)) {
      return ORT_ERROR(kInvalidArgument, "cannot disable unknown optimizer pass '{}' (known: {})",
                       name, fmt::join(known, ", "));
    }
  }
  const OptimizationLevel level = options.level;
  if (level == OptimizationLevel::kDisable) return Status::OK();
  using Clock = std::chrono::steady_clock;
  const auto now = [&observer] { return observer ? Clock::now() : Clock::time_point(); };
  const auto passes = BuiltInPasses();
  std::map<std::string, int> rule_fires;
  std::vector<RuleFireCount> fired_rules;
  OptimizerContext context{providers, &options.disabled_passes, observer ? &rule_fires : nullptr};
  // Applies one pass, validates the graph when it changed and tells the observer.
  auto apply = [&](const GraphTransformer& pass, int iteration) -> Result<bool> {
    bool changed = false;
    rule_fires.clear();
    const Clock::time_point start = now();
    Status status = pass.Apply(model.graph(), context, changed);
    if (!status.ok()) return status.WithContext("optimizer pass '" + pass.name() + "'");
    if (changed) {
      model.graph().ResolveOuterScope();
      status = ValidateGraph(model.graph());
      if (!status.ok()) {
        return status.WithContext("graph invalid after optimizer pass '" + pass.name() + "'");
      }
      ORT_LOG_VERBOSE("optimizer pass '{}' changed the graph", pass.name());
    }
    if (observer) {
      const Clock::time_point end = Clock::now();
      fired_rules.clear();
      for (const auto& [rule, count] : rule_fires) fired_rules.push_back({rule, count});
      OptimizerStep step;
      step.name = pass.name();
      step.level = pass.level();
      step.iteration = iteration;
      step.changed = changed;
      step.start = start;
      step.end = end;
      step.rule_fires = fired_rules;
      observer(step);
    }
    return changed;
  };
  bool fused_above_basic = false;
  bool previous_level_changed = false;
  for (OptimizationLevel current :
       {OptimizationLevel::kBasic, OptimizationLevel::kExtended, OptimizationLevel::kAll}) {
    if (static_cast<int>(current) > static_cast<int>(level)) break;
    if (static_cast<int>(current) <= static_cast<int>(options.applied_level)) continue;
    // Folding shape arithmetic into constants lets shape inference reach values it could not at
    // load time (e.g. after BERT's position-id Slice); fusions above basic need those shapes.
    if (previous_level_changed) InferModelTypes(model);
    OptimizerStep level_step;
    level_step.kind = OptimizerStep::Kind::kLevel;
    level_step.name = OptimizationLevelName(current);
    level_step.level = current;
    level_step.start = now();
    for (int iteration = 0; iteration < kMaxIterationsPerLevel; ++iteration) {
      level_step.iteration = iteration + 1;
      bool level_changed = false;
      for (const auto& pass : passes) {
        if (pass->level() != current || context.IsDisabled(pass->name())) continue;
        if (!pass->ServesPreferred(providers)) continue;
        ORT_ASSIGN_OR_RETURN(bool changed, apply(*pass, iteration));
        level_changed = level_changed || changed;
      }
      level_step.changed = level_step.changed || level_changed;
      if (!level_changed) break;
    }
    fused_above_basic =
        fused_above_basic || (current != OptimizationLevel::kBasic && level_step.changed);
    previous_level_changed = level_step.changed;
    if (observer) {
      level_step.end = Clock::now();
      observer(level_step);
    }
  }
  // Fusions above the basic level leave behind constants only the replaced nodes read (shape
  // folding results, split weights); the basic dead-node pass drops them so that saved models
  // carry no unused initializers.
  const std::string cleanup = "eliminate_dead_nodes";
  for (const auto& pass : passes) {
    if (!fused_above_basic || pass->name() != cleanup || context.IsDisabled(cleanup)) continue;
    ORT_RETURN_IF_ERROR(apply(*pass, 0).status());
  }
  ImportUsedDomains(model.graph(), model.opsets());
  return Status::OK();
}

}  // namespace ort
